/*
 * gcp.c: the Google Cloud adapter (Cloud Billing Catalog API).
 *
 * Google publishes no price per GPU machine: a2, a3, g2, g4 and n1
 * machines are billed in parts. The adapter reads every Compute Engine SKU
 *
 *	GET https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/
 *	    skus?pageSize=5000&currencyCode=USD[&pageToken=...]
 *
 * with the key in the X-Goog-Api-Key header (Google's "Use API keys"
 * page: the header is an alternative to ?key=, so the key never sits in
 * a URL), page by page through nextPageToken (at most 100 pages). Each
 * SKU it recognises (see sku_names[]) gives one part's price per
 * region, on-demand or spot:
 *
 *	price(machine, region) = vCPUs x core + GiB x RAM + GPUs x GPU
 *	                         (+ bundled local SSD GiB x SSD / 730 h)
 *
 * and a machine gets an offer in a region only where every one of its
 * parts is published there (the same for spot). The machine shapes are
 * the static table machines[] below: the billing catalog knows no
 * machine types, and the Compute API that does needs OAuth.
 *
 * Choices made here, each for a reason given where it is coded:
 *  - usageType OnDemand is on-demand, Preemptible (or a "Spot
 *    Preemptible" description) is spot; sole tenancy, reservations,
 *    DWS, premiums, custom shapes and VM-state SKUs are ignored
 *    (sku_ignore_words[]), and so is any SKU whose description says
 *    "Commit" but whose usageType is not a commitment;
 *  - usageType Commit1Yr / Commit3Yr is a resource-based committed-use
 *    price, whatever its description says (even one worded like the
 *    on-demand SKU's): it is never an on-demand price, only the
 *    offer's `commitment` entries (committed.h), priced as on-demand
 *    from the commitment SKUs of the same parts ("Commitment v1: A2
 *    Cpu in Americas for 1 Year", "... Nvidia H100 80GB GPU ..."),
 *    local SSD at its on-demand rate, and only where every part has
 *    one; billed monthly, no upfront;
 *  - a price is units + nanos / 1e9 USD, held as units * 10^6 +
 *    round(nanos / 1000) micro-USD, from the last tier starting at 0
 *    (the first tier when none does);
 *  - when two SKUs price the same part in one region, the one naming
 *    fewer regions (the more specific) wins, then the first seen;
 *  - a3-highgpu-1g/2g/4g, a3-ultragpu-8g, a4-highgpu-8g and
 *    a4x-highgpu-4g cannot be
 *    bought on-demand (spot, DWS or reservations only, as gpuhunt
 *    filters them), so they get no on-demand price and the note
 *    not-on-demand (kept where any of their parts is priced, even with
 *    no spot price, as the snapshot keeps them);
 *  - local SSD is added only where the machine bundles it and gpuhunt
 *    bills it: a2-ultragpu-*, a3-highgpu-8g, a3-megagpu-8g.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

#define GCP_ORIGIN	"https://cloudbilling.googleapis.com"
#define GCP_SKUS_PATH	"/v1/services/6F81-5844-456A/skus"
#define GCP_PAGE_SIZE	5000
#define GCP_MAX_PAGES	100
#define GCP_TOKEN_MAX	4096	/* longest nextPageToken accepted, bytes */
#define GCP_DESC_MAX	256
/* Google prices local SSD per GiB-month of 730 hours. */
#define GCP_HOURS_PER_MONTH	730
/* Largest "units" (whole USD) accepted: MONEY_MAX in dollars. */
#define GCP_UNITS_MAX	(MONEY_MAX / MONEY_UNIT)

/* One priced part of a machine. */
enum gcp_part {
	PART_NONE = 0,
	PART_A2_CORE,
	PART_A2_RAM,
	PART_A3_CORE,
	PART_A3_RAM,
	PART_A3PLUS_CORE,
	PART_A3PLUS_RAM,
	PART_A3ULTRA_CORE,
	PART_A3ULTRA_RAM,
	PART_G2_CORE,
	PART_G2_RAM,
	PART_G4_CORE,
	PART_G4_RAM,
	PART_N1_CORE,
	PART_N1_RAM,
	PART_A100_40,
	PART_A100_80,
	PART_H100,
	PART_H100_MEGA,
	PART_H200,
	PART_L4,
	PART_T4,
	PART_V100,
	PART_P100,
	PART_P4,
	PART_B200_SLICE,
	PART_GB200_SLICE,
	PART_RTXPRO6000,
	PART_LOCAL_SSD,
	PART_COUNT
};

enum gcp_market {
	MARKET_ON_DEMAND = 0,
	MARKET_SPOT,
	MARKET_COMMIT1,		/* usageType Commit1Yr */
	MARKET_COMMIT3,		/* usageType Commit3Yr */
	MARKET_COUNT
};

/* How a part is billed: its usage unit and, for a GPU, what it is. */
struct gcp_part_info {
	const char	*unit;		/* pricingExpression.usageUnit */
	const char	*accelerator;	/* accelerator type; NULL: no GPU */
	int		 vram_gb;	/* GB per GPU: gpu_resolve()'s hint */
};

