/*
 * output_fields.c: the machine-format fields (FIELD_INFO), each plan's
 * value of each, the value helpers (money, ratios, times) and a watch's
 * change as text and as fields. Below every writer: it calls none.
 */
#include "config.h"
#include "output_fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "cost.h"
#include "launch.h"
#include "money.h"
#include "notes.h"
#include "region.h"
#include "str.h"

#define FIELD_INFO(X)							\
	X(F_PROVIDER,		"provider")				\
	X(F_INSTANCE,		"instance_type")			\
	X(F_REGION,		"region")				\
	X(F_GPU,		"gpu")					\
	X(F_GPU_RAW,		"gpu_raw")				\
	X(F_GPU_COUNT,		"gpu_count")				\
	X(F_NODES,		"nodes")				\
	X(F_TOTAL_GPUS,		"total_gpus")				\
	X(F_VRAM,		"vram_gb")				\
	X(F_INTERCONNECT,	"interconnect")				\
	X(F_VCPUS,		"vcpus")				\
	X(F_RAM,		"ram_gb")				\
	X(F_PRICE,		"price_hour")				\
	X(F_PRICE_GPU,		"price_gpu_hour")			\
	X(F_SPOT,		"spot_hour")				\
	X(F_SPOT_GPU,		"spot_gpu_hour")			\
	X(F_SAVINGS,		"spot_savings_pct")			\
	X(F_PFLOP,		"usd_per_pflop_hour")			\
	X(F_AVAILABILITY,	"availability")				\
	X(F_INTERRUPTION,	"spot_interruption")			\
	X(F_RELIABILITY,	"reliability")				\
	X(F_SOURCE,		"source")				\
	X(F_FETCHED_AT,		"fetched_at")				\
	X(F_KEY,		"key")					\
	X(F_TOTAL,		"total_cost")				\
	X(F_SPOT_TOTAL,		"total_spot_cost")			\
	X(F_NOTES,		"notes")				\
	X(F_NODE_KEYS,		"node_keys")				\
	X(F_INTER_NODE,		"inter_node")				\
	X(F_SPOT_ZONE,		"spot_zone")				\
	X(F_CURRENCY,		"currency")				\
	X(F_PRICE_ORIGINAL,	"price_original")			\
	X(F_FORM,		"form")					\
	X(F_COUNTRY,		"country")				\
	X(F_CONTINENT,		"continent")				\
	X(F_VCPUS_PER_GPU,	"vcpus_per_gpu")			\
	X(F_RAM_PER_GPU,	"ram_gb_per_gpu")			\
	X(F_LAUNCH,		"launch")				\
	X(F_LAUNCH_SPOT,	"launch_spot")				\
	X(F_ZONES,		"zones")				\
	X(F_QUOTA,		"quota")				\
	X(F_VERTEX,		"vertex_training")			\
	X(F_LAUNCH_VERTEX,	"launch_vertex")				\
	X(F_FABRIC,		"fabric")				\
	X(F_NODE_GBPS,		"node_gbps")				\
	X(F_GPUDIRECT_RDMA,	"gpudirect_rdma")			\
	X(F_PLACEMENT,		"placement")				\
	X(F_GPUS_PER_NODE,	"gpus_per_node")			\
	X(F_PLAN_TYPE,		"plan_type")				\
	X(F_CLUSTER_SETUP,	"cluster_setup")			\
	X(F_COMMITTED,		"committed")				\
	X(F_TERM,		"term")					\
	X(F_TERM_HOUR,		"term_hour")				\
	X(F_TERM_GPU,		"term_gpu_hour")			\
	X(F_TERM_SAVINGS,	"term_savings_pct")			\
	X(F_TERM_TOTAL,		"total_term_cost")			\
	X(F_PRICE_FROM,		"price_from")			\
	X(F_REGIONS,		"regions")				\
	X(F_GPU_HOURS,		"gpu_hours")				\
	X(F_JOB_HOURS,		"job_hours")				\
	X(F_JOB_COST,		"job_cost")				\
	X(F_SPOT_JOB_COST,	"spot_job_cost")			\
	X(F_EGRESS_COST,	"egress_cost")				\
	X(F_JOB_SCALING,	"job_scaling")				\
	X(F_SPOT_JOB_HOURS,	"spot_job_hours")			\
	X(F_JOB_PER_BTOK,	"job_cost_per_1b_tokens")		\
	X(F_JOB_TERM,		"job_term")				\
	X(F_JOB_TERM_COST,	"job_term_cost")			\
	X(F_JOB_TERM_COMMITMENT, "job_term_commitment")

