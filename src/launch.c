/*
 * launch.c: the command that starts an offer, its zones, quotas and
 * Vertex AI training (see launch.h).
 *
 * The calls are the providers' documented ones (research/launch.md §3):
 * gcloud, aws, runpodctl, vastai, vultr-cli, az, oci and scw where a CLI
 * exists, a curl line against the documented REST endpoint where none
 * does (Lambda). Quota names are from launch.md §2; which of them
 * are unverified is said in gpucost(1), not here.
 */
#include "config.h"
#include "launch.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "money.h"
#include "region.h"
#include "rentable.h"
#include "str.h"

/* A command being written; once it overflows it stays empty. */
struct cmd {
	char	*buf;
	size_t	 size;
	size_t	 len;
	bool	 overflow;
};

static void	cmd_add(struct cmd *c, const char *fmt, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

static void
cmd_start(struct cmd *c, char *buf, size_t size)
{
	c->buf = buf;
	c->size = size;
	c->len = 0;
	c->overflow = size == 0;
	if (size > 0)
		buf[0] = '\0';
}

/* Our own text (flags, placeholders, numbers): never provider data. */
static void
cmd_add(struct cmd *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->buf + c->len, c->size - c->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= c->size - c->len) {
		c->overflow = true;
		return;
	}
	c->len += (size_t)n;
}

/* A value from provider data, as one single-quoted shell word. */
static void
cmd_quote(struct cmd *c, const char *s)
{
	size_t n;

	if (c->overflow)
		return;
	n = launch_shell_quote(c->buf + c->len, c->size - c->len, s);
	if (n == 0) {
		c->overflow = true;
		return;
	}
	c->len += n;
}

/* The result: the length, or 0 and "" when it did not fit. */
static size_t
cmd_end(struct cmd *c)
{
	if (c->overflow) {
		if (c->size > 0)
			c->buf[0] = '\0';
		return 0;
	}
	return c->len;
}

/* Is p several nodes that data/fabric.tsv places with construct pl? */
static bool
placed(const struct plan *p, enum fabric_placement pl)
{
	return p->nodes > 1 && p->offer->nodes <= 1 &&
	    p->offer->fabric != NULL && p->offer->fabric->placement == pl;
}