static const struct gcp_part_info part_info[PART_COUNT] = {
	[PART_A2_CORE] = { "h", NULL, 0 },
	[PART_A2_RAM] = { "GiBy.h", NULL, 0 },
	[PART_A3_CORE] = { "h", NULL, 0 },
	[PART_A3_RAM] = { "GiBy.h", NULL, 0 },
	[PART_A3PLUS_CORE] = { "h", NULL, 0 },
	[PART_A3PLUS_RAM] = { "GiBy.h", NULL, 0 },
	[PART_A3ULTRA_CORE] = { "h", NULL, 0 },
	[PART_A3ULTRA_RAM] = { "GiBy.h", NULL, 0 },
	[PART_G2_CORE] = { "h", NULL, 0 },
	[PART_G2_RAM] = { "GiBy.h", NULL, 0 },
	[PART_G4_CORE] = { "h", NULL, 0 },
	[PART_G4_RAM] = { "GiBy.h", NULL, 0 },
	[PART_N1_CORE] = { "h", NULL, 0 },
	[PART_N1_RAM] = { "GiBy.h", NULL, 0 },
	[PART_A100_40] = { "h", "nvidia-tesla-a100", 40 },
	[PART_A100_80] = { "h", "nvidia-a100-80gb", 80 },
	[PART_H100] = { "h", "nvidia-h100-80gb", 80 },
	[PART_H100_MEGA] = { "h", "nvidia-h100-mega-80gb", 80 },
	[PART_H200] = { "h", "nvidia-h200-141gb", 141 },
	[PART_L4] = { "h", "nvidia-l4", 24 },
	[PART_T4] = { "h", "nvidia-tesla-t4", 16 },
	[PART_V100] = { "h", "nvidia-tesla-v100", 16 },
	[PART_P100] = { "h", "nvidia-tesla-p100", 16 },
	[PART_P4] = { "h", "nvidia-tesla-p4", 8 },
	[PART_B200_SLICE] = { "h", "nvidia-b200", 180 },
	[PART_GB200_SLICE] = { "h", "nvidia-gb200", 186 },
	[PART_RTXPRO6000] = { "h", "nvidia-rtx-pro-6000", 96 },
	[PART_LOCAL_SSD] = { "GiBy.mo", NULL, 0 },
};

/*
 * SKU descriptions, without the "Spot Preemptible " prefix, the
 * " attached to Spot Preemptible VMs" suffix and the " running in
 * <place>" / " in <place>" tail (matched case-insensitively, whole
 * words). Spellings from Google's catalog as quoted by gpuhunt,
 * SkyPilot and providers.md section 2.3. "Nvidia H100 80GB Plus GPU" is
 * the a3-megagpu GPU (gpuhunt and providers.md; its price sits with
 * "A3Plus Instance Core", not with plain A3). The A3 Ultra core/RAM
 * spellings are unconfirmed: both forms seen in third-party code. G4's
 * GPU is "RTX 6000 96GB" (no "GPU" word: gpuhunt special-cases it; its
 * parts, "G4 Instance Core/Ram", sum to Google's g4-standard list
 * prices). A4X's GB200 slice is spelled as A4's B200 slice: no public
 * A4X SKU was seen by 2026-06 (peers' notes), so that spelling is a
 * guess that prices nothing until Google publishes it so.
 */
struct gcp_sku_name {
	const char	*text;
	enum gcp_part	 part;
};

static const struct gcp_sku_name sku_names[] = {
	{ "A2 Instance Core", PART_A2_CORE },
	{ "A2 Instance Ram", PART_A2_RAM },
	{ "A3 Instance Core", PART_A3_CORE },
	{ "A3 Instance Ram", PART_A3_RAM },
	{ "A3Plus Instance Core", PART_A3PLUS_CORE },
	{ "A3Plus Instance Ram", PART_A3PLUS_RAM },
	{ "A3Ultra Instance Core", PART_A3ULTRA_CORE },
	{ "A3Ultra Instance Ram", PART_A3ULTRA_RAM },
	{ "A3 Ultra Instance Core", PART_A3ULTRA_CORE },
	{ "A3 Ultra Instance Ram", PART_A3ULTRA_RAM },
	{ "G2 Instance Core", PART_G2_CORE },
	{ "G2 Instance Ram", PART_G2_RAM },
	{ "G4 Instance Core", PART_G4_CORE },
	{ "G4 Instance Ram", PART_G4_RAM },
	{ "N1 Predefined Instance Core", PART_N1_CORE },
	{ "N1 Predefined Instance Ram", PART_N1_RAM },
	{ "Nvidia Tesla A100 GPU", PART_A100_40 },
	{ "Nvidia Tesla A100 80GB GPU", PART_A100_80 },
	{ "Nvidia A100 80GB GPU", PART_A100_80 },
	{ "Nvidia H100 80GB GPU", PART_H100 },
	{ "Nvidia H100 80GB Mega GPU", PART_H100_MEGA },
	{ "Nvidia H100 Mega 80GB GPU", PART_H100_MEGA },
	{ "Nvidia H100 80GB Plus GPU", PART_H100_MEGA },
	{ "Nvidia H200 141GB GPU", PART_H200 },
	{ "H200 141GB GPU", PART_H200 },
	{ "Nvidia L4 GPU", PART_L4 },
	{ "Nvidia Tesla T4 GPU", PART_T4 },
	{ "Nvidia Tesla V100 GPU", PART_V100 },
	{ "Nvidia Tesla P100 GPU", PART_P100 },
	{ "Nvidia Tesla P4 GPU", PART_P4 },
	{ "A4 Nvidia B200 (1 gpu slice)", PART_B200_SLICE },
	{ "A4X Nvidia GB200 (1 gpu slice)", PART_GB200_SLICE },
	{ "RTX 6000 96GB", PART_RTXPRO6000 },
	{ "SSD backed Local Storage", PART_LOCAL_SSD },
};

/*
 * Commitment SKUs name the host parts in their own words ("Commitment
 * v1: A2 Cpu in Americas for 1 Year"; N1's are plain "Cpu" and "Ram");
 * their GPU SKUs use the GPU names of sku_names[], which classify()
 * tries next.
 */
static const struct gcp_sku_name commit_names[] = {
	{ "A2 Cpu", PART_A2_CORE },
	{ "A2 Ram", PART_A2_RAM },
	{ "A3 Cpu", PART_A3_CORE },
	{ "A3 Ram", PART_A3_RAM },
	{ "A3Plus Cpu", PART_A3PLUS_CORE },
	{ "A3Plus Ram", PART_A3PLUS_RAM },
	{ "A3Ultra Cpu", PART_A3ULTRA_CORE },
	{ "A3Ultra Ram", PART_A3ULTRA_RAM },
	{ "G2 Cpu", PART_G2_CORE },
	{ "G2 Ram", PART_G2_RAM },
	{ "G4 Cpu", PART_G4_CORE },
	{ "G4 Ram", PART_G4_RAM },
	{ "Cpu", PART_N1_CORE },
	{ "Ram", PART_N1_RAM },
};

