/*
 * azure.c: the Microsoft Azure adapter (Retail Prices API, no key).
 *
 *	GET https://prices.azure.com/api/retail/prices
 *	    ?api-version=2023-01-01-preview&meterRegion='primary'
 *	    &$filter=serviceName eq 'Virtual Machines'
 *	     and contains(armSkuName, 'Standard_N')
 *
 * Pages of up to 1000 items, {"Items": [...], "NextPageLink": ...}; the
 * link is an absolute URL on prices.azure.com, null or "" on the last
 * page. Only its path and query are followed, always on Azure's origin
 * or on GPUCOST_AZURE_URL, so a page can never send the adapter to
 * another host; AZURE_PAGES_MAX pages at most, and a page naming itself
 * again is a loop. Filter values are case-sensitive in this API version.
 *
 * The server-side filter is not trusted (a published query returned a
 * Reservation under priceType eq 'Consumption'); each item is checked:
 *
 *	type "Consumption", productName without "Windows"	Linux
 *	meterName ending " Spot"				spot price
 *	meterName ending " Low Priority"			skipped: Batch
 *		priority, not spot
 *	type "DevTestConsumption"				skipped: a
 *		discounted Dev/Test rate, not the on-demand price
 *	type "Reservation"					a committed
 *		price (committed.h): its retailPrice is the whole term's
 *		although the unit says "1 Hour" (NC48ads_A100_v4, 1 year:
 *		42066), so the effective price is retailPrice / 8,760 per
 *		year of reservationTerm; an effective price below a tenth of
 *		the size's on-demand price is no price ("implausible")
 *	savingsPlan[] of an on-demand row			committed
 *		prices too, already hourly: {retailPrice, term "1 Year" |
 *		"3 Years"}, never divided
 *	unitOfMeasure other than "1 Hour", retailPrice 0,
 *	isPrimaryMeterRegion false				skipped
 *
 * The price list names neither the GPU nor how many: those come from
 * azure_skus[] (Microsoft's size pages, gpuhunt's gpu_vm_series and the
 * SkyPilot Azure catalog for vCPUs and memory). Sizes that hold a
 * fraction of a GPU (NVadsA10 v5 below 36 vCPUs, NVv4 below 32,
 * NVads V710 v5 below 24, NC RTXPRO6000BSE v6 below 128) are not whole
 * GPUs and are skipped: a slice is neither a GPU nor a share of a
 * multi-GPU offer, and its price per GPU-hour would compare a fraction
 * with whole cards; an N-series size the table does not
 * know is skipped and named in the note, never guessed.
 *
 * One offer per (armSkuName, armRegionName): key "<size>/<region>",
 * on-demand and spot rows of a size joined (meterName spelling varies,
 * "ND96isrH100v5" and "ND96isr H100 v5", so only its suffix is read);
 * when a size is listed twice in a region, the lower price stands.
 * Availability is unknown: the price list says where a size is priced,
 * not whether it can be had.
 */
#include "config.h"
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define AZURE_ORIGIN	"https://prices.azure.com"
/* The first page; NextPageLink carries the same query plus $skip. */
#define AZURE_FIRST_PAGE						\
	"/api/retail/prices?api-version=2023-01-01-preview"		\
	"&meterRegion=%27primary%27"					\
	"&$filter=serviceName%20eq%20%27Virtual%20Machines%27"		\
	"%20and%20contains(armSkuName,%20%27Standard_N%27)"
#define AZURE_PAGES_MAX	200	/* ~4,000 GPU rows in 1,000-item pages */
#define AZURE_LINK_MAX	2048	/* bytes of a NextPageLink */

/* Why an item gave no price, in the order the note lists them. */
enum azure_skip {
	AZ_SKIP_WINDOWS,
	AZ_SKIP_LOW_PRIORITY,
	AZ_SKIP_DEVTEST,
	AZ_SKIP_RESERVATION,	/* a reservation of no offer of ours */
	AZ_SKIP_FRACTION,
	AZ_SKIP_UNKNOWN_SIZE,
	AZ_SKIP_NOT_GPU,
	AZ_SKIP_OTHER,		/* zero price, other unit, secondary meter */
	AZ_SKIP_COUNT
};

