/*
 * mcp_text.c: the text content of a tool's result (issue 48). The
 * structured content holds the data; the text is a short summary of it
 * for a host that shows a model only text: a line per item (an offer, a
 * group, a provider ...) made of its chief fields, then the data age
 * and the command's messages.
 * Never the structured answer again: an agent pays for every byte. Pure.
 */
#include "config.h"
#include "mcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "columns.h"
#include "xalloc.h"

enum { TEXT_PLAIN, TEXT_PRICE, TEXT_TOTAL };

/* One field of an item's line: printf-like fmt with one %s. */
struct text_field {
	const char	*name;
	const char	*fmt;
	const char	*skip;	/* a value not worth saying, or NULL */
	int		 money;	/* USD, rounded as the table rounds it:
				   TEXT_PRICE a price, TEXT_TOTAL a total */
};

/* Each tool's line per item: the array it lists (NULL: the answer). */
struct text_spec {
	const char	*tool;
	const char	*list;
	const char	*what;	/* "offer", "group" ...: the count's noun */
	const struct text_field *fields;
};

static const struct text_field offer_line[] = {
	{ "provider", "%s", NULL, TEXT_PLAIN },
	{ "instance_type", "%s", NULL, TEXT_PLAIN },
	{ "region", "%s", NULL, TEXT_PLAIN },
	{ "other_regions", "+%s", NULL, TEXT_PLAIN },
	{ "gpu_count", "%sx", NULL, TEXT_PLAIN },
	{ "gpu", "%s", NULL, TEXT_PLAIN },
	{ "nodes", "x %s nodes", "1", TEXT_PLAIN },
	{ "price_hour", "$%s/h", NULL, TEXT_PRICE },
	{ "price_gpu_hour", "$%s/GPU-h", NULL, TEXT_PRICE },
	{ "spot_gpu_hour", "spot $%s/GPU-h", NULL, TEXT_PRICE },
	{ "term_gpu_hour", "term $%s/GPU-h", NULL, TEXT_PRICE },
	{ "total_cost", "total $%s", NULL, TEXT_TOTAL },
	{ "job_cost", "job $%s", NULL, TEXT_TOTAL },
	{ "availability", "%s", "unknown", TEXT_PLAIN },
	{ "notes", "[%s]", NULL, TEXT_PLAIN },
	{ "age", "%s old", NULL, TEXT_PLAIN },
	{ "key", "key %s", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_field group_line[] = {
	{ "gpu", "%s", NULL, TEXT_PLAIN },
	{ "provider", "%s", NULL, TEXT_PLAIN },
	{ "region", "%s", NULL, TEXT_PLAIN },
	{ "continent", "%s", NULL, TEXT_PLAIN },
	{ "offers", "%s offers", NULL, TEXT_PLAIN },
	{ "min_price_gpu_hour", "min $%s", NULL, TEXT_PRICE },
	{ "median_price_gpu_hour", "median $%s", NULL, TEXT_PRICE },
	{ "max_price_gpu_hour", "max $%s/GPU-h", NULL, TEXT_PRICE },
	{ "min_spot_gpu_hour", "spot min $%s/GPU-h", NULL, TEXT_PRICE },
	{ "cheapest_provider", "cheapest: %s", NULL, TEXT_PLAIN },
	{ "cheapest_instance_type", "%s", NULL, TEXT_PLAIN },
	{ "cheapest_region", "%s", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_field history_line[] = {
	{ "provider", "%s", NULL, TEXT_PLAIN },
	{ "instance_type", "%s", NULL, TEXT_PLAIN },
	{ "region", "%s", NULL, TEXT_PLAIN },
	{ "gpu_count", "%sx", NULL, TEXT_PLAIN },
	{ "gpu", "%s", NULL, TEXT_PLAIN },
	{ "min_price_gpu_hour", "min $%s", NULL, TEXT_PRICE },
	{ "median_price_gpu_hour", "median $%s", NULL, TEXT_PRICE },
	{ "max_price_gpu_hour", "max $%s/GPU-h", NULL, TEXT_PRICE },
	{ "points", "%s points", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_field provider_line[] = {
	{ "provider", "%s:", NULL, TEXT_PLAIN },
	{ "source", "%s", NULL, TEXT_PLAIN },
	{ "offers", "%s offers", NULL, TEXT_PLAIN },
	{ "oldest_fetched_at", "oldest %s", NULL, TEXT_PLAIN },
	{ "health", "%s", NULL, TEXT_PLAIN },
	{ "last_error", "last error: %s", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_field gpu_line[] = {
	{ "id", "%s:", NULL, TEXT_PLAIN },
	{ "vendor", "%s", NULL, TEXT_PLAIN },
	{ "arch", "%s", NULL, TEXT_PLAIN },
	{ "vram_gb", "%s GB", NULL, TEXT_PLAIN },
	{ "bf16_tflops", "%s BF16 TFLOPS", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_field launch_line[] = {
	{ "provider", "%s", NULL, TEXT_PLAIN },
	{ "instance_type", "%s", NULL, TEXT_PLAIN },
	{ "region", "%s", NULL, TEXT_PLAIN },
	{ "launch", "\nlaunch: %s", NULL, TEXT_PLAIN },
	{ "launch_spot", "\nspot: %s", NULL, TEXT_PLAIN },
	{ "launch_vertex", "\nVertex AI: %s", NULL, TEXT_PLAIN },
	{ "zones", "\nzones: %s", NULL, TEXT_PLAIN },
	{ "quota", "\nquota: %s", NULL, TEXT_PLAIN },
	{ NULL, NULL, NULL, TEXT_PLAIN }
};

static const struct text_spec specs[] = {
	{ "find_offers", "offers", "row", offer_line },
	{ "market_summary", "groups", "group", group_line },
	{ "price_history", "offers", "offer", history_line },
	{ "providers", "providers", "provider", provider_line },
	{ "gpu_catalogue", "gpus", "GPU", gpu_line },
	{ "launch_command", NULL, NULL, launch_line },
};

void
mcp_buf_add(struct mcp_buf *b, const char *data, size_t n)
{
	if (b->len + n > MCP_OUTPUT_MAX) {
		b->over = true;
		return;
	}
	if (b->len + n + 1 > b->cap) {
		while (b->len + n + 1 > b->cap)
			b->cap = b->cap == 0 ? 8192 : 2 * b->cap;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
text_puts(struct mcp_buf *t, const char *s)
{
	mcp_buf_add(t, s, strlen(s));
}

/*
 * A value as text (malloc'd): a string as it is, a number as JSON
 * prints it, an array of strings joined by commas, another array by its
 * length; NULL for null, false, an empty array or an object.
 */
static char *
value_text(const cJSON *v, int money)
{
	const cJSON *item;
	struct mcp_buf t = { 0 };
	char buf[64];

	if (money != TEXT_PLAIN && cJSON_IsNumber(v) &&
	    fabs(v->valuedouble) < 1e12) {
		if (money == TEXT_TOTAL)
			column_total(llround(v->valuedouble * 1e6), buf,
			    sizeof buf);
		else
			column_money(llround(v->valuedouble * 1e6), buf,
			    sizeof buf);
		return xstrdup(buf);
	}
	if (cJSON_IsString(v))
		return v->valuestring[0] != '\0' ? xstrdup(v->valuestring) :
		    NULL;
	if (cJSON_IsNumber(v) || cJSON_IsRaw(v) || cJSON_IsTrue(v))
		return cJSON_PrintUnformatted(v);
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
		return NULL;
	if (!cJSON_IsString(cJSON_GetArrayItem(v, 0)))
		return xasprintf("%d", cJSON_GetArraySize(v));
	cJSON_ArrayForEach(item, v) {
		if (!cJSON_IsString(item))
			continue;
		if (t.len > 0)
			text_puts(&t, ",");
		text_puts(&t, item->valuestring);
	}
	return t.p;
}

/* One item's line: its fields as the spec says, by spaces. */
static void
item_line(struct mcp_buf *t, const cJSON *item, const struct text_field *f)
{
	const char *pct;
	bool first = true;
	size_t n;
	char *v;

	for (; f->name != NULL; f++) {
		v = value_text(cJSON_GetObjectItemCaseSensitive(item, f->name),
		    f->money);
		if (v == NULL || (f->skip != NULL && strcmp(v, f->skip) == 0)) {
			free(v);
			continue;
		}
		if (!first && f->fmt[0] != '\n')
			text_puts(t, " ");
		first = false;
		pct = strstr(f->fmt, "%s");
		mcp_buf_add(t, f->fmt, (size_t)(pct - f->fmt));
		text_puts(t, v);
		/* "1 offer", not "1 offers". */
		n = strlen(pct + 2);
		mcp_buf_add(t, pct + 2, strcmp(v, "1") == 0 && n > 0 &&
		    pct[2 + n - 1] == 's' ? n - 1 : n);
		free(v);
	}
	text_puts(t, "\n");
}

char *
mcp_text(const char *tool, const cJSON *answer)
{
	const struct text_spec *spec = NULL;
	const cJSON *list, *item, *v;
	struct mcp_buf t = { 0 };
	char head[160], *s;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof specs / sizeof specs[0]; i++)
		if (strcmp(specs[i].tool, tool) == 0)
			spec = &specs[i];
	if ((v = cJSON_GetObjectItemCaseSensitive(answer, "error")) != NULL &&
	    cJSON_IsString(v)) {
		text_puts(&t, v->valuestring);
		text_puts(&t, "\n");
	} else if (spec != NULL && spec->list == NULL)
		item_line(&t, answer, spec->fields);
	else if (spec != NULL) {
		list = cJSON_GetObjectItemCaseSensitive(answer, spec->list);
		n = cJSON_GetArraySize(list);
		/* find_offers: the rows of how many, in which order. */
		if ((v = cJSON_GetObjectItemCaseSensitive(answer, "rows")) !=
		    NULL && cJSON_IsNumber(v) && n == 0)
			text_puts(&t, "No offer matched.\n");
		else if (v != NULL && cJSON_IsNumber(v)) {
			snprintf(head, sizeof head, "%d of %.0f rows (",
			    n, v->valuedouble);
			text_puts(&t, head);
			v = cJSON_GetObjectItemCaseSensitive(answer, "matched");
			snprintf(head, sizeof head, "%.0f offers; +N: the same "
			    "offer in N more regions), by %s%s:\n",
			    cJSON_IsNumber(v) ? v->valuedouble : 0.0,
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			    answer, "sort")) != NULL ?
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			    answer, "sort")) : "gpu-price",
			    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			    answer, "reverse")) ? ", reversed" : "");
			text_puts(&t, head);
		} else {
			snprintf(head, sizeof head, "%d %s%s%s\n", n,
			    spec->what, n == 1 ? "" : "s", n > 0 ? ":" : "");
			text_puts(&t, head);
		}
		cJSON_ArrayForEach(item, list)
			item_line(&t, item, spec->fields);
	}
	/* find_offers with train: what the job's figures assume. */
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(answer, "train"),
	    "assumptions"))) != NULL) {
		text_puts(&t, s);
		text_puts(&t, "\n");
	}
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer,
	    "data_age"))) != NULL) {
		text_puts(&t, "data age: ");
		text_puts(&t, s);
		text_puts(&t, "\n");
	}
	cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(answer,
	    "messages"))
		if (cJSON_IsString(item)) {
			text_puts(&t, item->valuestring);
			text_puts(&t, "\n");
		}
	if (t.p == NULL)
		return xstrdup("");
	if (t.len > 0 && t.p[t.len - 1] == '\n')
		t.p[--t.len] = '\0';
	return t.p;
}