/*
 * Words that mark a SKU as another way of buying the same part, never
 * the pay-as-you-go price (matched anywhere, case-insensitively):
 * commitments, sole-tenant nodes, reservations, DWS (Flex-start /
 * Defined Duration, Calendar Mode), premiums and custom shapes,
 * extended memory, suspended-VM state, workstation licences.
 */
static const char *const sku_ignore_words[] = {
	"Commit", "Sole Tenan", "Reserved", "Reservation", "Premium",
	"Custom", "Extended", "suspended", "VmState", "VM state", "DWS",
	"Defined Duration", "Calendar Mode", "Flex Start", "Flex-start",
	"Capacity Optimized", "Virtual Workstation",
};

/* A machine shape and the parts it is billed in. */
struct gcp_machine {
	const char	*name;		/* instance type (N1: with its GPUs) */
	int		 vcpus;
	int		 ram_gib;
	int		 gpu_count;
	int		 ssd_gib;	/* bundled local SSD billed with it */
	enum gcp_part	 core;		/* per vCPU-hour; PART_NONE: none */
	enum gcp_part	 ram;		/* per GiB-hour; PART_NONE: none */
	enum gcp_part	 gpu;		/* per GPU-hour (A4: slice) */
	enum interconnect interconnect;
	bool		 spot_only;	/* never sold on-demand */
};

/*
 * Shapes from Google's machine-type docs as published in SkyPilot's
 * catalog (shared/data/catalogs/gcp_host_vms.csv) and gpuhunt. N1 types
 * take T4/V100/P100/P4 as attachments; the sizes here are common ones
 * within gpuhunt's accelerator_limits (vCPU/GiB caps per GPU count). N1
 * RAM: standard 3.75 GiB and highmem 6.5 GiB per vCPU. A4's B200 slice
 * price covers the host, so it has no core or RAM part.
 */
