/*
 * note_info.h: the notes an offer can carry: what a buyer should know
 * before trusting its numbers (an unusual price, a best-case spot price,
 * host resources that are not the real host's ...), each with its token,
 * marker and text, and how a set of them is parsed and printed.
 *
 * An offer carries its notes as a bitmask (struct offer .notes): bit i
 * is note i of NOTE_INFO. The cache stores the mask, so the order of
 * NOTE_INFO is part of the cache format: add a note at the end, never
 * reorder. Which notes an offer earns is notes.h's job; this module
 * knows nothing of offers, so offer.c can test a note's bit without
 * depending on the modules that compute them. Pure: no I/O, no globals.
 */
#ifndef GPUCOST_NOTE_INFO_H
#define GPUCOST_NOTE_INFO_H

#include <stddef.h>
#include <stdint.h>

/* id, token (JSON/CSV, --help), table marker, one-line explanation */
#define NOTE_INFO(X)							\
	X(NOTE_PRICE_OUTLIER, "price-outlier", "!",			\
	    "price below 0.6x or above 1.67x the median of this instance "	\
	    "type across the provider's regions (3 or more)")		\
	X(NOTE_SPOT_NOT_CHEAPER, "spot-not-cheaper", "S",		\
	    "the spot price is not below the on-demand price")		\
	X(NOTE_SPOT_CHEAPEST_ZONE, "spot-cheapest-zone", "z",		\
	    "spot is the cheapest of the region's zones (a best case), "	\
	    "the zone is named where known")				\
	X(NOTE_HOST_ESTIMATED, "host-estimated", "h",			\
	    "vCPU and RAM are not the real host's (a catalog estimate)")	\
	X(NOTE_LOW_CONFIDENCE, "low-confidence", "?",			\
	    "its source is unconfirmed or says its figures are uncertain")	\
	X(NOTE_SINGLE_LISTING, "single-listing", "1",			\
	    "a marketplace machine: one of it exists, it cannot be "	\
	    "rented twice")						\
	X(NOTE_STALE, "stale", "o",					\
	    "the data is more than 30 days old (a provider's list price "	\
	    "stays its price until it changes it: check before you buy)")	\
	X(NOTE_HOST_LIGHT, "host-light", "c",				\
	    "fewer than 2 vCPUs or 8 GB of RAM per GPU: the host may not "	\
	    "keep the GPUs fed")					\
	X(NOTE_NOT_ON_DEMAND, "not-on-demand", "r",			\
	    "not sold on demand: only as spot or reserved capacity (GCP "	\
	    "Spot, DWS and reservations; AWS EC2 Capacity Blocks), so no "	\
	    "on-demand price or command")				\
	X(NOTE_DOUBTFUL_PRICE, "doubtful-price", "d",			\
	    "the source's on-demand price here cannot be pay-as-you-go "	\
	    "(at or below its spot price, or a committed-use rate): left "	\
	    "out")							\
	X(NOTE_INTERRUPTIBLE, "interruptible", "i",			\
	    "runs on consumer machines (SaladCloud): even the on-demand "	\
	    "price (High priority) is interrupted when a home machine "	\
	    "disconnects; spot is the Batch priority, for retryable work")	\
	X(NOTE_SPOT_HISTORY, "spot-history", "H",			\
	    "its spot price is from data more than 7 days old: history, "	\
	    "not an offer (spot prices move hourly), so no spot plan, "	\
	    "SAVE or total uses it unless --include-stale")

enum note {
#define X(id, token, marker, text) id,
	NOTE_INFO(X)
#undef X
	NOTE_COUNT
};

#define NOTE_BIT(n)	(1u << (n))
/* Notes older than this at query time are stale. */
#define NOTE_STALE_SECONDS	((int64_t)30 * 86400)
/* Outliers: below LOW/100 or above HIGH/100 of the median. */
#define NOTE_OUTLIER_LOW	60
#define NOTE_OUTLIER_HIGH	167
#define NOTE_OUTLIER_REGIONS	3

const char *note_token(enum note n);
const char *note_marker(enum note n);
const char *note_text(enum note n);
/* The note named token, or -1. */
int	note_parse(const char *token, size_t len);

/*
 * Parse tokens separated by sep ("price-outlier;stale") into a mask.
 * Returns 0, or -1 on an unknown token (bad points at it, bad_len long).
 */
int	notes_parse(const char *s, size_t len, char sep, unsigned *out,
	    const char **bad, size_t *bad_len);

/* Tokens of mask joined by sep into buf ("" for none); its length. */
size_t	notes_format(unsigned mask, char sep, char *buf, size_t size);
/* The markers of mask run together ("!z"), "" for none. */
size_t	notes_markers(unsigned mask, char *buf, size_t size);
/*
 * The legend of the markers in mask, for the line under a table:
 * "notes: ! price-outlier, o stale" ("" for none). Its length.
 */
size_t	notes_legend(unsigned mask, char *buf, size_t size);

#endif
