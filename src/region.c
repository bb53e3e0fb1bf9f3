/* region.c: region geography and --region matching. */
#include "config.h"
#include "region.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "str.h"

#define WORD_MAX	64

/* Continent codes and the words a query may use for them. */
static const struct {
	const char	*code;
	const char	*name;		/* the canonical word */
	const char	*words;		/* '|'-separated, normalised */
} continents[] = {
	{ "AF", "africa",	 "af|africa" },
	{ "AN", "antarctica",	 "an|antarctica" },
	{ "AS", "asia",		 "as|asia|apac|asia-pacific" },
	{ "EU", "europe",	 "eu|europe" },
	{ "NA", "north-america", "na|north-america|northamerica" },
	{ "OC", "oceania",	 "oc|oceania|australasia" },
	{ "SA", "south-america", "sa|south-america|southamerica" },
};
#define NCONTINENTS	(sizeof continents / sizeof continents[0])

/*
 * Lowercase s into out, spaces and underscores as '-', runs of them
 * folded and trimmed: "North America" and "north_america" are one word.
 */
static void
normalise_word(const char *s, size_t len, char *out, size_t size)
{
	size_t n = 0;
	bool dash = false;

	for (; len > 0 && n + 1 < size; s++, len--) {
		unsigned char c = (unsigned char)*s;

		if (c == ' ' || c == '_' || c == '-' || c == '\t') {
			dash = n > 0;
			continue;
		}
		if (dash && n + 2 < size)
			out[n++] = '-';
		dash = false;
		out[n++] = (char)tolower(c);
	}
	out[n] = '\0';
}

/* Is word one of the '|'-separated entries of list (normalised)? */
static bool
in_list(const char *word, const char *list)
{
	char item[WORD_MAX];
	size_t len;

	for (;;) {
		len = strcspn(list, "|");
		normalise_word(list, len, item, sizeof item);
		if (strcmp(item, word) == 0)
			return true;
		if (list[len] == '\0')
			return false;
		list += len + 1;
	}
}

static const char *
continent_code(const char *word)
{
	size_t i;

	for (i = 0; i < NCONTINENTS; i++)
		if (in_list(word, continents[i].words))
			return continents[i].code;
	return NULL;
}

const char *
region_continent_name(const char *code)
{
	size_t i;

	for (i = 0; i < NCONTINENTS; i++)
		if (str_eq_nocase(code, continents[i].code))
			return continents[i].name;
	return NULL;
}

