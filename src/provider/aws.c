/*
 * aws.c: the AWS adapter: EC2 on-demand prices from the public bulk price
 * list, spot prices from the EC2 website feed, interruption buckets from
 * the Spot Instance Advisor. No key.
 *
 * Requests, all through provider_url() so GPUCOST_AWS_URL redirects the
 * three hosts and keeps the paths:
 *
 *	region_index.json	buffered: the published version of each region
 *	spot.json		buffered: spot prices, every region (~3 MB)
 *	spot-advisor-data.json	buffered: interruption buckets (~1 MB)
 *	<region>/index.csv	streamed, one per region whose version changed
 *				(hundreds of MB each, parsed chunk by chunk)
 *
 * All three are conditional (provider_conditional()), the region index
 * only when asking for it so cannot skip a region the adapter would
 * have fetched (index_conditional(); else it is refetched in full):
 * when all three answer 304 the cached offers stand and nothing is
 * downloaded.
 *
 * A region whose version equals the one stored by the last successful
 * refresh is not downloaded again: provider_keep_region() keeps its
 * cached offers. The price list has no GPU model, so a static table maps
 * instance families to GPUs. The two spot feeds are read by aws_spot.c;
 * spot prices and buckets are matched to the offers in finish(),
 * whatever order the responses arrive in.
 *
 * Failures are all or nothing: refresh.c fails the provider when any
 * request fails (a spot feed that does not answer included), and this
 * adapter does the same for a feed that answers but cannot be read. A
 * refresh without spot data would replace the cached offers with copies
 * whose spot prices are unknown; keeping the last good data is better.
 *
 * Memory stays constant in the size of a price list: a region's CSV is
 * never held whole, only the partial line carried from one chunk to the
 * next (at most CSV_LINE_MAX bytes: a longer line is an error) and one
 * shared array of field slices. Complete lines inside a chunk are parsed
 * in place, without copying; nothing is allocated per row.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"
#include "aws_spot.h"
#include "aws_terms.h"

#define PRICING_ORIGIN	"https://pricing.us-east-1.amazonaws.com"
#define SPOT_ORIGIN	"https://website.spot.ec2.aws.a2z.com"
#define ADVISOR_ORIGIN	"https://spot-bid-advisor.s3.amazonaws.com"
#define EC2_OFFERS	"/offers/v1.0/aws/AmazonEC2"
#define INDEX_PATH	EC2_OFFERS "/current/region_index.json"
#define SPOT_PATH	"/spot.json"
#define ADVISOR_PATH	"/spot-advisor-data.json"

#define VERSION_MAX	64		/* "20250912225308", NUL included */
#define CSV_LINE_MAX	(64 * 1024)	/* longest CSV line accepted, bytes */
#define CSV_FIELDS_MAX	1024		/* most columns accepted (91 real) */
#define CSV_PREAMBLE_MAX 16		/* lines allowed before the header */
#define FIELD_TEXT_MAX	256		/* one decoded field we read */

#define INDEX_BODY_MAX	((size_t)1 << 20)
#define SPOT_BODY_MAX	((size_t)16 << 20)
#define ADVISOR_BODY_MAX ((size_t)8 << 20)

/* Request tags; a regional CSV is TAG_CSV + its index in state->csv. */
enum {
	TAG_INDEX = 1,
	TAG_SPOT,
	TAG_ADVISOR,
	TAG_CSV = 100
};

/* An EC2 instance family with GPUs: what the price list cannot say. */
struct gpu_family {
	const char	*family;	/* instance type before the '.' */
	const char	*gpu;		/* the GPU as AWS names it */
	int		 vram_gb;	/* memory per GPU, GB */
	enum interconnect interconnect;
	bool		 fractional;	/* sizes are slices of one GPU */
};

/*
 * Every EC2 family with GPUs (AWS GpuInfo names). VRAM is the card's,
 * not AWS's MiB figure (22888 MiB for L4 and A10G is a 24 GB card).
 * Interconnect is the board's: the p families carry SXM modules on
 * NVLink/NVSwitch, the g families PCIe cards. p3.2xlarge and p5.4xlarge
 * hold a single SXM module: they stay nvlink, which is the form factor
 * (and the SXM TFLOPS figure the cost model picks), not a claim of a
 * GPU-to-GPU link inside a one-GPU instance. g6f and gr6f sell fractions
 * of an L4: their rows are skipped.
 */
static const struct gpu_family gpu_families[] = {
	{ "g4ad",     "AMD Radeon Pro V520",        8,   IC_PCIE, false },
	{ "g4dn",     "NVIDIA T4",                  16,  IC_PCIE, false },
	{ "g5",       "NVIDIA A10G",                24,  IC_PCIE, false },
	{ "g5g",      "NVIDIA T4g",                 16,  IC_PCIE, false },
	{ "g6",       "NVIDIA L4",                  24,  IC_PCIE, false },
	{ "g6e",      "NVIDIA L40S",                48,  IC_PCIE, false },
	{ "g6f",      "NVIDIA L4",                  24,  IC_PCIE, true },
	{ "g7",       "NVIDIA RTX PRO Server 4500", 32,  IC_PCIE, false },
	{ "g7e",      "NVIDIA RTX PRO Server 6000", 96,  IC_PCIE, false },
	{ "gr6",      "NVIDIA L4",                  24,  IC_PCIE, false },
	{ "gr6f",     "NVIDIA L4",                  24,  IC_PCIE, true },
	{ "p3",       "NVIDIA V100",                16,  IC_NVLINK, false },
	{ "p3dn",     "NVIDIA V100",                32,  IC_NVLINK, false },
	{ "p4d",      "NVIDIA A100",                40,  IC_NVLINK, false },
	{ "p4de",     "NVIDIA A100",                80,  IC_NVLINK, false },
	{ "p5",       "NVIDIA H100",                80,  IC_NVLINK, false },
	{ "p5e",      "NVIDIA H200",                141, IC_NVLINK, false },
	{ "p5en",     "NVIDIA H200",                141, IC_NVLINK, false },
	{ "p6-b200",  "NVIDIA B200",                180, IC_NVLINK, false },
	{ "p6-b300",  "NVIDIA B300",                288, IC_NVLINK, false },
};