static const struct gcp_machine machines[] = {
	{ "a2-highgpu-1g", 12, 85, 1, 0, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_40, IC_NVLINK, false },
	{ "a2-highgpu-2g", 24, 170, 2, 0, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_40, IC_NVLINK, false },
	{ "a2-highgpu-4g", 48, 340, 4, 0, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_40, IC_NVLINK, false },
	{ "a2-highgpu-8g", 96, 680, 8, 0, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_40, IC_NVLINK, false },
	{ "a2-megagpu-16g", 96, 1360, 16, 0, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_40, IC_NVLINK, false },
	{ "a2-ultragpu-1g", 12, 170, 1, 375, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_80, IC_NVLINK, false },
	{ "a2-ultragpu-2g", 24, 340, 2, 750, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_80, IC_NVLINK, false },
	{ "a2-ultragpu-4g", 48, 680, 4, 1500, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_80, IC_NVLINK, false },
	{ "a2-ultragpu-8g", 96, 1360, 8, 3000, PART_A2_CORE, PART_A2_RAM,
	    PART_A100_80, IC_NVLINK, false },
	{ "a3-highgpu-1g", 26, 234, 1, 0, PART_A3_CORE, PART_A3_RAM,
	    PART_H100, IC_NVLINK, true },
	{ "a3-highgpu-2g", 52, 468, 2, 0, PART_A3_CORE, PART_A3_RAM,
	    PART_H100, IC_NVLINK, true },
	{ "a3-highgpu-4g", 104, 936, 4, 0, PART_A3_CORE, PART_A3_RAM,
	    PART_H100, IC_NVLINK, true },
	{ "a3-highgpu-8g", 208, 1872, 8, 6000, PART_A3_CORE, PART_A3_RAM,
	    PART_H100, IC_NVLINK, false },
	{ "a3-megagpu-8g", 208, 1872, 8, 6000, PART_A3PLUS_CORE,
	    PART_A3PLUS_RAM, PART_H100_MEGA, IC_NVLINK, false },
	{ "a3-ultragpu-8g", 224, 2952, 8, 0, PART_A3ULTRA_CORE,
	    PART_A3ULTRA_RAM, PART_H200, IC_NVLINK, true },
	{ "a4-highgpu-8g", 224, 3968, 8, 0, PART_NONE, PART_NONE,
	    PART_B200_SLICE, IC_NVLINK, true },
	/* A4X: 4 GB200 of an NVL72 domain, Arm host; reservations, DWS
	 * and spot only, as A4. */
	{ "a4x-highgpu-4g", 140, 884, 4, 0, PART_NONE, PART_NONE,
	    PART_GB200_SLICE, IC_NVLINK, true },
	{ "g2-standard-4", 4, 16, 1, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-8", 8, 32, 1, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-12", 12, 48, 1, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-16", 16, 64, 1, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-24", 24, 96, 2, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-32", 32, 128, 1, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-48", 48, 192, 4, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	{ "g2-standard-96", 96, 384, 8, 0, PART_G2_CORE, PART_G2_RAM,
	    PART_L4, IC_PCIE, false },
	/* G4: RTX PRO 6000 (96 GB) PCIe cards, 48 vCPUs and 180 GiB each.
	 * g4-standard-6/12/24 hold 1/8, 1/4 and 1/2 of one (priced by
	 * "vGPU" SKUs): slices, not GPUs, so not offers. */
	{ "g4-standard-48", 48, 180, 1, 0, PART_G4_CORE, PART_G4_RAM,
	    PART_RTXPRO6000, IC_PCIE, false },
	{ "g4-standard-96", 96, 360, 2, 0, PART_G4_CORE, PART_G4_RAM,
	    PART_RTXPRO6000, IC_PCIE, false },
	{ "g4-standard-192", 192, 720, 4, 0, PART_G4_CORE, PART_G4_RAM,
	    PART_RTXPRO6000, IC_PCIE, false },
	{ "g4-standard-384", 384, 1440, 8, 0, PART_G4_CORE, PART_G4_RAM,
	    PART_RTXPRO6000, IC_PCIE, false },
	{ "n1-standard-8+1xT4", 8, 30, 1, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_T4, IC_PCIE, false },
	{ "n1-standard-16+2xT4", 16, 60, 2, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_T4, IC_PCIE, false },
	{ "n1-standard-32+4xT4", 32, 120, 4, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_T4, IC_PCIE, false },
	/* V100s are SXM2 boards on an NVLink ring (Google's GPU table:
	 * "NVLink Ring" for 2, 4 and 8); one follows its board, as AWS
	 * p3.2xlarge does. T4, P100 and P4 are PCIe cards. */
	{ "n1-standard-8+1xV100", 8, 30, 1, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_V100, IC_NVLINK, false },
	{ "n1-highmem-16+2xV100", 16, 104, 2, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_V100, IC_NVLINK, false },
	{ "n1-highmem-32+4xV100", 32, 208, 4, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_V100, IC_NVLINK, false },
	{ "n1-highmem-64+8xV100", 64, 416, 8, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_V100, IC_NVLINK, false },
	{ "n1-standard-8+1xP100", 8, 30, 1, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P100, IC_PCIE, false },
	{ "n1-highmem-16+2xP100", 16, 104, 2, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P100, IC_PCIE, false },
	{ "n1-highmem-32+4xP100", 32, 208, 4, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P100, IC_PCIE, false },
	{ "n1-standard-8+1xP4", 8, 30, 1, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P4, IC_PCIE, false },
	{ "n1-standard-16+2xP4", 16, 60, 2, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P4, IC_PCIE, false },
	{ "n1-standard-32+4xP4", 32, 120, 4, 0, PART_N1_CORE, PART_N1_RAM,
	    PART_P4, IC_PCIE, false },
};

/* Part prices in one region. */
struct gcp_region {
	char	 name[OFFER_NAME_MAX];	/* "us-central1" */
	/* micro-USD per unit (SSD: per GiB-month); MONEY_NONE unknown */
	int64_t	 price[MARKET_COUNT][PART_COUNT];
	/* regions named by the SKU that set the price (fewer wins) */
	size_t	 scope[MARKET_COUNT][PART_COUNT];
};

/* The adapter's state across pages. */
struct gcp_state {
	struct gcp_region *regions;
	size_t	 nregions;
	size_t	 regions_cap;
	int	 pages;			/* pages received */
	char	*last_token;		/* the pageToken last asked for */
	size_t	 nskus;			/* SKUs read */
	size_t	 nused;			/* SKUs that priced a part */
	size_t	 nskipped;		/* GPU SKUs not used (run->skipped) */
	size_t	 nshapeless;		/* GPU SKUs of no machine here */
	size_t	 nconflicts;		/* equal-scope SKUs, different price */
	size_t	 ncommit;		/* commitment SKUs that priced a part */
	size_t	 ncommitted;		/* commitment prices put on offers */
	char	 shapeless[64];		/* an example of those, for the note */
};

/* What one SKU is, once its description and category are read. */
struct gcp_sku {
	char	 id[64];		/* skuId (or name) */
	char	 desc[GCP_DESC_MAX];
	enum gcp_part part;
	enum gcp_market market;
};

/* Does s start with prefix, ignoring ASCII case? */
static bool
starts_nocase(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncasecmp(s, prefix, n) == 0;
}

/* Queue the request for one page; token is NULL for the first. */
static void
queue_page(struct provider_run *run, const char *token, int page)
{
	struct http_request *req;
	char *path, *enc;

	if (token == NULL)
		path = xasprintf("%s?pageSize=%d&currencyCode=USD",
		    GCP_SKUS_PATH, GCP_PAGE_SIZE);
	else {
		enc = provider_url_escape(token);
		path = xasprintf("%s?pageSize=%d&currencyCode=USD&pageToken=%s",
		    GCP_SKUS_PATH, GCP_PAGE_SIZE, enc);
		free(enc);
	}
	req = provider_queue(run, provider_url(run, GCP_ORIGIN, path), NULL,
	    page);
	free(path);
	/* The key goes in a header, never in the URL. */
	http_request_header(req, "X-Goog-Api-Key", run->api_key);
	http_request_header(req, "Accept", "application/json");
}

/* Can the key go into a header as it is (visible ASCII only)? */
static bool
key_is_header_safe(const char *key)
{
	const unsigned char *p;

	for (p = (const unsigned char *)key; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return false;
	return true;
}

/* Start: check the key and ask for the first page. */
static int
gcp_start(struct provider_run *run, struct err *err)
{
	if (run->api_key == NULL || run->api_key[0] == '\0') {
		err_set(err, "no API key: set %s", run->provider->key_env);
		return -1;
	}
	if (!key_is_header_safe(run->api_key)) {
		err_set(err, "%s holds spaces or control characters",
		    run->provider->key_env);
		return -1;
	}
	run->state = xcalloc(1, sizeof(struct gcp_state));
	queue_page(run, NULL, 1);
	return 0;
}

/* True when the description names a variant that is not pay-as-you-go. */
static bool
is_variant(const char *desc)
{
	size_t i;

	for (i = 0; i < sizeof sku_ignore_words / sizeof sku_ignore_words[0];
	    i++)
		if (str_find_nocase(desc, sku_ignore_words[i]) != NULL)
			return true;
	return false;
}

/*
 * The part a description prices (PART_NONE if none), setting *spot when
 * the description itself says spot. The name must be followed by
 * nothing, a location (" running in X", " in X") or the spot suffix.
 */
static enum gcp_part
classify_in(const char *desc, bool *spot, const struct gcp_sku_name *names,
    size_t nnames)
{
	static const char *const spot_prefixes[] = {
		"Spot Preemptible ", "Preemptible "
	};
	static const char *const spot_suffixes[] = {
		" attached to Spot Preemptible VMs",
		" attached to Preemptible VMs"
	};
	const char *rest = desc, *tail;
	bool prefixed = false, suffixed;
	size_t i, j;

	*spot = false;
	for (i = 0; i < 2 && !prefixed; i++)
		if (starts_nocase(rest, spot_prefixes[i])) {
			rest += strlen(spot_prefixes[i]);
			prefixed = true;
		}
	for (i = 0; i < nnames; i++) {
		if (!starts_nocase(rest, names[i].text))
			continue;
		tail = rest + strlen(names[i].text);
		suffixed = false;
		for (j = 0; j < 2 && !suffixed; j++)
			if (starts_nocase(tail, spot_suffixes[j])) {
				tail += strlen(spot_suffixes[j]);
				suffixed = true;
			}
		if (*tail == '\0' || starts_nocase(tail, " running in ") ||
		    starts_nocase(tail, " in ")) {
			*spot = prefixed || suffixed;
			return names[i].part;
		}
	}
	return PART_NONE;
}

static enum gcp_part
classify(const char *desc, bool *spot)
{
	return classify_in(desc, spot, sku_names,
	    sizeof sku_names / sizeof sku_names[0]);
}

/*
 * The part a commitment SKU prices: its description without the
 * "Commitment v1: " prefix and the " for 1 Year" suffix, then the
 * commitment host names or the usual names (a GPU, or a description
 * worded as the on-demand SKU's). Spot words make it no part.
 */
static enum gcp_part
classify_commit(const char *desc)
{
	static const char *const suffixes[] = {
		" for 1 Year", " for 3 Year", " for 3 Years", " for 1 Years"
	};
	char buf[GCP_DESC_MAX];
	const char *rest = desc, *colon;
	enum gcp_part part;
	size_t i, n, m;
	bool spot;

	if (starts_nocase(rest, "Commitment") &&
	    (colon = strchr(rest, ':')) != NULL) {
		rest = colon + 1;
		while (*rest == ' ')
			rest++;
	}
	str_copy(buf, sizeof buf, rest);
	n = strlen(buf);
	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		m = strlen(suffixes[i]);
		if (n >= m && strcasecmp(buf + n - m, suffixes[i]) == 0) {
			buf[n - m] = '\0';
			break;
		}
	}
	if (is_variant(buf))
		return PART_NONE;
	part = classify_in(buf, &spot, commit_names,
	    sizeof commit_names / sizeof commit_names[0]);
	if (part == PART_NONE)
		part = classify(buf, &spot);
	return spot ? PART_NONE : part;
}

/* Parse "units" (whole USD as a decimal string, or a number) of a price. */
static int
parse_units(const cJSON *price, const char *path, int64_t *units,
    struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(price, "units");
	char shown[24];
	long long whole;
	const char *p;
	int64_t v = 0;

	*units = 0;
	if (item == NULL || cJSON_IsNull(item))
		return 0;	/* proto3 JSON leaves out a zero */
	if (cJSON_IsNumber(item)) {
		if (json_get_int(price, "units", path, 0, GCP_UNITS_MAX, &whole,
		    NULL, err) < 0)
			return -1;
		*units = whole;
		return 0;
	}
	if (!cJSON_IsString(item)) {
		err_set(err, "%s.units: expected a whole number of USD, got %s",
		    path, json_type_name(item));
		return -1;
	}
	/* int64 travels as a string: digits only, no sign, no fraction. */
	for (p = item->valuestring; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > GCP_UNITS_MAX)
			break;
	}
	if (p == item->valuestring || *p != '\0') {
		provider_copy(shown, sizeof shown, item->valuestring);
		err_set(err, "%s.units: expected a whole number of USD up to "
		    "%lld, got \"%s\"", path, (long long)GCP_UNITS_MAX, shown);
		return -1;
	}
	*units = v;
	return 0;
}

