/*
 * gen_aws.c: write a synthetic AWS EC2 regional price list CSV of a given
 * size, in the real format: the 5-line preamble, the 91-column header and
 * quoted rows, for the refresh benchmark (bench/aws.sh).
 *
 *	gen_aws REGION MEGABYTES > index.csv
 *
 * The rows mirror the make-up of a real regional file: every instance
 * type has rows for 12 operating system / pre-installed software pairs,
 * three tenancies, three capacity statuses and 20 reserved-term rows
 * with their upfront fees, about 560 rows, of which gpucost keeps the
 * one on-demand Linux price; about 1 type in 10 has GPUs, so GPU offers
 * are far under 1 % of the rows (38 of 271k at 200 MB). Storage and
 * data transfer rows are mixed in. The region's own rows come first
 * (every type once, about 160 MB, all GPU types whatever the size
 * asked); after that the file grows with Local Zone rows (Region Code
 * us-east-1-bos-1 ...), which gpucost reads and skips, so a larger file
 * yields the same offers. Output is deterministic. Only libc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOLS 91

static const char *const header[NCOLS] = {
	"SKU", "OfferTermCode", "RateCode", "TermType", "PriceDescription",
	"EffectiveDate", "StartingRange", "EndingRange", "Unit",
	"PricePerUnit", "Currency", "RelatedTo", "LeaseContractLength",
	"PurchaseOption", "OfferingClass", "Product Family", "serviceCode",
	"Location", "Location Type", "Instance Type", "Current Generation",
	"Instance Family", "vCPU", "Physical Processor", "Clock Speed",
	"Memory", "Storage", "Network Performance", "Processor Architecture",
	"Storage Media", "Volume Type", "Max Volume Size", "Max IOPS/volume",
	"Max IOPS Burst Performance", "Max throughput/volume", "Provisioned",
	"Tenancy", "EBS Optimized", "Operating System", "License Model",
	"Group", "Group Description", "Transfer Type", "From Location",
	"From Location Type", "To Location", "To Location Type", "usageType",
	"operation", "AvailabilityZone", "CapacityStatus",
	"ClassicNetworkingSupport", "Dedicated EBS Throughput", "ECU",
	"Elastic Graphics Type", "Enhanced Networking Supported",
	"From Region Code", "GPU", "GPU Memory", "Instance",
	"Instance Capacity - 10xlarge", "Instance Capacity - 12xlarge",
	"Instance Capacity - 16xlarge", "Instance Capacity - 18xlarge",
	"Instance Capacity - 24xlarge", "Instance Capacity - 2xlarge",
	"Instance Capacity - 32xlarge", "Instance Capacity - 4xlarge",
	"Instance Capacity - 8xlarge", "Instance Capacity - 9xlarge",
	"Instance Capacity - large", "Instance Capacity - medium",
	"Instance Capacity - metal", "Instance Capacity - xlarge",
	"instanceSKU", "Intel AVX2 Available", "Intel AVX Available",
	"Intel Turbo Available", "MarketOption", "Normalization Size Factor",
	"Physical Cores", "Pre Installed S/W", "Processor Features",
	"Product Type", "Region Code", "Resource Type", "serviceName",
	"SnapshotArchiveFeeType", "To Region Code", "Volume API Name",
	"VPCNetworkingSupport"
};

enum {
	C_SKU = 0, C_TERMCODE = 1, C_RATECODE = 2, C_TERMTYPE = 3, C_DESC = 4,
	C_EFFECTIVE = 5, C_START = 6, C_END = 7, C_UNIT = 8, C_PRICE = 9,
	C_CURRENCY = 10, C_LEASE = 12, C_PURCHASE = 13, C_CLASS = 14,
	C_FAMILY = 15, C_SERVICE = 16, C_LOCATION = 17, C_LOCTYPE = 18,
	C_TYPE = 19, C_CURGEN = 20, C_IFAMILY = 21, C_VCPU = 22, C_CPU = 23,
	C_CLOCK = 24, C_MEMORY = 25, C_STORAGE = 26, C_NETWORK = 27,
	C_ARCH = 28, C_MEDIA = 29, C_VOLTYPE = 30, C_MAXVOL = 31,
	C_TENANCY = 36, C_OS = 38, C_LICENSE = 39, C_USAGE = 47, C_OP = 48,
	C_AZ = 49, C_CAPACITY = 50, C_CLASSIC = 51, C_EBS = 52, C_ECU = 53,
	C_ENHANCED = 55, C_GPU = 57, C_GPUMEM = 58, C_ISKU = 74,
	C_AVX2 = 75, C_AVX = 76, C_TURBO = 77, C_MARKET = 78, C_NORM = 79,
	C_PRE = 81, C_FEATURES = 82, C_REGION = 84, C_SERVICENAME = 86,
	C_VOLAPI = 89, C_VPC = 90
};

struct type {
	char	 name[32];
	char	 family[48];
	int	 vcpu;
	int	 mem_gib;
	int	 gpus;			/* 0: no GPU */
	int	 gpu_gb;		/* per GPU */
	double	 price;			/* Linux on-demand, USD/h */
};