size_t
launch_shell_quote(char *buf, size_t size, const char *s)
{
	char clean[LAUNCH_CMD_MAX];
	const char *p;
	size_t len = 0;

	str_sanitize(clean, sizeof clean, s, strlen(s));
	if (size < 3)
		goto toolong;
	buf[len++] = '\'';
	for (p = clean; *p != '\0'; p++) {
		if (*p == '\'') {
			if (len + 4 >= size)
				goto toolong;
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else {
			if (len + 1 >= size)
				goto toolong;
			buf[len++] = *p;
		}
	}
	if (len + 2 > size)
		goto toolong;
	buf[len++] = '\'';
	buf[len] = '\0';
	return len;
toolong:
	if (size > 0)
		buf[0] = '\0';
	return 0;
}

/* s as a JSON string literal (quotes included), sanitised first. */
static void
json_text(char *buf, size_t size, const char *s)
{
	char clean[OFFER_KEY_MAX * 2];
	struct cmd c;
	const char *p;

	str_sanitize(clean, sizeof clean, s, strlen(s));
	cmd_start(&c, buf, size);
	cmd_add(&c, "\"");
	for (p = clean; *p != '\0'; p++)
		if (*p == '"' || *p == '\\')
			cmd_add(&c, "\\%c", *p);
		else
			cmd_add(&c, "%c", *p);
	cmd_add(&c, "\"");
	cmd_end(&c);
}

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * Does the offer name no region a command can take? One price in every
 * region ("all": OCI, the snapshot's Lambda), Lambda's "(sold out)"
 * (no region has capacity now) and "unknown" (a source that names
 * none). A command never names those (issue 44): it takes REGION, and
 * cmd_regions() lists the provider's regions after it.
 */
static bool
region_unnamed(const struct offer *o)
{
	return region_is_any(o->region) ||
	    str_eq_nocase(o->region, "unknown") ||
	    strcmp(o->region, "(sold out)") == 0;
}

/* "  # REGION: one of A B C" after a command that takes REGION. */
static void
cmd_regions(struct cmd *c, const struct offer *o)
{
	char list[LAUNCH_LIST_MAX * 2];

	if (region_unnamed(o) && region_names(o->provider, list,
	    sizeof list) > 0)
		cmd_add(c, "  # REGION: one of %s", list);
}

/* ------------------------------------------------------------------ */
/* GCP (its GPU names, zones and Vertex AI regions: gcp_catalog.c)    */

/* The offer's GPU in GCP's names, or NULL for a machine we cannot name. */
static const struct gcp_gpu *
gcp_gpu_of(const struct offer *o)
{
	return gcp_gpu_find(o->provider, o->instance_type, o->gpu);
}

/* An N1 machine takes its GPU as an attachment (--accelerator). */
static bool
gcp_is_n1(const struct offer *o)
{
	return has_prefix(o->instance_type, "n1-");
}

/*
 * The machine type: the gcp adapter names an N1 offer by its host and
 * attachment ("n1-standard-8+1xT4"); gcloud wants the host alone.
 */
static void
gcp_machine_type(const struct offer *o, char *buf, size_t size)
{
	size_t n = strcspn(o->instance_type, "+");

	if (n >= size)
		n = size - 1;
	memcpy(buf, o->instance_type, n);
	buf[n] = '\0';
}

static size_t
gcp_zones(const struct offer *o, char *buf, size_t size)
{
	const struct gcp_gpu *g = gcp_gpu_of(o);

	buf[0] = '\0';
	if (g == NULL)
		return 0;
	return gcp_gpu_zones(g, o->region, buf, size);
}

static size_t
gcp_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const struct gcp_gpu *g = gcp_gpu_of(o);
	char zones[LAUNCH_LIST_MAX], machine[OFFER_NAME_MAX];
	struct cmd c;
	int i;

	cmd_start(&c, buf, size);
	gcp_machine_type(o, machine, sizeof machine);
	/* Nodes of one job: close together under a compact policy. */
	if (placed(p, PLACE_COMPACT)) {
		cmd_add(&c, "gcloud compute resource-policies create "
		    "group-placement gpucost-compact --collocation=COLLOCATED "
		    "--project=PROJECT --region=");
		cmd_quote(&c, o->region);
		cmd_add(&c, " && ");
	}
	cmd_add(&c, "gcloud compute instances create");
	for (i = 1; i <= p->nodes; i++)
		cmd_add(&c, " gpucost-%d", i);
	cmd_add(&c, " --project=PROJECT --zone=");
	if (gcp_zones(o, zones, sizeof zones) > 0) {
		zones[strcspn(zones, " ")] = '\0';
		cmd_quote(&c, zones);
	} else
		cmd_add(&c, "ZONE");
	cmd_add(&c, " --machine-type=");
	cmd_quote(&c, machine);
	/* Only N1 attaches GPUs; A2/A3/A4/G2 carry them in the type. */
	if (gcp_is_n1(o)) {
		if (g == NULL)
			return 0;
		cmd_add(&c, " --accelerator=type=%s,count=%d", g->accel,
		    o->gpu_count);
	}
	/* GPUs cannot live-migrate. */
	cmd_add(&c, " --maintenance-policy=TERMINATE");
	if (spot)
		cmd_add(&c, " --provisioning-model=SPOT"
		    " --instance-termination-action=DELETE");
	cmd_add(&c, " --image-family=IMAGE --image-project=IMAGE_PROJECT"
	    " --boot-disk-size=200GB");
	if (placed(p, PLACE_COMPACT))
		cmd_add(&c, " --resource-policies=gpucost-compact");
	return cmd_end(&c);
}

enum gcp_vertex
launch_vertex_training(const struct offer *o)
{
	return gcp_vertex_training(gcp_gpu_of(o), o->region);
}

size_t
launch_vertex_command(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const struct gcp_gpu *g = gcp_gpu_of(o);
	char machine[OFFER_NAME_MAX];
	struct cmd c;

	buf[0] = '\0';
	if (g == NULL || launch_vertex_training(o) != VERTEX_YES)
		return 0;
	gcp_machine_type(o, machine, sizeof machine);
	cmd_start(&c, buf, size);
	cmd_add(&c, "gcloud ai custom-jobs create --project=PROJECT --region=");
	cmd_quote(&c, o->region);
	cmd_add(&c, " --display-name=gpucost --worker-pool-spec=machine-type=");
	cmd_quote(&c, machine);
	cmd_add(&c, ",replica-count=%d,accelerator-type=%s,"
	    "accelerator-count=%d,container-image-uri=IMAGE", p->nodes,
	    g->vertex, o->gpu_count);
	return cmd_end(&c);
}

static size_t
gcp_quota(const struct offer *o, char *buf, size_t size)
{
	const struct gcp_gpu *g = gcp_gpu_of(o);
	struct cmd c;

	buf[0] = '\0';
	if (g == NULL)
		return 0;
	cmd_start(&c, buf, size);
	/* Spot VMs draw on the preemptible quota (Google's Spot doc). */
	cmd_add(&c, "on-demand=%s_GPUS spot=PREEMPTIBLE_%s_GPUS"
	    " all-regions=GPUS_ALL_REGIONS", g->metric, g->metric);
	if (launch_vertex_training(o) == VERTEX_YES)
		cmd_add(&c, " vertex=aiplatform.googleapis.com/"
		    "custom_model_training_%s_gpus vertex-spot="
		    "aiplatform.googleapis.com/"
		    "custom_model_training_preemptible_%s_gpus",
		    g->vertex_metric, g->vertex_metric);
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* AWS                                                                */

/* The EC2 vCPU quota codes of an instance family (on-demand, spot). */
static const struct {
	const char	*family;	/* letters before the generation */
	const char	*ondemand;
	const char	*spot;
} aws_quotas[] = {
	{ "p", "L-417A185B", "L-7212CCBC" },
	{ "g", "L-DB2E81BA", "L-3819A6DF" },
	{ "gr", "L-DB2E81BA", "L-3819A6DF" },
	{ "vt", "L-DB2E81BA", "L-3819A6DF" },
	{ "inf", "L-1945791B", "L-B5D1601B" },
	{ "trn", "L-2C3B7624", "L-5480EFD2" },
	{ "dl", "L-6E869C2A", "L-85EED4F7" },
	{ "f", "L-74FC7D96", "L-88CF9481" },
	{ "x", "L-7295265B", "L-E3A00192" }
};

static size_t
aws_quota(const struct offer *o, char *buf, size_t size)
{
	const char *od = "L-1216C47A", *spot = "L-34B43A08";	/* Standard */
	size_t i, n = 0;

	while (o->instance_type[n] >= 'a' && o->instance_type[n] <= 'z')
		n++;
	for (i = 0; i < sizeof aws_quotas / sizeof aws_quotas[0]; i++)
		if (strlen(aws_quotas[i].family) == n &&
		    strncmp(o->instance_type, aws_quotas[i].family, n) == 0) {
			od = aws_quotas[i].ondemand;
			spot = aws_quotas[i].spot;
		}
	return (size_t)snprintf(buf, size, "on-demand=%s spot=%s", od, spot);
}

/*
 * Nodes that train over EFA need every EFA interface the type has
 * (data/fabric.tsv's nics: 4 on p4d, 32 on p5): with one, NCCL gets a
 * quarter of the bandwidth or less, with none it falls back to TCP
 * (research/fabric.md, traps 1 and 2). One interface per network card,
 * as AWS's EFA guide launches them: card 0 is the primary (device 0),
 * each other card device 1, all of InterfaceType efa, in the subnet
 * and the security group that lets the nodes reach each other (the
 * interfaces replace --subnet-id and --security-group-ids).
 */
static void
aws_efa(struct cmd *c, const struct offer *o)
{
	int i;

	if (o->fabric == NULL || o->fabric->kind != FABRIC_EFA ||
	    o->fabric->nics < 1)
		return;
	cmd_add(c, " --network-interfaces");
	for (i = 0; i < o->fabric->nics; i++)
		cmd_add(c, " NetworkCardIndex=%d,DeviceIndex=%d,"
		    "Groups=SECURITY_GROUP,SubnetId=SUBNET,InterfaceType=efa", i,
		    i == 0 ? 0 : 1);
}

static size_t
aws_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char zone[OFFER_NAME_MAX + 48];
	struct cmd c;

	cmd_start(&c, buf, size);
	/* Nodes on EFA: in one cluster placement group (issue 26). */
	if (placed(p, PLACE_GROUP)) {
		cmd_add(&c, "aws ec2 create-placement-group --region ");
		cmd_quote(&c, o->region);
		cmd_add(&c, " --group-name gpucost --strategy cluster && ");
	}
	cmd_add(&c, "aws ec2 run-instances --region ");
	cmd_quote(&c, o->region);
	cmd_add(&c, " --instance-type ");
	cmd_quote(&c, o->instance_type);
	cmd_add(&c, " --image-id IMAGE --count %d --key-name KEY", p->nodes);
	/*
	 * The spot price is its zone's (spot-cheapest-zone: the cheapest
	 * of the region's zones): the spot command rents there, by the
	 * zone's ID (use1-az4), the same in every account, or its name.
	 */
	if (spot && o->spot_zone[0] != '\0') {
		snprintf(zone, sizeof zone, "%sAvailabilityZone%s=%s",
		    placed(p, PLACE_GROUP) ? "GroupName=gpucost," : "",
		    strstr(o->spot_zone, "-az") != NULL ? "Id" : "",
		    o->spot_zone);
		cmd_add(&c, " --placement ");
		cmd_quote(&c, zone);
	} else if (placed(p, PLACE_GROUP))
		cmd_add(&c, " --placement GroupName=gpucost");
	if (placed(p, PLACE_GROUP))
		aws_efa(&c, o);
	if (spot)
		cmd_add(&c, " --instance-market-options 'MarketType=spot,"
		    "SpotOptions={SpotInstanceType=one-time,"
		    "InstanceInterruptionBehavior=terminate}'");
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* RunPod, Vast.ai                                                    */

/*
 * RunPod's GPU type ids by display name, from RunPod's GPU-type table
 * (runpod/docs references/gpu-types.mdx, generated 2026-02-12 from the
 * gpuTypes query; MIG slices left out). The snapshot's rows carry the
 * display name only; the live adapter keys offers by the id itself.
 */
static const struct {
	const char	*name;
	const char	*id;
} runpod_ids[] = {
	{ "A100 PCIe", "NVIDIA A100 80GB PCIe" },
	{ "A100 SXM", "NVIDIA A100-SXM4-80GB" },
	{ "A30", "NVIDIA A30" },
	{ "A40", "NVIDIA A40" },
	{ "B200", "NVIDIA B200" },
	{ "B300", "NVIDIA B300 SXM6 AC" },
	{ "H100 NVL", "NVIDIA H100 NVL" },
	{ "H100 PCIe", "NVIDIA H100 PCIe" },
	{ "H100 SXM", "NVIDIA H100 80GB HBM3" },
	{ "H200 SXM", "NVIDIA H200" },
	{ "L4", "NVIDIA L4" },
	{ "L40", "NVIDIA L40" },
	{ "L40S", "NVIDIA L40S" },
	{ "MI300X", "AMD Instinct MI300X OAM" },
	{ "NVIDIA H200 NVL", "NVIDIA H200 NVL" },
	{ "RTX 2000 Ada", "NVIDIA RTX 2000 Ada Generation" },
	{ "RTX 3070", "NVIDIA GeForce RTX 3070" },
	{ "RTX 3080", "NVIDIA GeForce RTX 3080" },
	{ "RTX 3080 Ti", "NVIDIA GeForce RTX 3080 Ti" },
	{ "RTX 3090", "NVIDIA GeForce RTX 3090" },
	{ "RTX 3090 Ti", "NVIDIA GeForce RTX 3090 Ti" },
	{ "RTX 4000 Ada", "NVIDIA RTX 4000 Ada Generation" },
	{ "RTX 4000 Ada SFF", "NVIDIA RTX 4000 SFF Ada Generation" },
	{ "RTX 4070 Ti", "NVIDIA GeForce RTX 4070 Ti" },
	{ "RTX 4080", "NVIDIA GeForce RTX 4080" },
	{ "RTX 4080 SUPER", "NVIDIA GeForce RTX 4080 SUPER" },
	{ "RTX 4090", "NVIDIA GeForce RTX 4090" },
	{ "RTX 5000 Ada", "NVIDIA RTX 5000 Ada Generation" },
	{ "RTX 5080", "NVIDIA GeForce RTX 5080" },
	{ "RTX 5090", "NVIDIA GeForce RTX 5090" },
	{ "RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation" },
	{ "RTX A2000", "NVIDIA RTX A2000" },
	{ "RTX A4000", "NVIDIA RTX A4000" },
	{ "RTX A4500", "NVIDIA RTX A4500" },
	{ "RTX A5000", "NVIDIA RTX A5000" },
	{ "RTX A6000", "NVIDIA RTX A6000" },
	{ "RTX PRO 4500", "NVIDIA RTX PRO 4500 Blackwell" },
	{ "RTX PRO 6000", "NVIDIA RTX PRO 6000 Blackwell Server Edition" },
	{ "RTX PRO 6000 MaxQ",
	    "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition" },
	{ "RTX PRO 6000 WK", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" },
	{ "Tesla V100", "Tesla V100-PCIE-16GB" },
	{ "V100 SXM2", "Tesla V100-SXM2-16GB" },
	{ "V100 SXM2 32GB", "Tesla V100-SXM2-32GB" },
	/* The snapshot's (SkyPilot's) spellings of the two A100 types. */
	{ "A100-80GB", "NVIDIA A100 80GB PCIe" },
	{ "A100-80GB-SXM", "NVIDIA A100-SXM4-80GB" }
};

/*
 * RunPod's GPU id and cloud: the live key is "<n>x_<gpu id>_SECURE" (or
 * _COMMUNITY); the snapshot's is "<n>x_<name>_SECURE/<datacenter>",
 * whose id comes from the display name in gpu_raw. NULL: not known.
 */
static const char *
runpod_parts(const struct offer *o, char *gpu, size_t size, bool *secure)
{
	char key[OFFER_KEY_MAX];
	const char *s;
	char *end;
	size_t i;

	str_copy(key, sizeof key, o->key);
	*secure = strstr(key, "_COMMUNITY") == NULL;
	if (strchr(key, '/') != NULL) {
		for (i = 0; i < sizeof runpod_ids / sizeof runpod_ids[0]; i++)
			if (strcmp(runpod_ids[i].name, o->gpu_raw) == 0)
				return runpod_ids[i].id;
		return NULL;
	}
	s = key;
	while (*s >= '0' && *s <= '9')
		s++;
	if (s == key || strncmp(s, "x_", 2) != 0)
		return NULL;
	s += 2;
	if ((end = strrchr(key, '_')) != NULL && end > s &&
	    (strcmp(end, "_COMMUNITY") == 0 || strcmp(end, "_SECURE") == 0))
		*end = '\0';
	str_copy(gpu, size, s);
	return gpu;
}

static size_t
runpod_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char gpu[OFFER_KEY_MAX];
	const char *id;
	bool secure;
	struct cmd c;

	id = runpod_parts(o, gpu, sizeof gpu, &secure);
	cmd_start(&c, buf, size);
	cmd_add(&c, "runpodctl pod create --name gpucost --image IMAGE"
	    " --gpu-id ");
	if (id != NULL)
		cmd_quote(&c, id);
	else
		cmd_add(&c, "GPU_TYPE_ID");
	cmd_add(&c, " --gpu-count %d --cloud-type %s", o->gpu_count,
	    secure ? "SECURE" : "COMMUNITY");
	/* The live adapter's region is the cloud; the snapshot's a DC. */
	if (!str_eq_nocase(o->region, "secure") &&
	    !str_eq_nocase(o->region, "community") &&
	    !str_eq_nocase(o->region, "unknown")) {
		cmd_add(&c, " --data-center-ids ");
		cmd_quote(&c, o->region);
	}
	return cmd_end(&c);
}

static bool
all_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static size_t
vast_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char bid[32];
	struct cmd c;

	cmd_start(&c, buf, size);
	cmd_add(&c, "vastai create instance ");
	/* Live offers are keyed by Vast's offer id; snapshot rows have none. */
	if (all_digits(o->key))
		cmd_quote(&c, o->key);
	else
		cmd_add(&c, "OFFER_ID");
	cmd_add(&c, " --image IMAGE --disk 50");
	if (spot) {
		money_format(bid, sizeof bid, o->spot_price, 2);
		cmd_add(&c, " --bid_price ");
		cmd_quote(&c, bid);
	}
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* Lambda: a REST call as a curl line                                 */

static size_t
lambda_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char body[LAUNCH_CMD_MAX / 2], region[OFFER_NAME_MAX * 2 + 3],
	    type[OFFER_NAME_MAX * 2 + 3];
	struct cmd c;

	json_text(region, sizeof region, region_unnamed(o) ? "REGION" :
	    o->region);
	json_text(type, sizeof type, o->instance_type);
	snprintf(body, sizeof body, "{\"region_name\":%s,"
	    "\"instance_type_name\":%s,\"ssh_key_names\":[\"KEY\"],"
	    "\"quantity\":%d}", region, type, p->nodes);
	cmd_start(&c, buf, size);
	cmd_add(&c, "curl -fsS -u \"$LAMBDA_API_KEY:\" -X POST"
	    " -H 'Content-Type: application/json' -d ");
	cmd_quote(&c, body);
	cmd_add(&c, " https://cloud.lambda.ai/api/v1/instance-operations/"
	    "launch");
	cmd_regions(&c, o);
	return cmd_end(&c);
}

static size_t
vultr_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	/* Bare-metal plans (vbm-) have their own call. */
	cmd_add(&c, "vultr-cli %s create --region=",
	    has_prefix(o->instance_type, "vbm-") ? "bare-metal" : "instance");
	if (region_unnamed(o))
		cmd_add(&c, "REGION");
	else
		cmd_quote(&c, o->region);
	cmd_add(&c, " --plan=");
	cmd_quote(&c, o->instance_type);
	/* 1743 = Ubuntu 22.04 x64, the OS id in Vultr's examples. */
	cmd_add(&c, " --os=1743");
	cmd_regions(&c, o);
	return cmd_end(&c);
}