/*
 * The unit price of pricingInfo[0] in micro-USD, and its usage unit.
 * Tier: the last one starting at usage 0 (a later tier at 0 replaces an
 * earlier one), else the first.
 */
static int
parse_price(const cJSON *sku, const char *path, char *unit, size_t unit_size,
    int64_t *micro, struct err *err)
{
	const cJSON *infos, *info, *expr, *tiers, *tier, *chosen = NULL, *price;
	char p[160], currency[8];
	long long nanos = 0;
	double start;
	int64_t units;
	bool found;
	int i, n, idx = -1;

	if ((infos = json_get_array(sku, "pricingInfo", path, err)) == NULL)
		return -1;
	if ((info = cJSON_GetArrayItem(infos, 0)) == NULL) {
		err_set(err, "%s.pricingInfo: empty", path);
		return -1;
	}
	snprintf(p, sizeof p, "%s.pricingInfo[0]", path);
	if ((expr = json_get_object(info, "pricingExpression", p, err)) == NULL)
		return -1;
	snprintf(p, sizeof p, "%s.pricingInfo[0].pricingExpression", path);
	if (json_get_string(expr, "usageUnit", p, unit, unit_size, NULL,
	    err) < 0)
		return -1;
	if ((tiers = json_get_array(expr, "tieredRates", p, err)) == NULL)
		return -1;
	n = cJSON_GetArraySize(tiers);
	if (n == 0) {
		err_set(err, "%s.tieredRates: empty", p);
		return -1;
	}
	for (i = 0; i < n; i++) {
		tier = cJSON_GetArrayItem(tiers, i);
		snprintf(p, sizeof p, "%s.pricingInfo[0].pricingExpression."
		    "tieredRates[%d]", path, i);
		if (!cJSON_IsObject(tier)) {
			err_set(err, "%s: expected an object, got %s", p,
			    json_type_name(tier));
			return -1;
		}
		start = 0;
		if (json_get_number(tier, "startUsageAmount", p, &start, &found,
		    err) < 0)
			return -1;
		if (start <= 0)	/* absent means 0 (proto3) */
			idx = i;
	}
	if (idx < 0)
		idx = 0;
	chosen = cJSON_GetArrayItem(tiers, idx);
	snprintf(p, sizeof p, "%s.pricingInfo[0].pricingExpression."
	    "tieredRates[%d]", path, idx);
	if ((price = json_get_object(chosen, "unitPrice", p, err)) == NULL)
		return -1;
	snprintf(p, sizeof p, "%s.pricingInfo[0].pricingExpression."
	    "tieredRates[%d].unitPrice", path, idx);
	if (json_get_string(price, "currencyCode", p, currency,
	    sizeof currency, &found, err) < 0)
		return -1;
	if (found && strcmp(currency, "USD") != 0) {
		err_set(err, "%s.currencyCode: expected USD, got \"%s\"", p,
		    currency);
		return -1;
	}
	if (parse_units(price, p, &units, err) < 0)
		return -1;
	if (json_get_int(price, "nanos", p, 0, 999999999, &nanos, &found,
	    err) < 0)
		return -1;
	/* units * 10^6 + round(nanos / 1000): exact to the micro-USD. */
	*micro = units * MONEY_UNIT + (int64_t)((nanos + 500) / 1000);
	return 0;
}

