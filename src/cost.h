/*
 * cost.h: the cost model. Pure arithmetic on micro-USD: price per
 * GPU-hour, spot savings, price-performance, multi-node plans and job
 * totals. No I/O, no state.
 */
#ifndef GPUCOST_COST_H
#define GPUCOST_COST_H

#include <stdint.h>

#include "offer.h"
#include "train.h"

/* price (micro-USD per instance-hour) / gpu_count, rounded; NONE stays. */
int64_t	cost_per_gpu_hour(int64_t price_hour, int gpu_count);

/*
 * Percentage saved by spot over on-demand: 100 * (1 - spot / price).
 * Negative when spot costs more (GCP publishes a few such prices: the
 * model reports them as they are, it never invents a saving). NAN when
 * either price is unknown or price is 0.
 */
double	cost_spot_savings_pct(int64_t price_hour, int64_t spot_hour);

/*
 * USD per dense BF16 PFLOP-hour: what an hour of one PFLOP/s of this GPU
 * costs, price_gpu_hour / (tflops / 1000). NAN when unknown.
 */
double	cost_usd_per_pflop_hour(int64_t price_gpu_hour, double bf16_tflops);

/* Total for hours (>= 0) at price_hour; MONEY_NONE if unknown. */
int64_t	cost_total(int64_t price_hour, double hours);

/*
 * Fill a plan for nodes instances of offer o (borrowed; must outlive the
 * plan). The model is looked up from o->gpu; the PCIe TFLOPS figure is
 * used for PCIe offers.
 */
void	cost_plan(struct plan *p, const struct offer *o, int nodes);

/*
 * The plan's committed price for term (TERM_NONE: none; months or
 * TERM_ANY): the offer's lowest effective price of that term, for all
 * nodes and per GPU-hour, and what it saves against on-demand. A plan
 * without one keeps term NULL, prices MONEY_NONE.
 */
void	cost_plan_term(struct plan *p, int term);

/*
 * What a job of hours costs on a term of months: a term is paid for
 * whole (months x 730 hours) however few hours the job takes, and a
 * job longer than the term takes more terms. MONEY_NONE if unknown.
 */
int64_t	cost_term_total(int64_t term_hour, int months, double hours);

/*
 * What joins the nodes of a multi-node plan: its fabric's kind from
 * data/fabric.tsv ("efa", "infiniband", "roce", "tcpxo", "tcpx",
 * "ethernet"), else "network"; NULL for a plan of one node.
 */
const char *cost_inter_node(const struct plan *p);

/*
 * The scaling efficiency of the nodes of p: 1 for one node; past one, by
 * the fabric between them (data/fabric.tsv): RDMA (EFA, InfiniBand,
 * RoCE, a cluster product) at 200 Gb/s a GPU or more 1.00 (what the
 * MFU figures were measured on), 50 to 200 0.90, less or unknown 0.80;
 * GPUDirect-TCPXO 0.85, -TCPX 0.75; plain Ethernet or unknown 0.60.
 * *why (may be NULL) gets a short phrase naming the class.
 */
double	cost_scaling(const struct plan *p, const char **why);
/*
 * cost_scaling()'s classes, for the assumptions an answer prints: class
 * i's efficiency and phrase; -1 past the last (i counts from 0, "one
 * node" first).
 */
double	cost_scaling_class(size_t i, const char **why);

#define COST_SPOT_DEFAULT_MONTHLY 0.25	/* share interrupted a month */
#define COST_RESTART_HOURS	0.25	/* a node back, the checkpoint read */

/*
 * Spot interruptions per node-hour of o: AWS's Spot Advisor bucket (the
 * share of instances interrupted in a month: the middle of <5 %, 5-10 %,
 * 10-15 %, 15-20 %, and 25 % for >20 %), else COST_SPOT_DEFAULT_MONTHLY,
 * the worst bucket's; as a rate over a 730-hour month. *known says
 * which.
 */
double	cost_spot_rate(const struct offer *o, bool *known);

/*
 * Expected wall-clock hours of a job of hours on spot: each interruption
 * (rate per hour of the whole plan) loses half a checkpoint interval of
 * work and COST_RESTART_HOURS, so hours / (1 - rate x lost); never below
 * hours. NAN when the job would never finish (rate x lost >= 1).
 */
double	cost_spot_hours(double hours, double rate, double checkpoint_hours);

/*
 * The job t on plan p into job, and p->job = job (which must outlive the
 * plan's use): hours, costs, the best term where one is cheaper for the
 * job (p->term, --term's, when set), egress; total ranks by spot with
 * spot.
 */
void	cost_plan_train(struct plan *p, const struct train *t, bool spot,
	    struct plan_job *job);

#endif