/*
 * Regions searched by default: every region with GPU instance types in
 * the SkyPilot AWS catalogue the snapshot comes from (data/README.md).
 * run->regions overrides it.
 */
static const char *const default_regions[] = {
	"us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1",
	"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1",
	"eu-south-1", "eu-south-2", "ap-northeast-1", "ap-northeast-2",
	"ap-northeast-3", "ap-south-1", "ap-southeast-1", "ap-southeast-2",
	"ap-southeast-3", "ap-east-1", "af-south-1", "me-south-1",
	"me-central-1",
};

/* Columns read from the price list, located by name in the header. */
enum column {
	COL_TERM_TYPE,
	COL_UNIT,
	COL_PRICE,
	COL_CURRENCY,
	COL_INSTANCE_TYPE,
	COL_VCPU,
	COL_MEMORY,
	COL_TENANCY,
	COL_OS,
	COL_CAPACITY,
	COL_GPU,
	COL_GPU_MEMORY,
	COL_MARKET,
	COL_PREINSTALLED,
	COL_REGION,
	COL_SKU,
	COL_TERM_CODE,
	COL_LEASE,
	COL_PURCHASE,
	COL_COUNT
};

static const struct {
	const char	*name;		/* header text */
	bool		 required;	/* a price list without it fails */
} columns[COL_COUNT] = {
	[COL_TERM_TYPE] =	{ "TermType", true },
	[COL_UNIT] =		{ "Unit", true },
	[COL_PRICE] =		{ "PricePerUnit", true },
	[COL_CURRENCY] =	{ "Currency", true },
	[COL_INSTANCE_TYPE] =	{ "Instance Type", true },
	[COL_VCPU] =		{ "vCPU", true },
	[COL_MEMORY] =		{ "Memory", true },
	[COL_TENANCY] =		{ "Tenancy", true },
	[COL_OS] =		{ "Operating System", true },
	[COL_CAPACITY] =	{ "CapacityStatus", true },
	[COL_GPU] =		{ "GPU", true },
	[COL_GPU_MEMORY] =	{ "GPU Memory", false },
	[COL_MARKET] =		{ "MarketOption", false },
	[COL_PREINSTALLED] =	{ "Pre Installed S/W", true },
	[COL_REGION] =		{ "Region Code", true },
	/* Reserved terms (aws_terms.c); without them none are read. */
	[COL_SKU] =		{ "SKU", false },
	[COL_TERM_CODE] =	{ "OfferTermCode", false },
	[COL_LEASE] =		{ "LeaseContractLength", false },
	[COL_PURCHASE] =	{ "PurchaseOption", false },
};

/* One CSV field: a slice of the line, quotes removed. */
struct field {
	const char	*p;		/* first byte of the value */
	size_t		 len;		/* bytes, "" pairs not yet undoubled */
	bool		 escaped;	/* holds "" pairs */
};

/* One region's price list, and its stream in progress. */
struct csv {
	char	 region[AWS_REGION_MAX];
	char	 version[VERSION_MAX];		/* from region_index.json */
	char	 file_version[VERSION_MAX];	/* "Version" preamble line */
	bool	 queued;		/* CSV requested */
	bool	 done;			/* CSV parsed to its end */
	bool	 header;		/* header row seen */
	size_t	 ncols;			/* header columns */
	int	 col[COL_COUNT];	/* column of each, -1 absent */
	size_t	 line;			/* lines read so far */
	char	*buf;			/* partial line carried over */
	size_t	 len;			/* bytes in buf */
	size_t	 cap;			/* size of buf, <= CSV_LINE_MAX */
};

/* The adapter's state for one refresh (run->state). */
struct aws_state {
	struct csv *csv;		/* one per region searched */
	size_t	 ncsv;
	struct field *fields;		/* CSV_FIELDS_MAX, shared scratch */
	struct aws_spot *spot;		/* spot prices and buckets */
	bool	 index_done;
	bool	 spot_done;
	bool	 advisor_done;
	size_t	 nkept;			/* regions unchanged since last time */
	size_t	 nfractional;		/* skipped rows: fractional GPU */
	size_t	 nzero;			/* skipped rows: price 0 */
	size_t	 nzone;			/* skipped rows: other location */
	size_t	 nduplicate;		/* skipped rows: key seen already */
	struct aws_terms *terms;	/* Reserved rows, applied in finish */
};

/* The family entry for an instance type ("p4d.24xlarge"), or NULL. */
static const struct gpu_family *
family_find(const char *type)
{
	const char *dot = strchr(type, '.');
	size_t i, len;

	if (dot == NULL)
		return NULL;
	len = (size_t)(dot - type);
	for (i = 0; i < sizeof gpu_families / sizeof gpu_families[0]; i++)
		if (strlen(gpu_families[i].family) == len &&
		    memcmp(gpu_families[i].family, type, len) == 0)
			return &gpu_families[i];
	return NULL;
}

/* The spot feeds keep the types family_find() knows. */
static bool
has_gpus(const char *type)
{
	return family_find(type) != NULL;
}

/* Add region code (len bytes) to the searched regions; -1 if invalid. */
static int
region_add(struct aws_state *st, const char *code, size_t len,
    struct err *err)
{
	char shown[AWS_REGION_MAX + 8];
	struct csv *c;
	size_t i;

