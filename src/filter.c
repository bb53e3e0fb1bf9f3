/* filter.c: the filter fields of a query, parsed the same way for both faces. */
#include "config.h"
#include "filter.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "committed.h"
#include "err.h"
#include "fabric.h"
#include "gpu.h"
#include "money.h"
#include "provider.h"
#include "rentable.h"
#include "region.h"
#include "str.h"

const struct filter_field_info filter_fields[FILTER_FIELD_COUNT] = {
#define X(id, m, opt, sh, a, lab, k, t, lo, hi, w, h)			\
	[id] = { .option = opt, .short_opt = sh, .arg = a, .label = lab,	\
	    .kind = k, .type = t,					\
	    .offset = offsetof(struct offer_filter, m),			\
	    .member_size = sizeof ((struct offer_filter *)0)->m,	\
	    .min = lo, .max = hi, .what = w, .help = h },
	FILTER_FIELD_INFO(X)
#undef X
};

int
filter_field_by_option(const char *name)
{
	int ff;

	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++)
		if (strcmp(filter_fields[ff].option, name) == 0)
			return ff;
	return -1;
}

/* The member field ff sets, in f. */
#define MEMBER(f, ff, type)						\
	((type *)(void *)((char *)(f) + filter_fields[ff].offset))
#define CMEMBER(f, ff, type)						\
	((const type *)(const void *)((const char *)(f) +		\
	    filter_fields[ff].offset))

/* A whole number from min to max: digits only (no sign, no blanks). */
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

/* An unknown --provider name: the nearest id, as for options. */
static void
provider_unknown(const char *item, struct err *err)
{
	const char *ids[64], *near;
	char q[128];
	size_t n;

	for (n = 0; providers[n] != NULL && n < sizeof ids / sizeof ids[0];
	    n++)
		ids[n] = providers[n]->id;
	if ((near = str_nearest(item, ids, n)) != NULL)
		err_set(err, "--provider: unknown provider %s; did you mean "
		    "%s? (known: %s)", str_quoted(item, q, sizeof q), near,
		    provider_id_list());
	else
		err_set(err, "--provider: unknown provider %s (known: %s)",
		    str_quoted(item, q, sizeof q), provider_id_list());
}

/*
 * Provider ids separated by commas and/or blanks ("aws, gcp") into g,
 * after the ones it has.
 */