/* The country with this two-letter code (any case), or NULL. */
static const struct region_country *
country_by_code(const char *code)
{
	size_t lo = 0, hi = region_country_count, mid;
	char up[3];
	int c;

	if (strlen(code) != 2)
		return NULL;
	up[0] = (char)toupper((unsigned char)code[0]);
	up[1] = (char)toupper((unsigned char)code[1]);
	up[2] = '\0';
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(up, region_countries[mid].code);
		if (c == 0)
			return &region_countries[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The country one of whose names is word (normalised), or NULL. */
static const struct region_country *
country_by_name(const char *word)
{
	size_t i;

	for (i = 0; i < region_country_count; i++)
		if (in_list(word, region_countries[i].names))
			return &region_countries[i];
	return NULL;
}

/*
 * A free-text location: "Florida, US", "Sweden", the snapshot's
 * "Florida, US, NA" (Vast's text with a continent appended). The last
 * part is a country code or name, or a continent code after one.
 */
static const struct region_country *
country_in_text(const char *text)
{
	const char *parts[8], *p = text;
	size_t lens[8], n = 0, len;
	char word[WORD_MAX], prev[WORD_MAX];
	const struct region_country *c;

	for (;;) {
		len = strcspn(p, ",");
		if (n < 8) {
			parts[n] = p;
			lens[n++] = len;
		} else {
			memmove(parts, parts + 1, 7 * sizeof parts[0]);
			memmove(lens, lens + 1, 7 * sizeof lens[0]);
			parts[7] = p;
			lens[7] = len;
		}
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	normalise_word(parts[n - 1], lens[n - 1], word, sizeof word);
	if (n >= 2) {
		normalise_word(parts[n - 2], lens[n - 2], prev, sizeof prev);
		if (strlen(word) == 2 && continent_code(word) != NULL &&
		    (c = country_by_code(prev)) != NULL)
			return c;
	}
	if ((c = country_by_code(word)) != NULL)
		return c;
	return country_by_name(word);
}

static bool
locate(const char *provider, const char *region, const char **country,
    const char **continent)
{
	static struct str_run memo;
	const struct region_place *pl;
	const struct region_country *c;
	size_t i, end;

	*country = *continent = "";
	/*
	 * Only provider's places, which the table keeps together
	 * (test_region checks), kept for the next lookup: a refresh
	 * locates each offer it writes, an answer each row it prints,
	 * mostly one provider's in a row.
	 */
	str_run_find(&memo, region_places, region_place_count,
	    sizeof region_places[0], offsetof(struct region_place, provider),
	    provider, &i, &end);
	for (; i < end; i++) {
		pl = &region_places[i];
		if (strchr(pl->region, '*') != NULL ?
		    fnmatch(pl->region, region, FNM_CASEFOLD) == 0 :
		    str_eq_nocase(pl->region, region)) {
			*country = pl->country;
			*continent = pl->continent;
			return true;
		}
	}
	if ((c = country_in_text(region)) == NULL)
		return false;
	*country = c->code;
	*continent = c->continent;
	return true;
}

/*
 * The last answer is kept too: an answer's row asks for its country and
 * its continent apart, and a marketplace lists many offers in one place.
 * Its strings are the tables' own, so keeping them is safe.
 */
bool
region_locate(const char *provider, const char *region, const char **country,
    const char **continent)
{
	static char last_provider[32], last_region[128];
	static const char *last_country, *last_continent;
	static bool last_found;
	size_t np = strlen(provider), nr = strlen(region);

	if (last_country != NULL && strcmp(last_provider, provider) == 0 &&
	    strcmp(last_region, region) == 0) {
		*country = last_country;
		*continent = last_continent;
		return last_found;
	}
	last_found = locate(provider, region, country, continent);
	if (np < sizeof last_provider && nr < sizeof last_region) {
		memcpy(last_provider, provider, np + 1);
		memcpy(last_region, region, nr + 1);
		last_country = *country;
		last_continent = *continent;
	} else
		last_country = NULL;
	return last_found;
}

int
region_query_parse(const char *text, struct region_query *q)
{
	const struct region_country *c;
	const char *code;
	char word[WORD_MAX];

	memset(q, 0, sizeof *q);
	q->text = text;
	if (text[0] == '\0')
		return 0;
	if (strpbrk(text, "*?[\\") != NULL) {
		q->kind = RQ_GLOB;
		return str_glob_valid(text) ? 0 : -1;
	}
	normalise_word(text, strlen(text), word, sizeof word);
	if ((code = continent_code(word)) != NULL) {
		q->kind = RQ_CONTINENT;
		str_copy(q->code, sizeof q->code, code);
		return 0;
	}
	if ((c = country_by_code(word)) != NULL ||
	    (c = country_by_name(word)) != NULL) {
		q->kind = RQ_COUNTRY;
		str_copy(q->code, sizeof q->code, c->code);
		return 0;
	}
	q->kind = RQ_NAME;
	return 0;
}

size_t
region_any_list(const char *provider, const struct region_any **first)
{
	static struct str_run memo;
	size_t from, to;

	str_run_find(&memo, region_any_places, region_any_count,
	    sizeof region_any_places[0], offsetof(struct region_any, provider),
	    provider, &from, &to);
	*first = &region_any_places[from];
	return to - from;
}

bool
region_any_matches(const struct region_query *q, const char *provider)
{
	const struct region_any *r;
	size_t n, i;

	n = region_any_list(provider, &r);
	for (i = 0; i < n; i++)
		if (region_query_match(q, provider, r[i].region))
			return true;
	return false;
}

bool
region_query_match(const struct region_query *q, const char *provider,
    const char *region)
{
	const char *country, *continent;

	/*
	 * One price and no per-region availability: where the provider
	 * has a region that satisfies q (a buyer who must run in Europe
	 * never gets a row that cannot), or by its own name ("all").
	 */
	if (q->kind != RQ_ANY && region_is_any(region))
		return ((q->kind == RQ_NAME || q->kind == RQ_GLOB) &&
		    region_text_match(q->kind, q->text, region)) ||
		    region_any_matches(q, provider);
	switch (q->kind) {
	case RQ_ANY:
		return true;
	case RQ_CONTINENT:
		region_locate(provider, region, &country, &continent);
		return strcmp(continent, q->code) == 0;
	case RQ_COUNTRY:
		region_locate(provider, region, &country, &continent);
		return strcmp(country, q->code) == 0;
	case RQ_NAME:
	case RQ_GLOB:
		return region_text_match(q->kind, q->text, region);
	}
	return false;
}

bool
region_text_match(enum region_query_kind kind, const char *text,
    const char *region)
{
	if (kind == RQ_GLOB)
		return fnmatch(text, region, FNM_CASEFOLD) == 0;
	return str_find_nocase(region, text) != NULL;
}

bool
region_is_any(const char *region)
{
	return str_eq_nocase(region, "all");
}

bool
region_matches(const char *text, const char *provider, const char *region)
{
	struct region_query q;

	if (region_query_parse(text, &q) < 0)
		return false;
	return region_query_match(&q, provider, region);
}

size_t
region_names(const char *provider, char *buf, size_t size)
{
	const struct region_place *pl;
	size_t i, len = 0, n = 0, k;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < region_place_count; i++) {
		pl = &region_places[i];
		if (strcmp(pl->provider, provider) != 0 ||
		    strchr(pl->region, '*') != NULL)
			continue;
		k = strlen(pl->region);
		if (len + (n > 0) + k >= size) {
			buf[0] = '\0';
			return 0;
		}
		if (n > 0)
			buf[len++] = ' ';
		memcpy(buf + len, pl->region, k + 1);
		len += k;
		n++;
	}
	return n;
}

bool
region_listed(const char *provider, const char *name)
{
	size_t i;

	for (i = 0; i < region_place_count; i++)
		if (strcmp(region_places[i].provider, provider) == 0 &&
		    strchr(region_places[i].region, '*') == NULL &&
		    str_eq_nocase(region_places[i].region, name))
			return true;
	return false;

}

/* Lowercase s into out (size bytes). */
static void
lower(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s != '\0' && n + 1 < size; s++)
		out[n++] = (char)tolower((unsigned char)*s);
	out[n] = '\0';
}

static bool
separator(char c)
{
	return c == '-' || c == '_' || c == ' ' || c == ',' || c == '.' ||
	    c == '/' || c == '\0';
}

/*
 * Is word (lowercased) in name (any case) from the start of one of its
 * parts to the end of one, or to where a part's number begins? "us-east"
 * in "us-east-1", "southeast" in "australia-southeast1", "florida" in
 * "Florida, US"; not "mars" in "eu-marseille-1": a place that is only
 * the start of another's name is another place.
 */
static bool
part_of(const char *word, const char *name)
{
	size_t len = strlen(word);
	const char *at;
	char end;

	if (len == 0)
		return false;
	for (at = name; (at = str_find_nocase(at, word)) != NULL; at++) {
		if (at != name && !separator(at[-1]))
			continue;
		end = at[len];
		if (separator(end) || (isdigit((unsigned char)end) &&
		    !isdigit((unsigned char)word[len - 1])))
			return true;
	}
	return false;
}

/* Is word (normalised) a part of a country's name ("united")? */
static bool
part_of_country(const char *word)
{
	char item[WORD_MAX];
	const char *list;
	size_t i, len;

	for (i = 0; i < region_country_count; i++)
		for (list = region_countries[i].names;;) {
			len = strcspn(list, "|");
			normalise_word(list, len, item, sizeof item);
			if (part_of(word, item))
				return true;
			if (list[len] == '\0')
				break;
			list += len + 1;
		}
	return false;
}

bool
region_query_known(const struct region_query *q, const char *const *names,
    size_t n)
{
	const struct region_place *pl;
	char word[WORD_MAX], prefix[WORD_MAX];
	size_t i;

	if (q->kind != RQ_NAME || region_is_any(q->text))
		return true;
	lower(q->text, word, sizeof word);
	for (i = 0; i < region_place_count; i++) {
		pl = &region_places[i];
		if (strchr(pl->region, '*') == NULL) {
			if (part_of(word, pl->region))
				return true;
			continue;
		}
		/*
		 * A pattern: part of its fixed part. Not every name it
		 * matches ("US-*" would take "us-east-7"): the cache's
		 * names (names[]) hold the ones that exist.
		 */
		lower(pl->region, prefix, sizeof prefix);
		prefix[strcspn(prefix, "*?")] = '\0';
		if (part_of(word, prefix))
			return true;
	}
	for (i = 0; i < n; i++)
		if (names[i] != NULL && part_of(word, names[i]))
			return true;
	normalise_word(q->text, strlen(q->text), word, sizeof word);
	return part_of_country(word);
}

struct suggestion {
	const char	*name;
	size_t		 len;		/* bytes of name to print */
	size_t		 dist;
};

/* Keep name (len bytes) among the best in v (*nv of max) if close. */
static void
suggest_add(struct suggestion *v, size_t *nv, size_t max, const char *word,
    const char *name, size_t len)
{
	char cand[WORD_MAX];
	size_t d, i, j;

	if (len == 0 || len >= sizeof cand)
		return;
	lower(name, cand, len + 1 < sizeof cand ? len + 1 : sizeof cand);
	d = str_distance(word, cand);
	/* str_nearest()'s typo: a third of the length, 2 from 6 on. */
	if (d == 0 || d > (len >= 6 ? 2 : len / 3 > 0 ? len / 3 : 1))
		return;
	for (i = 0; i < *nv; i++)
		if (v[i].len == len && strncasecmp(v[i].name, name, len) == 0)
			return;
	for (j = *nv; j > 0 && v[j - 1].dist > d; j--)
		;
	if (j >= max)
		return;
	if (*nv < max)
		(*nv)++;
	memmove(&v[j + 1], &v[j], (*nv - 1 - j) * sizeof v[0]);
	v[j].name = name;
	v[j].len = len;
	v[j].dist = d;
}

size_t
region_suggest(const char *text, const char *const *names, size_t n,
    char *buf, size_t size)
{
	struct suggestion v[REGION_SUGGEST_MAX];
	char word[WORD_MAX];
	const char *list;
	size_t nv = 0, i, at = 0;

	lower(text, word, sizeof word);
	for (i = 0; i < NCONTINENTS; i++)
		suggest_add(v, &nv, REGION_SUGGEST_MAX, word,
		    continents[i].name, strlen(continents[i].name));
	for (i = 0; i < region_country_count; i++) {
		list = region_countries[i].names;
		suggest_add(v, &nv, REGION_SUGGEST_MAX, word, list,
		    strcspn(list, "|"));
	}
	for (i = 0; i < region_place_count; i++)
		if (strchr(region_places[i].region, '*') == NULL)
			suggest_add(v, &nv, REGION_SUGGEST_MAX, word,
			    region_places[i].region,
			    strlen(region_places[i].region));
	for (i = 0; i < n; i++)
		if (names[i] != NULL)
			suggest_add(v, &nv, REGION_SUGGEST_MAX, word, names[i],
			    strlen(names[i]));
	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < nv && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%.*s",
		    i == 0 ? "" : ", ", (int)v[i].len, v[i].name);
	return nv;
}
