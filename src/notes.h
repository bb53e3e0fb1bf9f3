/*
 * notes.h: the notes an offer earns (the notes themselves, their
 * tokens and markers are note_info.h's, included here).
 *
 * Most notes are stored with the offer (set by an adapter, the snapshot
 * or notes_mark() when a provider's offers are written); `stale`
 * depends on the time of the query and `host-light` on the host
 * figures, and notes_at() adds them. Pure: no I/O, no globals.
 */
#ifndef GPUCOST_NOTES_H
#define GPUCOST_NOTES_H

#include <stddef.h>
#include <stdint.h>

#include "note_info.h"

struct offer;

/*
 * The notes of o at time now: its stored notes plus `stale` and
 * `host-light`, which follow from the time and the offer's host.
 */
unsigned notes_at(const struct offer *o, int64_t now);

/*
 * The notes computed over one provider's whole set of offers when it is
 * written (a refresh, the snapshot seed): price-outlier and
 * spot-not-cheaper are set or cleared on every offer; other notes stay.
 */
void	notes_mark(struct offer *v, size_t n);

#endif