enum field {
#define X(id, name) id,
	FIELD_INFO(X)
#undef X
	FIELD_COUNT
};

const char *const output_fields[] = {
#define X(id, name) name,
	FIELD_INFO(X)
#undef X
	NULL
};

size_t
output_iso8601(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL)
		return (size_t)snprintf(buf, size, "1970-01-01T00:00:00Z");
	return strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool
output_field_shown(size_t i, const struct output_opts *opts)
{
	if (i == F_TOTAL || i == F_SPOT_TOTAL)
		return opts->hours >= 0;
	/* The term's fields are null without --term; its total, as the
	 * others, needs --hours. */
	if (i == F_TERM_TOTAL)
		return opts->hours >= 0;
	/* The job's fields need --train. */
	if (i >= F_GPU_HOURS && i <= F_JOB_TERM_COMMITMENT)
		return opts->train != NULL;
	return true;
}

/* Money as an exact decimal number, or NULL. */
static enum field_kind
money_value(int64_t micro, char *buf, size_t size)
{
	return output_money(micro, false, buf, size);
}

enum field_kind
output_money(int64_t micro, bool human, char *buf, size_t size)
{
	if (!money_known(micro))
		return FIELD_NULL;
	if (human)
		column_money(micro, buf, size);
	else
		money_format(buf, size, micro, 2);
	return FIELD_NUMBER;
}

/* A ratio rounded for print, or NULL. */
static enum field_kind
ratio_value(double v, int decimals, char *buf, size_t size)
{
	if (isnan(v) || isinf(v))
		return FIELD_NULL;
	snprintf(buf, size, "%.*f", decimals, v);
	if (strcmp(buf, "-0.0") == 0 || strcmp(buf, "-0.0000") == 0)
		memmove(buf, buf + 1, strlen(buf));
	return FIELD_NUMBER;
}

static enum field_kind
string_value(const char *s, char *buf, size_t size)
{
	str_copy(buf, size, s);
	return FIELD_STRING;
}

/* Text a launch function wrote into the buffer; empty is unknown. */
static enum field_kind
text_value(size_t len)
{
	return len > 0 ? FIELD_STRING : FIELD_NULL;
}

static enum field_kind
bool_value(bool v, char *buf, size_t size)
{
	str_copy(buf, size, v ? "true" : "false");
	return FIELD_BOOL;
}

static enum field_kind
int_value(long long v, char *buf, size_t size)
{
	snprintf(buf, size, "%lld", v);
	return FIELD_NUMBER;
}

size_t
output_value_size(const struct plan *p)
{
	size_t nodes = p->nodes > 0 ? (size_t)p->nodes : 1;

	size_t size = 256 + nodes * OFFER_KEY_MAX;

	return size > OUTPUT_VALUE_MAX ? size : OUTPUT_VALUE_MAX;
}

/*
 * Where the offer can be started, of the places --region asked (every
 * one without): its region, or for one price in every region ("all")
 * its provider's regions of data/any_region.tsv that match.
 */
static enum field_kind
regions_value(const struct offer *o, const char *asked, char *buf,
    size_t size)
{
	const struct region_any *r;
	struct region_query q;
	size_t n, i, len = 0, k;
	bool every;

	buf[0] = '\0';
	if (!region_is_any(o->region)) {
		str_copy(buf, size, o->region);
		return FIELD_LIST;
	}
	if (region_query_parse(asked != NULL ? asked : "", &q) < 0)
		return FIELD_LIST;
	/* No --region, or one "all" itself matches: every region. */
	every = q.kind == RQ_ANY || ((q.kind == RQ_NAME ||
	    q.kind == RQ_GLOB) && region_text_match(q.kind, q.text, o->region));
	n = region_any_list(o->provider, &r);
	for (i = 0; i < n; i++) {
		if (!every && !region_query_match(&q, o->provider,
		    r[i].region))
			continue;
		k = strlen(r[i].region);
		if (len + k + 2 > size)
			break;
		if (len > 0)
			buf[len++] = OUTPUT_LIST_SEP;
		memcpy(buf + len, r[i].region, k + 1);
		len += k;
	}
	return FIELD_LIST;
}

/* The key of every node, OUTPUT_LIST_SEP between them. */
static enum field_kind
node_keys_value(const struct plan *p, char *buf, size_t size)
{
	size_t len = 0, n = strlen(p->offer->key);
	int i;

	buf[0] = '\0';
	for (i = 0; i < p->nodes && len + n + 2 <= size; i++) {
		if (i > 0)
			buf[len++] = OUTPUT_LIST_SEP;
		memcpy(buf + len, p->offer->key, n);
		len += n;
		buf[len] = '\0';
	}
	return FIELD_LIST;
}

