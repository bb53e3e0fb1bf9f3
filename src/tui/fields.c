/* tui/fields.c: filter-panel fields, the filter summary and pick counts. */
#include "config.h"
#include "tui/fields.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "provider.h"
#include "str.h"

const struct field_info field_info[FILTER_FIELD_COUNT] = {
#define X(id, lab, k, opt) [id] = { .label = lab, .kind = k, .option = opt },
	FILTER_FIELD_INFO(X)
#undef X
};

/* Values the arrow keys step through ("any" is below the first). */
static const long count_steps[] = { 1, 2, 4, 8, 16 };
static const long vram_steps[] = { 8, 12, 16, 24, 32, 40, 48, 80, 96, 141,
    192 };
static const long price_steps[] = {	/* micro-USD per GPU-hour */
	100000, 250000, 500000, 750000, 1000000, 1500000, 2000000, 2500000,
	3000000, 4000000, 5000000, 6000000, 8000000, 10000000, 15000000,
	20000000
};

/* Join the ids of the filter's GPU models with commas. */
static size_t
gpu_list(const struct offer_filter *f, char *buf, size_t size)
{
	size_t i, len = 0;

	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < f->ngpus && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    i > 0 ? "," : "", f->gpus[i]->id);
	return len < size ? len : size - 1;
}

/* Join the filter's providers with commas. */
static size_t
provider_list(const struct offer_filter *f, char *buf, size_t size)
{
	size_t i, len = 0;

	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < f->nproviders && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    i > 0 ? "," : "", f->providers[i]);
	return len < size ? len : size - 1;
}

/* Is the field set? */
bool
field_is_set(const struct offer_filter *f, enum filter_field ff)
{
	switch (ff) {
	case FF_GPU:
		return f->ngpus > 0;
	case FF_COUNT:
		return f->count > 0;
	case FF_MULTI_NODE:
		return f->multi_node;
	case FF_VRAM:
		return f->min_vram_gb > 0;
	case FF_LINK:
		return f->interconnect != IC_UNKNOWN;
	case FF_PROVIDERS:
		return f->nproviders > 0;
	case FF_REGION:
		return f->region[0] != '\0';
	case FF_MAX_PRICE:
		return money_known(f->max_price_gpu_hour);
	case FF_SPOT:
		return f->spot;
	case FF_AVAILABLE:
		return f->available;
	case FF_TEXT:
		return f->text[0] != '\0';
	case FILTER_FIELD_COUNT:
		break;
	}
	return false;
}

/* The value as typed: "" when unset. */
size_t
field_edit_text(const struct offer_filter *f, enum filter_field ff,
    char *buf, size_t size)
{
	if (size > 0)
		buf[0] = '\0';
	if (!field_is_set(f, ff))
		return 0;
	switch (ff) {
	case FF_GPU:
		return gpu_list(f, buf, size);
	case FF_COUNT:
		return (size_t)snprintf(buf, size, "%d", f->count);
	case FF_VRAM:
		return (size_t)snprintf(buf, size, "%d", f->min_vram_gb);
	case FF_LINK:
		return str_copy(buf, size, interconnect_name(f->interconnect));
	case FF_PROVIDERS:
		return provider_list(f, buf, size);
	case FF_REGION:
		return str_copy(buf, size, f->region);
	case FF_MAX_PRICE:
		return money_format(buf, size, f->max_price_gpu_hour, 0);
	case FF_TEXT:
		return str_copy(buf, size, f->text);
	case FF_MULTI_NODE:
	case FF_SPOT:
	case FF_AVAILABLE:
		return str_copy(buf, size, "yes");
	case FILTER_FIELD_COUNT:
		break;
	}
	return 0;
}