/* The region named name, added when new. */
static struct gcp_region *
region_get(struct gcp_state *st, const char *name)
{
	struct gcp_region *r;
	size_t i;
	int m, k;

	for (i = 0; i < st->nregions; i++)
		if (strcmp(st->regions[i].name, name) == 0)
			return &st->regions[i];
	if (st->nregions == st->regions_cap) {
		st->regions_cap = st->regions_cap == 0 ? 16 :
		    st->regions_cap * 2;
		st->regions = xreallocarray(st->regions, st->regions_cap,
		    sizeof *st->regions);
	}
	r = &st->regions[st->nregions++];
	memset(r, 0, sizeof *r);
	str_copy(r->name, sizeof r->name, name);
	for (m = 0; m < MARKET_COUNT; m++)
		for (k = 0; k < PART_COUNT; k++)
			r->price[m][k] = MONEY_NONE;
	return r;
}

/* Record the price of sku's part in each of its serviceRegions. */
static int
store_price(struct gcp_state *st, const struct gcp_sku *s,
    const cJSON *regions, const char *path, int64_t micro, struct err *err)
{
	const cJSON *item;
	struct gcp_region *r;
	char name[OFFER_NAME_MAX];
	size_t scope = (size_t)cJSON_GetArraySize(regions);
	int i = 0;

	cJSON_ArrayForEach(item, regions) {
		if (!cJSON_IsString(item)) {
			err_set(err, "%s.serviceRegions[%d]: expected a "
			    "string, got %s", path, i, json_type_name(item));
			return -1;
		}
		provider_copy(name, sizeof name, item->valuestring);
		if (name[0] == '\0') {
			err_set(err, "%s.serviceRegions[%d]: empty region",
			    path, i);
			return -1;
		}
		r = region_get(st, name);
		if (r->scope[s->market][s->part] == 0 ||
		    scope < r->scope[s->market][s->part]) {
			r->price[s->market][s->part] = micro;
			r->scope[s->market][s->part] = scope;
		} else if (scope == r->scope[s->market][s->part] &&
		    r->price[s->market][s->part] != micro)
			st->nconflicts++;
		i++;
	}
	return 0;
}

/* Is this SKU about a GPU (for the skipped count and the note)? */
static bool
is_gpu_sku(const char *group, enum gcp_part part)
{
	return strcmp(group, "GPU") == 0 ||
	    (part != PART_NONE && part_info[part].accelerator != NULL);
}

/* Read one SKU; a recognised, priced one sets its part's prices. */
static int
parse_sku(struct gcp_state *st, const cJSON *sku, const char *path,
    struct gcp_sku *s, struct err *err)
{
	const cJSON *cat, *regions;
	char cpath[96], usage[32], group[32], unit[16];
	int64_t micro;
	bool found, spot;

