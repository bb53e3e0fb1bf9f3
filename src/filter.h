/*
 * filter.h: the query's filter fields, one table for both faces.
 *
 * Every way of narrowing the offers -- the CLI's query options and the
 * TUI's filter panel -- is a row of FILTER_FIELD_INFO: its option name,
 * the panel's label, what kind of value it takes, its bounds and its
 * help line. filter_set() is the one parser: `gpucost --gpu H100,H200`
 * and typing "H100,H200" into the panel's GPU field run the same code,
 * so what one face accepts the other does. The CLI's option table, its
 * --help and the panel's rows are generated from this table; the
 * panel's summary line (filter_describe) prints real CLI words.
 *
 * Adding a filter: a field in struct offer_filter (offer.h), a row here,
 * and its test in offer_matches() (offer.c). Pure: no I/O.
 */
#ifndef GPUCOST_FILTER_H
#define GPUCOST_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "offer.h"

struct err;

/* How the value is given and shown. */
enum filter_kind {
	FILTER_PICK,	/* a comma list chosen from names (GPUs, providers) */
	FILTER_NUMBER,	/* a number: typed, or stepped with the arrow keys */
	FILTER_TEXT,	/* free text */
	FILTER_CHOICE,	/* one of a few words, stepped */
	FILTER_FLAG	/* on or off: a CLI option without a value */
};

/* What the value is, and so which parser reads it. */
enum filter_type {
	FT_GPUS,	/* comma list of GPU models or families */
	FT_PROVIDERS,	/* comma list of provider ids */
	FT_INT,		/* int, whole number within min..max; 0 any */
	FT_MONEY,	/* int64_t micro-USD per GPU-hour, "$" allowed */
	FT_LINK,	/* enum interconnect: nvlink or pcie */
	FT_PATTERN,	/* char[]: a name, substring or glob; "" any */
	FT_STRING,	/* char[]: search words; "" any */
	FT_BOOL,	/* bool: yes / no */
	FT_FABRIC	/* unsigned: FABRIC_BIT()s, FABRIC_ANY; 0 default */
};

/*
 * id, the struct offer_filter member it sets, option (--option), short
 * option, argument name (NULL for a flag), panel label, kind, type,
 * minimum and maximum (FT_INT), what a bad value should have been
 * (FT_INT), help line. FT_INT, FT_BOOL, FT_MONEY and the string fields
 * are read and written through the member's offset, so a new filter of
 * those types is a member, a row and a test in offer_matches().
 */
#define FILTER_FIELD_INFO(X)						\
	X(FF_GPU, ngpus, "gpu", 'g', "NAME", "GPU model", FILTER_PICK,	\
	    FT_GPUS, 0, 0, NULL,					\
	    "GPU models or families, comma list (A100-80,H100); with a " \
	    "form word (\"H100 SXM\") only that form")		\
	X(FF_COUNT, count, "count", 'n', "N", "GPU count", FILTER_NUMBER,	\
	    FT_INT, 1, 1024, "a positive integer", "GPUs in one instance") \
	X(FF_MULTI_NODE, multi_node, "multi-node", 0, NULL, "Multi-node",	\
	    FILTER_FLAG, FT_BOOL, 0, 0, NULL,				\
	    "also k instances of N/k GPUs (no NVLink between them)")	\
	X(FF_VRAM, min_vram_gb, "min-vram", 0, "GB", "Min VRAM/GPU",	\
	    FILTER_NUMBER, FT_INT, 1, 1024,				\
	    "a whole number of GB from 1 to 1024",			\
	    "memory per GPU at least GB")				\
	X(FF_LINK, interconnect, "interconnect", 0, "TYPE", "Interconnect",	\
	    FILTER_CHOICE, FT_LINK, 0, 0, NULL, "nvlink or pcie")	\
	X(FF_PROVIDERS, nproviders, "provider", 'p', "LIST", "Providers",	\
	    FILTER_PICK, FT_PROVIDERS, 0, 0, NULL,			\
	    "providers, comma list (repeats add up)")			\
	X(FF_REGION, region, "region", 'r', "WHERE", "Region", FILTER_TEXT, \
	    FT_PATTERN, 0, 0, NULL,					\
	    "continent (europe, na ...), country (us, de ...), else region " \
	    "name or glob") \
	X(FF_MAX_PRICE, max_price_gpu_hour, "max-price", 0, "USD",		\
	    "Max $/GPU-h", FILTER_NUMBER, FT_MONEY, 0, 0, NULL,		\
	    "at most USD per GPU-hour (spot price with --spot)")	\
	X(FF_SPOT, spot, "spot", 0, NULL, "Spot only", FILTER_FLAG, FT_BOOL,	\
	    0, 0, NULL, "rank by spot price; only offers with one")	\
	X(FF_AVAILABLE, available, "available", 0, NULL, "Available only",	\
	    FILTER_FLAG, FT_BOOL, 0, 0, NULL,				\
	    "only offers known to be available now")			\
	X(FF_VERTEX, vertex, "vertex", 0, NULL, "Vertex AI only",	\
	    FILTER_FLAG, FT_BOOL, 0, 0, NULL,				\
	    "only GCP offers Vertex AI training has in their region")	\
	X(FF_TEXT, text, "match", 0, "WORDS", "Text search", FILTER_TEXT,	\
	    FT_STRING, 0, 0, NULL,					\
	    "every word in the provider, instance, region or GPU name")	\
	X(FF_NO_OUTLIERS, no_outliers, "no-outliers", 0, NULL, "No outliers",	\
	    FILTER_FLAG, FT_BOOL, 0, 0, NULL,				\
	    "skip offers noted price-outlier")			\
	X(FF_INCLUDE_STALE, include_stale, "include-stale", 0, NULL,	\
	    "Market refs too", FILTER_FLAG, FT_BOOL, 0, 0, NULL,	\
	    "also marketplace listings older than a day (market "	\
	    "references, not offers)")				\
	X(FF_VCPUS_GPU, min_vcpus_per_gpu, "min-vcpu-per-gpu", 0, "N",	\
	    "Min vCPU/GPU", FILTER_NUMBER, FT_INT, 1, 1024,		\
	    "a whole number of vCPUs from 1 to 1024",			\
	    "host vCPUs per GPU at least N")				\
	X(FF_RAM_GPU, min_ram_gb_per_gpu, "min-ram-per-gpu", 0, "GB",	\
	    "Min RAM/GPU", FILTER_NUMBER, FT_INT, 1, 65536,		\
	    "a whole number of GB from 1 to 65536",			\
	    "host RAM per GPU at least GB")				\
	X(FF_FABRIC, fabrics, "fabric", 0, "KIND", "Fabric",		\
	    FILTER_TEXT, FT_FABRIC, 0, 0, NULL,				\
	    "fabric between nodes, comma list: efa, infiniband, roce, "	\
	    "tcpxo, tcpx, ethernet, rdma (efa/infiniband/roce) or any")	\
	X(FF_NODE_GBPS, min_node_gbps, "min-node-gbps", 0, "N",		\
	    "Min node Gb/s", FILTER_NUMBER, FT_INT, 1, 100000,		\
	    "a whole number of Gb/s from 1 to 100000",			\
	    "fabric bandwidth per node at least N Gb/s")		\
	X(FF_NODES, nodes, "nodes", 0, "N", "Nodes", FILTER_NUMBER,	\
	    FT_INT, 1, 1024, "a whole number of nodes from 1 to 1024",	\
	    "exactly N nodes (instances) per plan")