static size_t
azure_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	/* InfiniBand joins only the VMs of one scale set. */
	if (placed(p, PLACE_SCALE_SET)) {
		cmd_add(&c, "az vmss create --resource-group RESOURCE_GROUP"
		    " --name gpucost --location ");
		cmd_quote(&c, o->region);
		cmd_add(&c, " --vm-sku ");
		cmd_quote(&c, o->instance_type);
		cmd_add(&c, " --instance-count %d", p->nodes);
	} else {
		cmd_add(&c, "az vm create --resource-group RESOURCE_GROUP"
		    " --name gpucost-1 --location ");
		cmd_quote(&c, o->region);
		cmd_add(&c, " --size ");
		cmd_quote(&c, o->instance_type);
		if (p->nodes > 1)
			cmd_add(&c, " --count %d", p->nodes);
	}
	cmd_add(&c, " --image Ubuntu2204 --ssh-key-values KEY");
	/* -1: pay up to the on-demand price, evicted only for capacity. */
	if (spot)
		cmd_add(&c, " --priority Spot --max-price -1"
		    " --eviction-policy Delete");
	return cmd_end(&c);
}

static size_t
oci_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	/* RDMA only inside a cluster network, of an instance pool. */
	/* OCI publishes one price for every region: "all" names none, so
	 * the command takes REGION and lists OCI's regions. */
	if (placed(p, PLACE_CLUSTER_NETWORK) && !spot) {
		cmd_add(&c, "oci compute-management cluster-network create"
		    " --region ");
		if (region_unnamed(o))
			cmd_add(&c, "REGION");
		else
			cmd_quote(&c, o->region);
		cmd_add(&c, " --compartment-id COMPARTMENT --instance-pools "
		    "'[{\"instanceConfigurationId\":\"INSTANCE_CONFIG\","
		    "\"size\":%d}]' --placement-configuration "
		    "'{\"availabilityDomain\":\"AD\",\"primarySubnetId\":"
		    "\"SUBNET\"}'", p->nodes);
		cmd_regions(&c, o);
		return cmd_end(&c);
	}
	cmd_add(&c, "oci compute instance launch --region ");
	if (region_unnamed(o))
		cmd_add(&c, "REGION");
	else
		cmd_quote(&c, o->region);
	cmd_add(&c, " --availability-domain AD --compartment-id COMPARTMENT"
	    " --shape ");
	cmd_quote(&c, o->instance_type);
	cmd_add(&c, " --subnet-id SUBNET --image-id IMAGE"
	    " --ssh-authorized-keys-file KEY");
	if (spot)
		cmd_add(&c, " --preemptible-instance-config '{\"preemptionAction"
		    "\":{\"type\":\"TERMINATE\",\"preserveBootVolume\":false}}'");
	cmd_regions(&c, o);
	return cmd_end(&c);
}

