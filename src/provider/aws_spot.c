/*
 * aws_spot.c: the AWS spot feeds: spot prices (spot.json) and
 * interruption buckets (spot-advisor-data.json), for aws.c.
 */
#include "config.h"
#include "aws_spot.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

/* A spot price or interruption bucket for one type in one region. */
struct spot_entry {
	char	 region[AWS_REGION_MAX];
	char	 type[OFFER_NAME_MAX];
	int64_t	 price;			/* micro-USD per instance-hour */
	int	 bucket;		/* Spot Advisor "r", 0..4 */
};

struct spot_list {
	struct spot_entry *v;
	size_t	 n;
	size_t	 cap;
};

/*
 * The two spot feeds, read for the searched regions and the types with
 * GPUs only: the rest of the ~3 MB feed is never kept.
 */
struct aws_spot {
	aws_gpu_type_fn	 *gpu_type;	/* does this type have GPUs? */
	char		(*regions)[AWS_REGION_MAX];	/* searched, in order */
	size_t		  nregions;
	struct spot_list  spot;		/* spot prices */
	struct spot_list  advice;	/* interruption buckets */
};

/* Region names of the legacy spot.js feed, should a mirror serve it. */
static const struct {
	const char	*legacy;
	const char	*code;
} legacy_regions[] = {
	{ "us-east", "us-east-1" },
	{ "us-west", "us-west-1" },
	{ "eu-ireland", "eu-west-1" },
	{ "apac-sin", "ap-southeast-1" },
	{ "apac-syd", "ap-southeast-2" },
	{ "apac-tokyo", "ap-northeast-1" },
};

struct aws_spot *
aws_spot_new(aws_gpu_type_fn *gpu_type)
{
	struct aws_spot *sp = xcalloc(1, sizeof *sp);

	sp->gpu_type = gpu_type;
	return sp;
}

void
aws_spot_free(struct aws_spot *sp)
{
	if (sp == NULL)
		return;
	free(sp->regions);
	free(sp->spot.v);
	free(sp->advice.v);
	free(sp);
}

void
aws_spot_region(struct aws_spot *sp, const char *code)
{
	sp->regions = xreallocarray(sp->regions, sp->nregions + 1,
	    sizeof *sp->regions);
	str_copy(sp->regions[sp->nregions++], sizeof *sp->regions, code);
}

/* Is code one of the searched regions? */
static bool
spot_searched(const struct aws_spot *sp, const char *code)
{
	size_t i;

	for (i = 0; i < sp->nregions; i++)
		if (strcmp(sp->regions[i], code) == 0)
			return true;
	return false;
}

/* Append an entry to a spot list. */
static void
spot_add(struct spot_list *list, const char *region, const char *type,
    int64_t price, int bucket)
{
	struct spot_entry *e;

	if (list->n == list->cap) {
		list->cap = list->cap == 0 ? 256 : list->cap * 2;
		list->v = xreallocarray(list->v, list->cap, sizeof *list->v);
	}
	e = &list->v[list->n++];
	str_copy(e->region, sizeof e->region, region);
	str_copy(e->type, sizeof e->type, type);
	e->price = price;
	e->bucket = bucket;
}

/* Order spot entries by region, type, then price (cheapest first). */
static int
spot_cmp(const void *a, const void *b)
{
	const struct spot_entry *x = a, *y = b;
	int c;

	if ((c = strcmp(x->region, y->region)) != 0)
		return c;
	if ((c = strcmp(x->type, y->type)) != 0)
		return c;
	return x->price < y->price ? -1 : x->price > y->price;
}

/* The first (cheapest) entry for region and type in a sorted list. */
static const struct spot_entry *
spot_find(const struct spot_list *list, const char *region, const char *type)
{
	size_t lo = 0, hi = list->n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(list->v[mid].region, region);
		if (c == 0)
			c = strcmp(list->v[mid].type, type);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < list->n && strcmp(list->v[lo].region, region) == 0 &&
	    strcmp(list->v[lo].type, type) == 0)
		return &list->v[lo];
	return NULL;
}

/*
 * The JSON inside a JSONP body ("callback({...});"), or the body itself.
 * Sets *start and *len to the slice to parse.
 */