	if (!cJSON_IsObject(sku)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(sku));
		return -1;
	}
	if (json_get_string(sku, "skuId", path, s->id, sizeof s->id, &found,
	    err) < 0)
		return -1;
	if (!found && json_get_string(sku, "name", path, s->id, sizeof s->id,
	    &found, err) < 0)
		return -1;
	if (json_get_string(sku, "description", path, s->desc, sizeof s->desc,
	    NULL, err) < 0)
		return -1;
	if ((cat = json_get_object(sku, "category", path, err)) == NULL)
		return -1;
	snprintf(cpath, sizeof cpath, "%s.category", path);
	if (json_get_string(cat, "usageType", cpath, usage, sizeof usage,
	    NULL, err) < 0)
		return -1;
	if (json_get_string(cat, "resourceGroup", cpath, group, sizeof group,
	    &found, err) < 0)
		return -1;

	s->part = classify(s->desc, &spot);
	/*
	 * The category decides what a SKU is: a commitment is never a
	 * pay-as-you-go price, however its description reads.
	 */
	if (strcmp(usage, "Commit1Yr") == 0 ||
	    strcmp(usage, "Commit3Yr") == 0) {
		s->part = classify_commit(s->desc);
		s->market = usage[6] == '1' ? MARKET_COMMIT1 : MARKET_COMMIT3;
		if (s->part == PART_NONE) {
			if (strcmp(group, "GPU") == 0)
				st->nskipped++;
			return 0;
		}
		spot = false;
	} else if ((strcmp(usage, "OnDemand") != 0 &&
	    strcmp(usage, "Preemptible") != 0) || is_variant(s->desc)) {
		/* Only pay-as-you-go prices: OnDemand and Preemptible. */
		if (is_gpu_sku(group, s->part))
			st->nskipped++;
		return 0;
	}
	if (s->part == PART_NONE) {
		if (is_gpu_sku(group, s->part)) {
			/* A GPU no machine in machines[] carries. */
			st->nskipped++;
			if (st->nshapeless++ == 0)
				str_copy(st->shapeless, sizeof st->shapeless,
				    s->desc);
		}
		return 0;
	}
	/* Trust a "Spot Preemptible" description over the category. */
	if (s->market != MARKET_COMMIT1 && s->market != MARKET_COMMIT3)
		s->market = spot || strcmp(usage, "Preemptible") == 0 ?
		    MARKET_SPOT : MARKET_ON_DEMAND;

	if (parse_price(sku, path, unit, sizeof unit, &micro, err) < 0)
		return -1;
	if (s->part == PART_LOCAL_SSD && strcmp(unit, "GiBy.h") == 0)
		micro *= GCP_HOURS_PER_MONTH;	/* keep SSD per GiB-month */
	else if (strcmp(unit, part_info[s->part].unit) != 0) {
		err_set(err, "%s.pricingInfo[0].pricingExpression.usageUnit: "
		    "expected \"%s\", got \"%s\"", path,
		    part_info[s->part].unit, unit);
		return -1;
	}
	/* Absurd, and machine_price() multiplies it by up to 6000 GiB. */
	if (micro > MONEY_MAX) {
		err_set(err, "%s.pricingInfo[0]: more than %lld USD per %s is "
		    "absurd", path, (long long)(MONEY_MAX / MONEY_UNIT),
		    part_info[s->part].unit);
		return -1;
	}
	if (micro == 0) {
		/* A zero rate is a placeholder, not a free GPU or host. */
		if (is_gpu_sku(group, s->part))
			st->nskipped++;
		return 0;
	}
	if ((regions = json_get_array(sku, "serviceRegions", path,
	    err)) == NULL)
		return -1;
	if (store_price(st, s, regions, path, micro, err) < 0)
		return -1;
	st->nused++;
	if (s->market == MARKET_COMMIT1 || s->market == MARKET_COMMIT3)
		st->ncommit++;
	return 0;
}

/* Ask for the page after this one, guarding against endless paging. */
static int
next_page(struct provider_run *run, struct gcp_state *st, const cJSON *root,
    struct err *err)
{
	const cJSON *tok = cJSON_GetObjectItemCaseSensitive(root,
	    "nextPageToken");

	if (tok == NULL || cJSON_IsNull(tok))
		return 0;
	if (!cJSON_IsString(tok)) {
		err_set(err, "nextPageToken: expected a string, got %s",
		    json_type_name(tok));
		return -1;
	}
	if (tok->valuestring[0] == '\0')
		return 0;	/* the last page */
	if (strlen(tok->valuestring) > GCP_TOKEN_MAX) {
		err_set(err, "nextPageToken: longer than %d bytes",
		    GCP_TOKEN_MAX);
		return -1;
	}
	if (st->last_token != NULL &&
	    strcmp(st->last_token, tok->valuestring) == 0) {
		err_set(err, "nextPageToken repeats the token of this page");
		return -1;
	}
	if (st->pages >= GCP_MAX_PAGES) {
		err_set(err, "still more SKUs after %d pages (a paging loop?)",
		    GCP_MAX_PAGES);
		return -1;
	}
	free(st->last_token);
	st->last_token = xstrdup(tok->valuestring);
	queue_page(run, st->last_token, st->pages + 1);
	return 0;
}

/* Parse one page of SKUs and queue the next. */
static int
parse_page(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct gcp_state *st = run->state;
	const cJSON *skus, *sku, *api_err;
	struct gcp_sku s;
	char path[32], msg[160], status[40];
	bool found;
	int i = 0;

	/* Google's error envelope: {"error": {"code", "message", "status"}}. */
	if ((api_err = cJSON_GetObjectItemCaseSensitive(root, "error")) !=
	    NULL && cJSON_IsObject(api_err)) {
		/* Not a string: left empty, the error is reported anyway. */
		(void)json_get_string(api_err, "status", "error", status,
		    sizeof status, &found, NULL);
		(void)json_get_string(api_err, "message", "error", msg,
		    sizeof msg, &found, NULL);
		err_set(err, "API error %s: %s", status[0] != '\0' ? status :
		    "(no status)", msg[0] != '\0' ? msg : "(no message)");
		return -1;
	}
	skus = cJSON_GetObjectItemCaseSensitive(root, "skus");
	if (skus != NULL && !cJSON_IsNull(skus) && !cJSON_IsArray(skus)) {
		err_set(err, "skus: expected an array, got %s",
		    json_type_name(skus));
		return -1;
	}
	/* An empty page leaves "skus" out (proto3 JSON). */
	cJSON_ArrayForEach(sku, skus) {
		snprintf(path, sizeof path, "skus[%d]", i);
		memset(&s, 0, sizeof s);
		st->nskus++;
		if (parse_sku(st, sku, path, &s, err) < 0) {
			if (s.desc[0] != '\0')
				err_prefix(err, "SKU %s (\"%s\")",
				    s.id[0] != '\0' ? s.id : "?", s.desc);
			return -1;
		}
		i++;
	}
	return next_page(run, st, root, err);
}

/* A page arrived: take its prices. */
static int
gcp_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	struct gcp_state *st = run->state;

	st->pages++;
	if (provider_parse_json(run, res, parse_page, err) < 0) {
		err_prefix(err, "page %d", st->pages);
		provider_redact(run, err);
		return -1;
	}
	/* Counted as pages come in: a caller may read it before finish. */
	run->skipped = st->nskipped;
	return 0;
}

