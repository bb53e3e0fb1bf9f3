/*
 * mcp_offers.c: MCP's find_offers (issue 48): the rows a table shows,
 * asked of answer_get() as the table asks (one row per instance type,
 * +N its other regions), each row in the short shape an agent needs.
 * cmd_mcp.c runs it in the child that runs the other tools' commands.
 */
#include "config.h"
#include "mcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "answer.h"
#include "cli.h"
#include "columns.h"
#include "db.h"
#include "err.h"
#include "footer.h"
#include "output.h"
#include "train.h"
#include "xalloc.h"

/*
 * The fields of an offer by default, in order: what an agent compares
 * and needs to act (gpucost(1) MCP lists them). Unknown values are left
 * out; the term's fields come with a term, the totals with hours, the
 * job's with train. The spot command is launch_command's (often
 * longer than the rest of a row).
 */
static const char *const short_fields[] = {
	"key", "provider", "instance_type", "region", "gpu", "gpu_count",
	"nodes", "total_gpus", "price_hour", "price_gpu_hour", "spot_hour",
	"spot_gpu_hour", "term", "term_hour", "term_gpu_hour", "total_cost",
	"total_spot_cost", "total_term_cost", "gpu_hours", "job_hours",
	"job_cost", "spot_job_hours", "spot_job_cost", "egress_cost",
	"job_scaling", "job_cost_per_1b_tokens", "job_term", "job_term_cost",
	"job_term_commitment", "availability", "notes", "launch",
	"cluster_setup"
};
#define NSHORT	(sizeof short_fields / sizeof short_fields[0])

/* Between nodes: asked for, or a plan of several. */
static const char *const fabric_fields[] = { "fabric", "node_gbps" };

/* The index in output_fields[] of name (a name of the list above). */
static size_t
field_index(const char *name)
{
	size_t i;

	for (i = 0; output_fields[i] != NULL; i++)
		if (strcmp(output_fields[i], name) == 0)
			break;
	return i;
}

/* A FIELD_LIST value (OUTPUT_LIST_SEP between items) as an array. */
static cJSON *
list_value(char *items)
{
	cJSON *arr = cJSON_CreateArray();
	char *p = items, *sep;

	while (*p != '\0') {
		if ((sep = strchr(p, OUTPUT_LIST_SEP)) != NULL)
			*sep = '\0';
		cJSON_AddItemToArray(arr, cJSON_CreateString(p));
		if (sep == NULL)
			break;
		p = sep + 1;
	}
	return arr;
}

/*
 * Field f of plan p into obj as gpucost's JSON writes it; an unknown
 * value (or an empty list) as null when keep_null, else not at all.
 */
static void
add_field(cJSON *obj, size_t f, const struct plan *p,
    const struct output_opts *opts, char *val, size_t size, bool keep_null)
{
	enum field_kind kind;

	if (output_fields[f] == NULL || !output_field_shown(f, opts))
		return;
	kind = output_field_value(f, p, opts, val, size);
	if (kind == FIELD_LIST && val[0] == '\0' && !keep_null)
		return;
	switch (kind) {
	case FIELD_NULL:
		if (keep_null)
			cJSON_AddNullToObject(obj, output_fields[f]);
		break;
	case FIELD_NUMBER:
	case FIELD_BOOL:
	case FIELD_JSON:
		cJSON_AddRawToObject(obj, output_fields[f], val);
		break;
	case FIELD_LIST:
		cJSON_AddItemToObject(obj, output_fields[f], list_value(val));
		break;
	case FIELD_STRING:
		cJSON_AddStringToObject(obj, output_fields[f], val);
		break;
	}
}

/* A [low, high] price range per GPU-hour, when it is known. */
static void
add_range(cJSON *obj, const char *name, int64_t low, int64_t high)
{
	char buf[64];
	cJSON *arr;

	if (output_money(low, false, buf, sizeof buf) == FIELD_NULL)
		return;
	arr = cJSON_AddArrayToObject(obj, name);
	cJSON_AddItemToArray(arr, cJSON_CreateRaw(buf));
	output_money(high, false, buf, sizeof buf);
	cJSON_AddItemToArray(arr, cJSON_CreateRaw(buf));
}

/*
 * What find_offers adds to gpucost's fields, each after the field it
 * belongs with (after, just added): the row's folded regions after its
 * region, their price ranges after its prices, the age after the notes;
 * in the short shape also the fabric after the counts (fabric true).
 */
static void
add_extra(cJSON *obj, const char *after, const struct answer *a, size_t i,
    const struct output_opts *opts, bool fabric, char *val, size_t size)
{
	const struct plan *p = &a->plans[i];
	char age[16];
	cJSON *list;
	size_t k;

	if (strcmp(after, "region") == 0 && p->other_regions > 0) {
		cJSON_AddNumberToObject(obj, "other_regions", p->other_regions);
		list = cJSON_AddArrayToObject(obj, "other_region_list");
		for (k = a->region_at[i]; k < a->region_at[i + 1]; k++)
			cJSON_AddItemToArray(list,
			    cJSON_CreateString(a->region[k]));
	} else if (strcmp(after, "total_gpus") == 0 && fabric) {
		for (k = 0; k < sizeof fabric_fields / sizeof fabric_fields[0];
		    k++)
			add_field(obj, field_index(fabric_fields[k]), p, opts,
			    val, size, false);
	} else if (strcmp(after, "price_gpu_hour") == 0 &&
	    p->other_regions > 0)
		add_range(obj, "price_gpu_hour_range", p->fold_low,
		    p->fold_high);
	else if (strcmp(after, "spot_gpu_hour") == 0 && p->other_regions > 0)
		add_range(obj, "spot_gpu_hour_range", p->fold_spot_low,
		    p->fold_spot_high);
	else if (strcmp(after, "notes") == 0) {
		column_age(opts->now - p->offer->fetched_at, age, sizeof age);
		cJSON_AddStringToObject(obj, "age", age);
	}
}

