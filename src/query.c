/* query.c: filter offers into sorted plans. */
#include "config.h"
#include "query.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "money.h"
#include "note_info.h"
#include "str.h"
#include "xalloc.h"

static uint64_t plan_fold_hash(struct plan *p);

void
query_plans(const struct offer *offers, size_t n, const struct offer_filter *f,
    enum sort_key key, bool reverse, struct plan **out, size_t *nout)
{
	struct plan_job *jobs = NULL;
	struct plan *plans;
	size_t i, k = 0, m = n > 0 ? n : 1;
	bool train = train_given(&f->train);
	int nodes;

	/*
	 * --train: each plan's job, in the same block after the plans, so
	 * the caller's free(plans) frees them and a plan moved by a sort
	 * keeps pointing at its own.
	 */
	_Static_assert(sizeof(struct plan) % _Alignof(struct plan_job) == 0,
	    "the jobs after the plans are aligned");
	plans = xreallocarray(NULL, m, sizeof *plans +
	    (train ? sizeof *jobs : 0));
	if (train)
		jobs = (struct plan_job *)(void *)(plans + m);
	for (i = 0; i < n; i++) {
		if (!offer_matches(f, &offers[i], &nodes))
			continue;
		cost_plan(&plans[k], &offers[i], nodes);
		plan_spot_rule(&plans[k], f);
		if (f->term != TERM_NONE)
			cost_plan_term(&plans[k], f->term);
		if (!plan_matches_price(f, &plans[k]))
			continue;
		if (train)
			cost_plan_train(&plans[k], &f->train, f->spot, &jobs[k]);
		/*
		 * Now, once: the TUI refolds copies of these plans at every
		 * keystroke, and hashing there was a third of its time.
		 */
		plan_fold_hash(&plans[k]);
		query_fold_start(&plans[k]);
		k++;
	}
	plan_sort(plans, k, key, reverse);
	*out = plans;
	*nout = k;
}

/*
 * Is p one marketplace machine (a single listing)? Two listings of one
 * instance type are two machines, not one product in two regions.
 */
static bool
fold_listing(const struct plan *p)
{
	return (p->offer->notes & NOTE_BIT(NOTE_SINGLE_LISTING)) != 0;
}

/*
 * Compare two plans on what makes them one row of a table (issue 45):
 * the provider's instance type, taken the same way (GPU, count, nodes),
 * whatever the region and its prices and availability there: a buyer
 * reads one row per product, the cheapest region first, and +N with the
 * range of the others. A marketplace listing is one machine: listings
 * fold only when they are the same in everything but the region.
 */
static int
fold_key_cmp(const struct plan *p, const struct plan *q)
{
	const struct offer *o = p->offer, *r = q->offer;
	bool pl = fold_listing(p), ql = fold_listing(q);
	int c;

	if ((c = strcmp(o->provider, r->provider)) != 0 ||
	    (c = strcmp(o->instance_type, r->instance_type)) != 0 ||
	    (c = strcmp(o->gpu, r->gpu)) != 0 ||
	    (c = strcmp(o->gpu_raw, r->gpu_raw)) != 0)
		return c;
	if (o->gpu_count != r->gpu_count)
		return o->gpu_count < r->gpu_count ? -1 : 1;
	if (p->nodes != q->nodes)
		return p->nodes < q->nodes ? -1 : 1;
	if (pl != ql)
		return pl ? 1 : -1;
	if (!pl)
		return 0;
	if (o->price != r->price)
		return o->price < r->price ? -1 : 1;
	if (o->spot_price != r->spot_price)
		return o->spot_price < r->spot_price ? -1 : 1;
	if (o->vram_gb != r->vram_gb)
		return o->vram_gb < r->vram_gb ? -1 : 1;
	if (o->interconnect != r->interconnect)
		return o->interconnect < r->interconnect ? -1 : 1;
	if (o->vcpus != r->vcpus)
		return o->vcpus < r->vcpus ? -1 : 1;
	if (o->ram_gb < r->ram_gb || o->ram_gb > r->ram_gb)
		return o->ram_gb < r->ram_gb ? -1 : 1;
	if (o->availability != r->availability)
		return o->availability < r->availability ? -1 : 1;
	return 0;
}