	for (i = 0; i < len; i++)
		if (!((code[i] >= 'a' && code[i] <= 'z') ||
		    (code[i] >= '0' && code[i] <= '9') || code[i] == '-'))
			break;
	if (i < len || len >= AWS_REGION_MAX) {
		str_sanitize(shown, sizeof shown, code, len);
		err_set(err, "bad region \"%s\" in the AWS region list "
		    "(GPUCOST_AWS_REGIONS or the config file): expected "
		    "lowercase letters, digits and '-', such as us-east-1",
		    shown);
		return -1;
	}
	for (i = 0; i < st->ncsv; i++)
		if (strlen(st->csv[i].region) == len &&
		    memcmp(st->csv[i].region, code, len) == 0)
			return 0;	/* listed twice */
	st->csv = xreallocarray(st->csv, st->ncsv + 1, sizeof *st->csv);
	c = &st->csv[st->ncsv++];
	memset(c, 0, sizeof *c);
	memcpy(c->region, code, len);
	c->region[len] = '\0';
	aws_spot_region(st->spot, c->region);
	return 0;
}

/* Fill st->csv from run->regions (comma list) or the default list. */
static int
regions_init(struct aws_state *st, const char *list, struct err *err)
{
	const char *p, *end, *comma;
	size_t i;

	if (list == NULL || list[strspn(list, " \t")] == '\0') {
		for (i = 0; i < sizeof default_regions /
		    sizeof default_regions[0]; i++)
			if (region_add(st, default_regions[i],
			    strlen(default_regions[i]), err) < 0)
				return -1;
		return 0;
	}
	for (p = list; ; p = comma + 1) {
		comma = strchr(p, ',');
		end = comma != NULL ? comma : p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end > p && region_add(st, p, (size_t)(end - p), err) < 0)
			return -1;
		if (comma == NULL)
			break;
	}
	if (st->ncsv == 0) {
		err_set(err, "the AWS region list (GPUCOST_AWS_REGIONS or the "
		    "config file) names no region");
		return -1;
	}
	return 0;
}

/*
 * The meta name under which the last success says its regions were
 * settled: "index-settled" = a hash of the searched regions when every
 * one of them stored the version region_index.json gave it, "" when
 * not (a price list whose own Version differs from the index's: the
 * next refresh fetches it again).
 */
#define SETTLED_META	"index-settled"

/* A hash of the searched regions, in order, as 16 hex digits. */
static void
regions_key(const struct aws_state *st, char *buf, size_t size)
{
	uint64_t h = STR_FNV1A_BASIS;
	size_t i;

	for (i = 0; i < st->ncsv; i++) {
		h = str_fnv1a(h, st->csv[i].region, strlen(st->csv[i].region));
		h = str_fnv1a(h, ",", 1);
	}
	snprintf(buf, size, "%016llx", (unsigned long long)h);
}

/*
 * May region_index.json be asked for conditionally? A 304 keeps every
 * region as it is, which is what index_parse() would do only if the
 * last success searched these same regions and stored for each the
 * version the index gave it.
 */
static bool
index_conditional(const struct provider_run *run, const struct aws_state *st)
{
	const char *settled = provider_old_meta(run, SETTLED_META);
	char key[32];

	regions_key(st, key, sizeof key);
	return settled != NULL && strcmp(settled, key) == 0;
}

/* Record whether every region now stores its index version. */
static void
index_settle(struct provider_run *run, const struct aws_state *st)
{
	const struct csv *c;
	const char *stored;
	char key[32];
	size_t i;

	regions_key(st, key, sizeof key);
	for (i = 0; i < st->ncsv; i++) {
		c = &st->csv[i];
		stored = c->queued && c->file_version[0] != '\0' ?
		    c->file_version : c->version;
		if (strcmp(stored, c->version) != 0) {
			key[0] = '\0';
			break;
		}
	}
	provider_set_meta(run, SETTLED_META, key);
}

/* Queue the three buffered requests; CSVs follow region_index.json. */
static int
aws_start(struct provider_run *run, struct err *err)
{
	struct aws_state *st;
	struct http_request *req;

	st = xcalloc(1, sizeof *st);
	st->terms = aws_terms_new();
	st->spot = aws_spot_new(has_gpus);
	run->state = st;
	if (regions_init(st, run->regions, err) < 0)
		return -1;
	st->fields = xreallocarray(NULL, CSV_FIELDS_MAX, sizeof *st->fields);
	/* Each of the three is a whole document. */
	req = provider_queue(run, provider_url(run, PRICING_ORIGIN,
	    INDEX_PATH), NULL, TAG_INDEX);
	req->max_body = INDEX_BODY_MAX;
	provider_conditional(req);
	req->refetch = !index_conditional(run, st);
	req = provider_queue(run, provider_url(run, SPOT_ORIGIN, SPOT_PATH),
	    NULL, TAG_SPOT);
	req->max_body = SPOT_BODY_MAX;
	provider_conditional(req);
	req = provider_queue(run, provider_url(run, ADVISOR_ORIGIN,
	    ADVISOR_PATH), NULL, TAG_ADVISOR);
	req->max_body = ADVISOR_BODY_MAX;
	provider_conditional(req);
	return 0;
}

/*
 * The version in region's currentVersionUrl
 * ("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json"):
 * digits only, so a "current" link can never pass for a version.
 */