static int
parse_providers(struct offer_filter *g, const char *text, struct err *err)
{
	char item[OFFER_PROVIDER_MAX + 8], q[80];
	const struct retired *r;
	const struct provider *p;
	const char *s = text, *id;
	size_t len, i;

	for (;;) {
		s += strspn(s, " ");
		len = strcspn(s, ", ");
		if (len == 0 || len >= sizeof item) {
			err_set(err, "--provider: expected a comma list of %s, "
			    "got %s", provider_id_list(), str_quoted(text, q,
			    sizeof q));
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		/* A retired provider is a valid name that matches nothing;
		 * the commands say why (cli_retired()). */
		r = NULL;
		if ((p = provider_find(item)) == NULL &&
		    (r = retired_provider(item)) == NULL) {
			provider_unknown(item, err);
			return -1;
		}
		id = p != NULL ? p->id : r->provider;
		for (i = 0; i < g->nproviders; i++)
			if (strcmp(g->providers[i], id) == 0)
				break;
		if (i == g->nproviders) {
			if (g->nproviders == FILTER_PROVIDERS_MAX) {
				err_set(err, "--provider: at most %d providers",
				    FILTER_PROVIDERS_MAX);
				return -1;
			}
			str_copy(g->providers[g->nproviders++],
			    OFFER_PROVIDER_MAX, id);
		}
		s += len;
		s += strspn(s, " ");
		if (*s == '\0')
			return 0;
		if (*s == ',' && *(s += 1 + strspn(s + 1, " ")) == '\0') {
			err_set(err, "--provider: expected a comma list of %s, "
			    "got %s", provider_id_list(), str_quoted(text, q,
			    sizeof q));
			return -1;
		}
	}
}

/* One GPU name or family, resolved, suggesting close names if unknown. */
static int
parse_gpu(struct offer_filter *g, const char *item, struct err *err)
{
	const struct gpu_model *found[GPU_MATCH_MAX], *near[4];
	char list[256] = "", q[80], norm[GPU_NORM_MAX];
	enum gpu_form form;
	size_t n, i, k;

	gpu_normalise(item, norm, sizeof norm);
	if (norm[0] == '\0') {
		err_set(err, "--gpu: expected a GPU name ('gpucost gpus' lists "
		    "them)");
		return -1;
	}
	n = gpu_query_form(item, found, GPU_MATCH_MAX, &form);
	/* "4090", "5090": a fragment that can only mean one model. */
	if (n == 0 && gpu_fragment(item, found, 2) == 1)
		n = 1;
	if (n == 0) {
		n = gpu_suggest(item, near, 4);
		for (i = 0; i < n; i++) {
			strncat(list, i == 0 ? "" : ", ",
			    sizeof list - strlen(list) - 1);
			strncat(list, near[i]->id, sizeof list - strlen(list) - 1);
		}
		if (n > 0)
			err_set(err, "--gpu: unknown GPU %s; did you mean %s? "
			    "('gpucost gpus' lists them all)", str_quoted(item,
			    q, sizeof q), list);
		else
			err_set(err, "--gpu: unknown GPU %s ('gpucost gpus' "
			    "lists them all)", str_quoted(item, q, sizeof q));
		return -1;
	}
	/* "RTX6000": two different cards share the name; ask which. */
	if (gpu_ambiguous(found, n)) {
		for (i = 0; i < n; i++) {
			char one[96];

			snprintf(one, sizeof one, "%s%s (%d GB, %s)",
			    i == 0 ? "" : i + 1 == n ? " or " : ", ",
			    found[i]->id, found[i]->vram_gb, found[i]->arch);
			strncat(list, one, sizeof list - strlen(list) - 1);
		}
		err_set(err, "--gpu: %s names different cards: %s; ask for "
		    "one", str_quoted(item, q, sizeof q), list);
		return -1;
	}
	/* "H100 SXM": that form only, one form per query. */
	if (form != GPU_FORM_ANY) {
		if (g->form != GPU_FORM_ANY && g->form != form) {
			err_set(err, "--gpu: one board form per query, got SXM "
			    "and PCIe");
			return -1;
		}
		g->form = form;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < g->ngpus; k++)
			if (g->gpus[k] == found[i])
				break;
		if (k < g->ngpus)
			continue;
		if (g->ngpus == GPU_MATCH_MAX) {
			err_set(err, "--gpu: at most %d GPU models",
			    GPU_MATCH_MAX);
			return -1;
		}
		g->gpus[g->ngpus++] = found[i];
	}
	return 0;
}

/* A comma list of GPU models or families ("H100, A100-80") into g. */
static int
parse_gpus(struct offer_filter *g, const char *text, struct err *err)
{
	char item[OFFER_NAME_MAX];
	const char *s = text;
	size_t len;

	for (;;) {
		s += strspn(s, " ");
		len = strcspn(s, ",");
		while (len > 0 && s[len - 1] == ' ')
			len--;
		if (len >= sizeof item)
			len = sizeof item - 1;	/* unknown: the message says */
		memcpy(item, s, len);
		item[len] = '\0';
		if (parse_gpu(g, item, err) < 0)
			return -1;
		s += strcspn(s, ",");
		if (*s == '\0')
			return 0;
		s++;
	}
}