static const char *const azure_skip_label[AZ_SKIP_COUNT] = {
	"Windows",
	"Low Priority",
	"Dev/Test",
	"reservation",
	"fractional-GPU",
	"unknown-size",
	"non-GPU",
	"other",
};

/*
 * The GPU sizes. vram_gb is per GPU as the VM gets it: it picks the
 * family member (A100 40/80, V100 16/32) and is the offer's figure (0:
 * the catalogue's); vcpus and ram_gb are the whole VM (0: not
 * published). infiniband: the "r" sizes with an InfiniBand fabric
 * between VMs (for multi-node plans). fraction: a slice of one GPU.
 */
static const struct azure_sku {
	const char	*name;		/* armSkuName */
	const char	*gpu_raw;
	int		 count;
	int		 vram_gb;
	int		 vcpus;
	double		 ram_gb;
	enum interconnect ic;
	bool		 infiniband;
	bool		 fraction;
} azure_skus[] = {
	/* ND H100/H200/MI300X v5: 8 GPUs on NVLink (Infinity Fabric on
	 * MI300X, which is not NVLink), 400 Gb/s NDR InfiniBand per GPU. */
	{ "Standard_ND96isr_H100_v5", "H100 SXM", 8, 80, 96, 1900,
	    IC_NVLINK, true, false },
	{ "Standard_ND96isr_H200_v5", "H200", 8, 141, 96, 1850,
	    IC_NVLINK, true, false },
	{ "Standard_ND96isr_MI300X_v5", "MI300X", 8, 192, 96, 1850,
	    IC_UNKNOWN, true, false },
	/* ND GB200 v6: 4 Blackwell GPUs of a GB200 NVL72 rack. */
	{ "Standard_ND128isr_NDR_GB200_v6", "GB200", 4, 0, 128, 0,
	    IC_NVLINK, true, false },
	/* ND GB300 v6: 4 Blackwell Ultra GPUs of a GB300 NVL72 rack. */
	{ "Standard_ND128isr_GB300_v6", "GB300", 4, 0, 128, 0,
	    IC_NVLINK, true, false },
	/* NC H100 v5: H100 NVL (94 GB) PCIe cards. */
	{ "Standard_NC40ads_H100_v5", "H100 NVL", 1, 94, 40, 320,
	    IC_PCIE, false, false },
	{ "Standard_NCC40ads_H100_v5", "H100 NVL", 1, 94, 40, 320,
	    IC_PCIE, false, false },
	{ "Standard_NC80adis_H100_v5", "H100 NVL", 2, 94, 80, 640,
	    IC_UNKNOWN, false, false },
	/* NC A100 v4: A100 80 GB PCIe cards, no NVLink bridge (Microsoft's
	 * NC A100 v4 page names only PCIe). ND A100 v4: 8 SXM4 on NVSwitch. */
	{ "Standard_NC24ads_A100_v4", "A100 PCIe", 1, 80, 24, 220,
	    IC_PCIE, false, false },
	{ "Standard_NC48ads_A100_v4", "A100 PCIe", 2, 80, 48, 440,
	    IC_PCIE, false, false },
	{ "Standard_NC96ads_A100_v4", "A100 PCIe", 4, 80, 96, 880,
	    IC_PCIE, false, false },
	{ "Standard_ND96amsr_A100_v4", "A100 SXM", 8, 80, 96, 1800,
	    IC_NVLINK, true, false },
	{ "Standard_ND96asr_v4", "A100 SXM", 8, 40, 96, 900,
	    IC_NVLINK, true, false },
	/* NCasT4 v3. */
	{ "Standard_NC4as_T4_v3", "T4", 1, 16, 4, 28, IC_PCIE, false, false },
	{ "Standard_NC8as_T4_v3", "T4", 1, 16, 8, 56, IC_PCIE, false, false },
	{ "Standard_NC16as_T4_v3", "T4", 1, 16, 16, 110,
	    IC_PCIE, false, false },
	{ "Standard_NC64as_T4_v3", "T4", 4, 16, 64, 440,
	    IC_PCIE, false, false },
	/* NCv3: V100 16 GB; NC24rs_v3 adds FDR InfiniBand. NDv2: 8 V100
	 * 32 GB SXM2 on NVLink with InfiniBand. */
	{ "Standard_NC6s_v3", "V100", 1, 16, 6, 112, IC_PCIE, false, false },
	{ "Standard_NC12s_v3", "V100", 2, 16, 12, 224,
	    IC_UNKNOWN, false, false },
	{ "Standard_NC24s_v3", "V100", 4, 16, 24, 448,
	    IC_UNKNOWN, false, false },
	{ "Standard_NC24rs_v3", "V100", 4, 16, 24, 448,
	    IC_UNKNOWN, true, false },
	{ "Standard_ND40rs_v2", "V100 SXM2", 8, 32, 40, 672,
	    IC_NVLINK, true, false },
	/* NC A10 v4 and NVadsA10 v5: whole A10s from 36 vCPUs up (NV) and
	 * in every NC size; NV6/12/18ads are 1/6, 1/3 and 1/2 of one. */
	{ "Standard_NC8ads_A10_v4", "A10", 1, 24, 8, 100,
	    IC_PCIE, false, false },
	{ "Standard_NC16ads_A10_v4", "A10", 1, 24, 16, 200,
	    IC_PCIE, false, false },
	{ "Standard_NC32ads_A10_v4", "A10", 2, 24, 32, 400,
	    IC_PCIE, false, false },
	{ "Standard_NV6ads_A10_v5", "A10", 1, 24, 6, 55,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV12ads_A10_v5", "A10", 1, 24, 12, 110,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV18ads_A10_v5", "A10", 1, 24, 18, 220,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV36ads_A10_v5", "A10", 1, 24, 36, 440,
	    IC_PCIE, false, false },
	{ "Standard_NV36adms_A10_v5", "A10", 1, 24, 36, 880,
	    IC_PCIE, false, false },
	{ "Standard_NV72ads_A10_v5", "A10", 2, 24, 72, 880,
	    IC_PCIE, false, false },
	/*
	 * NC RTXPRO6000BSE v6: RTX PRO 6000 Blackwell Server Edition, 96 GB,
	 * PCIe (no NVLink on the card). Microsoft's accelerator table (as
	 * quoted by third-party collectors, 2026-09) sells 1/4 (NC24lds,
	 * NC36ds, NC36lds), 1/2 (NC72ds, NC72lds), 1 (NC144ds, NC144lds)
	 * and 2 GPUs (NC288ds, NC288lds); Microsoft's AKS size list gives
	 * the hosts. The preview's NC128ds (1 GPU, 128 vCPUs, 512 GB) and
	 * NC256ds (2 GPUs, 1,024 GB), still priced, are whole cards too:
	 * their users report one full 96 GB GPU and two peer GPUs.
	 */
	{ "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 24,
	    72, IC_UNKNOWN, false, true },
	{ "Standard_NC36ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 36, 0,
	    IC_UNKNOWN, false, true },
	{ "Standard_NC36lds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 36,
	    72, IC_UNKNOWN, false, true },
	{ "Standard_NC72ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 72, 0,
	    IC_UNKNOWN, false, true },
	{ "Standard_NC72lds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 72,
	    0, IC_UNKNOWN, false, true },
	{ "Standard_NC128ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 128,
	    512, IC_PCIE, false, false },
	{ "Standard_NC144ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96, 144,
	    516, IC_PCIE, false, false },
	{ "Standard_NC144lds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 1, 96,
	    144, 264, IC_PCIE, false, false },
	{ "Standard_NC256ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 2, 96, 256,
	    1024, IC_PCIE, false, false },
	{ "Standard_NC288ds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 2, 96, 288,
	    1032, IC_PCIE, false, false },
	{ "Standard_NC288lds_xl_RTXPRO6000BSE_v6", "RTX PRO 6000", 2, 96,
	    288, 516, IC_PCIE, false, false },
	/*
	 * NVads V710 v5: AMD Radeon PRO V710 partitions (Microsoft's NVads
	 * V710 v5 size page): 1/6, 1/3 and 1/2 of one in NV4/8/12ads; a
	 * whole one, of which the VM gets 24 GB, in NV24ads and NV28adms.
	 */
	{ "Standard_NV4ads_V710_v5", "Radeon Pro V710", 1, 24, 4, 16,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV8ads_V710_v5", "Radeon Pro V710", 1, 24, 8, 32,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV12ads_V710_v5", "Radeon Pro V710", 1, 24, 12, 64,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV24ads_V710_v5", "Radeon Pro V710", 1, 24, 24, 128,
	    IC_PCIE, false, false },
	{ "Standard_NV28adms_V710_v5", "Radeon Pro V710", 1, 24, 28, 160,
	    IC_PCIE, false, false },
	/* NVv3: Tesla M60 (not in the GPU catalogue: kept as unknown). */
	{ "Standard_NV12s_v3", "M60", 1, 8, 12, 112, IC_PCIE, false, false },
	{ "Standard_NV24s_v3", "M60", 2, 8, 24, 224,
	    IC_UNKNOWN, false, false },
	{ "Standard_NV48s_v3", "M60", 4, 8, 48, 448,
	    IC_UNKNOWN, false, false },
	/* NVv4: Radeon Instinct MI25 partitions of 1/8, 1/4, 1/2 and 1. */
	{ "Standard_NV4as_v4", "MI25", 1, 16, 4, 14, IC_UNKNOWN, false, true },
	{ "Standard_NV8as_v4", "MI25", 1, 16, 8, 28, IC_UNKNOWN, false, true },
	{ "Standard_NV16as_v4", "MI25", 1, 16, 16, 56,
	    IC_UNKNOWN, false, true },
	{ "Standard_NV32as_v4", "MI25", 1, 16, 32, 112,
	    IC_PCIE, false, false },
};