/*
 * Row i of answer a as an offer of find_offers: the short shape, or
 * (all_fields) every field of gpucost's JSON, unknown ones null.
 */
static cJSON *
offer_object(const struct answer *a, size_t i, const struct output_opts *opts,
    bool all_fields, bool fabric)
{
	const struct plan *p = &a->plans[i];
	cJSON *obj = cJSON_CreateObject();
	size_t size = output_value_size(p), f, k;
	char *val = xmalloc(size);

	if (all_fields)
		for (f = 0; output_fields[f] != NULL; f++) {
			add_field(obj, f, p, opts, val, size, true);
			add_extra(obj, output_fields[f], a, i, opts, false,
			    val, size);
		}
	else
		for (k = 0; k < NSHORT; k++) {
			add_field(obj, field_index(short_fields[k]), p, opts,
			    val, size, false);
			add_extra(obj, short_fields[k], a, i, opts, fabric,
			    val, size);
		}
	free(val);
	return obj;
}

/* The footer's data age (footer_age_text()) without its "data age: ". */
static void
add_data_age(cJSON *doc, const struct answer *a, int64_t now)
{
	static const char lead[] = "data age: ";
	char text[2048];

	if (footer_age_text(a->plans, a->nplans, now, text, sizeof text) == 0)
		return;
	cJSON_AddStringToObject(doc, "data_age",
	    strncmp(text, lead, sizeof lead - 1) == 0 ?
	    text + sizeof lead - 1 : text);
}

/* train: the run, and what the job's figures assume, in one line. */
static void
add_train(cJSON *doc, const struct train *t)
{
	cJSON *obj = cJSON_AddObjectToObject(doc, "train");
	char buf[1024];

	train_text(t, buf, sizeof buf);
	cJSON_AddStringToObject(obj, "run", buf);
	output_train_assumptions(t, buf, sizeof buf);
	cJSON_AddStringToObject(obj, "assumptions", buf);
}

int
mcp_offers_exec(const struct cli_options *o, bool all_fields)
{
	struct output_opts opts;
	struct footer foot;
	struct question q;
	struct answer a;
	struct err err;
	struct db *db;
	cJSON *doc, *offers;
	char *s;
	size_t i;
	int rc = EXIT_DATA;

	if (cli_retired(&o->filter))
		return EXIT_USAGE;
	/* The table's question, its folded regions named. */
	cli_question(o, &q);
	q.limit = o->limit > 0 ? (size_t)o->limit : 0;
	q.fold = true;
	q.regions = true;
	q.counts = true;
	q.status = true;	/* which providers have no data */
	answer_init(&a);
	footer_init(&foot);
	if ((db = cli_open_cache(o)) == NULL)
		goto done;
	if (answer_get(db, &q, &a, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	memset(&opts, 0, sizeof opts);
	opts.format = OUTPUT_JSON;
	opts.hours = o->hours;
	opts.now = q.filter.now;
	opts.sort = o->sort;
	opts.term = o->filter.term;
	opts.fabric_filter = o->filter.fabrics != 0 ||
	    o->filter.min_node_gbps > 0;
	opts.train = train_given(&q.filter.train) ? &q.filter.train : NULL;
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "sort", sort_key_name(o->sort));
	if (o->reverse)
		cJSON_AddTrueToObject(doc, "reverse");
	if (opts.train != NULL)
		add_train(doc, opts.train);
	if (a.nrows != ANSWER_UNKNOWN)
		cJSON_AddNumberToObject(doc, "rows", (double)a.nrows);
	if (a.matched != ANSWER_UNKNOWN)
		cJSON_AddNumberToObject(doc, "matched", (double)a.matched);
	offers = cJSON_AddArrayToObject(doc, "offers");
	for (i = 0; i < a.nplans; i++)
		cJSON_AddItemToArray(offers, offer_object(&a, i, &opts,
		    all_fields, opts.fabric_filter || a.plans[i].nodes > 1));
	add_data_age(doc, &a, q.filter.now);
	s = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	if (s == NULL || fputs(s, stdout) < 0 || fflush(stdout) != 0) {
		free(s);
		cli_error("writing the answer");
		goto done;
	}
	free(s);
	/*
	 * The messages, on stderr, as the query's footer says them, less
	 * what the answer holds (data_age; rows and matched), a line each.
	 */
	if (a.nplans == 0) {
		if (!cli_explain_empty(db, o, &q.filter, &a))
			footer_no_data(&foot, &q.filter, a.status, a.nstatus);
		/* Plans there were, but none holds the run: a refusal. */
		rc = cli_train_refused(db, &q.filter) ? EXIT_USAGE :
		    EXIT_NO_MATCH;
	} else {
		footer_market(&foot, a.plans, a.nplans, a.left_out, false,
		    q.filter.now);
		footer_no_data(&foot, &q.filter, a.status, a.nstatus);
		footer_health(&foot, db, a.plans, a.nplans, q.filter.now);
		rc = EXIT_OK;
	}
	s = footer_text(&foot, 0);
	fputs(s, stderr);
	free(s);
done:
	footer_done(&foot);
	answer_done(&a);
	db_close(db);
	return rc;
}