/* Parse text into field ff of g (a copy of the filter). */
static int
parse_value(struct offer_filter *g, enum filter_field ff, const char *text,
    const char *raw, struct err *err)
{
	const struct filter_field_info *fi = &filter_fields[ff];
	const char *s = text;
	char q[80], q2[96];
	unsigned set;
	long v;

	switch (fi->type) {
	case FT_GPUS:
		return parse_gpus(g, text, err);
	case FT_PROVIDERS:
		return parse_providers(g, text, err);
	case FT_INT:
		if (parse_long(text, fi->min, fi->max, &v) < 0) {
			err_set(err, "--%s: expected %s, got %s", fi->option,
			    fi->what, str_quoted(raw, q, sizeof q));
			return -1;
		}
		*MEMBER(g, ff, int) = (int)v;
		return 0;
	case FT_MONEY:
		if (*s == '$')
			s++;
		if (money_parse(s, strlen(s), MEMBER(g, ff, int64_t)) < 0 ||
		    *MEMBER(g, ff, int64_t) <= 0) {
			err_set(err, "--%s: expected a price in USD per GPU-hour "
			    "greater than 0, got %s", fi->option, str_quoted(raw,
			    q, sizeof q));
			return -1;
		}
		return 0;
	case FT_LINK:
		/* A fabric word: the user means the network between nodes. */
		if (fabric_set_parse(text, &set, q, sizeof q) == 0 &&
		    (set & FABRIC_ANY) == 0) {
			err_set(err, "--%s: %s is a fabric between nodes: use "
			    "--fabric (--%s is the link inside a node: nvlink "
			    "or pcie)", fi->option, text, fi->option);
			return -1;
		}
		if (interconnect_parse(text, MEMBER(g, ff, enum interconnect))
		    < 0 || *MEMBER(g, ff, enum interconnect) == IC_UNKNOWN) {
			err_set(err, "--%s: expected nvlink or pcie, got %s",
			    fi->option, str_quoted(raw, q, sizeof q));
			return -1;
		}
		return 0;
	case FT_PATTERN:
		if (text[0] == '\0' || strlen(raw) >= fi->member_size) {
			err_set(err, "--%s: expected a %s pattern of 1 to %zu "
			    "characters", fi->option, fi->option,
			    fi->member_size - 1);
			return -1;
		}
		if (!str_glob_valid(text)) {
			err_set(err, "--%s: %s has a '[' that is never closed "
			    "(write \\[ for the character itself)", fi->option,
			    str_quoted(raw, q, sizeof q));
			return -1;
		}
		str_copy(MEMBER(g, ff, char), fi->member_size, text);
		return 0;
	case FT_STRING:
		if (strlen(raw) >= fi->member_size) {
			err_set(err, "--%s: expected at most %zu characters",
			    fi->option, fi->member_size - 1);
			return -1;
		}
		str_copy(MEMBER(g, ff, char), fi->member_size, text);
		return 0;
	case FT_FABRIC:
		if (text[0] == '\0')
			return 0;	/* cleared: the default rule */
		if (fabric_set_parse(text, &set, q, sizeof q) < 0) {
			err_set(err, "--%s: unknown fabric %s (efa, infiniband, "
			    "roce, tcpxo, tcpx, ethernet, rdma or any)",
			    fi->option, str_quoted(q, q2, sizeof q2));
			return -1;
		}
		*MEMBER(g, ff, unsigned) = set;
		return 0;
	case FT_BOOL:
		if (parse_bool(text, MEMBER(g, ff, bool)) < 0) {
			err_set(err, "--%s: expected yes or no, got %s",
			    fi->option, str_quoted(raw, q, sizeof q));
			return -1;
		}
		return 0;
	}
	return -1;
}

/* Does s hold a C0 or C1 control character or DEL? */
static bool
has_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 &&
		    p[1] <= 0x9f))
			return true;
	return false;
}