/* Families with GPUs: sizes, GPU count per size, GB per GPU. */
static const struct {
	const char *family;
	const char *sizes[8];
	int	 gpus[8];
	int	 gb;
	double	 price_gpu;
} gpu_families[] = {
	{ "g4dn", { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
	    "16xlarge", "metal" }, { 1, 1, 1, 1, 4, 1, 8 }, 16, 0.526 },
	{ "g5", { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
	    "16xlarge", "24xlarge", "48xlarge" }, { 1, 1, 1, 1, 4, 1, 4, 8 },
	    24, 1.006 },
	{ "g6", { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
	    "16xlarge", "24xlarge", "48xlarge" }, { 1, 1, 1, 1, 4, 1, 4, 8 },
	    24, 0.805 },
	{ "g6e", { "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
	    "16xlarge", "24xlarge", "48xlarge" }, { 1, 1, 1, 1, 4, 1, 4, 8 },
	    48, 1.861 },
	{ "p3", { "2xlarge", "8xlarge", "16xlarge" }, { 1, 4, 8 }, 16, 3.06 },
	{ "p4d", { "24xlarge" }, { 8 }, 40, 4.10 },
	{ "p4de", { "24xlarge" }, { 8 }, 80, 5.12 },
	{ "p5", { "48xlarge" }, { 8 }, 80, 7.50 },
	{ "p5e", { "48xlarge" }, { 8 }, 141, 8.00 },
};

static const char *const cpu_families[] = {
	"m5", "m5a", "m5d", "m6i", "m6a", "m6g", "m7i", "m7a", "m7g", "c5",
	"c5a", "c5d", "c6i", "c6a", "c6g", "c7i", "c7a", "c7g", "r5", "r5a",
	"r5d", "r6i", "r6a", "r6g", "r7i", "r7a", "r7g", "i3", "i4i", "x2idn",
	"z1d", "t3", "t3a", "t4g", "d3", "h1", "inf2", "trn1", "u-6tb1", "hpc7g"
};

static const char *const cpu_sizes[] = {
	"large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
	"16xlarge", "24xlarge", "metal"
};

/* Operating system and pre-installed software pairs, as AWS lists them. */
static const struct {
	const char *os;
	const char *pre;
	const char *op;
	double	 extra;		/* USD/h on top of Linux */
} systems[] = {
	{ "Linux", "NA", "RunInstances", 0 },
	{ "Linux", "SQL Std", "RunInstances:0004", 0.48 },
	{ "Linux", "SQL Web", "RunInstances:0200", 0.05 },
	{ "Linux", "SQL Ent", "RunInstances:0100", 1.50 },
	{ "RHEL", "NA", "RunInstances:0010", 0.06 },
	{ "Red Hat Enterprise Linux with HA", "NA", "RunInstances:1010", 0.13 },
	{ "SUSE", "NA", "RunInstances:000g", 0.10 },
	{ "Ubuntu Pro", "NA", "RunInstances:0g00", 0.01 },
	{ "Windows", "NA", "RunInstances:0002", 0.18 },
	{ "Windows", "SQL Std", "RunInstances:0006", 0.96 },
	{ "Windows", "SQL Web", "RunInstances:0202", 0.07 },
	{ "Windows", "SQL Ent", "RunInstances:0102", 2.99 },
};