#define AZURE_NSKUS	(sizeof azure_skus / sizeof azure_skus[0])

/* The prices of one size in one region, gathered across pages. */
struct azure_price {
	size_t	sku;			/* index in azure_skus */
	char	region[OFFER_NAME_MAX];
	int64_t	price;			/* MONEY_NONE until seen */
	int64_t	spot;
	uint8_t	ncommitted;		/* reservations, savings plans */
	struct committed committed[OFFER_COMMITTED_MAX];
};

/* What an item gives: a price, or why it gives none. */
#define AZ_PRICE	AZ_SKIP_COUNT		/* on-demand or spot */
#define AZ_RESERVATION	(AZ_SKIP_COUNT + 1)	/* a whole term's price */

/* The refresh in progress (run->state). */
struct azure_state {
	int		 pages;
	char		*link;		/* path and query of the last page */
	struct azure_price *prices;
	size_t		 nprices;
	size_t		 cap;
	size_t		 skipped[AZ_SKIP_COUNT];
	char		 unknown[OFFER_NAME_MAX];	/* first unknown size */
	size_t		 nreserved;	/* reservation prices kept */
	size_t		 nplans;	/* savings-plan prices kept */
	size_t		 nimplausible;	/* committed prices dropped */
	size_t		 nterm_only;	/* sizes with only committed prices */
};