int
filter_set(struct offer_filter *f, enum filter_field ff, const char *text,
    bool add, struct err *err)
{
	struct offer_filter g = *f;
	char clean[256];

	if ((unsigned)ff >= FILTER_FIELD_COUNT) {
		err_set(err, "no such filter field");
		return -1;
	}
	/*
	 * A control character in a value is a mistake or an attack, never
	 * part of a name: refused, not silently dropped (dropping it could
	 * turn "x<ESC>..." into the pattern "x", which matches).
	 */
	if (has_control(text)) {
		err_set(err, "--%s: the value holds control characters",
		    filter_fields[ff].option);
		return -1;
	}
	str_sanitize(clean, sizeof clean, text, strlen(text));
	/* "any" undoes a field, except where it may be the very text. */
	if (filter_fields[ff].type != FT_STRING &&
	    filter_fields[ff].type != FT_PATTERN &&
	    filter_fields[ff].type != FT_FABRIC && str_eq_nocase(clean, "any")) {
		filter_clear(f, ff);
		return 0;
	}
	if (!add)
		filter_clear(&g, ff);
	if (parse_value(&g, ff, clean, text, err) < 0)
		return -1;
	*f = g;
	return 0;
}

bool
filter_is_set(const struct offer_filter *f, enum filter_field ff)
{
	if ((unsigned)ff >= FILTER_FIELD_COUNT)
		return false;
	switch (filter_fields[ff].type) {
	case FT_GPUS:
		return f->ngpus > 0;
	case FT_PROVIDERS:
		return f->nproviders > 0;
	case FT_INT:
		return *CMEMBER(f, ff, int) > 0;
	case FT_MONEY:
		return money_known(*CMEMBER(f, ff, int64_t));
	case FT_LINK:
		return *CMEMBER(f, ff, enum interconnect) != IC_UNKNOWN;
	case FT_PATTERN:
	case FT_STRING:
		return *CMEMBER(f, ff, char) != '\0';
	case FT_BOOL:
		return *CMEMBER(f, ff, bool);
	case FT_FABRIC:
		return *CMEMBER(f, ff, unsigned) != 0;
	}
	return false;
}

void
filter_clear_all(struct offer_filter *f)
{
	int64_t now = f->now;

	offer_filter_init(f);
	f->now = now;
}

void
filter_clear(struct offer_filter *f, enum filter_field ff)
{
	if ((unsigned)ff >= FILTER_FIELD_COUNT)
		return;
	switch (filter_fields[ff].type) {
	case FT_GPUS:
		f->ngpus = 0;
		f->form = GPU_FORM_ANY;
		break;
	case FT_PROVIDERS:
		f->nproviders = 0;
		break;
	case FT_INT:
		*MEMBER(f, ff, int) = 0;
		break;
	case FT_MONEY:
		*MEMBER(f, ff, int64_t) = MONEY_NONE;
		break;
	case FT_LINK:
		*MEMBER(f, ff, enum interconnect) = IC_UNKNOWN;
		break;
	case FT_PATTERN:
	case FT_STRING:
		*MEMBER(f, ff, char) = '\0';
		break;
	case FT_BOOL:
		*MEMBER(f, ff, bool) = false;
		break;
	case FT_FABRIC:
		*MEMBER(f, ff, unsigned) = 0;
		break;
	}
}

/* Append s to buf at *len, keeping it terminated. */
static void
append(char *buf, size_t size, size_t *len, const char *s)
{
	if (*len < size)
		*len += str_copy(buf + *len, size - *len, s);
}

size_t
filter_text(const struct offer_filter *f, enum filter_field ff, char *buf,
    size_t size)
{
	size_t len = 0, i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (!filter_is_set(f, ff))
		return 0;
	switch (filter_fields[ff].type) {
	case FT_GPUS:
		for (i = 0; i < f->ngpus; i++) {
			append(buf, size, &len, i > 0 ? "," : "");
			append(buf, size, &len, f->gpus[i]->id);
			/* "H100-SXM" reads back as H100 in that form. */
			if (f->form != GPU_FORM_ANY)
				append(buf, size, &len, f->form == GPU_FORM_SXM ?
				    "-SXM" : "-PCIe");
		}
		return len;
	case FT_PROVIDERS:
		for (i = 0; i < f->nproviders; i++) {
			append(buf, size, &len, i > 0 ? "," : "");
			append(buf, size, &len, f->providers[i]);
		}
		return len;
	case FT_INT:
		return (size_t)snprintf(buf, size, "%d", *CMEMBER(f, ff, int));
	case FT_MONEY:
		return money_format(buf, size, *CMEMBER(f, ff, int64_t), 0);
	case FT_LINK:
		return str_copy(buf, size,
		    interconnect_name(*CMEMBER(f, ff, enum interconnect)));
	case FT_PATTERN:
	case FT_STRING:
		return str_copy(buf, size, CMEMBER(f, ff, char));
	case FT_BOOL:
		return str_copy(buf, size, "yes");
	case FT_FABRIC:
		return fabric_set_text(*CMEMBER(f, ff, unsigned), buf, size);
	}
	return 0;
}