static int
version_from_url(const char *url, const char *region, char *out,
    size_t size)
{
	const char *p = strstr(url, "/AmazonEC2/");
	size_t len, rlen = strlen(region);

	if (p == NULL)
		return -1;
	p += strlen("/AmazonEC2/");
	len = strspn(p, "0123456789");
	if (len == 0 || len >= size || p[len] != '/' ||
	    strncmp(p + len + 1, region, rlen) != 0 || p[len + 1 + rlen] != '/')
		return -1;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

/* The meta name under which a region's version is kept. */
static void
version_meta_name(char *buf, size_t size, const char *region)
{
	snprintf(buf, size, "version:%s", region);
}

/*
 * region_index.json: for each searched region keep the cached offers if
 * its version is unchanged, else queue its CSV.
 */
static int
index_parse(struct provider_run *run, struct aws_state *st,
    const struct http_result *res, struct err *err)
{
	const cJSON *regions, *entry;
	cJSON *root;
	char path[96], url[512], name[PROVIDER_META_NAME_MAX];
	const char *old;
	struct http_request *req;
	struct csv *c;
	size_t i;

	if (json_parse(res->body, res->body_len, &root, err) < 0) {
		err_prefix(err, "region_index.json");
		goto fail;
	}
	if ((regions = json_get_object(root, "regions", "region_index.json",
	    err)) == NULL)
		goto fail;
	for (i = 0; i < st->ncsv; i++) {
		c = &st->csv[i];
		entry = cJSON_GetObjectItemCaseSensitive(regions, c->region);
		if (!cJSON_IsObject(entry)) {
			err_set(err, "region_index.json: no region \"%s\" in "
			    "the AWS price list (check GPUCOST_AWS_REGIONS)",
			    c->region);
			goto fail;
		}
		snprintf(path, sizeof path, "region_index.json.regions.%s",
		    c->region);
		if (json_get_string(entry, "currentVersionUrl", path, url,
		    sizeof url, NULL, err) < 0)
			goto fail;
		if (version_from_url(url, c->region, c->version,
		    sizeof c->version) < 0) {
			err_set(err, "%s.currentVersionUrl: no version in "
			    "\"%.100s\"", path, url);
			goto fail;
		}
		version_meta_name(name, sizeof name, c->region);
		old = provider_old_meta(run, name);
		if (old != NULL && strcmp(old, c->version) == 0) {
			/* Unchanged: keep its offers, and its version. */
			st->nkept++;
			provider_keep_region(run, c->region);
			provider_set_meta(run, name, c->version);
			continue;
		}
		snprintf(url, sizeof url, EC2_OFFERS "/current/%s/index.csv",
		    c->region);
		req = provider_queue(run, provider_url(run, PRICING_ORIGIN,
		    url), NULL, TAG_CSV + (int)i);
		req->stream = true;
		c->queued = true;
	}
	cJSON_Delete(root);
	st->index_done = true;
	return 0;
fail:
	cJSON_Delete(root);
	return -1;
}

/*
 * Split a CSV line into st->fields: quoted fields ("a ""b"", c") or bare
 * ones. Returns the field count, or -1 with err for an unterminated
 * quote, text after a closing quote or too many fields.
 */
static long
csv_split(struct aws_state *st, const char *line, size_t len,
    struct err *err)
{
	const char *q;
	size_t i = 0, n = 0, start;
	bool escaped;

	for (;;) {
		if (n == CSV_FIELDS_MAX) {
			err_set(err, "more than %d fields", CSV_FIELDS_MAX);
			return -1;
		}
		if (i < len && line[i] == '"') {
			start = ++i;
			escaped = false;
			for (;;) {
				q = memchr(line + i, '"', len - i);
				if (q == NULL) {
					err_set(err, "field %zu: quote not "
					    "closed", n + 1);
					return -1;
				}
				i = (size_t)(q - line);
				if (i + 1 < len && line[i + 1] == '"') {
					escaped = true;
					i += 2;
					continue;
				}
				break;
			}
			st->fields[n].p = line + start;
			st->fields[n].len = i - start;
			st->fields[n].escaped = escaped;
			i++;
			if (i < len && line[i] != ',') {
				err_set(err, "field %zu: text after the "
				    "closing quote", n + 1);
				return -1;
			}
		} else {
			q = memchr(line + i, ',', len - i);
			start = i;
			i = q != NULL ? (size_t)(q - line) : len;
			st->fields[n].p = line + start;
			st->fields[n].len = i - start;
			st->fields[n].escaped = false;
		}
		n++;
		if (i >= len)
			return (long)n;
		i++;		/* the comma */
	}
}

/* Is field f (NULL: an absent optional column) exactly s? */
static bool
field_is(const struct field *f, const char *s)
{
	return f != NULL && !f->escaped && f->len == strlen(s) &&
	    memcmp(f->p, s, f->len) == 0;
}

/* Decode field f ("" -> ") into buf and sanitise it. */
static void
field_text(const struct field *f, char *buf, size_t size)
{
	char raw[FIELD_TEXT_MAX];
	size_t i, n = 0;

	for (i = 0; i < f->len && n < sizeof raw; i++) {
		raw[n++] = f->p[i];
		if (f->escaped && f->p[i] == '"' && i + 1 < f->len &&
		    f->p[i + 1] == '"')
			i++;
	}
	str_sanitize(buf, size, raw, n);
}

/* The column of field c in this CSV's rows, or NULL when absent. */
static const struct field *
field_at(const struct aws_state *st, const struct csv *c, enum column col)
{
	return c->col[col] < 0 ? NULL : &st->fields[c->col[col]];
}

/*
 * Parse "768 GiB", "1,152 GiB" or "192 GB" into *gb; "NA" or empty is 0
 * (unknown). Returns -1 for anything else.
 */
static int
parse_gb(const char *text, double *gb)
{
	char num[32], *end;
	size_t i, n = 0;

	*gb = 0;
	if (text[0] == '\0' || strcmp(text, "NA") == 0)
		return 0;
	for (i = 0; text[i] != '\0' && text[i] != ' ' && n + 1 < sizeof num;
	    i++)
		if (text[i] != ',')
			num[n++] = text[i];
	num[n] = '\0';
	if (n == 0 || !((num[0] >= '0' && num[0] <= '9') || num[0] == '.'))
		return -1;
	*gb = strtod(num, &end);
	if (*end != '\0' || !isfinite(*gb) || *gb < 0)
		return -1;
	while (text[i] == ' ')
		i++;
	if (strcmp(text + i, "GiB") != 0 && strcmp(text + i, "GB") != 0)
		return -1;
	return 0;
}

/* Outcome of reading the GPU column. */
enum gpu_count_kind {
	GPUS_WHOLE,		/* *count whole GPUs */
	GPUS_FRACTIONAL,	/* a slice of one GPU: not an offer */
	GPUS_BAD
};

/* Read the GPU column: "8" or "8.0", or a fraction ("0.125", "1/8", "<1"). */
static enum gpu_count_kind
parse_gpu_count(const char *text, int *count)
{
	char *end;
	double v;
	long n;

	*count = 0;
	if (text[0] >= '0' && text[0] <= '9' &&
	    strspn(text, "0123456789") == strlen(text)) {
		if (strlen(text) > 6)
			return GPUS_BAD;
		n = strtol(text, NULL, 10);
		if (n < 1)
			return GPUS_BAD;
		*count = (int)n;
		return GPUS_WHOLE;
	}
	if (text[0] == '<' || (strchr(text, '/') != NULL &&
	    strspn(text, "0123456789/") == strlen(text)))
		return GPUS_FRACTIONAL;
	v = strtod(text, &end);
	if (end == text || *end != '\0' || !(v > 0))
		return GPUS_BAD;
	if (v < 1)
		return GPUS_FRACTIONAL;
	if (v > floor(v) || v > 999999)
		return GPUS_BAD;	/* 1.5 GPUs */
	*count = (int)v;		/* "8.0" */
	return GPUS_WHOLE;
}

/*
 * Is GPU Memory (gb, per instance or per GPU: the price list is not
 * consistent) within 12 % of what the family table says? AWS counts
 * MiB: an L4 is 22888 MiB, a 288 GB B300 275040 MiB.
 */
static bool
gpu_memory_agrees(double gb, int count, int vram_gb)
{
	double total = (double)count * vram_gb;

	return fabs(gb - total) <= 0.12 * total ||
	    fabs(gb - vram_gb) <= 0.12 * vram_gb;
}

/*
 * A Reserved row of a GPU type in the region (same tenancy, system and
 * capacity filters as on-demand): one price dimension of a term, to
 * aws_terms.c. A list without the term columns has no terms to read.
 */
static int
csv_reserved(struct aws_state *st, struct csv *c, const char *type,
    const char *region, struct err *err)
{
	char sku[64], code[64], lease[32], purchase[32], unit[32];
	char text[FIELD_TEXT_MAX];
	struct aws_reserved_row row;

	if (c->col[COL_SKU] < 0 || c->col[COL_TERM_CODE] < 0 ||
	    c->col[COL_LEASE] < 0 || c->col[COL_PURCHASE] < 0)
		return 0;
	field_text(field_at(st, c, COL_SKU), sku, sizeof sku);
	field_text(field_at(st, c, COL_TERM_CODE), code, sizeof code);
	field_text(field_at(st, c, COL_LEASE), lease, sizeof lease);
	field_text(field_at(st, c, COL_PURCHASE), purchase, sizeof purchase);
	field_text(field_at(st, c, COL_UNIT), unit, sizeof unit);
	field_text(field_at(st, c, COL_PRICE), text, sizeof text);
	memset(&row, 0, sizeof row);
	if (money_parse(text, strlen(text), &row.price) < 0) {
		err_set(err, "line %zu (%s): PricePerUnit: expected a price "
		    "in USD, got \"%s\"", c->line, type, text);
		return -1;
	}
	row.sku = sku;
	row.term_code = code;
	row.type = type;
	row.region = region;
	row.lease = lease;
	row.purchase = purchase;
	row.unit = unit;
	if (aws_terms_reserved(st->terms, &row, err) < 0) {
		err_prefix(err, "line %zu (%s, Reserved)", c->line, type);
		return -1;
	}
	return 0;
}

/*
 * One data row that passed the pre-filter and has the header's field
 * count: keep it if it is an on-demand Linux price of a GPU type (or
 * a Reserved term's price of one: csv_reserved()).
 */
static int
csv_row(struct provider_run *run, struct aws_state *st, struct csv *c,
    struct err *err)
{
	const struct field *pre, *market, *gpu_memory;
	const struct gpu_family *fam;
	char type[OFFER_NAME_MAX], region[OFFER_NAME_MAX];
	char text[FIELD_TEXT_MAX];
	struct offer o, *dup;
	int64_t price;
	double gb;
	long vcpus;
	char *end;
	bool reserved;

	pre = field_at(st, c, COL_PREINSTALLED);
	market = field_at(st, c, COL_MARKET);
	reserved = field_is(field_at(st, c, COL_TERM_TYPE), "Reserved");
	if ((!reserved &&
	    !field_is(field_at(st, c, COL_TERM_TYPE), "OnDemand")) ||
	    !field_is(field_at(st, c, COL_TENANCY), "Shared") ||
	    !field_is(field_at(st, c, COL_OS), "Linux") ||
	    !(field_is(pre, "") || field_is(pre, "NA")) ||
	    !field_is(field_at(st, c, COL_CAPACITY), "Used") ||
	    !(field_is(field_at(st, c, COL_UNIT), "Hrs") || (reserved &&
	    field_is(field_at(st, c, COL_UNIT), "Quantity"))) ||
	    !field_is(field_at(st, c, COL_CURRENCY), "USD") ||
	    (market != NULL && !field_is(market, "OnDemand")))
		return 0;
	field_text(field_at(st, c, COL_INSTANCE_TYPE), type, sizeof type);
	if ((fam = family_find(type)) == NULL)
		return 0;	/* not a GPU type: the bulk of the file */

	field_text(field_at(st, c, COL_REGION), region, sizeof region);
	if (region[0] == '\0') {
		err_set(err, "line %zu (%s): Region Code: empty", c->line,
		    type);
		return -1;
	}
	if (strcmp(region, c->region) != 0) {
		/* A Local or Wavelength Zone listed in the region's file. */
		if (!reserved)
			provider_skip(run, &st->nzone);
		return 0;
	}
	if (fam->fractional) {
		if (!reserved)
			provider_skip(run, &st->nfractional);
		return 0;
	}
	if (reserved)
		return csv_reserved(st, c, type, region, err);

	offer_init(&o);
	field_text(field_at(st, c, COL_GPU), text, sizeof text);
	switch (parse_gpu_count(text, &o.gpu_count)) {
	case GPUS_WHOLE:
		break;
	case GPUS_FRACTIONAL:
		provider_skip(run, &st->nfractional);
		return 0;
	case GPUS_BAD:
		err_set(err, "line %zu (%s): GPU: expected a GPU count, got "
		    "\"%s\"", c->line, type, text);
		return -1;
	}

	field_text(field_at(st, c, COL_PRICE), text, sizeof text);
	if (money_parse(text, strlen(text), &price) < 0) {
		err_set(err, "line %zu (%s): PricePerUnit: expected a price "
		    "in USD, got \"%s\"", c->line, type, text);
		return -1;
	}
	if (price == 0) {
		provider_skip(run, &st->nzero);
		return 0;
	}

	field_text(field_at(st, c, COL_VCPU), text, sizeof text);
	vcpus = 0;
	if (text[0] != '\0' && strcmp(text, "NA") != 0) {
		vcpus = strtol(text, &end, 10);
		if (*end != '\0' || vcpus < 1 || vcpus > OFFER_VCPUS_MAX ||
		    !(text[0] >= '0' && text[0] <= '9')) {
			err_set(err, "line %zu (%s): vCPU: expected a count, "
			    "got \"%s\"", c->line, type, text);
			return -1;
		}
	}
	field_text(field_at(st, c, COL_MEMORY), text, sizeof text);
	if (parse_gb(text, &o.ram_gb) < 0) {
		err_set(err, "line %zu (%s): Memory: expected \"<n> GiB\", "
		    "got \"%s\"", c->line, type, text);
		return -1;
	}
	if ((gpu_memory = field_at(st, c, COL_GPU_MEMORY)) != NULL) {
		field_text(gpu_memory, text, sizeof text);
		if (parse_gb(text, &gb) < 0) {
			err_set(err, "line %zu (%s): GPU Memory: expected "
			    "\"<n> GB\", got \"%s\"", c->line, type, text);
			return -1;
		}
		/* A wrong family table would name the wrong GPU: stop. */
		if (gb > 0 && !gpu_memory_agrees(gb, o.gpu_count,
		    fam->vram_gb)) {
			err_set(err, "line %zu (%s): GPU Memory \"%s\" does "
			    "not match %d x %s %d GB (the adapter's family "
			    "table needs an update)", c->line, type, text,
			    o.gpu_count, fam->gpu, fam->vram_gb);
			return -1;
		}
	}

	offer_set_keyf(&run->offers, &o, "%s/%s", type, region);
	if ((dup = provider_offer_find(run, o.key)) != NULL) {
		/* Two rows for one type: keep the cheaper price. */
		if (price < dup->price)
			dup->price = price;
		provider_skip(run, &st->nduplicate);
		return 0;
	}
	offer_set_instance_type(&run->offers, &o, type);
	offer_set_region(&run->offers, &o, region);
	o.vcpus = (int)vcpus;
	o.price = price;
	o.vram_gb = fam->vram_gb;
	o.interconnect = fam->interconnect;
	o.availability = AV_UNKNOWN;	/* the price list has no stock */
	provider_set_gpu(run, &o, fam->gpu, fam->vram_gb);
	*offer_list_add(&run->offers) = o;
	if (provider_offer_done(run, err) < 0) {
		err_prefix(err, "line %zu", c->line);
		return -1;
	}
	return 0;
}

/* Record the header's column positions; -1 if a needed one is missing. */
static int
csv_header(struct aws_state *st, struct csv *c, size_t n, struct err *err)
{
	size_t i, k;

	for (k = 0; k < COL_COUNT; k++) {
		c->col[k] = -1;
		for (i = 0; i < n; i++)
			if (field_is(&st->fields[i], columns[k].name)) {
				c->col[k] = (int)i;
				break;
			}
		if (c->col[k] < 0 && columns[k].required) {
			err_set(err, "line %zu: the header has no \"%s\" "
			    "column", c->line, columns[k].name);
			return -1;
		}
	}
	c->ncols = n;
	c->header = true;
	return 0;
}

/* A line before the header: the preamble, or the header itself. */
static int
csv_preamble(struct aws_state *st, struct csv *c, const char *line,
    size_t len, struct err *err)
{
	char text[FIELD_TEXT_MAX];
	long n;

	if ((n = csv_split(st, line, len, err)) < 0) {
		err_prefix(err, "line %zu", c->line);
		return -1;
	}
	if (c->line == 1 && !field_is(&st->fields[0], "FormatVersion")) {
		str_sanitize(text, 40, line, len);
		err_set(err, "line 1: not an AWS price list CSV (expected "
		    "\"FormatVersion\", got \"%s\")", text);
		return -1;
	}
	if (n > 2)
		return csv_header(st, c, (size_t)n, err);
	if (n == 2 && field_is(&st->fields[0], "Version")) {
		field_text(&st->fields[1], text, sizeof text);
		if (text[0] != '\0' && strlen(text) < sizeof c->file_version)
			str_copy(c->file_version, sizeof c->file_version,
			    text);
	}
	if (c->line >= CSV_PREAMBLE_MAX) {
		err_set(err, "no header row in the first %d lines",
		    CSV_PREAMBLE_MAX);
		return -1;
	}
	return 0;
}

/*
 * Does word occur in line? memchr() for its byte at index `at` (one
 * that is rare in price list rows: the x of Linux), then a compare: a
 * third of the time of glibc's memmem() over a 200 MB list, where every
 * line is searched and most lack the word.
 */
static bool
has_word(const char *line, size_t len, const char *word, size_t at)
{
	const char *p = line + at, *end = line + len;
	size_t n = strlen(word);

	if (len < n)
		return false;
	while ((p = memchr(p, word[at], (size_t)(end - p))) != NULL) {
		if ((size_t)(end - (p - at)) >= n &&
		    memcmp(p - at, word, n) == 0)
			return true;
		p++;
	}
	return false;
}

/*
 * Cheap pre-filter on the raw line, before any CSV parsing: well under
 * 1 % of the rows of a regional price list are on-demand Linux GPU
 * prices, and a row can only be one if these words occur somewhere in
 * it (TermType, Operating System, Tenancy, CapacityStatus). Searching
 * unquoted words keeps this true however AWS quotes its fields. "Used"
 * does not match "Unused" (case).
 */
static bool
csv_prefilter(const char *line, size_t len)
{
	return has_word(line, len, "Linux", 4) &&
	    has_word(line, len, "Shared", 0) &&
	    has_word(line, len, "Used", 0) &&
	    has_word(line, len, "OnDemand", 0);
}

/*
 * One complete line (no newline) of a region's CSV; last is the final
 * line of a body that does not end in a newline, which must be a whole
 * record or the body was cut short.
 */
static int
csv_line(struct provider_run *run, struct aws_state *st, struct csv *c,
    const char *line, size_t len, bool last, struct err *err)
{
	long n;

	c->line++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	if (!c->header) {
		if (last) {
			err_set(err, "no header row (body truncated?)");
			return -1;
		}
		return csv_preamble(st, c, line, len, err);
	}
	if (!last && !csv_prefilter(line, len))
		return 0;
	n = csv_split(st, line, len, err);
	if (last && (n < 0 || (size_t)n != c->ncols)) {
		err_set(err, "line %zu: body truncated in the middle of a "
		    "record", c->line);
		return -1;
	}
	if (n < 0) {
		err_prefix(err, "line %zu", c->line);
		return -1;
	}
	if ((size_t)n != c->ncols) {
		err_set(err, "line %zu: %ld fields, the header has %zu",
		    c->line, n, c->ncols);
		return -1;
	}
	if (last && !csv_prefilter(line, len))
		return 0;
	return csv_row(run, st, c, err);
}

/* Add n bytes to the line carried over to the next chunk. */
static int
csv_carry(struct csv *c, const char *data, size_t n, struct err *err)
{
	if (n == 0)
		return 0;
	if (c->len + n > CSV_LINE_MAX) {
		err_set(err, "line %zu is longer than %d bytes", c->line + 1,
		    CSV_LINE_MAX);
		return -1;
	}
	if (c->len + n > c->cap) {
		c->cap = c->cap == 0 ? 4096 : c->cap;
		while (c->cap < c->len + n)
			c->cap *= 2;
		if (c->cap > CSV_LINE_MAX)
			c->cap = CSV_LINE_MAX;
		c->buf = xreallocarray(c->buf, c->cap, 1);
	}
	memcpy(c->buf + c->len, data, n);
	c->len += n;
	return 0;
}

/* The region whose CSV request carries this tag, or NULL. */
static struct csv *
csv_for_tag(struct aws_state *st, int tag)
{
	if (st == NULL || tag < TAG_CSV || (size_t)(tag - TAG_CSV) >= st->ncsv)
		return NULL;
	return &st->csv[tag - TAG_CSV];
}

/* Parse one piece of a region's CSV: whole lines in place, the rest kept. */
static int
csv_chunk(struct provider_run *run, struct aws_state *st, struct csv *c,
    const char *data, size_t len, struct err *err)
{
	const char *p = data, *end = data + len, *nl;

	if (c->len > 0) {
		if ((nl = memchr(p, '\n', len)) == NULL)
			return csv_carry(c, p, len, err);
		if (csv_carry(c, p, (size_t)(nl - p), err) < 0 ||
		    csv_line(run, st, c, c->buf, c->len, false, err) < 0)
			return -1;
		c->len = 0;
		p = nl + 1;
	}
	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (nl - p > CSV_LINE_MAX) {
			err_set(err, "line %zu is longer than %d bytes",
			    c->line + 1, CSV_LINE_MAX);
			return -1;
		}
		if (csv_line(run, st, c, p, (size_t)(nl - p), false, err) < 0)
			return -1;
		p = nl + 1;
	}
	return csv_carry(c, p, (size_t)(end - p), err);
}