/* One plan to fold: a hash of its fold key, to sort by, and the plan. */
struct fold_entry {
	uint64_t	 hash;
	struct plan	*plan;
};

/* FNV-1a over the string s and its NUL, continuing from h. */
static uint64_t
fnv1a_str(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++ != '\0');
	return h;
}

/* A hash of what fold_key_cmp() compares: equal keys, equal hashes. */
static uint64_t
fold_hash(const struct plan *p)
{
	const struct offer *o = p->offer;
	uint64_t h = 0xcbf29ce484222325ULL;
	int64_t ints[10];
	size_t i, n = 3;

	h = fnv1a_str(h, o->provider);
	h = fnv1a_str(h, o->instance_type);
	h = fnv1a_str(h, o->gpu);
	h = fnv1a_str(h, o->gpu_raw);
	ints[0] = o->gpu_count;
	ints[1] = p->nodes;
	ints[2] = fold_listing(p);
	if (fold_listing(p)) {
		ints[3] = o->price;
		ints[4] = o->spot_price;
		ints[5] = o->vram_gb;
		ints[6] = o->interconnect;
		ints[7] = o->vcpus;
		ints[8] = o->availability;
		/* ram_gb by its value in MB: the compare is exact, a hash
		 * may merge. */
		ints[9] = (int64_t)(o->ram_gb * 1024);
		n = 10;
	}
	/* A word at a time: the numbers need mixing, not byte order. */
	for (i = 0; i < n; i++) {
		h ^= (uint64_t)ints[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	/* Never 0, which struct plan keeps for "not computed". */
	return h != 0 ? h : 1;
}

/* p's fold hash, computed once and kept in the plan. */
static uint64_t
plan_fold_hash(struct plan *p)
{
	if (p->fold_hash == 0)
		p->fold_hash = fold_hash(p);
	return p->fold_hash;
}

uint64_t
query_fold_hash(struct plan *p)
{
	return plan_fold_hash(p);
}

bool
query_fold_same(const struct plan *p, const struct plan *q)
{
	return p->fold_hash == q->fold_hash && fold_key_cmp(p, q) == 0;
}

/*
 * qsort: by hash, then by fold key (two keys may share a hash), then by
 * position in the array. Comparing hashes first keeps the string
 * compares to plans that fold: 100k offers in the TUI refold at every
 * keystroke, and four strcmp()s per comparison were half its time.
 */
static int
fold_cmp(const void *a, const void *b)
{
	const struct fold_entry *p = a, *q = b;
	int c;

	if (p->hash != q->hash)
		return p->hash < q->hash ? -1 : 1;
	if ((c = fold_key_cmp(p->plan, q->plan)) != 0)
		return c;
	return (p->plan > q->plan) - (p->plan < q->plan);
}

/* Widen [*low, *high] by the known price v. */
static void
range_add(int64_t *low, int64_t *high, int64_t v)
{
	if (v == MONEY_NONE)
		return;
	if (*low == MONEY_NONE || v < *low)
		*low = v;
	if (*high == MONEY_NONE || v > *high)
		*high = v;
}

void
query_fold_start(struct plan *leader)
{
	leader->other_regions = 0;
	leader->fold_low = leader->fold_high = MONEY_NONE;
	leader->fold_spot_low = leader->fold_spot_high = MONEY_NONE;
	range_add(&leader->fold_low, &leader->fold_high,
	    leader->price_gpu_hour);
	range_add(&leader->fold_spot_low, &leader->fold_spot_high,
	    leader->spot_gpu_hour);
}

void
query_fold_add(struct plan *leader, const struct plan *member)
{
	leader->other_regions++;
	range_add(&leader->fold_low, &leader->fold_high,
	    member->price_gpu_hour);
	range_add(&leader->fold_spot_low, &leader->fold_spot_high,
	    member->spot_gpu_hour);
}

void
query_fold_take(struct plan *leader, const struct plan *old)
{
	leader->other_regions += old->other_regions + 1;
	range_add(&leader->fold_low, &leader->fold_high, old->fold_low);
	range_add(&leader->fold_low, &leader->fold_high, old->fold_high);
	range_add(&leader->fold_spot_low, &leader->fold_spot_high,
	    old->fold_spot_low);
	range_add(&leader->fold_spot_low, &leader->fold_spot_high,
	    old->fold_spot_high);
}

size_t
query_fold_regions(struct plan *plans, size_t n)
{
	struct fold_entry *by;
	bool *gone;
	size_t i, j, k;

	for (i = 0; i < n; i++)
		query_fold_start(&plans[i]);
	if (n < 2)
		return n;
	by = xreallocarray(NULL, n, sizeof *by);
	gone = xreallocarray(NULL, n, sizeof *gone);
	for (i = 0; i < n; i++) {
		by[i].plan = &plans[i];
		by[i].hash = plan_fold_hash(&plans[i]);
		gone[i] = false;
	}
	qsort(by, n, sizeof *by, fold_cmp);
	/* The first of each run of equals is the earliest in plans[]. */
	for (i = 0; i < n; i = j)
		for (j = i + 1; j < n && by[i].hash == by[j].hash &&
		    fold_key_cmp(by[i].plan, by[j].plan) == 0; j++) {
			query_fold_add(by[i].plan, by[j].plan);
			gone[by[j].plan - plans] = true;
		}
	for (i = k = 0; i < n; i++)
		if (!gone[i])
			plans[k++] = plans[i];
	free(gone);
	free(by);
	return k;
}

/*
 * The classes query_fold_regions() folds by, for a caller that folds
 * subsets of the same plans many times (the TUI, at each keystroke):
 * the same hash sort and compare, numbered once.
 */
size_t
query_fold_classes(struct plan *plans, size_t n, uint32_t *cls)
{
	struct fold_entry *by;
	size_t i, j, k = 0;

	if (n == 0)
		return 0;
	by = xreallocarray(NULL, n, sizeof *by);
	for (i = 0; i < n; i++) {
		by[i].plan = &plans[i];
		by[i].hash = plan_fold_hash(&plans[i]);
	}
	qsort(by, n, sizeof *by, fold_cmp);
	for (i = 0; i < n; i = j, k++)
		for (j = i; j < n && by[i].hash == by[j].hash &&
		    fold_key_cmp(by[i].plan, by[j].plan) == 0; j++)
			cls[by[j].plan - plans] = (uint32_t)k;
	free(by);
	return k;
}

/* Steps of query_explain_empty(), in the order of the options. */
enum explain_step {
	EX_GPU,
	EX_COUNT,
	EX_VRAM,
	EX_INTERCONNECT,
	EX_FABRIC,
	EX_PROVIDER,
	EX_REGION,
	EX_VCPUS,
	EX_RAM,
	EX_SPOT,
	EX_PRICE,
	EX_AVAILABLE,
	EX_TEXT,
	EX_TERM,
	EX_TRAIN,
	EX_STEPS
};

/* Copy step s of f into g; false when f does not use it. */
static bool
explain_add(struct offer_filter *g, const struct offer_filter *f,
    enum explain_step s)
{
	switch (s) {
	case EX_GPU:
		memcpy(g->gpus, f->gpus, sizeof g->gpus);
		g->ngpus = f->ngpus;
		g->form = f->form;
		return f->ngpus > 0 || f->form != GPU_FORM_ANY;
	case EX_COUNT:
		g->count = f->count;
		g->multi_node = f->multi_node;
		g->nodes = f->nodes;
		return f->count > 0 || f->nodes > 0;
	case EX_VRAM:
		g->min_vram_gb = f->min_vram_gb;
		return f->min_vram_gb > 0;
	case EX_INTERCONNECT:
		g->interconnect = f->interconnect;
		return f->interconnect != IC_UNKNOWN;
	case EX_FABRIC:
		g->fabrics = f->fabrics;
		g->min_node_gbps = f->min_node_gbps;
		return f->fabrics != 0 || f->min_node_gbps > 0;
	case EX_PROVIDER:
		memcpy(g->providers, f->providers, sizeof g->providers);
		g->nproviders = f->nproviders;
		return f->nproviders > 0;
	case EX_REGION:
		memcpy(g->region, f->region, sizeof g->region);
		return f->region[0] != '\0';
	case EX_VCPUS:
		g->min_vcpus_per_gpu = f->min_vcpus_per_gpu;
		return f->min_vcpus_per_gpu > 0;
	case EX_RAM:
		g->min_ram_gb_per_gpu = f->min_ram_gb_per_gpu;
		return f->min_ram_gb_per_gpu > 0;
	case EX_SPOT:
		g->spot = f->spot;
		return f->spot;
	case EX_PRICE:
		g->max_price_gpu_hour = f->max_price_gpu_hour;
		return money_known(f->max_price_gpu_hour);
	case EX_AVAILABLE:
		g->available = f->available;
		return f->available;
	case EX_TEXT:
		memcpy(g->text, f->text, sizeof g->text);
		return f->text[0] != '\0';
	case EX_TERM:
		g->term = f->term;
		return f->term != TERM_NONE;
	case EX_TRAIN:
		g->train = f->train;
		return train_given(&f->train);
	case EX_STEPS:
		break;
	}
	return false;
}

/*
 * Does offer o give a plan that passes every test of g? A spot price
 * is judged as the query f judges it (its time, --include-stale): history
 * is no spot price (plan_spot_rule()).
 */
static bool
explain_match(const struct offer_filter *g, const struct offer_filter *f,
    const struct offer *o, struct plan *p)
{
	int nodes;

	if (!offer_matches(g, o, &nodes) ||
	    (g->spot && !offer_spot_current(f, o)))
		return false;
	cost_plan(p, o, nodes);
	plan_spot_rule(p, f);
	if (g->term != TERM_NONE)
		cost_plan_term(p, g->term);
	return plan_matches_price(g, p);
}

/* Append formatted text to buf at *len, never past size. */
static void	append(char *buf, size_t size, size_t *len, const char *fmt,
		    ...) __attribute__((format(__printf__, 4, 5)));

static void
append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len = *len + (size_t)k < size ? *len + (size_t)k : size - 1;
}

/* The option text of step s of f: " --gpu H100". */
static void
explain_option(const struct offer_filter *f, enum explain_step s, char *buf,
    size_t size, size_t *len)
{
	char money[32], clean[OFFER_NAME_MAX], fabric_name[64];
	size_t i;

	if (f->fabrics != 0)
		fabric_set_text(f->fabrics, fabric_name, sizeof fabric_name);
	else
		str_copy(fabric_name, sizeof fabric_name, "any");
	switch (s) {
	case EX_GPU:
		append(buf, size, len, " --gpu ");
		if (f->ngpus > 1 && strcmp(f->gpus[0]->family,
		    f->gpus[f->ngpus - 1]->family) == 0)
			append(buf, size, len, "%s", f->gpus[0]->family);
		else
			for (i = 0; i < f->ngpus; i++)
				append(buf, size, len, "%s%s", i ? "," : "",
				    f->gpus[i]->id);
		if (f->form != GPU_FORM_ANY)
			append(buf, size, len, "-%s", f->form == GPU_FORM_SXM ?
			    "SXM" : "PCIe");
		break;
	case EX_COUNT:
		if (f->count > 0)
			append(buf, size, len, " --count %d%s", f->count,
			    f->multi_node ? " --multi-node" : "");
		if (f->nodes > 0)
			append(buf, size, len, " --nodes %d", f->nodes);
		break;
	case EX_FABRIC:
		append(buf, size, len, " --fabric %s", fabric_name);
		if (f->min_node_gbps > 0)
			append(buf, size, len, " --min-node-gbps %d",
			    f->min_node_gbps);
		break;
	case EX_VRAM:
		append(buf, size, len, " --min-vram %d", f->min_vram_gb);
		break;
	case EX_INTERCONNECT:
		append(buf, size, len, " --interconnect %s",
		    interconnect_name(f->interconnect));
		break;
	case EX_PROVIDER:
		append(buf, size, len, " --provider ");
		for (i = 0; i < f->nproviders; i++)
			append(buf, size, len, "%s%s", i ? "," : "",
			    f->providers[i]);
		break;
	case EX_REGION:
		/* Typed text: no control bytes into a message. */
		str_sanitize(clean, sizeof clean, f->region, strlen(f->region));
		append(buf, size, len, " --region '%s'", clean);
		break;
	case EX_VCPUS:
		append(buf, size, len, " --min-vcpu-per-gpu %d",
		    f->min_vcpus_per_gpu);
		break;
	case EX_RAM:
		append(buf, size, len, " --min-ram-per-gpu %d",
		    f->min_ram_gb_per_gpu);
		break;
	case EX_SPOT:
		append(buf, size, len, " --spot");
		break;
	case EX_PRICE:
		money_format(money, sizeof money, f->max_price_gpu_hour, 0);
		append(buf, size, len, " --max-price %s", money);
		break;
	case EX_AVAILABLE:
		append(buf, size, len, " --available");
		break;
	case EX_TEXT:
		str_sanitize(clean, sizeof clean, f->text, strlen(f->text));
		append(buf, size, len, " search '%s'", clean);
		break;
	case EX_TERM:
		committed_term_name(money, sizeof money, f->term);
		append(buf, size, len, " --term %s", money);
		break;
	case EX_TRAIN:
		train_text(&f->train, money, sizeof money);
		append(buf, size, len, " --train %s", money);
		break;
	case EX_STEPS:
		break;
	}
}

/*
 * The providers that publish committed prices (their adapters read
 * them): those a refresh can bring a --term answer from.
 */
static const char *const term_publishers[] = { "aws", "azure", "gcp" };
#define NPUBLISHERS	(sizeof term_publishers / sizeof term_publishers[0])

/* Does offer o have a committed price of term (months or TERM_ANY)? */
static bool
has_term(const struct offer *o, int term)
{
	size_t i;

	for (i = 0; i < o->ncommitted; i++)
		if (term == TERM_ANY || o->committed[i].months == term)
			return true;
	return false;
}

/*
 * Why --term leaves none (issue 44): which providers have prices of the
 * term in the cache (for other offers than those asked), and which
 * publish them but have none until a refresh. Never "try another term"
 * to --term any.
 */
static void
explain_term(const struct offer *offers, size_t n,
    const struct offer_filter *f, const char *opt, char *buf, size_t size,
    size_t *len)
{
	const char *have[NPUBLISHERS + 8];
	size_t nhave = 0, nneed = 0, i, j;
	bool need[NPUBLISHERS];

	for (i = 0; i < n; i++) {
		if (!has_term(&offers[i], f->term))
			continue;
		for (j = 0; j < nhave; j++)
			if (strcmp(have[j], offers[i].provider) == 0)
				break;
		if (j == nhave && nhave < sizeof have / sizeof have[0])
			have[nhave++] = offers[i].provider;
	}
	for (i = 0; i < NPUBLISHERS; i++) {
		/* Only those --provider allows. */
		need[i] = f->nproviders == 0;
		for (j = 0; j < f->nproviders; j++)
			if (strcmp(f->providers[j], term_publishers[i]) == 0)
				need[i] = true;
		for (j = 0; j < nhave; j++)
			if (strcmp(have[j], term_publishers[i]) == 0)
				need[i] = false;
		if (need[i])
			nneed++;
	}
	append(buf, size, len, "has a committed price of %s", opt);
	if (nhave > 0) {
		append(buf, size, len, "; the cache has such prices from");
		for (j = 0; j < nhave; j++)
			append(buf, size, len, "%s %s", j == 0 ? "" : ",",
			    have[j]);
		append(buf, size, len, ", for other offers");
	} else
		append(buf, size, len, "; the cache has no committed price%s",
		    f->term == TERM_ANY ? "" : " of that term");
	if (nneed > 0) {
		append(buf, size, len, "; ");
		for (i = 0, j = 0; i < NPUBLISHERS; i++)
			if (need[i])
				append(buf, size, len, "%s%s", j++ == 0 ? "" :
				    j == nneed ? " and " : ", ",
				    term_publishers[i]);
		append(buf, size, len, " publish%s them: 'gpucost refresh "
		    "--provider ", nneed == 1 ? "es" : "");
		for (i = 0, j = 0; i < NPUBLISHERS; i++)
			if (need[i])
				append(buf, size, len, "%s%s", j++ == 0 ? "" :
				    ",", term_publishers[i]);
		append(buf, size, len, "' fetches them");
	}
	if (nneed == 0 && nhave == 0)
		append(buf, size, len, ": of the providers asked, none "
		    "publishes them (aws, azure and gcp do)");
	if (nhave > 0)
		append(buf, size, len, "%s", f->term == TERM_ANY ?
		    "; or widen the other filters" :
		    "; or widen the other filters, or try another term");
}

/* Why step s left none of the offers `before` kept, and what to do. */
static void
explain_reason(const struct offer *offers, size_t n, const bool *before,
    const struct offer_filter *f, enum explain_step s, const char *opt,
    char *buf, size_t size, size_t *len)
{
	bool counts[65] = { false }, known = false, snapshot = false, first;
	int64_t cheapest = MONEY_NONE, price;
	double most_vram = 0;
	struct offer_filter g;
	char money[32];
	struct plan p;
	size_t i, history = 0;
	int c;

	for (i = 0; i < n; i++) {
		if (!before[i])
			continue;
		/* The plan each would be without --train's memory rule. */
		g = *f;
		train_init(&g.train);
		if (offer_matches(&g, &offers[i], &c) &&
		    plan_vram_gb(&offers[i], c) > most_vram)
			most_vram = plan_vram_gb(&offers[i], c);
		if (offers[i].gpu_count > 0 && offers[i].gpu_count <= 64)
			counts[offers[i].gpu_count] = true;
		if (offers[i].availability != AV_UNKNOWN)
			known = true;
		if (offers[i].source == SRC_SNAPSHOT)
			snapshot = true;
		if (money_known(offers[i].spot_price) &&
		    !offer_spot_current(f, &offers[i]))
			history++;
		cost_plan(&p, &offers[i], 1);
		plan_spot_rule(&p, f);
		price = f->spot ? p.spot_gpu_hour : p.price_gpu_hour;
		if (money_known(price) && (!money_known(cheapest) ||
		    price < cheapest))
			cheapest = price;
	}
	switch (s) {
	case EX_GPU:
		append(buf, size, len, "matches %s: 'gpucost gpus' lists the "
		    "catalogue, 'gpucost refresh' fetches live offers", opt);
		break;
	case EX_COUNT:
		if (f->multi_node || f->nodes > 0) {
			/* The fabric rule, not the count, is the usual cause. */
			append(buf, size, len, "gives %s%d GPUs on nodes that "
			    "can be placed together on RDMA or TCPX/TCPXO (and "
			    "at least 2 GPUs a node unless --nodes): --fabric "
			    "any lifts both; counts offered:", f->count > 0 ?
			    "" : "plans of ", f->count > 0 ? f->count :
			    f->nodes);
		} else
			append(buf, size, len, "has %d GPUs in one instance; "
			    "counts offered:", f->count);
		for (c = 1, first = true; c <= 64; c++)
			if (counts[c]) {
				append(buf, size, len, "%s %d", first ? "" : ",",
				    c);
				first = false;
			}
		if (!f->multi_node)
			append(buf, size, len, " (--multi-node combines "
			    "instances)");
		break;
	case EX_VRAM:
		append(buf, size, len, "matches %s: lower it", opt);
		break;
	case EX_INTERCONNECT:
		append(buf, size, len, "is known to match %s: drop it", opt);
		break;
	case EX_FABRIC:
		append(buf, size, len, "is known to have %s: the fabric table "
		    "(data/fabric.tsv) does not name it for these types", opt);
		break;
	case EX_PROVIDER:
		append(buf, size, len, "matches %s: widen or drop it", opt);
		break;
	case EX_REGION:
		append(buf, size, len, "matches %s: try a continent (europe, "
		    "north-america, asia ...) or drop it", opt);
		break;
	case EX_VCPUS:
	case EX_RAM:
		append(buf, size, len, "is known to match %s: lower it", opt);
		break;
	case EX_SPOT:
		/* Spot prices there are, but all of them history. */
		if (history > 0)
			append(buf, size, len, "has a current spot price: the "
			    "%zu spot price%s here %s from data more than 7 days "
			    "old, history and not offers (spot prices move "
			    "hourly): 'gpucost refresh' fetches current ones; "
			    "--include-stale ranks by the old ones", history,
			    history == 1 ? "" : "s", history == 1 ? "is" :
			    "are");
		else
			append(buf, size, len, "has a spot price: drop --spot");
		break;
	case EX_PRICE:
		if (money_known(cheapest)) {
			/* Rounded as the table shows it. */
			money_format_fixed(money, sizeof money, cheapest,
			    MONEY_HOUR_DECIMALS);
			append(buf, size, len, "matches %s; the cheapest is %s "
			    "USD per GPU-hour%s: raise it", opt, money,
			    f->spot ? " (spot)" : "");
		} else
			append(buf, size, len, "has a %sprice: drop --max-price",
			    f->spot ? "spot " : "");
		break;
	case EX_AVAILABLE:
		if (!known && snapshot)
			append(buf, size, len, "is known to be available: the "
			    "snapshot has no availability, run 'gpucost "
			    "refresh'");
		else if (!known)
			append(buf, size, len, "is known to be available: "
			    "these providers publish no availability, drop "
			    "--available");
		else
			append(buf, size, len, "is available now: drop "
			    "--available or try later");
		break;
	case EX_TEXT:
		append(buf, size, len, "matches the %s: change it", opt);
		break;
	case EX_TERM:
		explain_term(offers, n, f, opt, buf, size, len);
		break;
	case EX_TRAIN:
		append(buf, size, len, "has the GPU memory for %s: its "
		    "training state needs %.0f GB (%d bytes a parameter for "
		    "mixed-precision Adam, plus %.0f %% headroom), the largest "
		    "plan holds %.0f GB: more GPUs (--count, --multi-node) or "
		    "a smaller model", opt, train_memory_gb(&f->train),
		    TRAIN_BYTES_PER_PARAM, (TRAIN_HEADROOM - 1) * 100,
		    most_vram);
		break;
	case EX_STEPS:
		break;
	}
}

size_t
query_explain_empty(const struct offer *offers, size_t n,
    const struct offer_filter *f, char *buf, size_t size)
{
	struct offer_filter g;
	struct plan p;
	bool *before;
	size_t i, k = n, len = 0, left, total = n;
	enum explain_step s;
	char applied[512], opt[256];
	size_t alen = 0, olen;

	if (size == 0)
		return 0;
	buf[0] = applied[0] = '\0';
	if (n == 0) {
		append(buf, size, &len, "the cache has no offers: run "
		    "'gpucost refresh'");
		return len;
	}
	before = xreallocarray(NULL, n, sizeof *before);
	for (i = 0; i < n; i++)
		before[i] = true;
	offer_filter_init(&g);
	for (s = 0; s < EX_STEPS; s++) {
		if (!explain_add(&g, f, s))
			continue;
		for (i = 0, left = 0; i < n; i++)
			if (before[i] && explain_match(&g, f, &offers[i], &p))
				left++;
		if (left == 0) {
			if (alen == 0)
				append(buf, size, &len, "none of the %zu cached "
				    "offers ", total);
			else
				append(buf, size, &len, "%zu offer%s match%s%s; "
				    "none ", k, k == 1 ? "" : "s",
				    k == 1 ? "es" : "", applied);
			olen = 0;
			explain_option(f, s, opt, sizeof opt, &olen);
			explain_reason(offers, n, before, f, s, opt + 1, buf,
			    size, &len);
			break;
		}
		for (i = 0; i < n; i++)
			if (before[i] && !explain_match(&g, f, &offers[i], &p))
				before[i] = false;
		k = left;
		explain_option(f, s, applied, sizeof applied, &alen);
	}
	free(before);
	return len;
}

bool
query_train_short(const struct offer *offers, size_t n,
    const struct offer_filter *f)
{
	struct offer_filter g = *f;
	struct plan p;
	size_t i;

	if (!train_given(&f->train))
		return false;
	train_init(&g.train);
	for (i = 0; i < n; i++)
		if (explain_match(&g, f, &offers[i], &p))
			return true;
	return false;
}

bool
query_nodes_walk(const struct offer_filter *f, enum sort_key key, bool reverse)
{
	return key == SORT_GPU_PRICE && !reverse && f->term == TERM_NONE &&
	    (f->nodes > 1 ||
	    (f->multi_node && f->nodes == 0 && f->count > 0));
}