/* Price of m in r for a market, or MONEY_NONE if a part is missing. */
static int64_t
machine_price(const struct gcp_region *r, enum gcp_market market,
    const struct gcp_machine *m)
{
	const int64_t *p = r->price[market];
	int64_t sum = 0;

	if (m->core != PART_NONE) {
		if (!money_known(p[m->core]))
			return MONEY_NONE;
		sum += m->vcpus * p[m->core];
	}
	if (m->ram != PART_NONE) {
		if (!money_known(p[m->ram]))
			return MONEY_NONE;
		sum += m->ram_gib * p[m->ram];
	}
	if (!money_known(p[m->gpu]))
		return MONEY_NONE;
	sum += m->gpu_count * p[m->gpu];
	if (m->ssd_gib > 0) {
		/* Local SSD has no commitment: its own market's, else
		 * on-demand. */
		if (!money_known(p[PART_LOCAL_SSD]))
			p = r->price[MARKET_ON_DEMAND];
		if (!money_known(p[PART_LOCAL_SSD]))
			return MONEY_NONE;
		sum += money_div_round(m->ssd_gib * p[PART_LOCAL_SSD],
		    GCP_HOURS_PER_MONTH);
	}
	return sum;
}

/* Order regions by name, so offers come out the same on every refresh. */
static int
region_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gcp_region *)a)->name,
	    ((const struct gcp_region *)b)->name);
}

/*
 * The committed-use prices of m in r (1 and 3 years, monthly billing,
 * no upfront), where every part has a commitment SKU there.
 */
static void
add_commitments(struct gcp_state *st, struct offer_list *list,
    struct offer *o,
    const struct gcp_region *r, const struct gcp_machine *m)
{
	static const struct {
		enum gcp_market	market;
		int		months;
	} terms[] = { { MARKET_COMMIT1, 12 }, { MARKET_COMMIT3, 36 } };
	int64_t price;
	size_t i;

	for (i = 0; i < sizeof terms / sizeof terms[0]; i++) {
		price = machine_price(r, terms[i].market, m);
		if (money_known(price) && price > 0 &&
		    price <= OFFER_PRICE_MAX)
			(void)offer_add_committed(list, o, CK_COMMITMENT,
			    terms[i].months, CU_NONE, price, 0);
	}
	(void)offer_prune_committed(list, o);
	st->ncommitted += o->ncommitted;
}

/* Add the offer of machine m in region r, if it has a price there. */
static int
add_offer(struct provider_run *run, const struct gcp_region *r,
    const struct gcp_machine *m, struct err *err)
{
	const struct gcp_part_info *gi = &part_info[m->gpu];
	int64_t price, spot;
	struct offer *o;

	price = machine_price(r, MARKET_ON_DEMAND, m);
	/* Kept as published, even above on-demand: no invented savings. */
	spot = machine_price(r, MARKET_SPOT, m);
	if (!money_known(price) && !money_known(spot))
		return 0;
	/*
	 * Sold only as Spot or through DWS/reservations: priced parts show
	 * that it exists here, but an on-demand price would be a promise
	 * Google does not make. Kept, with no on-demand price and the
	 * note, as the snapshot has it.
	 */
	if (m->spot_only)
		price = MONEY_NONE;
	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s", m->name, r->name);
	offer_set_instance_type(&run->offers, o, m->name);
	offer_set_region(&run->offers, o, r->name);
	provider_set_gpu(run, o, gi->accelerator, gi->vram_gb);
	o->gpu_count = m->gpu_count;
	o->interconnect = m->interconnect;
	o->vcpus = m->vcpus;
	o->ram_gb = m->ram_gib;
	o->price = price;
	o->spot_price = spot;
	o->availability = AV_UNKNOWN;
	if (m->spot_only)
		o->notes |= NOTE_BIT(NOTE_NOT_ON_DEMAND);
	add_commitments(run->state, &run->offers, o, r, m);
	return provider_offer_done(run, err);
}

/* Every page is in: price each machine in each region. */
static int
gcp_finish(struct provider_run *run, struct err *err)
{
	struct gcp_state *st = run->state;
	size_t i, j;

	if (st->nregions > 0)
		qsort(st->regions, st->nregions, sizeof *st->regions,
		    region_cmp);
	for (i = 0; i < st->nregions; i++)
		for (j = 0; j < sizeof machines / sizeof machines[0]; j++)
			if (add_offer(run, &st->regions[i], &machines[j],
			    err) < 0) {
				provider_redact(run, err);
				return -1;
			}
	if (run->offers.n == 0) {
		err_set(err, "no GPU machine could be priced from %zu SKUs "
		    "on %d page(s)", st->nskus, st->pages);
		return -1;
	}
	provider_note(run, "%zu SKUs, %zu used; %zu GPU "
	    "SKUs skipped (variants, zero rates, %zu with no machine shape"
	    "%s%s%s)%s; a3-highgpu-1g/2g/4g, a3-ultragpu, a4, a4x: spot "
	    "only",
	    st->nskus, st->nused, st->nskipped, st->nshapeless,
	    st->nshapeless > 0 ? ": \"" : "", st->shapeless,
	    st->nshapeless > 0 ? "\"" : "",
	    st->nconflicts > 0 ? "; rival rates for one part: first kept" :
	    "");
	if (st->ncommit > 0)
		provider_note(run, "%zu commitment SKUs used, %zu commitment "
		    "prices", st->ncommit, st->ncommitted);
	return 0;
}

/* Free the state. */
static void
gcp_done(struct provider_run *run)
{
	struct gcp_state *st = run->state;

	if (st == NULL)
		return;
	free(st->regions);
	free(st->last_token);
	free(st);
	run->state = NULL;
}

const struct provider provider_gcp = {
	.id = "gcp",
	.name = "Google Cloud",
	.key_env = "GCP_API_KEY",
	.key_required = true,
	.start = gcp_start,
	.response = gcp_response,
	.finish = gcp_finish,
	.done = gcp_done,
};
