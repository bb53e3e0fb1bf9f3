/*
 * snapshot_info.h: where the built-in snapshot's prices came from, per
 * provider: its "# source PROVIDER DATE WHAT" header lines (written by
 * tools/make-snapshot.py), for --version and `gpucost providers`. Pure.
 */
#ifndef GPUCOST_SNAPSHOT_INFO_H
#define GPUCOST_SNAPSHOT_INFO_H

#include <stdbool.h>
#include <stddef.h>

struct snapshot_source {
	char	date[16];	/* "2026-05-20" as the source dates it */
	char	what[512];	/* the source, sanitised */
};

/*
 * The source of provider's rows in the snapshot text (len bytes).
 * Returns true and fills out, or false when the snapshot names none
 * (the provider has no snapshot rows).
 */
bool	snapshot_source_in(const char *text, size_t len, const char *provider,
	    struct snapshot_source *out);

/* snapshot_source_in() of the snapshot compiled into the program. */
bool	snapshot_source(const char *provider, struct snapshot_source *out);

/*
 * For a provider that publishes no price feed (provider.h's no_feed,
 * the why): "<why>: its offers are its list prices of DATE (WHAT)"
 * from the snapshot's source line, or "<why>" alone when the snapshot
 * has none. Its length.
 */
size_t	snapshot_list_note(const char *provider, const char *why, char *buf,
	    size_t size);

#endif