static void
jsonp_unwrap(const char *body, size_t body_len, size_t *start, size_t *len)
{
	size_t i = 0, j = body_len, open;

	*start = 0;
	*len = body_len;
	while (i < body_len && (body[i] == ' ' || body[i] == '\t' ||
	    body[i] == '\r' || body[i] == '\n'))
		i++;
	for (open = i; open < body_len && open - i < 64; open++)
		if (!((body[open] >= 'a' && body[open] <= 'z') ||
		    (body[open] >= 'A' && body[open] <= 'Z') ||
		    (body[open] >= '0' && body[open] <= '9') ||
		    body[open] == '_' || body[open] == '$' ||
		    body[open] == '.'))
			break;
	if (open == i || open >= body_len || body[open] != '(')
		return;
	while (j > open && (body[j - 1] == ' ' || body[j - 1] == '\t' ||
	    body[j - 1] == '\r' || body[j - 1] == '\n' || body[j - 1] == ';'))
		j--;
	if (j <= open + 1 || body[j - 1] != ')')
		return;
	*start = open + 1;
	*len = j - 1 - *start;
}

/* The region code a spot feed region name stands for. */
static const char *
spot_region_code(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof legacy_regions / sizeof legacy_regions[0]; i++)
		if (strcmp(legacy_regions[i].legacy, name) == 0)
			return legacy_regions[i].code;
	return name;
}

/* The Linux spot price of one size entry of the spot feed. */
static int
spot_size_parse(struct aws_spot *sp, const char *region,
    const cJSON *size, const char *path, struct err *err)
{
	const cJSON *cols, *col, *prices;
	char type[OFFER_NAME_MAX], name[16], usd[32], cpath[224];
	int64_t price;
	size_t k = 0;
	bool found;

	if (json_get_string(size, "size", path, type, sizeof type, NULL,
	    err) < 0)
		return -1;
	if (!sp->gpu_type(type))
		return 0;
	if ((cols = json_get_array(size, "valueColumns", path, err)) == NULL)
		return -1;
	cJSON_ArrayForEach(col, cols) {
		snprintf(cpath, sizeof cpath, "%s.valueColumns[%zu]", path,
		    k++);
		if (json_get_string(col, "name", cpath, name, sizeof name, NULL,
		    err) < 0)
			return -1;
		if (strcmp(name, "linux") != 0)
			continue;
		if ((prices = json_get_object(col, "prices", cpath,
		    err)) == NULL)
			return -1;
		strncat(cpath, ".prices", sizeof cpath - strlen(cpath) - 1);
		if (json_get_string(prices, "USD", cpath, usd, sizeof usd,
		    &found, err) < 0)
			return -1;
		/* "N/A*": not offered as spot here. */
		if (!found || strncmp(usd, "N/A", 3) == 0)
			return 0;
		if (money_parse(usd, strlen(usd), &price) < 0) {
			err_set(err, "%s.USD: expected a price in USD, got "
			    "\"%s\" (%s)", cpath, usd, type);
			return -1;
		}
		/* The feed shows 0 for types it has no price for. */
		if (price > 0)
			spot_add(&sp->spot, region, type, price, -1);
		return 0;
	}
	return 0;
}

/*
 * spot.json (or the spot.js JSONP form): the Linux spot price of every
 * GPU type in the searched regions. Group names ("gpuCurrentGen",
 * "uI" ...) are free-form, so every group is read.
 */
int
aws_spot_feed(struct aws_spot *sp, const struct http_result *res,
    struct err *err)
{
	const cJSON *config, *regions, *reg, *groups, *group, *sizes, *size;
	cJSON *root = NULL;
	char rate[16], name[AWS_REGION_MAX + 32], path[160];
	const char *code;
	size_t start, len, i, j, k;
	bool found;