static size_t
scaleway_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	cmd_add(&c, "scw instance server create type=");
	cmd_quote(&c, o->instance_type);
	cmd_add(&c, " zone=");
	cmd_quote(&c, o->region);
	cmd_add(&c, " image=IMAGE project-id=PROJECT");
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* Linode, OVHcloud, CloudRift, Verda (issue 28)                      */

static size_t
linode_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	cmd_add(&c, "linode-cli linodes create --type ");
	cmd_quote(&c, o->instance_type);
	cmd_add(&c, " --region ");
	cmd_quote(&c, o->region);
	cmd_add(&c, " --image linode/ubuntu24.04 --root_pass ROOT_PASS"
	    " --authorized_keys KEY");
	return cmd_end(&c);
}

/* OVHcloud Public Cloud is OpenStack: the project's openrc, then this. */
static size_t
ovh_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	cmd_add(&c, "openstack --os-region-name ");
	cmd_quote(&c, o->region);
	cmd_add(&c, " server create --flavor ");
	cmd_quote(&c, o->instance_type);
	if (p->nodes > 1)
		cmd_add(&c, " --min %d --max %d", p->nodes, p->nodes);
	cmd_add(&c, " --image 'Ubuntu 24.04' --key-name KEY --network Ext-Net"
	    " gpucost-1");
	return cmd_end(&c);
}