/* The table entry for an armSkuName, or NULL. */
static const struct azure_sku *
azure_sku_find(const char *name, size_t *index)
{
	size_t i;

	for (i = 0; i < AZURE_NSKUS; i++) {
		if (str_eq_nocase(azure_skus[i].name, name)) {
			if (index != NULL)
				*index = i;
			return &azure_skus[i];
		}
	}
	return NULL;
}

/* Does s end with suffix (ASCII case ignored)? */
static bool
ends_with_nocase(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && str_eq_nocase(s + n - m, suffix);
}

/*
 * The path and query of a NextPageLink, with bytes a URL may not carry
 * raw (space, controls, non-ASCII, '"', '<', '>', '\\', '^', '`', '{',
 * '|', '}') percent-encoded. The scheme and authority are dropped: the
 * request goes to AZURE_ORIGIN or the override whatever the link says.
 * NULL with err for a link that is not an absolute http(s) URL or a path.
 */
static char *
azure_link_path(const char *link, struct err *err)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *p = link;
	unsigned char c;
	char *out, *o;

	if (strncmp(p, "https://", 8) == 0 || strncmp(p, "http://", 7) == 0) {
		p = strstr(p, "://") + 3;
		p += strcspn(p, "/?#");
	}
	if (*p != '/') {
		err_set(err, "NextPageLink is neither an absolute URL nor a "
		    "path");
		return NULL;
	}
	out = o = xmalloc(strlen(p) * 3 + 1);
	for (; *p != '\0' && *p != '#'; p++) {
		c = (unsigned char)*p;
		if (c <= 0x20 || c >= 0x7f || strchr("\"<>\\^`{|}", c) != NULL) {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		} else
			*o++ = (char)c;
	}
	*o = '\0';
	return out;
}