/*
 * The offer's committed prices as a JSON array of objects, for all the
 * plan's nodes: [{"kind": "reservation", "term": "1y", "upfront":
 * "all", "price_hour": 69.863014, "price_gpu_hour": 8.732877,
 * "upfront_usd": 612000.00}, ...]; "[]" when it has none.
 */
static enum field_kind
committed_value(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const struct committed *c;
	char term[16], hour[32], gpu[32], upfront[32];
	size_t len = 0, i;
	int n;

	len = str_copy(buf, size, "[");
	for (i = 0; i < o->ncommitted; i++) {
		c = &o->committed[i];
		committed_term_name(term, sizeof term, c->months);
		money_format(hour, sizeof hour, money_mul(c->price_hour,
		    p->nodes), 2);
		money_format(gpu, sizeof gpu, cost_per_gpu_hour(c->price_hour,
		    o->gpu_count), 2);
		money_format(upfront, sizeof upfront, money_mul(c->upfront,
		    p->nodes), 2);
		n = snprintf(buf + len, size - len, "%s{\"kind\": \"%s\", "
		    "\"term\": \"%s\", \"upfront\": \"%s\", "
		    "\"price_hour\": %s, \"price_gpu_hour\": %s, "
		    "\"upfront_usd\": %s}", i > 0 ? ", " : "",
		    committed_kind_name(c->kind), term,
		    committed_upfront_name(c->upfront_kind), hour, gpu,
		    upfront);
		if (n < 0 || (size_t)n >= size - len - 1) {
			buf[len] = '\0';	/* never a cut object */
			break;
		}
		len += (size_t)n;
	}
	if (len + 2 <= size)
		memcpy(buf + len, "]", 2);
	return FIELD_JSON;
}

/* A host figure per GPU to 2 decimals, trailing zeros dropped; 0 NULL. */
static enum field_kind
per_gpu_value(double v, char *buf, size_t size)
{
	if (!(v > 0))
		return FIELD_NULL;
	snprintf(buf, size, "%.10g", round(v * 100) / 100);
	return FIELD_NUMBER;
}

/* "reservation 1y all": a committed price's kind, term and upfront. */
static enum field_kind
term_value(const struct committed *c, char *buf, size_t size)
{
	size_t len;

	if (c == NULL)
		return FIELD_NULL;
	snprintf(buf, size, "%s ", committed_kind_name(c->kind));
	len = strlen(buf);
	committed_term_name(buf + len, size - len, c->months);
	len = strlen(buf);
	snprintf(buf + len, size - len, " %s",
	    committed_upfront_name(c->upfront_kind));
	return FIELD_STRING;
}

/* --train's fields of a plan's job (NULL without one). */
static enum field_kind
job_value(enum field f, const struct plan_job *job, char *buf, size_t size)
{
	if (job == NULL)
		return FIELD_NULL;
	switch (f) {
	case F_GPU_HOURS:
		return ratio_value(job->gpu_hours, 6, buf, size);
	case F_JOB_HOURS:
		return ratio_value(job->hours, 6, buf, size);
	case F_JOB_COST:
		return money_value(job->cost, buf, size);
	case F_SPOT_JOB_COST:
		return money_value(job->spot_cost, buf, size);
	case F_EGRESS_COST:
		return money_value(job->egress, buf, size);
	case F_JOB_SCALING:
		return ratio_value(job->scaling, 2, buf, size);
	case F_SPOT_JOB_HOURS:
		return ratio_value(job->spot_hours, 6, buf, size);
	case F_JOB_PER_BTOK:
		return money_value(job->per_btok, buf, size);
	case F_JOB_TERM:
		return term_value(job->term, buf, size);
	case F_JOB_TERM_COST:
		return money_value(job->term_cost, buf, size);
	case F_JOB_TERM_COMMITMENT:
		return money_value(job->term_commitment, buf, size);
	default:
		break;
	}
	return FIELD_NULL;
}