static size_t
cloudrift_launch(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char body[LAUNCH_CMD_MAX / 2], dc[OFFER_NAME_MAX * 2 + 3],
	    type[OFFER_NAME_MAX * 2 + 3];
	struct cmd c;

	json_text(dc, sizeof dc, o->region);
	json_text(type, sizeof type, o->instance_type);
	snprintf(body, sizeof body, "{\"version\":\"2026-09-08\",\"data\":"
	    "{\"selector\":{\"ByInstanceTypeAndLocation\":{\"instance_type\":"
	    "%s,\"datacenters\":[%s]}},\"config\":{\"VirtualMachine\":"
	    "{\"image_url\":\"IMAGE_URL\",\"ssh_key\":{\"PublicKeys\":"
	    "[\"KEY\"]}}},\"with_public_ip\":true}}", type, dc);
	cmd_start(&c, buf, size);
	cmd_add(&c, "curl -fsS -X POST -H \"X-API-Key: $CLOUDRIFT_API_KEY\""
	    " -H 'Content-Type: application/json' -d ");
	cmd_quote(&c, body);
	cmd_add(&c, " https://api.cloudrift.ai/api/v1/instances/rent");
	return cmd_end(&c);
}

/*
 * Verda's pricing page gives no API id for its instances (the API's
 * own list needs a login): the id is a placeholder, the page's name of
 * the instance goes in the description so the buyer knows which. Spot
 * is the same call with "is_spot":true (its Python SDK, verda
 * instances.create(is_spot=...), sends that key to POST /instances).
 */
static size_t
verda_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	char body[LAUNCH_CMD_MAX / 2], name[OFFER_NAME_MAX * 2 + 3];
	struct cmd c;

	json_text(name, sizeof name, o->instance_type);
	snprintf(body, sizeof body, "{\"instance_type\":\"INSTANCE_TYPE\","
	    "\"image\":\"IMAGE\",\"ssh_key_ids\":[\"KEY\"],"
	    "\"location_code\":\"FIN-01\",\"hostname\":\"gpucost-1\","
	    "\"description\":%s%s}", name, spot ? ",\"is_spot\":true" : "");
	cmd_start(&c, buf, size);
	cmd_add(&c, "curl -fsS -X POST -H \"Authorization: Bearer"
	    " $VERDA_TOKEN\" -H 'Content-Type: application/json' -d ");
	cmd_quote(&c, body);
	cmd_add(&c, " https://api.datacrunch.io/v1/instances");
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* Akash, CoreWeave, SaladCloud (issue 47)                            */

