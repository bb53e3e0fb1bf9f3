/* complete.c: the candidate values of an option, from the program's tables. */
#include "config.h"
#include "complete.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpu.h"
#include "offer.h"
#include "output.h"
#include "provider.h"
#include "region.h"
#include "str.h"
#include "summary.h"
#include "xalloc.h"

static const struct {
	enum cli_values	 v;
	const char	*name;
} kinds[] = {
	{ CLI_VALUES_GPUS,	"gpus" },
	{ CLI_VALUES_PROVIDERS,	"providers" },
	{ CLI_VALUES_REGIONS,	"regions" },
	{ CLI_VALUES_SORT,	"sort" },
	{ CLI_VALUES_FORMATS,	"formats" },
	{ CLI_VALUES_LINKS,	"interconnects" },
	{ CLI_VALUES_GROUPS,	"groups" },
	{ CLI_VALUES_KEYS,	"keys" },	/* the cache's (cmd_completion.c) */
};
#define NKINDS	(sizeof kinds / sizeof kinds[0])

const char *
complete_kind_name(enum cli_values v)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (kinds[i].v == v)
			return kinds[i].name;
	return NULL;
}

int
complete_kind_parse(const char *word, enum cli_values *out)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i].name, word) == 0) {
			*out = kinds[i].v;
			return 0;
		}
	return -1;
}

/*
 * The words emitted so far, to emit each once: the GPU catalogue
 * repeats families and aliases differ only in case.
 */
struct seen {
	char	**v;
	size_t	  n, cap;
	complete_emit_fn *emit;
	void	 *ctx;
};

static void
seen_emit(struct seen *s, const char *word, size_t len)
{
	char *w;
	size_t i;

	if (len == 0)
		return;
	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && strncasecmp(s->v[i], word,
		    len) == 0)
			return;
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 64 : 2 * s->cap;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	w = xmalloc(len + 1);
	memcpy(w, word, len);
	w[len] = '\0';
	s->v[s->n++] = w;
	s->emit(w, s->ctx);
}

/*
 * GPU ids, then families, then the aliases a shell can complete (no
 * blank in them: "H100-SXM", "nvidia-h100-80gb").
 */
static void
gpu_words(struct seen *s)
{
	const char *a;
	size_t i, len;

	for (i = 0; i < gpu_model_count; i++)
		seen_emit(s, gpu_models[i].id, strlen(gpu_models[i].id));
	for (i = 0; i < gpu_model_count; i++)
		seen_emit(s, gpu_models[i].family,
		    strlen(gpu_models[i].family));
	for (i = 0; i < gpu_model_count; i++) {
		for (a = gpu_models[i].aliases; a != NULL && *a != '\0';
		    a += len + (a[len] == '|')) {
			len = strcspn(a, "|");
			if (memchr(a, ' ', len) == NULL)
				seen_emit(s, a, len);
		}
	}
}

/* Continents by name ("europe"), then countries by code ("de"). */
static void
region_words(struct seen *s)
{
	const char *name;
	char code[3];
	size_t i;

	for (i = 0; i < region_country_count; i++)
		if ((name = region_continent_name(
		    region_countries[i].continent)) != NULL)
			seen_emit(s, name, strlen(name));
	for (i = 0; i < region_country_count; i++) {
		code[0] = (char)tolower((unsigned char)region_countries[i].code[0]);
		code[1] = (char)tolower((unsigned char)region_countries[i].code[1]);
		code[2] = '\0';
		seen_emit(s, code, 2);
	}
}

void
complete_values(enum cli_values v, complete_emit_fn *emit, void *ctx)
{
	struct seen s = { .emit = emit, .ctx = ctx };
	const char *w;
	size_t i;

	switch (v) {
	case CLI_VALUES_GPUS:
		gpu_words(&s);
		break;
	case CLI_VALUES_PROVIDERS:
		for (i = 0; providers[i] != NULL; i++)
			seen_emit(&s, providers[i]->id, strlen(providers[i]->id));
		break;
	case CLI_VALUES_REGIONS:
		region_words(&s);
		break;
	case CLI_VALUES_SORT:
		for (i = 0; i < SORT_KEY_COUNT; i++) {
			w = sort_key_name((enum sort_key)i);
			seen_emit(&s, w, strlen(w));
		}
		break;
	case CLI_VALUES_FORMATS:
		for (i = 0; (w = output_format_name((enum output_format)i)) !=
		    NULL; i++)
			seen_emit(&s, w, strlen(w));
		break;
	case CLI_VALUES_LINKS:
		/* Every interconnect but "unknown", which is not asked for. */
		for (i = IC_UNKNOWN + 1; i <= IC_NVLINK; i++) {
			w = interconnect_name((enum interconnect)i);
			seen_emit(&s, w, strlen(w));
		}
		break;
	case CLI_VALUES_GROUPS:
		for (i = 0; i < GROUP_KEY_COUNT; i++) {
			w = group_key_name((enum group_key)i);
			seen_emit(&s, w, strlen(w));
		}
		break;
	default:
		break;
	}
	for (i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
}