static const char *const tenancies[] = { "Shared", "Dedicated", "Host" };
static const char *const capacities[] = {
	"Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"
};

/* Local Zones: the rows that make a file larger without new offers. */
static const struct {
	const char *code;
	const char *name;
	const char *prefix;
} zones[] = {
	{ "us-east-1-bos-1", "US East (Boston)", "USE1-BOS1-" },
	{ "us-east-1-chi-2", "US East (Chicago)", "USE1-CHI2-" },
	{ "us-east-1-dfw-2", "US East (Dallas)", "USE1-DFW2-" },
	{ "us-east-1-iah-2", "US East (Houston)", "USE1-IAH2-" },
	{ "us-east-1-mci-1", "US East (Kansas City 2)", "USE1-MCI1-" },
	{ "us-east-1-mia-2", "US East (Miami)", "USE1-MIA2-" },
	{ "us-east-1-msp-1", "US East (Minneapolis)", "USE1-MSP1-" },
	{ "us-east-1-nyc-2", "US East (New York City)", "USE1-NYC2-" },
	{ "us-east-1-phl-1", "US East (Philadelphia)", "USE1-PHL1-" },
	{ "us-east-1-atl-2", "US East (Atlanta)", "USE1-ATL2-" },
	{ "us-east-1-den-1", "US West (Denver)", "USE1-DEN1-" },
	{ "us-east-1-lax-1", "US West (Los Angeles)", "USE1-LAX1-" },
	{ "us-east-1-sea-1", "US West (Seattle)", "USE1-SEA1-" },
	{ "us-east-1-qro-1", "Mexico (Queretaro)", "USE1-QRO1-" },
	{ "us-east-1-scl-1", "Chile (Santiago)", "USE1-SCL1-" },
	{ "us-east-1-lim-1", "Peru (Lima)", "USE1-LIM1-" },
};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* n random characters of AWS's code alphabet. */
static void
code(char *out, size_t n)
{
	static const char alpha[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = alpha[next_rand() % (sizeof alpha - 1)];
	out[n] = '\0';
}

static const char *row[NCOLS];
static unsigned long long written;

/* Write row[] quoted like AWS: every non-empty field in quotes. */
static void
emit(void)
{
	char line[4096];
	size_t len = 0, i;
	const char *s;

	for (i = 0; i < NCOLS; i++) {
		if (i > 0)
			line[len++] = ',';
		s = row[i];
		if (s == NULL || *s == '\0')
			continue;
		line[len++] = '"';
		for (; *s != '\0' && len < sizeof line - 8; s++) {
			if (*s == '"')
				line[len++] = '"';
			line[len++] = *s;
		}
		line[len++] = '"';
	}
	line[len++] = '\n';
	fwrite(line, 1, len, stdout);
	written += len;
}

static void
clear_row(void)
{
	memset(row, 0, sizeof row);
}

/* The columns every instance row of a type shares. */
static void
instance_columns(const struct type *t, const char *location,
    const char *loctype, const char *region_code, char bufs[][64])
{
	row[C_EFFECTIVE] = "2025-09-01";
	row[C_CURRENCY] = "USD";
	row[C_FAMILY] = "Compute Instance";
	row[C_SERVICE] = "AmazonEC2";
	row[C_LOCATION] = location;
	row[C_LOCTYPE] = loctype;
	row[C_TYPE] = t->name;
	row[C_CURGEN] = "Yes";
	row[C_IFAMILY] = t->family;
	snprintf(bufs[0], 64, "%d", t->vcpu);
	row[C_VCPU] = bufs[0];
	row[C_CPU] = t->gpus > 0 ? "AMD EPYC 7R32" : "Intel Xeon Platinum 8375C";
	row[C_CLOCK] = "3.5 GHz";
	snprintf(bufs[1], 64, "%d GiB", t->mem_gib);
	row[C_MEMORY] = bufs[1];
	row[C_STORAGE] = t->gpus > 0 ? "1 x 3800 NVMe SSD" : "EBS only";
	row[C_NETWORK] = "Up to 25 Gigabit";
	row[C_ARCH] = "64-bit";
	row[C_LICENSE] = "No License required";
	row[C_CLASSIC] = "false";
	row[C_EBS] = "Up to 10000 Mbps";
	row[C_ECU] = "NA";
	row[C_ENHANCED] = "Yes";
	if (t->gpus > 0) {
		snprintf(bufs[2], 64, "%d", t->gpus);
		row[C_GPU] = bufs[2];
		snprintf(bufs[3], 64, "%d GB", t->gpus * t->gpu_gb);
		row[C_GPUMEM] = bufs[3];
	}
	row[C_AVX2] = "Yes";
	row[C_AVX] = "Yes";
	row[C_TURBO] = "Yes";
	row[C_MARKET] = "OnDemand";
	row[C_NORM] = "8";
	row[C_FEATURES] = "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo";
	row[C_REGION] = region_code;
	row[C_SERVICENAME] = "Amazon Elastic Compute Cloud";
	row[C_VPC] = "true";
}

/* Every row of one type at one location (~560 rows). */
static void
type_rows(const struct type *t, const char *location, const char *loctype,
    const char *region_code, const char *usage_prefix)
{
	static const char *const leases[] = { "1yr", "3yr" };
	static const char *const classes[] = { "standard", "convertible" };
	static const char *const purchases[] = {
		"No Upfront", "Partial Upfront", "All Upfront"
	};
	char bufs[4][64], sku[20], term[12], rate[48], desc[192], price[32];
	char usage[96], isku[20];
	size_t s, ten, cap, l, k, p;
	double base;

	for (s = 0; s < sizeof systems / sizeof systems[0]; s++) {
		code(sku, 16);
		for (ten = 0; ten < 3; ten++) {
			for (cap = 0; cap < 3; cap++) {
				if (ten == 2 && cap > 0)
					continue;
				clear_row();
				instance_columns(t, location, loctype,
				    region_code, bufs);
				base = t->price + systems[s].extra;
				if (ten == 1)
					base *= 1.1;
				row[C_SKU] = sku;
				row[C_TERMCODE] = "JRTCKXETXF";
				snprintf(rate, sizeof rate,
				    "%s.JRTCKXETXF.6YS6EN2CT7", sku);
				row[C_RATECODE] = rate;
				row[C_TERMTYPE] = "OnDemand";
				snprintf(desc, sizeof desc, "$%.4f per On Demand "
				    "%s %s Instance Hour", base, systems[s].os,
				    t->name);
				row[C_DESC] = desc;
				row[C_START] = "0";
				row[C_END] = "Inf";
				row[C_UNIT] = "Hrs";
				snprintf(price, sizeof price, "%.10f",
				    ten == 2 ? 0.0 : base);
				row[C_PRICE] = price;
				row[C_TENANCY] = tenancies[ten];
				row[C_OS] = systems[s].os;
				row[C_PRE] = systems[s].pre;
				row[C_OP] = systems[s].op;
				row[C_CAPACITY] = capacities[cap];
				snprintf(usage, sizeof usage, "%s%s:%s",
				    usage_prefix, ten == 0 ? "BoxUsage" :
				    ten == 1 ? "DedicatedUsage" : "HostUsage",
				    t->name);
				row[C_USAGE] = usage;
				row[C_AZ] = "NA";
				emit();
				if (cap != 0 || ten == 2)
					continue;
				/* Reserved terms: 20 rows of this SKU. */
				row[C_TERMTYPE] = "Reserved";
				for (l = 0; l < 2; l++)
				for (k = 0; k < 2; k++)
				for (p = 0; p < 3; p++) {
					code(term, 10);
					row[C_TERMCODE] = term;
					row[C_LEASE] = leases[l];
					row[C_CLASS] = classes[k];
					row[C_PURCHASE] = purchases[p];
					code(isku, 16);
					row[C_ISKU] = isku;
					snprintf(rate, sizeof rate,
					    "%s.%s.6YS6EN2CT7", sku, term);
					row[C_RATECODE] = rate;
					snprintf(desc, sizeof desc, "%s (Amazon "
					    "VPC), %s reserved instance applied",
					    systems[s].os, t->name);
					row[C_DESC] = desc;
					row[C_START] = "0";
					row[C_END] = "Inf";
					row[C_UNIT] = "Hrs";
					snprintf(price, sizeof price, "%.10f",
					    p == 2 ? 0.0 : base *
					    (l == 0 ? 0.62 : 0.41));
					row[C_PRICE] = price;
					emit();
					if (p == 0)
						continue;
					snprintf(rate, sizeof rate,
					    "%s.%s.2TG2D8R56U", sku, term);
					row[C_RATECODE] = rate;
					row[C_DESC] = "Upfront Fee";
					row[C_START] = "";
					row[C_END] = "";
					row[C_UNIT] = "Quantity";
					snprintf(price, sizeof price, "%.0f",
					    base * 8760 * (l + 1) * 0.4);
					row[C_PRICE] = price;
					emit();
				}
				row[C_LEASE] = row[C_CLASS] = "";
				row[C_PURCHASE] = row[C_ISKU] = "";
			}
		}
	}
}

/* A few storage and data transfer rows between types. */
static void
other_rows(const char *location, const char *region_code, int n)
{
	char sku[20], rate[48], price[32];
	int i;

	for (i = 0; i < n; i++) {
		clear_row();
		code(sku, 16);
		row[C_SKU] = sku;
		row[C_TERMCODE] = "JRTCKXETXF";
		snprintf(rate, sizeof rate, "%s.JRTCKXETXF.6YS6EN2CT7", sku);
		row[C_RATECODE] = rate;
		row[C_TERMTYPE] = "OnDemand";
		row[C_EFFECTIVE] = "2025-09-01";
		row[C_START] = "0";
		row[C_END] = "Inf";
		row[C_CURRENCY] = "USD";
		row[C_SERVICE] = "AmazonEC2";
		row[C_LOCATION] = location;
		row[C_LOCTYPE] = "AWS Region";
		row[C_REGION] = region_code;
		row[C_SERVICENAME] = "Amazon Elastic Compute Cloud";
		if (i % 2 == 0) {
			row[C_DESC] = "$0.08 per GB-month of General Purpose "
			    "(gp3) provisioned storage - US East (Northern "
			    "Virginia)";
			row[C_UNIT] = "GB-Mo";
			row[C_FAMILY] = "Storage";
			row[C_MEDIA] = "SSD-backed";
			row[C_VOLTYPE] = "General Purpose";
			row[C_MAXVOL] = "16 TiB";
			row[C_USAGE] = "EBS:VolumeUsage.gp3";
			row[C_VOLAPI] = "gp3";
		} else {
			row[C_DESC] = "$0.00 per GB - US East (Northern "
			    "Virginia) data transfer from US East (Ohio)";
			row[C_UNIT] = "GB";
			row[C_FAMILY] = "Data Transfer";
			row[C_USAGE] = "USE2-USE1-AWS-In-Bytes";
		}
		snprintf(price, sizeof price, "%.10f",
		    (double)(next_rand() % 1000) / 10000);
		row[C_PRICE] = price;
		emit();
	}
}

int
main(int argc, char **argv)
{
	static struct type types[1024];
	unsigned long long target;
	size_t ntypes = 0, i, j, k, ngpu = 0, nf;
	const char *region;
	static char outbuf[1 << 16];

	if (argc != 3) {
		fprintf(stderr, "usage: gen_aws REGION MEGABYTES\n");
		return 2;
	}
	region = argv[1];
	target = strtoull(argv[2], NULL, 10) * 1000000ULL;
	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

	/* GPU types, then CPU types; interleaved below (about 1 in 10 has GPUs). */
	for (i = 0; i < sizeof gpu_families / sizeof gpu_families[0]; i++)
		for (j = 0; j < 8 && gpu_families[i].sizes[j] != NULL; j++) {
			struct type *t = &types[ntypes++];

			snprintf(t->name, sizeof t->name, "%s.%s",
			    gpu_families[i].family, gpu_families[i].sizes[j]);
			snprintf(t->family, sizeof t->family, "GPU instance");
			t->gpus = gpu_families[i].gpus[j];
			t->gpu_gb = gpu_families[i].gb;
			t->vcpu = 4 * t->gpus * (int)(j + 1);
			t->mem_gib = 4 * t->vcpu;
			t->price = gpu_families[i].price_gpu * t->gpus *
			    (1 + 0.05 * (double)j);
		}
	ngpu = ntypes;
	nf = sizeof cpu_families / sizeof cpu_families[0];
	for (i = 0; i < nf; i++)
		for (j = 0; j < sizeof cpu_sizes / sizeof cpu_sizes[0]; j++) {
			struct type *t = &types[ntypes++];

			snprintf(t->name, sizeof t->name, "%s.%s",
			    cpu_families[i], cpu_sizes[j]);
			snprintf(t->family, sizeof t->family, "%s",
			    i < 9 ? "General purpose" : i < 18 ?
			    "Compute optimized" : "Memory optimized");
			t->vcpu = j == 0 ? 2 : 4 << (j - 1 < 6 ? j - 1 : 6);
			t->mem_gib = t->vcpu * 4;
			t->price = 0.048 * t->vcpu;
		}

	printf("\"FormatVersion\",\"v1.0\"\n"
	    "\"Disclaimer\",\"This pricing list is for informational purposes "
	    "only. All prices are subject to the additional terms included in "
	    "the pricing pages on http://aws.amazon.com. All Free Tier prices "
	    "are also subject to the terms included at "
	    "https://aws.amazon.com/free/\"\n"
	    "\"Publication Date\",\"2025-09-12T22:53:08Z\"\n"
	    "\"Version\",\"20250912225308\"\n"
	    "\"OfferCode\",\"AmazonEC2\"\n");
	for (i = 0; i < NCOLS; i++)
		printf("%s\"%s\"", i == 0 ? "" : ",", header[i]);
	printf("\n");

	/*
	 * The region: GPU types spread among the first CPU types so that
	 * even the smallest file has them all. Then Local Zones.
	 */
	for (i = 0, j = 0, k = 0; written < target || i < ngpu; k++) {
		const struct type *t;

		if (k % 10 == 0 && i < ngpu)
			t = &types[i++];
		else if (ngpu + j < ntypes)
			t = &types[ngpu + j++];
		else if (i < ngpu)
			t = &types[i++];
		else
			break;
		type_rows(t, "US East (N. Virginia)", "AWS Region", region, "");
		other_rows("US East (N. Virginia)", region, 20);
	}
	for (k = 0; written < target; k++) {
		size_t z = (k / ntypes) % (sizeof zones / sizeof zones[0]);

		type_rows(&types[k % ntypes], zones[z].name, "AWS Local Zone",
		    zones[z].code, zones[z].prefix);
	}
	if (fflush(stdout) != 0) {
		perror("gen_aws");
		return 1;
	}
	return 0;
}