/* Queue the page at path (AZURE_FIRST_PAGE or a NextPageLink's). */
static void
azure_queue(struct provider_run *run, struct azure_state *st, const char *path)
{
	struct http_request *req;

	req = provider_queue(run, provider_url(run, AZURE_ORIGIN, path), NULL,
	    0);
	http_request_header(req, "Accept", "application/json");
	free(st->link);
	st->link = xstrdup(path);
	st->pages++;
}

/* The prices of sku in region, added when new. */
static struct azure_price *
azure_price_get(struct azure_state *st, size_t sku, const char *region)
{
	struct azure_price *p = NULL;
	size_t i;

	for (i = st->nprices; i > 0; i--) {
		if (st->prices[i - 1].sku == sku &&
		    strcmp(st->prices[i - 1].region, region) == 0) {
			p = &st->prices[i - 1];
			break;
		}
	}
	if (p == NULL) {
		if (st->nprices == st->cap) {
			st->cap = st->cap == 0 ? 64 : st->cap * 2;
			st->prices = xreallocarray(st->prices, st->cap,
			    sizeof *st->prices);
		}
		p = &st->prices[st->nprices++];
		memset(p, 0, sizeof *p);
		p->sku = sku;
		str_copy(p->region, sizeof p->region, region);
		p->price = p->spot = MONEY_NONE;
	}
	return p;
}

/* Remember a price of sku in region; the lower one wins a repeat. */
static void
azure_add_price(struct azure_state *st, size_t sku, const char *region,
    bool spot, int64_t price)
{
	struct azure_price *p = azure_price_get(st, sku, region);
	int64_t *slot;

	slot = spot ? &p->spot : &p->price;
	if (!money_known(*slot) || price < *slot)
		*slot = price;
}

/*
 * Why an item is no price of ours (an enum azure_skip), or AZ_PRICE /
 * AZ_RESERVATION when it is one.
 */
static int
azure_item_kind(const char *type, const char *product, const char *meter,
    const char *unit, bool primary)
{
	bool reservation = strcmp(type, "Reservation") == 0;

	if (strcmp(type, "DevTestConsumption") == 0)
		return AZ_SKIP_DEVTEST;
	if (!reservation && strcmp(type, "Consumption") != 0)
		return AZ_SKIP_OTHER;
	if (str_find_nocase(product, "Windows") != NULL)
		return AZ_SKIP_WINDOWS;
	if (ends_with_nocase(meter, " Low Priority"))
		return AZ_SKIP_LOW_PRIORITY;
	if (strcmp(unit, "1 Hour") != 0 || !primary)
		return reservation ? AZ_SKIP_RESERVATION : AZ_SKIP_OTHER;
	return reservation ? AZ_RESERVATION : AZ_PRICE;
}

/* "1 Year", "3 Years" (and "3 Year", as some copies write it): months. */
static int
azure_term_months(const char *term)
{
	char *end;
	long n;

	if (term[0] < '1' || term[0] > '9')
		return -1;
	n = strtol(term, &end, 10);
	if ((strcmp(end, " Year") != 0 && strcmp(end, " Years") != 0) ||
	    n < 1 || n > COMMITTED_MONTHS_MAX / 12)
		return -1;
	return (int)n * 12;
}

/*
 * A Reservation item: retailPrice is the whole term's, whatever
 * unitOfMeasure says; kept as paid all upfront (Azure also bills the
 * same total monthly).
 */
