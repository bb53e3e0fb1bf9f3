/*
 * region.h: where a provider's region is, and --region matching.
 *
 * Every provider names its regions its own way ("eu-west-1",
 * "europe-west4", "EU-SE-1", "fr-par-2", "Florida, US"). The table in
 * data/regions.tsv (compiled into src/region_table.c) maps each to an
 * ISO 3166-1 country and a continent code (AF AN AS EU NA OC SA), so a
 * query for "europe" or "de" means the same place at every provider.
 * Free-text locations (Vast) are read for a country code or name.
 * Pure: no I/O, no state.
 */
#ifndef GPUCOST_REGION_H
#define GPUCOST_REGION_H

#include <stdbool.h>
#include <stddef.h>

struct region_country {
	const char	*code;		/* ISO 3166-1 alpha-2, "DE" */
	const char	*continent;	/* "EU" */
	const char	*names;		/* '|'-separated, "Germany" */
};

struct region_place {
	const char	*provider;	/* "aws" */
	const char	*region;	/* exact name, or a pattern with '*' */
	const char	*country;	/* "" when not published */
	const char	*continent;
};

/*
 * A region where a provider's offer in region "all" (one price in every
 * region, no per-region availability: the snapshot's Lambda, OCI) can be
 * started: a row of data/any_region.tsv, each with a place in
 * data/regions.tsv, a provider's rows together.
 */
struct region_any {
	const char	*provider;
	const char	*region;
};

/* Generated from data/countries.tsv, regions.tsv and any_region.tsv. */
extern const struct region_country region_countries[];	/* sorted by code */
extern const size_t region_country_count;
extern const struct region_place region_places[];
extern const size_t region_place_count;
extern const struct region_any region_any_places[];
extern const size_t region_any_count;

/*
 * Where a provider's region is. Sets *country and *continent to codes
 * ("DE", "EU"), or to "" when unknown; returns true if the continent is
 * known.
 */
bool	region_locate(const char *provider, const char *region,
	    const char **country, const char **continent);

enum region_query_kind {
	RQ_ANY = 0,		/* empty query */
	RQ_CONTINENT,		/* "europe", "eu", "north-america", "na" ... */
	RQ_COUNTRY,		/* "de", "us", "germany", "south korea" ... */
	RQ_NAME,		/* substring of the provider's region name */
	RQ_GLOB			/* glob with * ? [ ] on the region name */
};

struct region_query {
	enum region_query_kind kind;
	char		 code[3];	/* continent or country code */
	const char	*text;		/* borrowed: the query as given */
};

/*
 * Read a --region value: a continent, else a country (code or name),
 * else a region name (substring), or a glob when it has * ? or [.
 * Returns 0, or -1 for a glob with a '[' that never closes
 * (str_glob_valid(), the check filter.c makes): a usage error.
 */
int	region_query_parse(const char *text, struct region_query *q);

/*
 * Is the region "all": one offer priced the same in every region, with no
 * per-region availability (OCI, the snapshot's Lambda)? The table shows
 * it as "any region"; it matches a --region only where its provider has
 * a region there (region_any_list()).
 */
bool	region_is_any(const char *region);

/*
 * The regions where provider's "all" offer can be started: *first points
 * at the first of its rows of region_any_places; returns how many (0:
 * none is known, and the offer matches no --region but "all" itself).
 */
size_t	region_any_list(const char *provider, const struct region_any **first);

/*
 * Does one of the regions where provider's "all" offer can be started
 * satisfy q? (The cache's SQL asks it of each provider of
 * region_any_places, so the two agree.)
 */
bool	region_any_matches(const struct region_query *q, const char *provider);

/*
 * Does a provider's region satisfy the query? A region "all" does where
 * its own name does (a name or glob that matches "all") or where one of
 * region_any_list()'s regions does: "any region" is not "in Europe"
 * unless the provider has a region in Europe.
 */
bool	region_query_match(const struct region_query *q, const char *provider,
	    const char *region);

/*
 * Is q something gpucost can place: empty, a continent, a country, a
 * glob (any valid one), or a name that is part of a region name of
 * data/regions.tsv (or of the fixed part of one of its patterns, "EU-SE-"),
 * of a country's name, or of one of names[0..n) (the cache's region
 * names: a marketplace's free-text places, the names a pattern stands for)? A --region that is none of these
 * is a typo or a place no provider has, and is refused
 * (filter_region_check()) rather than answered with nothing.
 */
bool	region_query_known(const struct region_query *q,
	    const char *const *names, size_t n);

/*
 * The known names nearest to text (continents, countries, region names
 * of the tables and of names[0..n)), close enough to be a typo of it,
 * nearest first, without repeats: up to REGION_SUGGEST_MAX of them into
 * buf, ", "-separated. Returns how many.
 */
#define REGION_SUGGEST_MAX	4
size_t	region_suggest(const char *text, const char *const *names, size_t n,
	    char *buf, size_t size);

/*
 * The test of an RQ_NAME (substring, case ignored) or RQ_GLOB query's
 * text on a region name, without the "all" rule: region_query_match()
 * uses it, and so does the cache's SQL (db_filter.c), so the two agree.
 */
bool	region_text_match(enum region_query_kind kind, const char *text,
	    const char *region);

/* region_query_parse() and region_query_match() in one (an invalid glob
 * matches nothing). */
bool	region_matches(const char *text, const char *provider,
	    const char *region);

/*
 * A provider's own region names (data/regions.tsv; patterns left out),
 * blank-separated into buf: where an offer priced the same everywhere
 * (region "all") can be started. Returns how many; 0 (buf "") for none
 * or when they do not fit.
 */
size_t	region_names(const char *provider, char *buf, size_t size);

/* Is name one of the provider's own region names (case ignored)? */
bool	region_listed(const char *provider, const char *name);

/* "europe" for "EU" ...; NULL for an unknown code. */
const char *region_continent_name(const char *code);

#endif
