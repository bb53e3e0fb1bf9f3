/*
 * launch.h: how to rent an offer: the provider's command that starts it
 * (on demand and spot), the zones it can start in, the quotas to check
 * first, and whether Vertex AI custom training offers its GPU there.
 *
 * Pure: a plan in, text out. Every value taken from provider data is
 * single-quoted for the shell (a ' inside becomes '\''), after control
 * characters are stripped, so no provider text can end a command or
 * start another. What only the user knows is an unquoted upper-case
 * placeholder: IMAGE, KEY, PROJECT (and a few provider-specific ones,
 * listed in gpucost(1)).
 *
 * GCP's names for its GPUs, zones and Vertex AI regions are
 * gcp_catalog.h's (data/gcp_zones.tsv, data/vertex_training.tsv).
 */
#ifndef GPUCOST_LAUNCH_H
#define GPUCOST_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "gcp_catalog.h"
#include "offer.h"

/* Any command, with room to spare: the longest is AWS's 32 EFA
 * interfaces of a p5 (about 3,000 bytes). */
#define LAUNCH_CMD_MAX		4096
#define LAUNCH_LIST_MAX		512	/* zones, quota */


/*
 * Each writes a NUL-terminated text into buf and returns its length, or
 * 0 (with buf "") when there is nothing to say: no spot launch, no
 * known zones, no quota, no Vertex command. A command that would not
 * fit in size is never cut short: it is 0 too.
 */
size_t	launch_command(const struct plan *p, char *buf, size_t size);
size_t	launch_spot_command(const struct plan *p, char *buf, size_t size);
/* Zones, separated by single spaces ("us-central1-a us-central1-b"). */
size_t	launch_zones(const struct offer *o, char *buf, size_t size);
/* "label=NAME" pairs separated by spaces ("on-demand=NVIDIA_H100_GPUS"). */
size_t	launch_quota(const struct offer *o, char *buf, size_t size);
size_t	launch_vertex_command(const struct plan *p, char *buf, size_t size);

/* Vertex AI training in the offer's region (gcp_catalog.h's answer). */
enum gcp_vertex launch_vertex_training(const struct offer *o);

/*
 * For a plan of several nodes: how to place them together and set up
 * the fabric between them, from data/fabric.tsv -- the placement step
 * (AWS cluster placement group, GCP compact placement policy and the
 * TCPX/TCPXO or RoCE networks, Azure scale set, OCI cluster network,
 * RunPod's console) and the NCCL settings the fabric needs. Steps are
 * separated by "; ". 0 for a plan of one node or an unknown fabric.
 */
size_t	launch_cluster_setup(const struct plan *p, char *buf, size_t size);

/*
 * Which row of an answer (plans[0..n), in its order) `gpucost launch KEY`
 * means. KEY is, in this order of trial: an offer's key exactly (JSON's
 * "key"); an instance type as the table's INSTANCE column shows it (case
 * ignored): that type's first row, which is the row the table shows for
 * it, its other regions folded into it; or TYPE/REGION: that type's row
 * in that region, or, for an offer priced the same in every region
 * (region "all"), one of the provider's own regions (region.h), which
 * the command then names (pick->region points into key). Rows of two
 * providers matching alike are LAUNCH_AMBIGUOUS (pick->other names the
 * second provider): --provider chooses.
 */
enum launch_match {
	LAUNCH_NONE,
	LAUNCH_FOUND,
	LAUNCH_AMBIGUOUS
};

struct launch_pick {
	size_t		 row;
	const char	*region;	/* the region KEY chose, or NULL */
	const char	*other;		/* LAUNCH_AMBIGUOUS: another provider */
	bool		 by_type;	/* KEY is an instance type[/region] */
};

enum launch_match launch_find(const struct plan *plans, size_t n,
	    const char *key, struct launch_pick *pick);

/*
 * For a KEY that names no offer: the keys and instance types of
 * offers[0..n) nearest to it (a typo of one), else up to three that start
 * with it, as "a, b or c" into buf. Returns how many (0: buf "").
 */
size_t	launch_suggest(const struct offer *offers, size_t n, const char *key,
	    char *buf, size_t size);

/*
 * Quote s for a POSIX shell into buf: '...' with control characters
 * stripped and each ' written '\''. Returns the length, or 0 when it
 * does not fit (buf is then "").
 */
size_t	launch_shell_quote(char *buf, size_t size, const char *s);

#endif