size_t
filter_value(const struct offer_filter *f, enum filter_field ff, char *buf,
    size_t size)
{
	char money[32];

	/* Unset, --fabric is a rule, not "any" (which is a value of it). */
	if (ff == FF_FABRIC && !filter_is_set(f, ff))
		return str_copy(buf, size, "default");
	if (!filter_is_set(f, ff))
		return str_copy(buf, size, filter_fields[ff].kind ==
		    FILTER_FLAG ? "no" : "any");
	if (filter_fields[ff].type == FT_MONEY) {
		money_format(money, sizeof money, *CMEMBER(f, ff, int64_t), 2);
		return (size_t)snprintf(buf, size, "$%s", money);
	}
	if (filter_fields[ff].type == FT_INT && filter_fields[ff].arg != NULL &&
	    strcmp(filter_fields[ff].arg, "GB") == 0)
		return (size_t)snprintf(buf, size, "%d GB", *CMEMBER(f, ff, int));
	return filter_text(f, ff, buf, size);
}

/* Characters a POSIX shell takes literally in a word. */
static bool
shell_plain(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789-_.,:/@%+=", *s) == NULL)
			return false;
	return true;
}

size_t
filter_describe(const struct offer_filter *f, char *buf, size_t size)
{
	char v[OFFER_NAME_MAX * 4];
	const char *c;
	size_t len = 0;
	int ff;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++) {
		const struct filter_field_info *fi = &filter_fields[ff];

		if (!filter_is_set(f, (enum filter_field)ff))
			continue;
		append(buf, size, &len, len > 0 ? " --" : "--");
		append(buf, size, &len, fi->option);
		if (fi->kind == FILTER_FLAG)
			continue;
		filter_text(f, (enum filter_field)ff, v, sizeof v);
		append(buf, size, &len, " ");
		if (shell_plain(v)) {
			append(buf, size, &len, v);
			continue;
		}
		append(buf, size, &len, "'");
		for (c = v; *c != '\0'; c++) {
			char one[2] = { *c, '\0' };

			append(buf, size, &len, *c == '\'' ? "'\\''" : one);
		}
		append(buf, size, &len, "'");
	}
	/* --term is an option of its own (cli.c), but part of the query. */
	if (f->term != TERM_NONE) {
		committed_term_name(v, sizeof v, f->term);
		append(buf, size, &len, len > 0 ? " --term " : "--term ");
		append(buf, size, &len, v);
	}
	return len < size ? len : size - 1;
}

int
filter_region_check(const struct offer_filter *f, const char *const *names,
    size_t n, struct err *err)
{
	struct region_query q;
	char near[256], quoted[80];

	if (f->region[0] == '\0' || region_query_parse(f->region, &q) < 0 ||
	    region_query_known(&q, names, n))
		return 0;
	str_quoted(f->region, quoted, sizeof quoted);
	if (region_suggest(f->region, names, n, near, sizeof near) > 0)
		err_set(err, "--region: no continent, country or region is "
		    "called %s; did you mean %s?", quoted, near);
	else
		err_set(err, "--region: no continent, country or region is "
		    "called %s (a continent: europe, north-america, asia ...; "
		    "a country: de, us, japan ...; or part of a provider's "
		    "region name: us-east, europe-west4 ...)", quoted);
	return -1;
}
