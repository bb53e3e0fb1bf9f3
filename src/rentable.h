/*
 * rentable.h: what can be rented, and what only looks like it.
 *
 * The rules that keep an answer to offers a buyer can act on, shared by
 * the snapshot loader, the refresh and every read of the cache (so an
 * old cache obeys them too):
 *
 *  - retired sizes and providers (data/retired.tsv, compiled in): their
 *    offers never show, a retired provider is never refreshed;
 *  - host figures beyond any real machine are unknown, never facts;
 *  - a marketplace listing (one host's ask: noted single-listing) older
 *    than RENTABLE_MARKET_SECONDS is a market reference, not an offer:
 *    answers leave it out unless asked (--include-stale);
 *  - a spot price is an offer only where a command rents at it: the
 *    providers of spot_launch_providers[] (launch.c writes their spot
 *    commands, and only theirs); every other spot price is dropped.
 *
 * Pure: no I/O, no state.
 */
#ifndef GPUCOST_RENTABLE_H
#define GPUCOST_RENTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A row of data/retired.tsv. */
struct retired {
	const char	*provider;
	const char	*instance_type;	/* "*": the whole provider */
	const char	*date;		/* YYYY-MM-DD */
	const char	*source;
};

extern const struct retired retired_table[];
extern const size_t retired_count;

/* The retirement of the whole provider, or NULL. */
const struct retired *retired_provider(const char *provider);
/* The retirement of this size (or of its whole provider), or NULL. */
const struct retired *retired_size(const char *provider,
	    const char *instance_type);

/*
 * Host figures per GPU beyond these are no real machine: the largest
 * real ones are 880 GB of RAM with one GPU (Azure NV36adms_A10_v5) and
 * 256 vCPUs with one GPU (Vast.ai hosts renting one GPU of a dual-socket
 * server); clouds' largest is 64 (AWS g4dn/g5/g6/g6e.16xlarge).
 * offer_host_bounds() (offer.h) applies them.
 */
#define RENTABLE_VCPUS_PER_GPU_MAX	256
#define RENTABLE_RAM_GB_PER_GPU_MAX	1024

/* A marketplace listing this old is a market reference. */
#define RENTABLE_MARKET_SECONDS	((int64_t)86400)

/*
 * A spot price this old is history, not an offer (issue 44 item 7): an
 * on-demand list price holds until the provider changes it, a spot price
 * moves hourly. Such a spot price is shown (noted spot-history) and never
 * used -- no spot plan, no SAVE, no spot total, no --spot match or rank,
 * no --term comparison -- unless --include-stale asks (offer.h:
 * offer_spot_current(), plan_spot_rule()). Every spot price of the
 * built-in snapshot is.
 */
#define RENTABLE_SPOT_SECONDS	((int64_t)7 * 86400)

/*
 * The providers whose offers are each one host's ask (Vast.ai), NULL
 * ended: the only ones whose offers can be market references (their
 * adapters and snapshot rows note them single-listing). The cache's SQL
 * judges age per provider on them (db_filter.c).
 */
extern const char *const marketplace_providers[];

/*
 * Is an offer with these notes, fetched at fetched_at, a market
 * reference at time now (a single-listing older than a day)? The offer
 * functions of offer.h (offer_market_reference(), offers_vet() ...) are
 * built on these; this module knows no struct offer, so it sits below
 * offer.c.
 */
bool	rentable_market_reference(unsigned notes, int64_t fetched_at,
	    int64_t now);

/*
 * The providers whose spot (preemptible, interruptible) capacity has a
 * command that rents it, NULL ended (issue 48: the table and launch
 * agree on spot). The one list both sides read: offer_spot_vet()
 * (offer.h) drops the spot price of every other provider's offer before
 * it is written and when an older cache is read, and launch.c writes a
 * spot command for these and no other. Vultr is not one: whether a
 * preemptible deploy is a create-time flag is unknown, and no source
 * but its plan list's hourly_cost_preemptible names a price. RunPod
 * ended spot pods (issue 44). CoreWeave's spot is a Spot Node Pool,
 * SaladCloud's the Batch priority.
 */
extern const char *const spot_launch_providers[];

/* Is provider one of spot_launch_providers[]? */
bool	rentable_spot_launch(const char *provider);

/*
 * Is a spot price fetched at fetched_at history at time now (more than
 * RENTABLE_SPOT_SECONDS old)? now 0 applies no age rule. The cache's SQL
 * tests the same on fetched_at (db_filter.c: fetched_at >= now - 7 days
 * is current).
 */
bool	rentable_spot_stale(int64_t fetched_at, int64_t now);

#endif