/* An SDL word from the offer: [a-z0-9] only, else none (a placeholder). */
static bool
sdl_word(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/*
 * An Akash deployment: the SDL (one service, one GPU of the offer's
 * vendor, model, memory and interface, from its key "vendor/model/
 * ram/interface") written to gpucost.yml, then provider-services'
 * steps: create the deployment, list its bids, lease one, send the
 * manifest. The Console (console.akash.network) does the same.
 */
static size_t
akash_launch(const struct plan *p, char *buf, size_t size)
{
	static const char *const placeholder[3] = { "VENDOR", "MODEL", "RAM" };
	const char *k = p->offer->key, *part[3];
	int len[3];
	size_t i, n;
	struct cmd c;

	/* A part that is no plain word is the buyer's to fill in. */
	for (i = 0; i < 3; i++) {
		n = strcspn(k, "/");
		part[i] = sdl_word(k, n) ? k : placeholder[i];
		len[i] = sdl_word(k, n) ? (int)n : (int)strlen(placeholder[i]);
		k += n;
		if (*k == '/')
			k++;
	}
	cmd_start(&c, buf, size);
	cmd_add(&c, "printf '%%s\\n' '---' 'version: \"2.0\"' 'services:'"
	    " '  gpucost:' '    image: IMAGE' '    expose:' '      - port: 22'"
	    " '        to:' '          - global: true' 'profiles:' '  compute:'"
	    " '    gpucost:' '      resources:' '        cpu: {units: 8}'"
	    " '        memory: {size: 32Gi}' '        storage: {size: 100Gi}'"
	    " '        gpu:' '          units: 1' '          attributes:'"
	    " '            vendor:' ");
	/*
	 * Plain words only (sdl_word()), so they go inside our own quotes:
	 * launch_shell_quote() would drop the indentation YAML needs. The
	 * SDL's interface is "sxm" or "pcie", whatever the generation.
	 */
	cmd_add(&c, "'              %.*s:' '                - {model: %.*s, "
	    "ram: %.*s, interface: %s}'", len[0], part[0], len[1], part[1],
	    len[2], part[2], str_find_nocase(k, "sxm") != NULL ? "sxm" :
	    "pcie");
	cmd_add(&c, " '  placement:' '    akash:' '      pricing:'"
	    " '        gpucost: {denom: uakt, amount: MAX_UAKT_PER_BLOCK}'"
	    " 'deployment:' '  gpucost:' '    akash: {profile: gpucost, count:"
	    " %d}' > gpucost.yml && provider-services tx deployment create"
	    " gpucost.yml --from KEY && provider-services query market bid list"
	    " --owner ADDRESS --dseq DSEQ && provider-services tx market lease"
	    " create --dseq DSEQ --provider PROVIDER --from KEY &&"
	    " provider-services send-manifest gpucost.yml --dseq DSEQ"
	    " --provider PROVIDER --from KEY", p->nodes);
	return cmd_end(&c);
}

/*
 * A CoreWeave node pool (CKS): the NodePool manifest with the offer's
 * instance type, applied with kubectl; for spot, a Spot Node Pool
 * (computeClass: Spot, docs.coreweave.com/platform/capacity-plans/
 * spot-node-pools). An instance type the page does not name (the L40
 * node) is a placeholder.
 */
static size_t
coreweave_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	struct cmd c;

	cmd_start(&c, buf, size);
	cmd_add(&c, "printf '%%s\\n' 'apiVersion: compute.coreweave.com/v1alpha1'"
	    " 'kind: NodePool' 'metadata:' '  name: gpucost' 'spec:' ");
	if (strchr(o->instance_type, ' ') != NULL)
		cmd_add(&c, "'  instanceType: INSTANCE_TYPE'");
	else {
		/* One word: our indentation, then the name quoted. */
		cmd_add(&c, "'  instanceType: '");
		cmd_quote(&c, o->instance_type);
	}
	/* A Spot Node Pool: the same instances, preemptible (CoreWeave's
	 * "Spot Node Pools": computeClass: Spot). */
	if (spot)
		cmd_add(&c, " '  computeClass: Spot'");
	cmd_add(&c, " '  targetNodes: %d' | kubectl apply -f -", p->nodes);
	return cmd_end(&c);
}

/*
 * A SaladCloud container group: one GPU of the class at High priority
 * (on demand) or Batch (spot). The API names a class by its id, which
 * the price list does not give: GPU_CLASS_ID is the id GET
 * .../gpu-classes gives the offer's class.
 */
