/*
 * snapshot.h: the dated price snapshot shipped in data/snapshot.tsv and
 * compiled into the binary, so the first run answers offline.
 *
 * Format (tab-separated, '#' comments, a fixed header line):
 *   provider key instance_type region gpu gpu_raw gpu_count vram_gb
 *   interconnect vcpus ram_gb price spot_price availability as_of notes
 *   spot_zone committed
 * Prices are decimal USD per instance-hour, empty when not published;
 * as_of is the source's date (YYYY-MM-DD) and becomes fetched_at;
 * committed holds the committed prices, "kind:term:upfront:price_hour
 * [:upfront_usd]" joined with ';' (data/README.md). A header without
 * committed (before issue 44) is read too.
 */
#ifndef GPUCOST_SNAPSHOT_H
#define GPUCOST_SNAPSHOT_H

#include <stddef.h>

struct err;
struct offer_list;

/* Generated from data/snapshot.tsv (src/snapshot_data.c). */
extern const char snapshot_tsv[];
extern const size_t snapshot_tsv_len;
/* The text's cksum, "CRC-LENGTH": one build's snapshot from another's. */
extern const char snapshot_tsv_version[];

/*
 * Parse snapshot text (len bytes, named `name` in messages) and append
 * the offers of `provider` (every provider when NULL) to out. Returns 0,
 * or -1 with "name:LINE: what" in err; out then holds what was parsed
 * before the bad line.
 */
int	snapshot_parse(const char *text, size_t len, const char *name,
	    const char *provider, struct offer_list *out, struct err *err);

/* snapshot_parse() of the embedded snapshot. */
int	snapshot_load(const char *provider, struct offer_list *out,
	    struct err *err);

#endif