enum filter_field {
#define X(id, member, opt, sh, arg, label, kind, type, min, max, what, help) id,
	FILTER_FIELD_INFO(X)
#undef X
	FILTER_FIELD_COUNT
};

struct filter_field_info {
	const char	*option;	/* long option without "--" */
	int		 short_opt;	/* 0 when none */
	const char	*arg;		/* value name; NULL for a flag */
	const char	*label;		/* the panel's row */
	enum filter_kind kind;
	enum filter_type type;
	size_t		 offset;	/* of the member in struct offer_filter */
	size_t		 member_size;
	long		 min, max;	/* FT_INT bounds */
	const char	*what;		/* FT_INT: "a positive integer" */
	const char	*help;		/* --help line */
};

extern const struct filter_field_info filter_fields[FILTER_FIELD_COUNT];

/* The field whose option is name ("gpu"), or -1. */
int	filter_field_by_option(const char *name);

/*
 * Set field ff of f from text, the one parser of both faces. Comma lists
 * may have blanks after the commas; "any" (or "") sets the field to
 * any; a flag takes yes/no (the CLI passes "yes"). With add, a list
 * field keeps the values it has and adds these (the CLI's repeated
 * options); without, they replace them (the panel's edit). Returns 0,
 * or -1 with a message naming the option and the bad value in err and f
 * unchanged.
 */
int	filter_set(struct offer_filter *f, enum filter_field ff,
	    const char *text, bool add, struct err *err);

/* Is the field set (not "any")? */
bool	filter_is_set(const struct offer_filter *f, enum filter_field ff);

/*
 * Is f's --region something gpucost can place (region_query_known():
 * a continent, a country, a glob, part of a region name of the tables
 * or of names[0..n), the cache's region names)? Returns 0, or -1 with
 * the nearest names in err: a usage error in every face (the CLI's
 * commands, the TUI's start and filter panel, MCP through the CLI), so
 * a typo or a place no provider has is refused, never answered with
 * the offers that match anything. filter_set() cannot know the cache:
 * a face that has it calls this after it.
 */
int	filter_region_check(const struct offer_filter *f,
	    const char *const *names, size_t n, struct err *err);

/* Set the field to any. */
void	filter_clear(struct offer_filter *f, enum filter_field ff);
/*
 * Clear every field of f: the filter of `gpucost` with no option (market
 * references left out, as by default), asked at the same time (f->now
 * kept: offer_filter_init() sets it to 0, which judges no offer a market
 * reference).
 */
void	filter_clear_all(struct offer_filter *f);

/*
 * The value as it would be typed ("" when unset, "4", "2.5",
 * "aws,gcp"): filter_set() of it gives the same filter back.
 */
size_t	filter_text(const struct offer_filter *f, enum filter_field ff,
	    char *buf, size_t size);

/* The value for people: "any"/"no" when unset, "80 GB", "$2.50". */
size_t	filter_value(const struct offer_filter *f, enum filter_field ff,
	    char *buf, size_t size);

/*
 * The whole filter as CLI words, each value shell-quoted where needed:
 * "--gpu H100 --count 8 --interconnect nvlink --region 'us-*'". "" when
 * nothing is set. Returns the length.
 */
size_t	filter_describe(const struct offer_filter *f, char *buf, size_t size);

#endif
