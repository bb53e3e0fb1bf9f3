/* gpu.c: GPU catalogue lookups and name matching. */
#include "config.h"
#include "gpu.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "str.h"
#include "xalloc.h"

static const char *const vendor_words[] = {
	"nvidia", "amd", "tesla", "geforce", "radeon", "quadro", NULL
};

/* Form-factor words that do not change which model a name means. */
static const char *const form_words[] = {
	"pcie", "sxm6", "sxm5", "sxm4", "sxm3", "sxm2", "sxm", "hbm3", NULL
};

void
gpu_normalise(const char *name, char *out, size_t size)
{
	size_t n = 0, len, i, w;
	int changed;

	if (size == 0)
		return;
	for (; *name != '\0' && n + 1 < size; name++)
		if (isalnum((unsigned char)*name) && ((unsigned char)*name) < 0x80)
			out[n++] = (char)tolower((unsigned char)*name);
	out[n] = '\0';
	do {
		changed = 0;
		for (i = 0; vendor_words[i] != NULL; i++) {
			w = strlen(vendor_words[i]);
			if (n > w && strncmp(out, vendor_words[i], w) == 0) {
				memmove(out, out + w, n - w + 1);
				n -= w;
				changed = 1;
			}
		}
	} while (changed);
	len = n;
	if (len >= 3 && out[len - 2] == 'g' && out[len - 1] == 'b' &&
	    isdigit((unsigned char)out[len - 3]))
		out[len - 2] = '\0';
}