static size_t
salad_launch(const struct plan *p, bool spot, char *buf, size_t size)
{
	char body[LAUNCH_CMD_MAX / 2];
	struct cmd c;

	snprintf(body, sizeof body, "{\"name\":\"gpucost\",\"container\":"
	    "{\"image\":\"IMAGE\",\"resources\":{\"cpu\":4,\"memory\":8192,"
	    "\"gpu_classes\":[\"GPU_CLASS_ID\"]},\"priority\":\"%s\"},"
	    "\"autostart_policy\":true,\"restart_policy\":\"always\","
	    "\"replicas\":%d}", spot ? "batch" : "high", p->nodes);
	cmd_start(&c, buf, size);
	cmd_add(&c, "curl -fsS -X POST -H \"Salad-Api-Key: $SALAD_API_KEY\""
	    " -H 'Content-Type: application/json' -d ");
	cmd_quote(&c, body);
	cmd_add(&c, " https://api.salad.com/api/public/organizations/"
	    "ORGANIZATION/projects/PROJECT/containers");
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */

static size_t
launch_for(const struct plan *p, bool spot, char *buf, size_t size)
{
	const char *prov = p->offer->provider;

	if (size > 0)
		buf[0] = '\0';
	/* Spot commands exactly where a spot price is kept (rentable.h). */
	if (spot && !rentable_spot_launch(prov))
		return 0;
	if (strcmp(prov, "gcp") == 0)
		return gcp_launch(p, spot, buf, size);
	if (strcmp(prov, "aws") == 0)
		return aws_launch(p, spot, buf, size);
	if (strcmp(prov, "vast") == 0)
		return vast_launch(p, spot, buf, size);
	if (strcmp(prov, "azure") == 0)
		return azure_launch(p, spot, buf, size);
	if (strcmp(prov, "oci") == 0)
		return oci_launch(p, spot, buf, size);
	if (strcmp(prov, "salad") == 0)
		return salad_launch(p, spot, buf, size);
	if (strcmp(prov, "coreweave") == 0)
		return coreweave_launch(p, spot, buf, size);
	if (strcmp(prov, "runpod") == 0)
		return runpod_launch(p, buf, size);
	if (strcmp(prov, "lambda") == 0)
		return lambda_launch(p, buf, size);
	if (strcmp(prov, "vultr") == 0)
		return vultr_launch(p, buf, size);
	if (strcmp(prov, "scaleway") == 0)
		return scaleway_launch(p, buf, size);
	if (strcmp(prov, "linode") == 0)
		return linode_launch(p, buf, size);
	if (strcmp(prov, "ovh") == 0)
		return ovh_launch(p, buf, size);
	if (strcmp(prov, "cloudrift") == 0)
		return cloudrift_launch(p, buf, size);
	if (strcmp(prov, "verda") == 0)
		return verda_launch(p, spot, buf, size);
	if (strcmp(prov, "akash") == 0)
		return akash_launch(p, buf, size);
	return 0;
}

size_t
launch_command(const struct plan *p, char *buf, size_t size)
{
	/* Never an on-demand command for what is not sold on demand (no
	 * on-demand price: spot-only, DWS, capacity blocks). */
	if (!money_known(p->offer->price)) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	return launch_for(p, false, buf, size);
}

size_t
launch_spot_command(const struct plan *p, char *buf, size_t size)
{
	/* Only where a spot price is published for this offer. */
	if (!money_known(p->offer->spot_price)) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	return launch_for(p, true, buf, size);
}

size_t
launch_zones(const struct offer *o, char *buf, size_t size)
{
	buf[0] = '\0';
	if (strcmp(o->provider, "gcp") == 0)
		return gcp_zones(o, buf, size);
	/* AWS: the zone of the spot price, where the offer knows it. */
	if (strcmp(o->provider, "aws") == 0 && o->spot_zone[0] != '\0')
		return str_copy(buf, size, o->spot_zone) < size ?
		    strlen(buf) : 0;
	/* A Scaleway offer's region is its zone. */
	if (strcmp(o->provider, "scaleway") == 0)
		return str_copy(buf, size, o->region) < size ?
		    strlen(buf) : 0;
	return 0;
}

size_t
launch_quota(const struct offer *o, char *buf, size_t size)
{
	buf[0] = '\0';
	if (strcmp(o->provider, "gcp") == 0)
		return gcp_quota(o, buf, size);
	if (strcmp(o->provider, "aws") == 0)
		return aws_quota(o, buf, size);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Clusters: placing the nodes and the fabric's NCCL settings          */

size_t
launch_cluster_setup(const struct plan *p, char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const struct fabric *f = o->fabric;
	struct cmd c;

	if (size > 0)
		buf[0] = '\0';
	if (p->nodes < 2 || f == NULL)
		return 0;
	cmd_start(&c, buf, size);
	switch (f->placement) {
	case PLACE_GROUP:
		cmd_add(&c, "start the %d nodes in one cluster placement group "
		    "(aws ec2 create-placement-group --group-name gpucost "
		    "--strategy cluster; run-instances --placement "
		    "GroupName=gpucost) or a Capacity Block", p->nodes);
		break;
	case PLACE_COMPACT:
		cmd_add(&c, "start the %d nodes in one zone under a compact "
		    "placement policy (gcloud compute resource-policies "
		    "create group-placement --collocation=COLLOCATED; "
		    "instances create --resource-policies)", p->nodes);
		break;
	case PLACE_SCALE_SET:
		cmd_add(&c, "start the %d nodes as one VM scale set (az vmss "
		    "create --instance-count %d): InfiniBand joins only the "
		    "VMs of one scale set", p->nodes, p->nodes);
		break;
	case PLACE_CLUSTER_NETWORK:
		if (strcmp(o->provider, "oci") == 0)
			cmd_add(&c, "start the %d nodes as one cluster network "
			    "(oci compute-management cluster-network create, "
			    "from an instance configuration of this shape): "
			    "RDMA runs only inside it", p->nodes);
		else
			cmd_add(&c, "start the %d nodes in one Cluster of type "
			    "gpu-fabric (Vultr console or API)", p->nodes);
		break;
	case PLACE_CLUSTER_PRODUCT:
		cmd_add(&c, "create it in the RunPod console under Instant "
		    "Clusters: %d nodes of %d GPUs in data centre ", p->nodes,
		    o->gpu_count);
		cmd_quote(&c, o->region);
		break;
	case PLACE_NODE_POOL:
		cmd_add(&c, "start the %d nodes as one CKS NodePool "
		    "(targetNodes: %d) in one region: InfiniBand joins the "
		    "nodes of the region's fabric", p->nodes, p->nodes);
		break;
	case PLACE_NONE:
	case PLACE_UNKNOWN:
		cmd_add(&c, "no placement construct is known: the nodes meet "
		    "over the ordinary network");
		break;
	}
	/* The traps of data/fabric.tsv's sources, fabric by fabric. */
	switch (f->kind) {
	case FABRIC_EFA:
		if (f->nics > 1)
			cmd_add(&c, "; attach all %d EFA interfaces (one per "
			    "network card; private IPs only: AWS gives no "
			    "public IPv4 to an instance with several)", f->nics);
		cmd_add(&c, "; a security group that allows all traffic to "
		    "and from itself; NCCL needs the aws-ofi-nccl plugin and "
		    "libfabric, else it falls back to TCP");
		break;
	case FABRIC_TCPX:
	case FABRIC_TCPXO:
		cmd_add(&c, "; %d extra VPCs with MTU 8244, one "
		    "--network-interface=nic-type=GVNIC,network=NET_i,"
		    "subnet=SUBNET_i,no-address per GPU NIC; a GPUDirect "
		    "(Container-Optimized OS) image, the RxDM container and "
		    "the %s NCCL plugin, else NCCL falls back to TCP",
		    f->nics > 0 ? f->nics : 4,
		    f->kind == FABRIC_TCPX ? "TCPX" : "TCPXO");
		break;
	case FABRIC_ROCE:
		if (strcmp(o->provider, "gcp") == 0)
			cmd_add(&c, "; a RoCE VPC (network profile with RDMA, "
			    "one subnet per GPU NIC) besides the gVNIC VPCs; "
			    "capacity comes as dense reservations or "
			    "flex-start");
		break;
	case FABRIC_INFINIBAND:
	case FABRIC_ETHERNET:
	case FABRIC_UNKNOWN:
	case FABRIC_KIND_COUNT:
		break;
	}
	if (f->placement == PLACE_CLUSTER_PRODUCT)
		cmd_add(&c, "; export NCCL_SOCKET_IFNAME=ens1 (else NCCL may "
		    "pick the external interface and time out)");
	return cmd_end(&c);
}

/* ------------------------------------------------------------------ */
/* Which row KEY names (launch_find()) and what it may have meant      */

/* Is row i of plans the one KEY names at step step (0 key, 1 type, 2
 * type/region)? type/region: key split at its last '/'. */
static bool
launch_row_is(const struct offer *o, int step, const char *key,
    const char *type, size_t tlen, const char *region, const char **chosen)
{
	*chosen = NULL;
	switch (step) {
	case 0:
		return strcmp(o->key, key) == 0;
	case 1:
		return str_eq_nocase(o->instance_type, key);
	default:
		if (region == NULL || strlen(o->instance_type) != tlen ||
		    strncasecmp(o->instance_type, type, tlen) != 0)
			return false;
		if (str_eq_nocase(o->region, region))
			return true;
		/* One price everywhere: any of the provider's regions. */
		if (region_is_any(o->region) && region_listed(o->provider,
		    region)) {
			*chosen = region;
			return true;
		}
		return false;
	}
}

enum launch_match
launch_find(const struct plan *plans, size_t n, const char *key,
    struct launch_pick *pick)
{
	const char *slash = strrchr(key, '/'), *region, *chosen;
	size_t i, tlen;
	int step;
	bool found;

	memset(pick, 0, sizeof *pick);
	region = slash != NULL && slash[1] != '\0' ? slash + 1 : NULL;
	tlen = slash != NULL ? (size_t)(slash - key) : strlen(key);
	for (step = 0; step < 3; step++) {
		found = false;
		for (i = 0; i < n; i++) {
			const struct offer *o = plans[i].offer;

			if (!launch_row_is(o, step, key, key, tlen, region,
			    &chosen))
				continue;
			if (!found) {
				found = true;
				pick->row = i;
				pick->region = chosen;
				pick->by_type = step > 0;
			} else if (strcmp(o->provider,
			    plans[pick->row].offer->provider) != 0) {
				pick->other = o->provider;
				return LAUNCH_AMBIGUOUS;
			}
		}
		if (found)
			return LAUNCH_FOUND;
	}
	return LAUNCH_NONE;
}

/* The words a KEY is compared with: an offer's key and instance type. */
static const char *
suggest_word(const struct offer *o, int which, bool digits)
{
	if (which == 1)
		return o->instance_type;
	/* A marketplace's listing ids only for a KEY of digits. */
	return all_digits(o->key) && !digits ? "" : o->key;
}

/* Add w to the list of up to 3 (words[]), once; false when full. */
static bool
suggest_add(const char **words, size_t *n, const char *w)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp(words[i], w) == 0)
			return true;
	if (*n == 3)
		return false;
	words[(*n)++] = w;
	return true;
}