/* The chunk hook: only the regional CSVs stream. */
static int
aws_chunk(struct provider_run *run, const struct http_request *req,
    const char *data, size_t len, struct err *err)
{
	struct aws_state *st = run->state;
	struct csv *c = csv_for_tag(st, req->tag);

	if (c == NULL || !c->queued || c->done) {
		err_set(err, "unexpected streamed body from %s", req->url);
		return -1;
	}
	if (csv_chunk(run, st, c, data, len, err) < 0) {
		err_prefix(err, "price list %s", c->region);
		return -1;
	}
	return 0;
}

/*
 * A region's CSV ended: parse a last line without a newline, and record
 * the version. The preamble's "Version" wins over region_index.json's:
 * it names the rows actually read, so if the index was ahead the next
 * refresh sees a difference and downloads again rather than skipping
 * the region with older prices.
 */
static int
csv_end(struct provider_run *run, struct aws_state *st, struct csv *c,
    struct err *err)
{
	char name[PROVIDER_META_NAME_MAX];

	if (c->len > 0 && csv_line(run, st, c, c->buf, c->len, true, err) < 0)
		goto fail;
	if (!c->header) {
		err_set(err, "no header row (body empty or truncated)");
		goto fail;
	}
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
	c->done = true;
	version_meta_name(name, sizeof name, c->region);
	provider_set_meta(run, name, c->file_version[0] != '\0' ?
	    c->file_version : c->version);
	return 0;
fail:
	err_prefix(err, "price list %s", c->region);
	return -1;
}

