/* output_json.c: the JSON document of a query. */
#include "config.h"
#include "output_json.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "db.h"
#include "money.h"
#include "xalloc.h"

void
output_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* A FIELD_LIST value as a JSON array of strings. */
static void
json_list(FILE *out, char *items)
{
	char *p = items, *sep;

	fputc('[', out);
	while (*p != '\0') {
		if ((sep = strchr(p, OUTPUT_LIST_SEP)) != NULL)
			*sep = '\0';
		if (p != items)
			fputs(", ", out);
		output_json_string(out, p);
		if (sep == NULL)
			break;
		p = sep + 1;
	}
	fputc(']', out);
}

/* The "data" object: how old the cache's data is, per provider. */
static void
json_data_age(FILE *out, const struct output_opts *opts)
{
	char buf[32];
	size_t i;

	fputs("  \"providers\": [", out);
	for (i = 0; i < opts->nstatus; i++) {
		const struct provider_status *s = &opts->status[i];

		fprintf(out, "%s\n    {\"provider\": ", i == 0 ? "" : ",");
		output_json_string(out, s->provider);
		fprintf(out, ", \"source\": \"%s\", \"offers\": %ld",
		    source_name(s->source), s->offer_count);
		if (s->offer_count > 0) {
			output_iso8601(s->oldest, buf, sizeof buf);
			fprintf(out, ", \"oldest_fetched_at\": \"%s\"", buf);
			output_iso8601(s->newest, buf, sizeof buf);
			fprintf(out, ", \"newest_fetched_at\": \"%s\"", buf);
			fprintf(out, ", \"age_seconds\": %lld",
			    (long long)(opts->now - s->oldest));
		} else
			fputs(", \"oldest_fetched_at\": null, "
			    "\"newest_fetched_at\": null, \"age_seconds\": null",
			    out);
		if (s->last_success > 0) {
			output_iso8601(s->last_success, buf, sizeof buf);
			fprintf(out, ", \"last_success\": \"%s\"", buf);
		} else
			fputs(", \"last_success\": null", out);
		fputs(", \"last_error\": ", out);
		if (s->last_error[0] != '\0')
			output_json_string(out, s->last_error);
		else
			fputs("null", out);
		fputc('}', out);
	}
	fputs(opts->nstatus > 0 ? "\n  ],\n" : "],\n", out);
}

/*
 * A watch's reason for a row: "change", and "previous" (null for a new
 * offer): the price per GPU-hour last reported, the difference in USD
 * and percent, which price was compared, the availability then and
 * when it was reported.
 */
static void
json_change(FILE *out, const struct output_change *c)
{
	char buf[64];

	fputs(", \"change\": ", out);
	output_json_string(out, c->change);
	fputs(", \"previous\": ", out);
	if (c->previous_at == 0) {
		fputs("null", out);
		return;
	}
	fputs("{\"price_gpu_hour\": ", out);
	fputs(output_money(c->previous, false, buf, sizeof buf) == FIELD_NULL ?
	    "null" : buf, out);
	fputs(", \"difference_gpu_hour\": ", out);
	if (money_known(c->previous) && money_known(c->price)) {
		money_format(buf, sizeof buf, c->price - c->previous, 2);
		fputs(buf, out);
	} else
		fputs("null", out);
	fputs(", \"difference_pct\": ", out);
	fputs(output_change_field(c, 2, buf, sizeof buf) == FIELD_NULL ?
	    "null" : buf, out);
	fprintf(out, ", \"compared\": \"%s\", \"availability\": \"%s\", "
	    "\"reported_at\": ", c->spot ? "spot" : "on-demand",
	    availability_name(c->previous_availability));
	output_iso8601(c->previous_at, buf, sizeof buf);
	output_json_string(out, buf);
	fputc('}', out);
}

/*
 * --train's assumptions, once per answer: the run, its compute and
 * memory, the MFU, the scaling of nodes by fabric, spot's interruption
 * rule and checkpoints, the egress asked.
 */
static void
json_train(FILE *out, const struct train *t)
{
	char run[64];
	const char *why;
	double eff;
	size_t i;

	train_text(t, run, sizeof run);
	fputs("  \"train\": {\"run\": ", out);
	output_json_string(out, run);
	fprintf(out, ", \"params\": %.10g, \"tokens\": %.10g, "
	    "\"flops\": %.10g, \"flops_rule\": \"6 x params x tokens\", "
	    "\"mfu\": %.10g, \"memory_gb\": %.10g, "
	    "\"bytes_per_param\": %d, \"memory_headroom\": %.10g, "
	    "\"scaling\": [", t->params, t->tokens, train_flops(t), t->mfu,
	    train_memory_gb(t), TRAIN_BYTES_PER_PARAM, TRAIN_HEADROOM - 1);
	for (i = 0; (eff = cost_scaling_class(i, &why)) >= 0; i++) {
		fprintf(out, "%s{\"fabric\": ", i > 0 ? ", " : "");
		output_json_string(out, why);
		fprintf(out, ", \"efficiency\": %.10g}", eff);
	}
	fprintf(out, "], \"spot_interruption\": \"AWS Spot Advisor bucket "
	    "(its middle; >20%%: 25%%), else the default\", "
	    "\"spot_interruption_default_monthly\": %.10g, "
	    "\"checkpoint_seconds\": %d, \"restart_seconds\": %d, "
	    "\"egress_gb\": %.10g},\n", COST_SPOT_DEFAULT_MONTHLY,
	    t->checkpoint_s, (int)(COST_RESTART_HOURS * 3600), t->egress_gb);
}

int
output_json(FILE *out, const struct output_opts *opts,
    const struct plan *plans, size_t n)
{
	char buf[256], *val;
	size_t i, f, size;
	int first;

	output_iso8601(opts->now, buf, sizeof buf);
	fprintf(out, "{\n  \"generated_at\": \"%s\",\n", buf);
	json_data_age(out, opts);
	fprintf(out, "  \"matched\": %zu,\n  \"count\": %zu,\n", opts->matched,
	    n);
	if (opts->hours >= 0)
		fprintf(out, "  \"hours\": %.10g,\n", opts->hours);
	if (opts->train != NULL)
		json_train(out, opts->train);
	fputs("  \"offers\": [", out);
	for (i = 0; i < n; i++) {
		fputs(i == 0 ? "\n    {" : ",\n    {", out);
		size = output_value_size(&plans[i]);
		val = xmalloc(size);
		first = 1;
		for (f = 0; output_fields[f] != NULL; f++) {
			enum field_kind kind;

			if (!output_field_shown(f, opts))
				continue;
			kind = output_field_value(f, &plans[i], opts, val,
			    size);
			fprintf(out, "%s\"%s\": ", first ? "" : ", ",
			    output_fields[f]);
			first = 0;
			if (kind == FIELD_NULL)
				fputs("null", out);
			else if (kind == FIELD_NUMBER || kind == FIELD_BOOL ||
			    kind == FIELD_JSON)
				fputs(val, out);
			else if (kind == FIELD_LIST)
				json_list(out, val);
			else
				output_json_string(out, val);
		}
		free(val);
		if (opts->changes != NULL)
			json_change(out, &opts->changes[i]);
		fputc('}', out);
	}
	fputs(n > 0 ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -1 : 0;
}