	jsonp_unwrap(res->body, res->body_len, &start, &len);
	if (json_parse(res->body + start, len, &root, err) < 0) {
		err_prefix(err, "spot.json");
		goto fail;
	}
	if ((config = json_get_object(root, "config", "spot.json",
	    err)) == NULL)
		goto fail;
	if (json_get_string(config, "rate", "spot.json.config", rate,
	    sizeof rate, &found, err) < 0)
		goto fail;
	if (found && strcmp(rate, "perhr") != 0) {
		err_set(err, "spot.json.config.rate: expected \"perhr\", got "
		    "\"%s\"", rate);
		goto fail;
	}
	if ((regions = json_get_array(config, "regions", "spot.json.config",
	    err)) == NULL)
		goto fail;
	for (i = 0, reg = regions->child; reg != NULL; i++, reg = reg->next) {
		snprintf(path, sizeof path, "spot.json.config.regions[%zu]", i);
		if (json_get_string(reg, "region", path, name, sizeof name,
		    NULL, err) < 0)
			goto fail;
		code = spot_region_code(name);
		if (!spot_searched(sp, code))
			continue;
		if ((groups = json_get_array(reg, "instanceTypes", path,
		    err)) == NULL)
			goto fail;
		for (j = 0, group = groups->child; group != NULL;
		    j++, group = group->next) {
			snprintf(path, sizeof path, "spot.json.config."
			    "regions[%zu].instanceTypes[%zu]", i, j);
			if ((sizes = json_get_array(group, "sizes", path,
			    err)) == NULL)
				goto fail;
			for (k = 0, size = sizes->child; size != NULL;
			    k++, size = size->next) {
				snprintf(path, sizeof path, "spot.json.config."
				    "regions[%zu].instanceTypes[%zu]"
				    ".sizes[%zu]", i, j, k);
				if (spot_size_parse(sp, code, size, path,
				    err) < 0)
					goto fail;
			}
		}
	}
	cJSON_Delete(root);
	return 0;
fail:
	cJSON_Delete(root);
	return -1;
}

/*
 * spot-advisor-data.json: spot_advisor[region]["Linux"][type].r, the
 * interruption bucket 0..4, for every GPU type in the searched regions.
 */
int
aws_spot_advisor(struct aws_spot *sp, const struct http_result *res,
    struct err *err)
{
	const cJSON *advisor, *reg, *os, *type;
	cJSON *root = NULL;
	char path[160], shown[OFFER_NAME_MAX];
	long long bucket;
	size_t i;

	if (json_parse(res->body, res->body_len, &root, err) < 0) {
		err_prefix(err, "spot-advisor-data.json");
		goto fail;
	}
	if ((advisor = json_get_object(root, "spot_advisor",
	    "spot-advisor-data.json", err)) == NULL)
		goto fail;
	for (i = 0; i < sp->nregions; i++) {
		reg = cJSON_GetObjectItemCaseSensitive(advisor,
		    sp->regions[i]);
		if (!cJSON_IsObject(reg))
			continue;	/* no spot market there */
		os = cJSON_GetObjectItemCaseSensitive(reg, "Linux");
		if (!cJSON_IsObject(os))
			continue;
		cJSON_ArrayForEach(type, os) {
			if (type->string == NULL ||
			    !sp->gpu_type(type->string))
				continue;
			provider_copy(shown, sizeof shown, type->string);
			snprintf(path, sizeof path, "spot-advisor-data.json."
			    "spot_advisor.%s.Linux.%s", sp->regions[i],
			    shown);
			if (!cJSON_IsObject(type)) {
				err_set(err, "%s: expected an object, got %s",
				    path, json_type_name(type));
				goto fail;
			}
			if (json_get_int(type, "r", path, 0, 4, &bucket, NULL,
			    err) < 0)
				goto fail;
			spot_add(&sp->advice, sp->regions[i], shown, 0,
			    (int)bucket);
		}
	}
	cJSON_Delete(root);
	return 0;
fail:
	cJSON_Delete(root);
	return -1;
}

/* Done reading: sort both lists for the lookups. */
void
aws_spot_sort(struct aws_spot *sp)
{
	if (sp->spot.n > 0)
		qsort(sp->spot.v, sp->spot.n, sizeof *sp->spot.v, spot_cmp);
	if (sp->advice.n > 0)
		qsort(sp->advice.v, sp->advice.n, sizeof *sp->advice.v,
		    spot_cmp);
}

int64_t
aws_spot_price(const struct aws_spot *sp, const char *region,
    const char *type)
{
	const struct spot_entry *e = spot_find(&sp->spot, region, type);

	return e != NULL ? e->price : MONEY_NONE;
}

int
aws_spot_bucket(const struct aws_spot *sp, const char *region,
    const char *type)
{
	const struct spot_entry *e = spot_find(&sp->advice, region, type);

	return e != NULL ? e->bucket : -1;
}