/* The response hook: dispatch by tag. */
static int
aws_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	struct aws_state *st = run->state;
	struct csv *c;

	switch (res->req->tag) {
	case TAG_INDEX:
		return index_parse(run, st, res, err);
	case TAG_SPOT:
		if (aws_spot_feed(st->spot, res, err) < 0)
			return -1;
		st->spot_done = true;
		return 0;
	case TAG_ADVISOR:
		if (aws_spot_advisor(st->spot, res, err) < 0)
			return -1;
		st->advisor_done = true;
		return 0;
	default:
		if ((c = csv_for_tag(st, res->req->tag)) == NULL ||
		    !c->queued || c->done) {
			err_set(err, "unexpected response from %s",
			    res->req->url);
			return -1;
		}
		return csv_end(run, st, c, err);
	}
}

/* Say what was kept and skipped, for the summary line. */
static void
note_write(struct provider_run *run, const struct aws_state *st,
    const struct aws_terms_stats *ts)
{
	if (st->nkept > 0)
		provider_note(run, "%zu region%s unchanged (cached offers "
		    "kept)", st->nkept, st->nkept == 1 ? "" : "s");
	if (st->nfractional > 0)
		provider_note(run, "%zu fractional-GPU row%s skipped",
		    st->nfractional, st->nfractional == 1 ? "" : "s");
	if (st->nzero > 0)
		provider_note(run, "%zu zero-price row%s skipped", st->nzero,
		    st->nzero == 1 ? "" : "s");
	if (st->nzone > 0)
		provider_note(run, "%zu Local Zone row%s skipped", st->nzone,
		    st->nzone == 1 ? "" : "s");
	if (st->nduplicate > 0)
		provider_note(run, "%zu duplicate row%s skipped",
		    st->nduplicate, st->nduplicate == 1 ? "" : "s");
	if (ts->terms > 0)
		provider_note(run, "%zu reserved term%s read, %zu reservation "
		    "price%s kept (%zu incomplete or implausible)", ts->terms,
		    ts->terms == 1 ? "" : "s", ts->kept,
		    ts->kept == 1 ? "" : "s", ts->incomplete);
}