enum field_kind
output_field_value(size_t i, const struct plan *p,
    const struct output_opts *opts, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const char *name, *country, *continent;

	buf[0] = '\0';
	switch ((enum field)i) {
	case F_PROVIDER:
		return string_value(o->provider, buf, size);
	case F_INSTANCE:
		return string_value(o->instance_type, buf, size);
	case F_REGION:
		return string_value(o->region, buf, size);
	case F_GPU:
		if (o->gpu[0] == '\0')
			return FIELD_NULL;
		return string_value(o->gpu, buf, size);
	case F_GPU_RAW:
		return string_value(o->gpu_raw, buf, size);
	case F_GPU_COUNT:
		return int_value(o->gpu_count, buf, size);
	case F_NODES:
		return int_value(p->nodes, buf, size);
	case F_TOTAL_GPUS:
		return int_value(p->total_gpus, buf, size);
	case F_VRAM:
		if (o->vram_gb <= 0)
			return FIELD_NULL;
		return int_value(o->vram_gb, buf, size);
	case F_INTERCONNECT:
		return string_value(interconnect_name(plan_link(p)), buf,
		    size);
	case F_VCPUS:
		if (o->vcpus <= 0)
			return FIELD_NULL;
		return int_value(o->vcpus, buf, size);
	case F_RAM:
		if (!(o->ram_gb > 0))
			return FIELD_NULL;
		snprintf(buf, size, "%.10g", o->ram_gb);
		return FIELD_NUMBER;
	case F_PRICE:
		return money_value(p->price_hour, buf, size);
	case F_PRICE_GPU:
		return money_value(p->price_gpu_hour, buf, size);
	case F_SPOT:
		return money_value(p->spot_hour, buf, size);
	case F_SPOT_GPU:
		return money_value(p->spot_gpu_hour, buf, size);
	case F_SAVINGS:
		return ratio_value(p->spot_savings_pct, 1, buf, size);
	case F_PFLOP:
		return ratio_value(p->usd_per_pflop_hour, 4, buf, size);
	case F_AVAILABILITY:
		return string_value(availability_name(o->availability), buf,
		    size);
	case F_INTERRUPTION:
		name = spot_interruption_name(o->spot_interruption);
		if (name == NULL)
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_RELIABILITY:
		if (o->reliability < 0)
			return FIELD_NULL;
		return ratio_value(o->reliability, 4, buf, size);
	case F_SOURCE:
		return string_value(source_name(o->source), buf, size);
	case F_FETCHED_AT:
		output_iso8601(o->fetched_at, buf, size);
		return FIELD_STRING;
	case F_KEY:
		return string_value(o->key, buf, size);
	case F_TOTAL:
		return money_value(cost_total(p->price_hour, opts->hours), buf,
		    size);
	case F_SPOT_TOTAL:
		return money_value(cost_total(p->spot_hour, opts->hours), buf,
		    size);
	case F_NOTES:
		notes_format(notes_at(o, opts->now), OUTPUT_LIST_SEP, buf,
		    size);
		return FIELD_LIST;
	case F_NODE_KEYS:
		return node_keys_value(p, buf, size);
	case F_INTER_NODE:
		if ((name = cost_inter_node(p)) == NULL)
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_SPOT_ZONE:
		if (o->spot_zone[0] == '\0')
			return FIELD_NULL;
		return string_value(o->spot_zone, buf, size);
	case F_CURRENCY:
		return string_value(o->currency[0] != '\0' ? o->currency :
		    "USD", buf, size);
	case F_PRICE_ORIGINAL:
		/* A USD source's own price is the instance price itself. */
		if (!money_known(o->price_original) &&
		    (o->currency[0] == '\0' || strcmp(o->currency, "USD") == 0))
			return money_value(o->price, buf, size);
		return money_value(o->price_original, buf, size);
	case F_FORM:
		if ((name = gpu_form_name(offer_form(o))) == NULL)
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_COUNTRY:
	case F_CONTINENT:
		region_locate(o->provider, o->region, &country, &continent);
		name = i == F_COUNTRY ? country : continent;
		if (name[0] == '\0')
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_VCPUS_PER_GPU:
		return per_gpu_value(offer_vcpus_per_gpu(o), buf, size);
	case F_RAM_PER_GPU:
		return per_gpu_value(offer_ram_gb_per_gpu(o), buf, size);
	case F_LAUNCH:
		return text_value(launch_command(p, buf, size));
	case F_LAUNCH_SPOT:
		return text_value(launch_spot_command(p, buf, size));
	case F_ZONES:
		return text_value(launch_zones(o, buf, size));
	case F_QUOTA:
		return text_value(launch_quota(o, buf, size));
	case F_VERTEX:
		switch (launch_vertex_training(o)) {
		case VERTEX_YES:
			return bool_value(true, buf, size);
		case VERTEX_NO:
			return bool_value(false, buf, size);
		case VERTEX_UNKNOWN:
			break;
		}
		return FIELD_NULL;
	case F_LAUNCH_VERTEX:
		return text_value(launch_vertex_command(p, buf, size));
	case F_FABRIC:
		if ((name = fabric_kind_name(offer_fabric_kind(o))) == NULL)
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_NODE_GBPS:
		if (offer_node_gbps(o) <= 0)
			return FIELD_NULL;
		return int_value(offer_node_gbps(o), buf, size);
	case F_GPUDIRECT_RDMA:
		if (o->fabric == NULL || o->fabric->gdr == GDR_UNKNOWN)
			return FIELD_NULL;
		return bool_value(o->fabric->gdr == GDR_YES, buf, size);
	case F_PLACEMENT:
		if (o->fabric == NULL || (name =
		    fabric_placement_name(o->fabric->placement)) == NULL)
			return FIELD_NULL;
		return string_value(name, buf, size);
	case F_GPUS_PER_NODE:
		return int_value(o->gpu_count, buf, size);
	case F_PLAN_TYPE:
		return string_value(plan_type_name(p), buf, size);
	case F_CLUSTER_SETUP:
		return text_value(launch_cluster_setup(p, buf, size));
	case F_COMMITTED:
		return committed_value(p, buf, size);
	case F_TERM:
		return term_value(p->term, buf, size);
	case F_TERM_HOUR:
		return money_value(p->term_hour, buf, size);
	case F_TERM_GPU:
		return money_value(p->term_gpu_hour, buf, size);
	case F_TERM_SAVINGS:
		return ratio_value(p->term_savings_pct, 1, buf, size);
	case F_TERM_TOTAL:
		if (p->term == NULL)
			return FIELD_NULL;
		return money_value(cost_term_total(p->term_hour,
		    p->term->months, opts->hours), buf, size);
	case F_PRICE_FROM:
		/* Per instance-hour, as the offer's own price_original. */
		return money_value(o->price_from, buf, size);
	case F_GPU_HOURS:
	case F_JOB_HOURS:
	case F_JOB_COST:
	case F_SPOT_JOB_COST:
	case F_EGRESS_COST:
	case F_JOB_SCALING:
	case F_SPOT_JOB_HOURS:
	case F_JOB_PER_BTOK:
	case F_JOB_TERM:
	case F_JOB_TERM_COST:
	case F_JOB_TERM_COMMITMENT:
		return job_value((enum field)i, p->job, buf, size);
	case F_REGIONS:
		return regions_value(o, opts->region, buf, size);
	case FIELD_COUNT:
		break;
	}
	return FIELD_NULL;
}