/* The value for people. */
size_t
field_value(const struct offer_filter *f, enum filter_field ff, char *buf,
    size_t size)
{
	char money[32];

	if (!field_is_set(f, ff))
		return str_copy(buf, size, field_info[ff].kind == FK_BOOL ?
		    "no" : "any");
	switch (ff) {
	case FF_VRAM:
		return (size_t)snprintf(buf, size, "%d GB", f->min_vram_gb);
	case FF_MAX_PRICE:
		money_format(money, sizeof money, f->max_price_gpu_hour, 2);
		return (size_t)snprintf(buf, size, "$%s", money);
	default:
		return field_edit_text(f, ff, buf, size);
	}
}

/* Set one field to any. */
void
field_clear(struct offer_filter *f, enum filter_field ff)
{
	switch (ff) {
	case FF_GPU:
		f->ngpus = 0;
		break;
	case FF_COUNT:
		f->count = 0;
		break;
	case FF_MULTI_NODE:
		f->multi_node = false;
		break;
	case FF_VRAM:
		f->min_vram_gb = 0;
		break;
	case FF_LINK:
		f->interconnect = IC_UNKNOWN;
		break;
	case FF_PROVIDERS:
		f->nproviders = 0;
		break;
	case FF_REGION:
		f->region[0] = '\0';
		break;
	case FF_MAX_PRICE:
		f->max_price_gpu_hour = MONEY_NONE;
		break;
	case FF_SPOT:
		f->spot = false;
		break;
	case FF_AVAILABLE:
		f->available = false;
		break;
	case FF_TEXT:
		f->text[0] = '\0';
		break;
	case FILTER_FIELD_COUNT:
		break;
	}
}

/* Clear every field. */
void
filter_clear_all(struct offer_filter *f)
{
	offer_filter_init(f);
}