static int
azure_reservation(struct azure_state *st, const cJSON *item,
    const char *path, size_t sku, const char *region, int64_t total,
    struct err *err)
{
	struct azure_price *p;
	char term[32];
	int months;

	if (json_get_string(item, "reservationTerm", path, term, sizeof term,
	    NULL, err) < 0)
		return -1;
	if ((months = azure_term_months(term)) < 0) {
		err_set(err, "%s.reservationTerm: expected \"1 Year\" or "
		    "\"3 Years\", got \"%s\"", path, term);
		return -1;
	}
	p = azure_price_get(st, sku, region);
	if (committed_add(p->committed, &p->ncommitted, CK_RESERVATION,
	    months, CU_ALL, committed_effective(0, total, months), total) < 0) {
		err_set(err, "%s: more committed prices than %d for one size",
		    path, OFFER_COMMITTED_MAX);
		return -1;
	}
	return 0;
}

/* savingsPlan[] of an on-demand row: hourly prices, never divided. */
static int
azure_savings_plans(struct azure_state *st, const cJSON *item,
    const char *path, size_t sku, const char *region, struct err *err)
{
	const cJSON *plans, *plan;
	struct azure_price *p;
	char ppath[64], term[32];
	int64_t price;
	int i = 0, months;

	plans = cJSON_GetObjectItemCaseSensitive(item, "savingsPlan");
	if (plans == NULL || cJSON_IsNull(plans))
		return 0;
	if (!cJSON_IsArray(plans)) {
		err_set(err, "%s.savingsPlan: expected an array, got %s", path,
		    json_type_name(plans));
		return -1;
	}
	p = azure_price_get(st, sku, region);
	cJSON_ArrayForEach(plan, plans) {
		snprintf(ppath, sizeof ppath, "%s.savingsPlan[%d]", path, i++);
		if (!cJSON_IsObject(plan)) {
			err_set(err, "%s: expected an object, got %s", ppath,
			    json_type_name(plan));
			return -1;
		}
		if (json_get_string(plan, "term", ppath, term, sizeof term,
		    NULL, err) < 0 ||
		    json_get_money(plan, "retailPrice", ppath, &price, NULL,
		    err) < 0)
			return -1;
		if ((months = azure_term_months(term)) < 0) {
			err_set(err, "%s.term: expected \"1 Year\" or "
			    "\"3 Years\", got \"%s\"", ppath, term);
			return -1;
		}
		if (price > OFFER_PRICE_MAX) {
			err_set(err, "%s.retailPrice: %.2f USD is out of range "
			    "0..%d", ppath, (double)price / MONEY_UNIT,
			    OFFER_PRICE_MAX_USD);
			return -1;
		}
		if (price == 0)
			continue;	/* a placeholder, as on-demand */
		if (committed_add(p->committed, &p->ncommitted,
		    CK_SAVINGS_PLAN, months, CU_NONE, price, 0) < 0) {
			err_set(err, "%s: more committed prices than %d for "
			    "one size", ppath, OFFER_COMMITTED_MAX);
			return -1;
		}
	}
	return 0;
}