/* The change from c->previous to c->price in percent, rounded. */
static long
change_pct(const struct output_change *c)
{
	return lround(((double)c->price - (double)c->previous) * 100.0 /
	    (double)c->previous);
}

static bool
change_has_prices(const struct output_change *c)
{
	return c->previous_at > 0 && money_known(c->previous) &&
	    c->previous > 0 && money_known(c->price);
}

size_t
output_change_text(const struct output_change *c, char *buf, size_t size)
{
	char was[32], now[32];
	size_t len;

	len = (size_t)snprintf(buf, size, "%s", c->change);
	if (len >= size)
		return size > 0 ? size - 1 : 0;
	if (change_has_prices(c) && c->previous != c->price) {
		column_money(c->previous, was, sizeof was);
		column_money(c->price, now, sizeof now);
		len += (size_t)snprintf(buf + len, size - len,
		    " $%s -> $%s, %+ld%%", was, now, change_pct(c));
	} else if (c->previous_at > 0 &&
	    c->previous_availability != AV_AVAILABLE &&
	    strcmp(c->change, "available-again") == 0)
		len += (size_t)snprintf(buf + len, size - len, " (was %s)",
		    availability_name(c->previous_availability));
	return len < size ? len : size - 1;
}

/* The change as the machine formats' three fields (NULL: empty). */
enum field_kind
output_change_field(const struct output_change *c, size_t i, char *buf,
    size_t size)
{
	buf[0] = '\0';
	switch (i) {
	case 0:
		return string_value(c->change, buf, size);
	case 1:
		if (c->previous_at == 0)
			return FIELD_NULL;
		return money_value(c->previous, buf, size);
	case 2:
		if (!change_has_prices(c))
			return FIELD_NULL;
		snprintf(buf, size, "%.1f", round(((double)c->price -
		    (double)c->previous) * 1000.0 / (double)c->previous) / 10);
		return FIELD_NUMBER;
	}
	return FIELD_NULL;
}

const char *const output_change_fields[] = {
	"change", "previous_price_gpu_hour", "difference_pct", NULL
};