/* A whole number from min to max, the CLI's way (no sign, no spaces). */
static int
parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* yes/no and the usual spellings. */
static int
parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "y", "on", "true", "1" };
	static const char *const no[] = { "no", "n", "off", "false", "0" };
	size_t i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (str_eq_nocase(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (str_eq_nocase(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* A comma list of provider ids into g. */
static int
parse_providers(struct offer_filter *g, const char *text, struct err *err)
{
	char item[OFFER_PROVIDER_MAX + 8];
	const struct provider *p;
	const char *s = text;
	size_t len, i;

	g->nproviders = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		len = strcspn(s, ", ");
		if (len == 0 || len >= sizeof item) {
			err_set(err, "providers: expected a comma list of %s",
			    provider_id_list());
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if ((p = provider_find(item)) == NULL) {
			str_sanitize(item, sizeof item, s, len);
			err_set(err, "providers: unknown provider \"%s\" "
			    "(known: %s)", item, provider_id_list());
			return -1;
		}
		for (i = 0; i < g->nproviders; i++)
			if (strcmp(g->providers[i], p->id) == 0)
				break;
		if (i == g->nproviders && g->nproviders < FILTER_PROVIDERS_MAX)
			str_copy(g->providers[g->nproviders++],
			    OFFER_PROVIDER_MAX, p->id);
		s += len;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* A comma list of GPU models or families ("A100", "H100,H200") into g. */
static int
parse_gpus(struct offer_filter *g, const char *text, struct err *err)
{
	const struct gpu_model *found[GPU_MATCH_MAX], *near[1];
	char item[OFFER_NAME_MAX];
	const char *s = text;
	size_t len, n, i, k;

	g->ngpus = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		len = strcspn(s, ",");
		while (len > 0 && s[len - 1] == ' ')
			len--;
		if (len == 0 || len >= sizeof item) {
			err_set(err, "GPU model: expected a GPU name or a comma "
			    "list of them");
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if ((n = gpu_query(item, found, GPU_MATCH_MAX)) == 0) {
			if (gpu_suggest(item, near, 1) == 1)
				err_set(err, "GPU model: unknown GPU \"%s\"; "
				    "did you mean %s?", item, near[0]->id);
			else
				err_set(err, "GPU model: unknown GPU \"%s\"",
				    item);
			return -1;
		}
		for (i = 0; i < n; i++) {
			for (k = 0; k < g->ngpus; k++)
				if (g->gpus[k] == found[i])
					break;
			if (k == g->ngpus && g->ngpus < GPU_MATCH_MAX)
				g->gpus[g->ngpus++] = found[i];
		}
		s += strcspn(s, ",");
		if (*s == '\0')
			break;
		s++;
	}
	return 0;
}

/* Parse typed text into the field. */
int
field_parse(struct offer_filter *f, enum filter_field ff, const char *text,
    struct err *err)
{
	struct offer_filter g = *f;
	char clean[OFFER_NAME_MAX];
	long v;
	bool b;

	str_sanitize(clean, sizeof clean, text, strlen(text));
	if (clean[0] == '\0' || (ff != FF_TEXT && ff != FF_REGION &&
	    str_eq_nocase(clean, "any"))) {
		field_clear(f, ff);
		return 0;
	}
	switch (ff) {
	case FF_GPU:
		if (parse_gpus(&g, clean, err) < 0)
			return -1;
		break;
	case FF_COUNT:
		if (parse_long(clean, 1, 1024, &v) < 0) {
			err_set(err, "GPU count: expected a positive integer, "
			    "got \"%s\"", clean);
			return -1;
		}
		g.count = (int)v;
		break;
	case FF_VRAM:
		if (parse_long(clean, 1, 1024, &v) < 0) {
			err_set(err, "min VRAM: expected a whole number of GB "
			    "from 1 to 1024, got \"%s\"", clean);
			return -1;
		}
		g.min_vram_gb = (int)v;
		break;
	case FF_LINK:
		if (interconnect_parse(clean, &g.interconnect) < 0) {
			err_set(err, "interconnect: expected nvlink or pcie, "
			    "got \"%s\"", clean);
			return -1;
		}
		break;
	case FF_PROVIDERS:
		if (parse_providers(&g, clean, err) < 0)
			return -1;
		break;
	case FF_REGION:
		str_copy(g.region, sizeof g.region, clean);
		break;
	case FF_MAX_PRICE:
		if (clean[0] == '$')
			memmove(clean, clean + 1, strlen(clean));
		if (money_parse(clean, strlen(clean), &g.max_price_gpu_hour)
		    < 0 || g.max_price_gpu_hour <= 0) {
			err_set(err, "max price: expected a price in USD per "
			    "GPU-hour greater than 0, got \"%s\"", clean);
			return -1;
		}
		break;
	case FF_TEXT:
		str_copy(g.text, sizeof g.text, clean);
		break;
	case FF_MULTI_NODE:
	case FF_SPOT:
	case FF_AVAILABLE:
		if (parse_bool(clean, &b) < 0) {
			err_set(err, "%s: expected yes or no, got \"%s\"",
			    field_info[ff].label, clean);
			return -1;
		}
		if (ff == FF_MULTI_NODE)
			g.multi_node = b;
		else if (ff == FF_SPOT)
			g.spot = b;
		else
			g.available = b;
		break;
	case FILTER_FIELD_COUNT:
		return -1;
	}
	*f = g;
	return 0;
}

/*
 * Step v through steps[0..n) by dir; 0 stands for "any", below the
 * first step. Values between steps go to the neighbouring step.
 */
static long
step_value(long v, const long *steps, size_t n, int dir)
{
	size_t i;

	if (dir > 0) {
		for (i = 0; i < n; i++)
			if (steps[i] > v)
				return steps[i];
		return v == 0 ? steps[0] : steps[n - 1];
	}
	if (v == 0)
		return 0;
	for (i = n; i > 0; i--)
		if (steps[i - 1] < v)
			return steps[i - 1];
	return 0;
}

/* Arrow-key change of one field. */
bool
field_step(struct offer_filter *f, enum filter_field ff, int dir)
{
	long v;

	switch (ff) {
	case FF_MULTI_NODE:
		f->multi_node = !f->multi_node;
		return true;
	case FF_SPOT:
		f->spot = !f->spot;
		return true;
	case FF_AVAILABLE:
		f->available = !f->available;
		return true;
	case FF_LINK:
		/* any -> nvlink -> pcie -> any */
		if (dir > 0)
			f->interconnect = f->interconnect == IC_UNKNOWN ?
			    IC_NVLINK : f->interconnect == IC_NVLINK ? IC_PCIE :
			    IC_UNKNOWN;
		else
			f->interconnect = f->interconnect == IC_UNKNOWN ?
			    IC_PCIE : f->interconnect == IC_PCIE ? IC_NVLINK :
			    IC_UNKNOWN;
		return true;
	case FF_COUNT:
		f->count = (int)step_value(f->count, count_steps,
		    sizeof count_steps / sizeof count_steps[0], dir);
		return true;
	case FF_VRAM:
		f->min_vram_gb = (int)step_value(f->min_vram_gb, vram_steps,
		    sizeof vram_steps / sizeof vram_steps[0], dir);
		return true;
	case FF_MAX_PRICE:
		v = money_known(f->max_price_gpu_hour) ?
		    (long)f->max_price_gpu_hour : 0;
		v = step_value(v, price_steps,
		    sizeof price_steps / sizeof price_steps[0], dir);
		f->max_price_gpu_hour = v == 0 ? MONEY_NONE : v;
		return true;
	case FF_GPU:
	case FF_PROVIDERS:
	case FF_REGION:
	case FF_TEXT:
	case FILTER_FIELD_COUNT:
		break;
	}
	return false;
}

/* The filter in one line. */
size_t
filter_describe(const struct offer_filter *f, char *buf, size_t size)
{
	char v[OFFER_NAME_MAX * 2];
	size_t len = 0;
	int ff;

	if (size > 0)
		buf[0] = '\0';
	for (ff = 0; ff < FILTER_FIELD_COUNT && len < size; ff++) {
		const char *sep = len > 0 ? " " : "";

		if (!field_is_set(f, (enum filter_field)ff))
			continue;
		field_edit_text(f, (enum filter_field)ff, v, sizeof v);
		switch (ff) {
		case FF_GPU:
			len += (size_t)snprintf(buf + len, size - len,
			    "%sgpu=%s", sep, v);
			break;
		case FF_COUNT:
			len += (size_t)snprintf(buf + len, size - len,
			    "%scount=%s", sep, v);
			break;
		case FF_VRAM:
			len += (size_t)snprintf(buf + len, size - len,
			    "%svram>=%sG", sep, v);
			break;
		case FF_LINK:
			len += (size_t)snprintf(buf + len, size - len,
			    "%slink=%s", sep, v);
			break;
		case FF_PROVIDERS:
			len += (size_t)snprintf(buf + len, size - len,
			    "%sprovider=%s", sep, v);
			break;
		case FF_REGION:
			len += (size_t)snprintf(buf + len, size - len,
			    "%sregion=%s", sep, v);
			break;
		case FF_MAX_PRICE:
			len += (size_t)snprintf(buf + len, size - len,
			    "%smax=$%s", sep, v);
			break;
		case FF_TEXT:
			len += (size_t)snprintf(buf + len, size - len,
			    "%stext=\"%s\"", sep, v);
			break;
		case FF_MULTI_NODE:
			len += (size_t)snprintf(buf + len, size - len,
			    "%smulti-node", sep);
			break;
		case FF_SPOT:
			len += (size_t)snprintf(buf + len, size - len,
			    "%sspot", sep);
			break;
		case FF_AVAILABLE:
			len += (size_t)snprintf(buf + len, size - len,
			    "%savailable", sep);
			break;
		}
	}
	return len < size ? len : (size > 0 ? size - 1 : 0);
}

/* Does offer o pass filter g, prices included (query_plans' test)? */
static bool
facet_match(const struct offer_filter *g, const struct offer *o)
{
	struct plan p;
	int nodes;

	if (!offer_matches(g, o, &nodes))
		return false;
	if (!money_known(g->max_price_gpu_hour))
		return true;
	cost_plan(&p, o, nodes);
	return plan_matches_price(g, &p);
}

/* Order facets by name. */
static int
facet_cmp(const void *a, const void *b)
{
	return strcmp(((const struct facet *)a)->name,
	    ((const struct facet *)b)->name);
}

/* Count offers per GPU model, ignoring the filter's GPU field. */
size_t
facet_gpus(const struct offer *offers, size_t n, const struct offer_filter *f,
    struct facet *out, size_t max)
{
	struct offer_filter g = *f;
	const struct gpu_model *model = NULL;
	const char *last = NULL;
	size_t nout = 0, i, k = 0;

	g.ngpus = 0;
	for (i = 0; i < n; i++) {
		const struct offer *o = &offers[i];

		if (o->gpu[0] == '\0' || !facet_match(&g, o))
			continue;
		/* Offers come grouped: look the model up when it changes. */
		if (last == NULL || strcmp(last, o->gpu) != 0) {
			last = o->gpu;
			if ((model = gpu_find(o->gpu)) == NULL)
				continue;
			for (k = 0; k < nout; k++)
				if (out[k].name == model->id)
					break;
		}
		if (model == NULL)
			continue;
		if (k == nout) {
			if (nout == max)
				continue;
			out[nout].name = model->id;
			out[nout].count = 0;
			out[nout].selected = false;
			nout++;
		}
		out[k].count++;
	}
	for (i = 0; i < f->ngpus; i++) {
		for (k = 0; k < nout; k++)
			if (out[k].name == f->gpus[i]->id)
				break;
		if (k == nout) {
			if (nout == max)
				continue;
			out[nout].name = f->gpus[i]->id;
			out[nout].count = 0;
			nout++;
		}
		out[k].selected = true;
	}
	qsort(out, nout, sizeof *out, facet_cmp);
	return nout;
}

/* Count offers per provider, ignoring the filter's provider field. */
size_t
facet_providers(const struct offer *offers, size_t n,
    const struct offer_filter *f, struct facet *out, size_t max)
{
	struct offer_filter g = *f;
	size_t nout = 0, i, k;

	for (i = 0; providers[i] != NULL && nout < max; i++) {
		out[nout].name = providers[i]->id;
		out[nout].count = 0;
		out[nout].selected = false;
		for (k = 0; k < f->nproviders; k++)
			if (strcmp(f->providers[k], providers[i]->id) == 0)
				out[nout].selected = true;
		nout++;
	}
	g.nproviders = 0;
	for (i = 0; i < n; i++) {
		if (!facet_match(&g, &offers[i]))
			continue;
		for (k = 0; k < nout; k++)
			if (strcmp(out[k].name, offers[i].provider) == 0) {
				out[k].count++;
				break;
			}
	}
	return nout;
}

/* The selected GPU models become the filter's. */
void
facet_apply_gpus(struct offer_filter *f, const struct facet *v, size_t n)
{
	const struct gpu_model *m;
	size_t i;

	f->ngpus = 0;
	for (i = 0; i < n && f->ngpus < GPU_MATCH_MAX; i++)
		if (v[i].selected && (m = gpu_find(v[i].name)) != NULL)
			f->gpus[f->ngpus++] = m;
}

/* The selected providers become the filter's. */
void
facet_apply_providers(struct offer_filter *f, const struct facet *v,
    size_t n)
{
	size_t i;

	f->nproviders = 0;
	for (i = 0; i < n && f->nproviders < FILTER_PROVIDERS_MAX; i++)
		if (v[i].selected)
			str_copy(f->providers[f->nproviders++],
			    OFFER_PROVIDER_MAX, v[i].name);
}