/* One item of a page. */
static int
azure_item(struct provider_run *run, struct azure_state *st,
    const cJSON *item, const char *path, struct err *err)
{
	char sku[OFFER_NAME_MAX], region[OFFER_NAME_MAX], type[32],
	    product[128], meter[128], unit[32], currency[8];
	const struct azure_sku *s;
	int why;
	int64_t price;
	size_t index;
	bool found, primary;

	if (!cJSON_IsObject(item)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(item));
		return -1;
	}
	if (json_get_string(item, "armSkuName", path, sku, sizeof sku,
	    &found, err) < 0 ||
	    json_get_string(item, "armRegionName", path, region,
	    sizeof region, &found, err) < 0 ||
	    json_get_string(item, "type", path, type, sizeof type, NULL,
	    err) < 0 ||
	    json_get_string(item, "productName", path, product,
	    sizeof product, &found, err) < 0 ||
	    json_get_string(item, "meterName", path, meter, sizeof meter,
	    &found, err) < 0 ||
	    json_get_string(item, "unitOfMeasure", path, unit, sizeof unit,
	    &found, err) < 0 ||
	    json_get_string(item, "currencyCode", path, currency,
	    sizeof currency, &found, err) < 0 ||
	    json_get_money(item, "retailPrice", path, &price, NULL, err) < 0)
		return -1;
	if (found && strcmp(currency, "USD") != 0) {
		err_set(err, "%s.currencyCode: expected USD, got \"%s\"", path,
		    currency);
		return -1;
	}
	primary = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(item,
	    "isPrimaryMeterRegion"));
	why = azure_item_kind(type, product, meter, unit, primary);
	if ((why == AZ_PRICE || why == AZ_RESERVATION) && (price == 0 ||
	    region[0] == '\0' || sku[0] == '\0'))
		why = why == AZ_PRICE ? AZ_SKIP_OTHER : AZ_SKIP_RESERVATION;
	if (why == AZ_PRICE || why == AZ_RESERVATION) {
		if ((s = azure_sku_find(sku, &index)) == NULL) {
			/* GPU sizes are Standard_N...; others are CPU VMs. */
			if (strncmp(sku, "Standard_N", 10) == 0) {
				why = AZ_SKIP_UNKNOWN_SIZE;
				if (st->unknown[0] == '\0')
					str_copy(st->unknown,
					    sizeof st->unknown, sku);
			} else
				why = why == AZ_RESERVATION ?
				    AZ_SKIP_RESERVATION : AZ_SKIP_NOT_GPU;
		} else if (s->fraction)
			why = AZ_SKIP_FRACTION;
	}
	if (why < AZ_SKIP_COUNT) {
		provider_skip(run, &st->skipped[why]);
		return 0;
	}
	if (why == AZ_RESERVATION)
		return azure_reservation(st, item, path, index, region, price,
		    err);
	/* Checked here: a reservation's whole-term price may be larger. */
	if (price > OFFER_PRICE_MAX) {
		err_set(err, "%s.retailPrice: %.2f USD is out of range 0..%d",
		    path, (double)price / MONEY_UNIT, OFFER_PRICE_MAX_USD);
		return -1;
	}
	azure_add_price(st, index, region, ends_with_nocase(meter, " Spot"),
	    price);
	if (ends_with_nocase(meter, " Spot"))
		return 0;
	return azure_savings_plans(st, item, path, index, region, err);
}

/* Queue the page NextPageLink names, if any. */
static int
azure_next(struct provider_run *run, struct azure_state *st,
    const cJSON *root, struct err *err)
{
	const cJSON *next = cJSON_GetObjectItemCaseSensitive(root,
	    "NextPageLink");
	char *path;

	if (next == NULL || cJSON_IsNull(next))
		return 0;
	if (!cJSON_IsString(next)) {
		err_set(err, "NextPageLink: expected a string, got %s",
		    json_type_name(next));
		return -1;
	}
	if (next->valuestring[0] == '\0')
		return 0;
	if (strlen(next->valuestring) > AZURE_LINK_MAX) {
		err_set(err, "NextPageLink: longer than %d bytes",
		    AZURE_LINK_MAX);
		return -1;
	}
	if ((path = azure_link_path(next->valuestring, err)) == NULL)
		return -1;
	if (strcmp(path, st->link) == 0) {
		err_set(err, "NextPageLink names the same page again (a loop)");
		free(path);
		return -1;
	}
	if (st->pages >= AZURE_PAGES_MAX) {
		err_set(err, "more than %d pages (a NextPageLink loop?)",
		    AZURE_PAGES_MAX);
		free(path);
		return -1;
	}
	azure_queue(run, st, path);
	free(path);
	return 0;
}

static int
azure_start(struct provider_run *run, struct err *err)
{
	struct azure_state *st;

	(void)err;
	st = xcalloc(1, sizeof *st);
	run->state = st;
	azure_queue(run, st, AZURE_FIRST_PAGE);
	return 0;
}

