/*
 * query.h: turn a list of offers into sorted plans for a filter.
 *
 * The CLI loads only the candidate offers (db_query) and the TUI loads
 * everything once, but both call query_plans() on what they have, so
 * the same filter gives the same results in both faces. Pure.
 */
#ifndef GPUCOST_QUERY_H
#define GPUCOST_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

/*
 * Plans for every offer of offers[0..n) that matches f, sorted by key
 * (reverse flips it). *out points into a new array the caller frees;
 * each plan borrows its offer from `offers`. With --train (f->train),
 * each plan's job (p->job, cost_plan_train()) is in the same block,
 * after the plans: freed with them.
 */
void	query_plans(const struct offer *offers, size_t n,
	    const struct offer_filter *f, enum sort_key key, bool reverse,
	    struct plan **out, size_t *nout);

/*
 * Fold the plans of one instance type (same provider, instance type,
 * GPU, count and nodes; a marketplace listing only with a listing equal
 * in all but the region) into the first of them in the given order, the
 * cheapest when sorted by price: its other_regions counts the rest, and
 * fold_low/fold_high (fold_spot_low/high) the range of their prices per
 * GPU-hour. The order is kept; returns how many plans remain. Tables,
 * the TUI and MCP fold; CSV and JSON keep one row per offer.
 */
size_t	query_fold_regions(struct plan *plans, size_t n);

/*
 * The fold's accounting, for a caller that folds by itself (the TUI):
 * leader starts a row (+0, its own prices the range); member, of the
 * same class and after it in order, is counted and widens the range.
 */
void	query_fold_start(struct plan *leader);
void	query_fold_add(struct plan *leader, const struct plan *member);
/* leader, of old's class and before it in order, takes old's row. */
void	query_fold_take(struct plan *leader, const struct plan *old);

/*
 * Number plans by what query_fold_regions() compares: cls[i] == cls[j]
 * exactly when plans i and j would fold together. Returns the number of
 * classes (each cls[i] is below it).
 */
size_t	query_fold_classes(struct plan *plans, size_t n, uint32_t *cls);

/*
 * What folding compares, one plan at a time, for a caller that groups
 * plans itself (the TUI's first screen, tui/model.c): p's fold hash
 * (computed once, kept in the plan), and whether p and q fold together.
 */
uint64_t query_fold_hash(struct plan *p);
bool	query_fold_same(const struct plan *p, const struct plan *q);

/*
 * Why filter f matches none of offers[0..n) (the whole cache): apply
 * its tests one at a time, in the order of the options in gpucost(1),
 * and write into buf one line naming the first test that leaves no
 * offer, how many the tests before it kept, and what to do next ("12
 * offers match --gpu H100 --count 8; none is known to be available:
 * the snapshot has no availability, run 'gpucost refresh'"). Returns
 * the length; 0 when f does match something.
 */
size_t	query_explain_empty(const struct offer *offers, size_t n,
	    const struct offer_filter *f, char *buf, size_t size);

/*
 * Did --train's memory rule alone leave f no plan of offers[0..n)? True
 * when some offer gives a plan without it (the caller knows that with
 * it none does): the answer is a refusal, not a miss.
 */
bool	query_train_short(const struct offer *offers, size_t n,
	    const struct offer_filter *f);

/*
 * Can the first plans of f, sorted by key, come from db_query_nodes()'s
 * walks (issue 29)? Plans of several nodes (--nodes N > 1, or
 * --multi-node with --count) by price per GPU-hour (a plan's is its
 * offer's), no --term (tested on committed prices attached after the
 * read); --fabric any too (the walk of offers that can be taken several
 * times holds the unknown fabrics).
 */
bool	query_nodes_walk(const struct offer_filter *f, enum sort_key key,
	    bool reverse);

#endif