/*
 * Instance types AWS sells only as EC2 Capacity Blocks for ML (and spot),
 * never on demand: the price list has no on-demand row for them, so the
 * price list alone would drop them. The spot feed shows where they exist;
 * such an offer has no on-demand price and says how it is sold
 * (not-on-demand), as the snapshot has it. Shapes from the EC2 instance
 * type page (p5e.48xlarge: 8 x H200, 192 vCPUs, 2,048 GiB).
 */
static const struct capacity_only {
	const char	*type;
	int		 gpus;
	int		 vcpus;
	double		 ram_gb;
} capacity_only[] = {
	{ "p5e.48xlarge", 8, 192, 2048 },
};

/*
 * The capacity-only offers of the regions this refresh read the price
 * list of (a kept region's come back from the cache), where the spot
 * feed prices them.
 */
static int
add_capacity_only(struct provider_run *run, struct aws_state *st,
    struct err *err)
{
	const struct capacity_only *c;
	const struct gpu_family *fam;
	struct offer o;
	size_t i, k;

	for (i = 0; i < st->ncsv; i++) {
		if (!st->csv[i].queued || !st->csv[i].done)
			continue;
		for (k = 0; k < sizeof capacity_only / sizeof capacity_only[0];
		    k++) {
			c = &capacity_only[k];
			if (aws_spot_price(st->spot, st->csv[i].region,
			    c->type) == MONEY_NONE ||
			    (fam = family_find(c->type)) == NULL)
				continue;
			offer_init(&o);
			offer_set_keyf(&run->offers, &o, "%s/%s", c->type,
			    st->csv[i].region);
			if (provider_offer_find(run, o.key) != NULL)
				continue;	/* an on-demand row after all */
			offer_set_instance_type(&run->offers, &o, c->type);
			offer_set_region(&run->offers, &o, st->csv[i].region);
			o.gpu_count = c->gpus;
			o.vcpus = c->vcpus;
			o.ram_gb = c->ram_gb;
			o.vram_gb = fam->vram_gb;
			o.interconnect = fam->interconnect;
			o.availability = AV_UNKNOWN;
			o.notes = NOTE_BIT(NOTE_NOT_ON_DEMAND);
			provider_set_gpu(run, &o, fam->gpu, fam->vram_gb);
			*offer_list_add(&run->offers) = o;
			if (provider_offer_done(run, err) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * Every response is in: put the spot prices and buckets on the offers.
 * Every offer's spot fields are set from this refresh's feeds, so one
 * that is no longer in the feed loses its old spot price.
 */
static int
aws_finish(struct provider_run *run, struct err *err)
{
	struct aws_state *st = run->state;
	struct aws_terms_stats ts;
	struct offer *o;
	size_t i;

	if (!st->index_done || !st->spot_done || !st->advisor_done) {
		err_set(err, "a price feed did not answer");
		return -1;
	}
	for (i = 0; i < st->ncsv; i++)
		if (st->csv[i].queued && !st->csv[i].done) {
			err_set(err, "price list %s: no response",
			    st->csv[i].region);
			return -1;
		}
	aws_spot_sort(st->spot);
	if (add_capacity_only(run, st, err) < 0)
		return -1;
	for (i = 0; i < run->offers.n; i++) {
		o = &run->offers.v[i];
		o->spot_price = aws_spot_price(st->spot, o->region,
		    o->instance_type);
		o->spot_interruption = aws_spot_bucket(st->spot, o->region,
		    o->instance_type);
	}
	aws_terms_apply(st->terms, &run->offers, &ts);
	index_settle(run, st);
	note_write(run, st, &ts);
	return 0;
}

/* The regions to search: GPUCOST_AWS_REGIONS, else aws_regions. */
static void
aws_configure(struct provider_run *run, provider_setting_fn *setting,
    void *ctx)
{
	run->regions = setting(ctx, "GPUCOST_AWS_REGIONS", "aws_regions");
}

/* Free the state. */
static void
aws_done(struct provider_run *run)
{
	struct aws_state *st = run->state;
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < st->ncsv; i++)
		free(st->csv[i].buf);
	free(st->csv);
	free(st->fields);
	aws_spot_free(st->spot);
	aws_terms_free(st->terms);
	free(st);
	run->state = NULL;
}

const struct provider provider_aws = {
	.id = "aws",
	.name = "AWS",
	.key_env = NULL,
	.key_required = false,
	.configure = aws_configure,
	.start = aws_start,
	.chunk = aws_chunk,
	.response = aws_response,
	.finish = aws_finish,
	.done = aws_done,
};