/* One page: its items, then the link to the next. */
static int
azure_page(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct azure_state *st = run->state;
	const cJSON *items, *item;
	char path[32];
	size_t i = 0;

	if ((items = json_get_array(root, "Items", "response", err)) == NULL)
		return -1;
	cJSON_ArrayForEach(item, items) {
		snprintf(path, sizeof path, "Items[%zu]", i++);
		if (azure_item(run, st, item, path, err) < 0)
			return -1;
	}
	return azure_next(run, st, root, err);
}

static int
azure_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct azure_state *st = run->state;

	if (provider_parse_json(run, result, azure_page, err) < 0) {
		err_prefix(err, "page %d", st->pages);
		return -1;
	}
	return 0;
}

/*
 * Put p's committed prices on o, less the implausible ones
 * (committed_prune(): a whole-term price misread).
 */
static void
azure_offer_committed(struct azure_state *st, struct offer_list *list,
    struct offer *o, const struct azure_price *p)
{
	size_t i;

	offer_set_committed(list, o, p->committed, p->ncommitted);
	st->nimplausible += offer_prune_committed(list, o);
	for (i = 0; i < o->ncommitted; i++) {
		if (o->committed[i].kind == CK_RESERVATION)
			st->nreserved++;
		else
			st->nplans++;
	}
}

/* The offer of one size in one region. */
static int
azure_offer(struct provider_run *run, const struct azure_price *p,
    struct err *err)
{
	const struct azure_sku *s = &azure_skus[p->sku];
	struct azure_state *st = run->state;
	struct offer *o;

	if (!money_known(p->price) && !money_known(p->spot)) {
		/* Only committed prices: no offer to rent by the hour. */
		provider_skip(run, &st->nterm_only);
		return 0;
	}
	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s", s->name, p->region);
	offer_set_instance_type(&run->offers, o, s->name);
	offer_set_region(&run->offers, o, p->region);
	o->gpu_count = s->count;
	/* The size's own memory per GPU (a V710 VM gets 24 of the card's
	 * 28 GB); 0: the catalogue's. */
	o->vram_gb = s->vram_gb;
	provider_set_gpu(run, o, s->gpu_raw, s->vram_gb);
	o->interconnect = s->ic;
	o->vcpus = s->vcpus;
	o->ram_gb = s->ram_gb;
	o->price = p->price;
	o->spot_price = p->spot;
	o->availability = AV_UNKNOWN;
	azure_offer_committed(st, &run->offers, o, p);
	return provider_offer_done(run, err);
}

/* Every page is in: one offer per size and region; say what was skipped. */
static int
azure_finish(struct provider_run *run, struct err *err)
{
	struct azure_state *st = run->state;
	bool first = true;
	size_t i;

	for (i = 0; i < st->nprices; i++)
		if (azure_offer(run, &st->prices[i], err) < 0)
			return -1;
	for (i = 0; i < AZ_SKIP_COUNT; i++) {
		if (st->skipped[i] == 0)
			continue;
		provider_note(run, "%s%zu %s", first ? "skipped " : "",
		    st->skipped[i], azure_skip_label[i]);
		first = false;
	}
	if (st->unknown[0] != '\0')
		provider_note(run, "first unknown size %s", st->unknown);
	if (st->nreserved + st->nplans > 0)
		provider_note(run, "%zu reservation and %zu savings-plan "
		    "prices", st->nreserved, st->nplans);
	if (st->nimplausible > 0)
		provider_note(run, "%zu committed price%s below a tenth of "
		    "on-demand dropped", st->nimplausible,
		    st->nimplausible == 1 ? "" : "s");
	if (st->nterm_only > 0)
		provider_note(run, "%zu size%s with only committed prices "
		    "skipped", st->nterm_only, st->nterm_only == 1 ? "" : "s");
	return 0;
}

static void
azure_done(struct provider_run *run)
{
	struct azure_state *st = run->state;

	if (st == NULL)
		return;
	free(st->link);
	free(st->prices);
	free(st);
	run->state = NULL;
}

const struct provider provider_azure = {
	.id = "azure",
	.name = "Azure",
	.key_env = NULL,
	.key_required = false,
	.start = azure_start,
	.response = azure_response,
	.finish = azure_finish,
	.done = azure_done,
};