size_t
launch_suggest(const struct offer *offers, size_t n, const char *key,
    char *buf, size_t size)
{
	const char *words[3], *w;
	size_t i, d, best = (size_t)-1, nw = 0, len, klen = strlen(key);
	bool digits = all_digits(key);
	int which, pass;

	if (size > 0)
		buf[0] = '\0';
	/* Pass 0: the least distance a typo may have; 1: those at it. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			for (which = 0; which < 2; which++) {
				w = suggest_word(&offers[i], which, digits);
				if (w[0] == '\0')
					continue;
				d = str_distance(key, w);
				len = strlen(w);
				if (d > (len >= 6 ? 2 : len / 3 > 0 ? len / 3 : 1))
					continue;
				if (pass == 0 && d < best)
					best = d;
				else if (pass == 1 && d == best &&
				    !suggest_add(words, &nw, w))
					goto list;
			}
	/* None near: the types, then keys, it starts ("p5" ...). */
	for (which = 1; nw == 0 && klen > 0 && which >= 0; which--)
		for (i = 0; i < n; i++) {
			w = suggest_word(&offers[i], which, digits);
			if (strncasecmp(w, key, klen) == 0 && w[klen] != '\0' &&
			    !suggest_add(words, &nw, w))
				break;
		}
list:
	for (i = 0, len = 0; i < nw && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    i == 0 ? "" : i + 1 == nw ? " or " : ", ", words[i]);
	if (len >= size && size > 0)
		buf[0] = '\0';
	return len < size ? nw : 0;
}