/* Binary search of the alias index for a normalised name. */
static const struct gpu_model *
alias_lookup(const char *norm)
{
	size_t lo = 0, hi = gpu_alias_count, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(norm, gpu_aliases[mid].norm);
		if (c == 0)
			return &gpu_models[gpu_aliases[mid].model];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Fill out with the members of the family whose normalised name is norm. */
static size_t
family_members(const char *norm, const struct gpu_model **out, size_t max)
{
	char fam[GPU_NORM_MAX];
	size_t i, n = 0;

	for (i = 0; i < gpu_model_count; i++) {
		gpu_normalise(gpu_models[i].family, fam, sizeof fam);
		if (strcmp(fam, norm) == 0 && n < max)
			out[n++] = &gpu_models[i];
	}
	return n;
}

/* Drop a trailing form-factor word from a normalised name; false if none. */
static bool
strip_form_word(char *norm)
{
	size_t len = strlen(norm), w, i;

	for (i = 0; form_words[i] != NULL; i++) {
		w = strlen(form_words[i]);
		if (len > w && strcmp(norm + len - w, form_words[i]) == 0) {
			norm[len - w] = '\0';
			return true;
		}
	}
	return false;
}

/*
 * Every id is also in the alias index under its normalised form, and a
 * normalised spelling names one model only (tools/gen-gpu-table.sh), so
 * a binary search finds the one candidate: cost_plan() asks for every
 * plan, and a scan of the catalogue was 10 % of loading 100k offers.
 */
/* gpu_find() by normalising: every spelling of a model's id. */
static const struct gpu_model *
gpu_find_spelling(const char *id)
{
	const struct gpu_model *m;
	char norm[GPU_NORM_MAX];

	gpu_normalise(id, norm, sizeof norm);
	m = alias_lookup(norm);
	return m != NULL && str_eq_nocase(m->id, id) ? m : NULL;
}

static int
cmp_model_id(const void *a, const void *b)
{
	return strcmp((*(const struct gpu_model *const *)a)->id,
	    (*(const struct gpu_model *const *)b)->id);
}

/*
 * The models by id as the catalogue spells it, each one that
 * gpu_find_spelling() gives for its own id: what every cached offer
 * names (cost_plan() asks for each offer read: a million for the TUI's
 * first screen), found by one binary search instead of normalising.
 * Built once; the catalogue is constant.
 */
static const struct gpu_model **
models_by_id(size_t *n)
{
	static const struct gpu_model **v;
	static size_t nv;
	size_t i;

	if (v == NULL) {
		v = xcalloc(gpu_model_count > 0 ? gpu_model_count : 1,
		    sizeof *v);
		for (i = 0; i < gpu_model_count; i++)
			if (gpu_find_spelling(gpu_models[i].id) ==
			    &gpu_models[i])
				v[nv++] = &gpu_models[i];
		qsort(v, nv, sizeof *v, cmp_model_id);
	}
	*n = nv;
	return v;
}

/* bsearch(3)'s comparison of an id with a model of models_by_id(). */
static int
cmp_id_model(const void *id, const void *m)
{
	return strcmp(id, (*(const struct gpu_model *const *)m)->id);
}

const struct gpu_model *
gpu_find(const char *id)
{
	const struct gpu_model *const *m, **v;
	size_t n;

	v = models_by_id(&n);
	if (n > 0 && (m = bsearch(id, v, n, sizeof *v, cmp_id_model)) != NULL)
		return *m;
	return gpu_find_spelling(id);
}

/* Pick the family member whose VRAM is within 7 % of vram_gb. */
static const struct gpu_model *
snap_vram(const struct gpu_model **members, size_t n, int vram_gb)
{
	const struct gpu_model *best = NULL;
	long long best_diff = 0, diff;
	size_t i;

	if (n == 1)
		return members[0];
	if (vram_gb <= 0)
		return NULL;
	for (i = 0; i < n; i++) {
		/* In long long: a hint near INT_MAX must not overflow. */
		diff = llabs((long long)members[i]->vram_gb - vram_gb);
		if (diff * 100 > (long long)members[i]->vram_gb * 7)
			continue;
		if (best == NULL || diff < best_diff) {
			best = members[i];
			best_diff = diff;
		}
	}
	return best;
}

const struct gpu_model *
gpu_resolve(const char *raw, int vram_gb)
{
	const struct gpu_model *members[GPU_MATCH_MAX], *m;
	char norm[GPU_NORM_MAX];
	size_t n;

	gpu_normalise(raw, norm, sizeof norm);
	if (norm[0] == '\0')
		return NULL;
	if ((m = alias_lookup(norm)) != NULL)
		return m;
	n = family_members(norm, members, GPU_MATCH_MAX);
	if (n > 0)
		return snap_vram(members, n, vram_gb);
	/* "A100 SXM4", "Tesla V100 PCIe": drop the form word, try again. */
	if (!strip_form_word(norm))
		return NULL;
	if ((m = alias_lookup(norm)) != NULL)
		return m;
	n = family_members(norm, members, GPU_MATCH_MAX);
	return n > 0 ? snap_vram(members, n, vram_gb) : NULL;
}

size_t
gpu_query(const char *query, const struct gpu_model **out, size_t max)
{
	const struct gpu_model *m;
	char norm[GPU_NORM_MAX];
	size_t n;

	gpu_normalise(query, norm, sizeof norm);
	if (norm[0] == '\0' || max == 0)
		return 0;
	for (;;) {
		n = family_members(norm, out, max);
		if (n > 0)
			return n;
		if ((m = alias_lookup(norm)) != NULL) {
			out[0] = m;
			return 1;
		}
		/* "A100 PCIe" asks for the family, whatever the form. */
		if (!strip_form_word(norm))
			return 0;
	}
}

const char *
gpu_form_name(enum gpu_form form)
{
	switch (form) {
	case GPU_FORM_SXM:
		return "sxm";
	case GPU_FORM_PCIE:
		return "pcie";
	case GPU_FORM_ANY:
		break;
	}
	return NULL;
}

/* The form a word of a query names ("SXM4", "pcie"), or GPU_FORM_ANY. */
static enum gpu_form
form_of_word(const char *w, size_t len)
{
	if (len == 4 && strncasecmp(w, "pcie", 4) == 0)
		return GPU_FORM_PCIE;
	if ((len == 3 || (len == 4 && w[3] >= '2' && w[3] <= '6')) &&
	    strncasecmp(w, "sxm", 3) == 0)
		return GPU_FORM_SXM;
	return GPU_FORM_ANY;
}

/*
 * A word that is a model number with a form word glued on ("h100sxm",
 * "A100SXM4", "h100pcie"): the length of the model part and its form in
 * *form, or 0. The model part must end in a digit, so a name such as
 * "rtxpcie" is not split.
 */
static size_t
glued_form(const char *w, size_t len, enum gpu_form *form)
{
	size_t k;

	for (k = 3; k <= 4 && k < len; k++) {
		if (!isdigit((unsigned char)w[len - k - 1]))
			continue;
		if ((*form = form_of_word(w + len - k, k)) != GPU_FORM_ANY)
			return len - k;
	}
	*form = GPU_FORM_ANY;
	return 0;
}

size_t
gpu_query_form(const char *query, const struct gpu_model **out, size_t max,
    enum gpu_form *form)
{
	char rest[GPU_NORM_MAX * 2];
	const char *p = query;
	size_t len, n = 0, glued;
	enum gpu_form f;

	*form = GPU_FORM_ANY;
	rest[0] = '\0';
	/* Words are runs of letters and digits: "H100-PCIe", "A100 SXM4". */
	while (*p != '\0') {
		for (len = 0; isalnum((unsigned char)p[len]); len++)
			;
		if (len == 0) {
			p++;
			continue;
		}
		/* "h100sxm", "A100PCIe": a form glued to a model number. */
		if ((f = form_of_word(p, len)) == GPU_FORM_ANY &&
		    (glued = glued_form(p, len, &f)) > 0) {
			if (n + glued + 2 < sizeof rest) {
				if (n > 0)
					rest[n++] = ' ';
				memcpy(rest + n, p, glued);
				n += glued;
				rest[n] = '\0';
			}
			*form = f;
		} else if (f != GPU_FORM_ANY)
			*form = f;
		else if (n + len + 2 < sizeof rest) {
			if (n > 0)
				rest[n++] = ' ';
			memcpy(rest + n, p, len);
			n += len;
			rest[n] = '\0';
		}
		p += len;
	}
	if (*form == GPU_FORM_ANY || n == 0) {
		*form = GPU_FORM_ANY;
		return gpu_query(query, out, max);
	}
	return gpu_query(rest, out, max);
}

size_t
gpu_suggest(const char *query, const struct gpu_model **out, size_t max)
{
	size_t dist[GPU_MATCH_MAX], i, j, k, n = 0, d, best, qlen;
	char norm[GPU_NORM_MAX], id[GPU_NORM_MAX];
	const struct gpu_model *m;

	gpu_normalise(query, norm, sizeof norm);
	qlen = strlen(norm);
	if (max > GPU_MATCH_MAX)
		max = GPU_MATCH_MAX;
	for (i = 0; i < gpu_model_count; i++) {
		m = &gpu_models[i];
		gpu_normalise(m->id, id, sizeof id);
		best = str_distance(norm, id);
		/* Aliases count too, so "4090ti" still finds RTX4090. */
		for (k = 0; k < gpu_alias_count; k++) {
			if (gpu_aliases[k].model != i)
				continue;
			d = str_distance(norm, gpu_aliases[k].norm);
			if (d < best)
				best = d;
		}
		/* A query that is a prefix/substring of a name is close. */
		if (qlen >= 2 && strstr(id, norm) != NULL && best > 1)
			best = 1;
		if (best > (qlen < 4 ? 2 : qlen / 2))
			continue;
		for (j = n; j > 0 && dist[j - 1] > best; j--)
			;
		if (j >= max)
			continue;
		if (n < max)
			n++;
		memmove(&out[j + 1], &out[j], (n - 1 - j) * sizeof out[0]);
		memmove(&dist[j + 1], &dist[j], (n - 1 - j) * sizeof dist[0]);
		out[j] = m;
		dist[j] = best;
	}
	return n;
}

size_t
gpu_fragment(const char *query, const struct gpu_model **out, size_t max)
{
	char norm[GPU_NORM_MAX], id[GPU_NORM_MAX];
	size_t i, k, n = 0;
	bool hit;

	gpu_normalise(query, norm, sizeof norm);
	if (strlen(norm) < 3)
		return 0;
	for (i = 0; i < gpu_model_count; i++) {
		gpu_normalise(gpu_models[i].id, id, sizeof id);
		hit = strstr(id, norm) != NULL;
		for (k = 0; !hit && k < gpu_alias_count; k++)
			hit = gpu_aliases[k].model == i &&
			    strstr(gpu_aliases[k].norm, norm) != NULL;
		if (hit && n < max)
			out[n++] = &gpu_models[i];
	}
	return n;
}

bool
gpu_ambiguous(const struct gpu_model *const *models, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(models[i]->family, models[0]->family) == 0 &&
		    strcmp(models[i]->arch, models[0]->arch) != 0)
			return true;
	return false;
}

double
gpu_bf16_tflops(const struct gpu_model *model, int is_pcie)
{
	if (model == NULL)
		return 0;
	if (is_pcie && model->bf16_tflops_pcie > 0)
		return model->bf16_tflops_pcie;
	return model->bf16_tflops;
}
