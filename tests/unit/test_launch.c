/*
 * test_launch.c: unit tests for launch.c: each provider's command, on
 * demand and spot, filled from the offer; shell quoting of provider
 * text; GCP zones, accelerators and quotas; AWS quota codes; Vertex AI
 * training from Google's regional table.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cost.h"
#include "launch.h"
#include "money.h"
#include "offer.h"
#include "offer_text.h"
#include "provider.h"
#include "rentable.h"

static struct offer offer;
static struct plan plan;
static char buf[LAUNCH_CMD_MAX];

/* An offer of provider with type, region, key, gpu and count; 1 node. */
static void
make(const char *provider, const char *type, const char *region,
    const char *key, const char *gpu, int count)
{
	offer_init(&offer);
	offer.provider = tstr(provider);
	offer.instance_type = tstr(type);
	offer.region = tstr(region);
	offer.key = tstr(key);
	offer.gpu = tstr(gpu);
	offer.gpu_raw = tstr(gpu);
	offer.gpu_count = count;
	offer.price = 1000000;
	memset(&plan, 0, sizeof plan);
	plan.offer = &offer;
	plan.nodes = 1;
	plan.total_gpus = count;
}

static const char *
launch(void)
{
	launch_command(&plan, buf, sizeof buf);
	return buf;
}

static bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * The on-demand command starts with prefix (it takes REGION and lists
 * the provider's regions after it), names one, and never bad.
 */
static void
lists_regions(const char *prefix, const char *one, const char *bad)
{
	assert_true(starts(launch(), prefix));
	assert_non_null(strstr(buf, one));
	assert_null(strstr(buf, bad));
}

static const char *
spot(void)
{
	launch_spot_command(&plan, buf, sizeof buf);
	return buf;
}

static void
test_shell_quote(void **state)
{
	char q[64];

	(void)state;
	assert_int_equal(launch_shell_quote(q, sizeof q, "us-east-1"), 11);
	assert_string_equal(q, "'us-east-1'");
	/* A quote ends the word, an escaped quote, a new word begins. */
	launch_shell_quote(q, sizeof q, "a'b");
	assert_string_equal(q, "'a'\\''b'");
	/* Everything else is literal inside single quotes. */
	launch_shell_quote(q, sizeof q, "$(x); `y` | z & \"w\"");
	assert_string_equal(q, "'$(x); `y` | z & \"w\"'");
	/* Control characters go (a newline would still be quoted). */
	launch_shell_quote(q, sizeof q, "a\nb\033[2Jc\007");
	assert_string_equal(q, "'a bc'");
	launch_shell_quote(q, sizeof q, "");
	assert_string_equal(q, "''");
	/* Too long: nothing, never a word without its closing quote. */
	assert_int_equal(launch_shell_quote(q, 5, "abc"), 0);
	assert_string_equal(q, "");
	assert_int_equal(launch_shell_quote(q, 6, "abc"), 5);
	assert_int_equal(launch_shell_quote(q, 7, "a'"), 0);
	assert_int_equal(launch_shell_quote(q, 8, "a'"), 7);
}

static void
test_gcp(void **state)
{
	char z[LAUNCH_LIST_MAX];

	(void)state;
	make("gcp", "a3-highgpu-2g", "us-central1", "a3-highgpu-2g/us-central1",
	    "H100", 2);
	offer.spot_price = 500000;
	assert_string_equal(launch(),
	    "gcloud compute instances create gpucost-1 --project=PROJECT"
	    " --zone='us-central1-a' --machine-type='a3-highgpu-2g'"
	    " --maintenance-policy=TERMINATE --image-family=IMAGE"
	    " --image-project=IMAGE_PROJECT --boot-disk-size=200GB");
	assert_string_equal(spot(),
	    "gcloud compute instances create gpucost-1 --project=PROJECT"
	    " --zone='us-central1-a' --machine-type='a3-highgpu-2g'"
	    " --maintenance-policy=TERMINATE --provisioning-model=SPOT"
	    " --instance-termination-action=DELETE --image-family=IMAGE"
	    " --image-project=IMAGE_PROJECT --boot-disk-size=200GB");
	assert_int_equal(launch_zones(&offer, z, sizeof z), 41);
	assert_string_equal(z, "us-central1-a us-central1-b us-central1-c");
	launch_quota(&offer, z, sizeof z);
	assert_string_equal(z, "on-demand=NVIDIA_H100_GPUS"
	    " spot=PREEMPTIBLE_NVIDIA_H100_GPUS all-regions=GPUS_ALL_REGIONS"
	    " vertex=aiplatform.googleapis.com/"
	    "custom_model_training_nvidia_h100_gpus"
	    " vertex-spot=aiplatform.googleapis.com/"
	    "custom_model_training_preemptible_nvidia_h100_gpus");
	assert_int_equal(launch_vertex_training(&offer), VERTEX_YES);
	launch_vertex_command(&plan, buf, sizeof buf);
	assert_string_equal(buf, "gcloud ai custom-jobs create"
	    " --project=PROJECT --region='us-central1' --display-name=gpucost"
	    " --worker-pool-spec=machine-type='a3-highgpu-2g',replica-count=1,"
	    "accelerator-type=NVIDIA_H100_80GB,accelerator-count=2,"
	    "container-image-uri=IMAGE");

	/* No spot price published: no spot command. */
	offer.spot_price = MONEY_NONE;
	assert_int_equal(launch_spot_command(&plan, buf, sizeof buf), 0);
	assert_string_equal(buf, "");

	/* A region whose zones the table lacks: a ZONE placeholder. */
	offer.region = tstr("mars-north1");
	assert_non_null(strstr(launch(), " --zone=ZONE "));
	assert_int_equal(launch_zones(&offer, z, sizeof z), 0);
	/* Vertex trains H100 in named regions only. */
	assert_int_equal(launch_vertex_training(&offer), VERTEX_NO);
	assert_int_equal(launch_vertex_command(&plan, buf, sizeof buf), 0);
}

static void
test_gcp_series(void **state)
{
	char q[LAUNCH_LIST_MAX];

	(void)state;
	/* The Mega H100 has its own accelerator, quota and Vertex type. */
	make("gcp", "a3-megagpu-8g", "us-central1", "k", "H100", 8);
	launch_quota(&offer, q, sizeof q);
	assert_non_null(strstr(q, "on-demand=NVIDIA_H100_MEGA_GPUS "));
	launch_vertex_command(&plan, buf, sizeof buf);
	assert_non_null(strstr(buf, "NVIDIA_H100_MEGA_80GB"));

	/* A2 Ultra: A100 80GB; G2: L4; neither takes --accelerator. */
	make("gcp", "a2-ultragpu-2g", "us-central1", "k", "A100-80", 2);
	assert_null(strstr(launch(), "--accelerator"));
	launch_quota(&offer, q, sizeof q);
	assert_non_null(strstr(q, "on-demand=NVIDIA_A100_80GB_GPUS "));
	make("gcp", "g2-standard-24", "europe-west4", "k", "L4", 2);
	assert_null(strstr(launch(), "--accelerator"));
	assert_non_null(strstr(launch(), "--zone='europe-west4-"));
	launch_vertex_command(&plan, buf, sizeof buf);
	assert_non_null(strstr(buf, "accelerator-type=NVIDIA_L4,"
	    "accelerator-count=2,"));

	/* Two nodes: two VMs, two Vertex replicas. */
	make("gcp", "a3-highgpu-8g", "us-central1", "k", "H100", 8);
	plan.nodes = 2;
	assert_non_null(strstr(launch(),
	    "instances create gpucost-1 gpucost-2 --project"));
	launch_vertex_command(&plan, buf, sizeof buf);
	assert_non_null(strstr(buf, ",replica-count=2,"));
}

static void
test_gcp_n1(void **state)
{
	char q[LAUNCH_LIST_MAX];

	(void)state;
	/* The adapter's N1 names carry the attachment; gcloud's do not. */
	make("gcp", "n1-standard-8+1xT4", "us-central1",
	    "n1-standard-8+1xT4/us-central1", "T4", 1);
	assert_string_equal(launch(),
	    "gcloud compute instances create gpucost-1 --project=PROJECT"
	    " --zone='us-central1-a' --machine-type='n1-standard-8'"
	    " --accelerator=type=nvidia-tesla-t4,count=1"
	    " --maintenance-policy=TERMINATE --image-family=IMAGE"
	    " --image-project=IMAGE_PROJECT --boot-disk-size=200GB");
	launch_quota(&offer, q, sizeof q);
	assert_non_null(strstr(q, "on-demand=NVIDIA_T4_GPUS "));
	launch_vertex_command(&plan, buf, sizeof buf);
	assert_non_null(strstr(buf, "machine-type='n1-standard-8',"));
	assert_non_null(strstr(buf, "accelerator-type=NVIDIA_TESLA_T4,"));

	make("gcp", "n1-highmem-64+8xV100", "us-central1", "k", "V100-16", 8);
	assert_non_null(strstr(launch(),
	    " --accelerator=type=nvidia-tesla-v100,count=8 "));
	/* P4 is not in Google's Vertex training table: unknown. */
	make("gcp", "n1-standard-8+1xP4", "us-central1", "k", "P4", 1);
	assert_int_equal(launch_vertex_training(&offer), VERTEX_UNKNOWN);
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=NVIDIA_P4_GPUS"
	    " spot=PREEMPTIBLE_NVIDIA_P4_GPUS all-regions=GPUS_ALL_REGIONS");
	/* An N1 offer with a GPU N1 cannot attach: no command at all. */
	make("gcp", "n1-standard-8+1xH100", "us-central1", "k", "H100", 1);
	assert_int_equal(launch_command(&plan, buf, sizeof buf), 0);
}

static void
test_vertex_table(void **state)
{
	(void)state;
	/* H200: us-east4 (default 8), us-central1 (0, on request), not
	 * us-west2 ("Not available"). */
	make("gcp", "a3-ultragpu-8g", "us-east4", "k", "H200", 8);
	assert_int_equal(launch_vertex_training(&offer), VERTEX_YES);
	offer.region = tstr("us-central1");
	assert_int_equal(launch_vertex_training(&offer), VERTEX_YES);
	offer.region = tstr("us-west2");
	assert_int_equal(launch_vertex_training(&offer), VERTEX_NO);
	/* Not GCP: unknown. */
	make("aws", "p5.48xlarge", "us-east-1", "k", "H100", 8);
	assert_int_equal(launch_vertex_training(&offer), VERTEX_UNKNOWN);
	assert_int_equal(launch_vertex_command(&plan, buf, sizeof buf), 0);
}

static void
test_aws(void **state)
{
	char q[LAUNCH_LIST_MAX];

	(void)state;
	make("aws", "p4d.24xlarge", "us-east-1", "p4d.24xlarge/us-east-1",
	    "A100-40", 8);
	offer.spot_price = 9000000;
	assert_string_equal(launch(), "aws ec2 run-instances --region"
	    " 'us-east-1' --instance-type 'p4d.24xlarge' --image-id IMAGE"
	    " --count 1 --key-name KEY");
	assert_string_equal(spot(), "aws ec2 run-instances --region"
	    " 'us-east-1' --instance-type 'p4d.24xlarge' --image-id IMAGE"
	    " --count 1 --key-name KEY --instance-market-options"
	    " 'MarketType=spot,SpotOptions={SpotInstanceType=one-time,"
	    "InstanceInterruptionBehavior=terminate}'");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-417A185B spot=L-7212CCBC");
	/*
	 * Issue 44 item 7: the cheapest zone's spot price (z) is that
	 * zone's: the spot command pins it, by ID; on-demand does not.
	 */
	offer.spot_zone = tstr("use1-az4");
	assert_non_null(strstr(spot(), " --key-name KEY --placement"
	    " 'AvailabilityZoneId=use1-az4' --instance-market-options"));
	assert_null(strstr(launch(), "--placement"));
	offer.spot_zone = tstr("us-east-1a");
	assert_non_null(strstr(spot(), " --placement"
	    " 'AvailabilityZone=us-east-1a' "));
	offer.spot_zone = tstr("");
	plan.nodes = 3;
	assert_non_null(strstr(launch(), " --count 3 "));

	/*
	 * Issue 48: nodes joined by EFA get every EFA interface the type
	 * has (data/fabric.tsv: 4 on p4d), one per network card, with the
	 * placement group; one node needs none.
	 */
	offer_set_fabric(&offer);
	plan.nodes = 2;
	assert_non_null(strstr(launch(), " --count 2 --key-name KEY"
	    " --placement GroupName=gpucost --network-interfaces"
	    " NetworkCardIndex=0,DeviceIndex=0,Groups=SECURITY_GROUP,"
	    "SubnetId=SUBNET,InterfaceType=efa"
	    " NetworkCardIndex=1,DeviceIndex=1,Groups=SECURITY_GROUP,"
	    "SubnetId=SUBNET,InterfaceType=efa"
	    " NetworkCardIndex=2,DeviceIndex=1,Groups=SECURITY_GROUP,"
	    "SubnetId=SUBNET,InterfaceType=efa"
	    " NetworkCardIndex=3,DeviceIndex=1,Groups=SECURITY_GROUP,"
	    "SubnetId=SUBNET,InterfaceType=efa"));
	assert_null(strstr(buf, "NetworkCardIndex=4"));
	assert_non_null(strstr(spot(), "InterfaceType=efa --instance-market"));
	plan.nodes = 1;
	assert_null(strstr(launch(), "--network-interfaces"));
	/* p5.48xlarge: 32 interfaces, and the command still fits. */
	offer.instance_type = tstr("p5.48xlarge");
	offer_set_fabric(&offer);
	plan.nodes = 2;
	assert_true(launch_command(&plan, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, " NetworkCardIndex=31,DeviceIndex=1,"));
	assert_null(strstr(buf, "NetworkCardIndex=32"));
	offer.instance_type = tstr("p4d.24xlarge");
	offer_set_fabric(&offer);

	/* Families by the letters before the generation. */
	offer.instance_type = tstr("g6e.xlarge");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-DB2E81BA spot=L-3819A6DF");
	offer.instance_type = tstr("gr6.4xlarge");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-DB2E81BA spot=L-3819A6DF");
	offer.instance_type = tstr("p6-b200.48xlarge");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-417A185B spot=L-7212CCBC");
	offer.instance_type = tstr("inf2.xlarge");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-1945791B spot=L-B5D1601B");
	offer.instance_type = tstr("trn1.32xlarge");
	launch_quota(&offer, q, sizeof q);
	assert_string_equal(q, "on-demand=L-2C3B7624 spot=L-5480EFD2");
	/* No zones known for AWS offers. */
	assert_int_equal(launch_zones(&offer, q, sizeof q), 0);
}

static void
test_runpod(void **state)
{
	(void)state;
	/* Live: the id is in the key, the region is the cloud. */
	make("runpod", "8x H100 SXM", "community",
	    "8x_NVIDIA H100 80GB HBM3_COMMUNITY", "H100", 8);
	offer.gpu_raw = tstr("H100 SXM");
	assert_string_equal(launch(), "runpodctl pod create --name gpucost"
	    " --image IMAGE --gpu-id 'NVIDIA H100 80GB HBM3' --gpu-count 8"
	    " --cloud-type COMMUNITY");
	/* RunPod's spot (interruptible) is not in its CLI. */
	offer.spot_price = 1000000;
	assert_int_equal(launch_spot_command(&plan, buf, sizeof buf), 0);

	/* Snapshot: a data centre; the id from the display name. */
	make("runpod", "2x_RTX4090_SECURE", "US-TX-3",
	    "2x_RTX4090_SECURE/US-TX-3", "RTX4090", 2);
	offer.gpu_raw = tstr("RTX 4090");
	assert_string_equal(launch(), "runpodctl pod create --name gpucost"
	    " --image IMAGE --gpu-id 'NVIDIA GeForce RTX 4090' --gpu-count 2"
	    " --cloud-type SECURE --data-center-ids 'US-TX-3'");
	/* A display name RunPod's table lacks: a placeholder. */
	offer.gpu_raw = tstr("RTX PRO 4000");
	assert_non_null(strstr(launch(), " --gpu-id GPU_TYPE_ID "));
}

static void
test_vast(void **state)
{
	(void)state;
	make("vast", "9100001", "Texas, US", "9100001", "RTX4090", 1);
	offer.spot_price = 250000;
	assert_string_equal(launch(),
	    "vastai create instance '9100001' --image IMAGE --disk 50");
	assert_string_equal(spot(), "vastai create instance '9100001'"
	    " --image IMAGE --disk 50 --bid_price '0.25'");
	/* Snapshot rows carry no offer id. */
	make("vast", "1x-H100_NVL-32-65536", "US, NA",
	    "1x-H100_NVL-32-65536/US, NA", "H100-NVL", 1);
	assert_string_equal(launch(),
	    "vastai create instance OFFER_ID --image IMAGE --disk 50");
}

static void
test_lambda_vultr(void **state)
{
	(void)state;
	make("lambda", "gpu_8x_h100_sxm5", "us-east-1",
	    "gpu_8x_h100_sxm5/us-east-1", "H100", 8);
	assert_string_equal(launch(), "curl -fsS -u \"$LAMBDA_API_KEY:\""
	    " -X POST -H 'Content-Type: application/json' -d"
	    " '{\"region_name\":\"us-east-1\",\"instance_type_name\":"
	    "\"gpu_8x_h100_sxm5\",\"ssh_key_names\":[\"KEY\"],\"quantity\":1}'"
	    " https://cloud.lambda.ai/api/v1/instance-operations/launch");
	/*
	 * Issue 44: one price in every region ("all", the snapshot's) or
	 * none with capacity ("(sold out)", live): no region_name "all";
	 * REGION, and Lambda's regions after the command.
	 */
	offer.region = tstr("all");
	lists_regions("curl -fsS -u \"$LAMBDA_API_KEY:\""
	    " -X POST -H 'Content-Type: application/json' -d"
	    " '{\"region_name\":\"REGION\",\"instance_type_name\":"
	    "\"gpu_8x_h100_sxm5\",\"ssh_key_names\":[\"KEY\"],\"quantity\":1}'"
	    " https://cloud.lambda.ai/api/v1/instance-operations/launch"
	    "  # REGION: one of asia-northeast-1 ", " us-east-1 ", "\"all\"");
	offer.region = tstr("(sold out)");
	assert_non_null(strstr(launch(), "\"region_name\":\"REGION\""));
	/* JSON escapes inside the body, shell quoting around it. */
	offer.region = tstr("x\"y'z");
	assert_non_null(strstr(launch(),
	    "'{\"region_name\":\"x\\\"y'\\''z\","));

	make("vultr", "vbm-112c-2048gb-8-h100-gpu", "sea",
	    "vbm-112c-2048gb-8-h100-gpu/sea", "H100", 8);
	assert_string_equal(launch(), "vultr-cli bare-metal create"
	    " --region='sea' --plan='vbm-112c-2048gb-8-h100-gpu' --os=1743");
	make("vultr", "vcg-l40s-16c-180g-48vram", "unknown",
	    "vcg-l40s-16c-180g-48vram/unknown", "L40S", 1);
	assert_true(starts(launch(), "vultr-cli instance create"
	    " --region=REGION --plan='vcg-l40s-16c-180g-48vram' --os=1743"
	    "  # REGION: one of "));
}

static void
test_new_providers(void **state)
{
	char z[LAUNCH_LIST_MAX];

	(void)state;
	make("azure", "Standard_ND96isr_H100_v5", "eastus",
	    "Standard_ND96isr_H100_v5/eastus", "H100", 8);
	offer.spot_price = 20000000;
	assert_string_equal(launch(), "az vm create --resource-group"
	    " RESOURCE_GROUP --name gpucost-1 --location 'eastus' --size"
	    " 'Standard_ND96isr_H100_v5' --image Ubuntu2204"
	    " --ssh-key-values KEY");
	assert_non_null(strstr(spot(),
	    " --priority Spot --max-price -1 --eviction-policy Delete"));

	/* Issue 44: "all" is no region; REGION, and OCI's regions listed. */
	make("oci", "BM.GPU.H100.8", "all", "BM.GPU.H100.8", "H100", 8);
	lists_regions("oci compute instance launch"
	    " --region REGION --availability-domain AD --compartment-id"
	    " COMPARTMENT --shape 'BM.GPU.H100.8' --subnet-id SUBNET"
	    " --image-id IMAGE --ssh-authorized-keys-file KEY  # REGION: one"
	    " of af-casablanca-1 af-johannesburg-1 ", " us-ashburn-1 ",
	    "'all'");
	assert_int_equal(launch_spot_command(&plan, buf, sizeof buf), 0);
	offer.spot_price = 40000000;
	offer.region = tstr("us-ashburn-1");
	assert_non_null(strstr(spot(), "launch --region 'us-ashburn-1' "));
	assert_non_null(strstr(buf, " --preemptible-instance-config '{"));

	make("scaleway", "H100-1-80G", "fr-par-2", "H100-1-80G/fr-par-2",
	    "H100", 1);
	assert_string_equal(launch(), "scw instance server create"
	    " type='H100-1-80G' zone='fr-par-2' image=IMAGE project-id=PROJECT");
	launch_zones(&offer, z, sizeof z);
	assert_string_equal(z, "fr-par-2");

	/* Cudo Compute is retired (data/retired.tsv): no command. */
	make("cudo", "epyc-rome-rtx-a5000", "se-smedjebacken-1",
	    "epyc-rome-rtx-a5000/se-smedjebacken-1/1", "A5000", 1);
	assert_int_equal(launch_command(&plan, buf, sizeof buf), 0);

	/* Issue 22: no on-demand price (spot-only, DWS, capacity blocks):
	 * no on-demand command; the spot one stays where spot is sold. */
	make("gcp", "a3-highgpu-2g", "us-central1", "a3-highgpu-2g/us-central1",
	    "H100", 2);
	offer.price = MONEY_NONE;
	offer.spot_price = 8968400;
	assert_int_equal(launch_command(&plan, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_true(launch_spot_command(&plan, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, "--provisioning-model=SPOT"));
	make("aws", "p5e.48xlarge", "eu-west-2", "p5e.48xlarge/eu-west-2",
	    "H200", 8);
	offer.price = MONEY_NONE;
	assert_int_equal(launch_command(&plan, buf, sizeof buf), 0);

	/* A provider nobody wrote a command for: none. */
	make("nosuch", "t", "r", "k", "H100", 1);
	assert_int_equal(launch_command(&plan, buf, sizeof buf), 0);
}

/* Issue 47: Akash's SDL and provider-services, CoreWeave's NodePool, Salad. */
static void
test_seed_clouds(void **state)
{
	(void)state;
	make("akash", "v100 16Gi SXM2", "global", "nvidia/v100/16Gi/SXM2",
	    "V100-16", 1);
	assert_non_null(strstr(launch(), " '              nvidia:'"
	    " '                - {model: v100, ram: 16Gi, interface: sxm}' "));
	assert_int_equal(strncmp(launch(), "printf '%s\\n' '---' ", 20), 0);
	assert_non_null(strstr(launch(), "akash: {profile: gpucost, count: 1}'"
	    " > gpucost.yml && provider-services tx deployment create"
	    " gpucost.yml --from KEY && "));
	assert_non_null(strstr(launch(), " && provider-services send-manifest"
	    " gpucost.yml --dseq DSEQ --provider PROVIDER --from KEY"));
	/* Text that is no plain word is a placeholder, never SDL. */
	make("akash", "x", "global", "nvidia/x: y}/16Gi/PCIe", "", 1);
	assert_non_null(strstr(launch(),
	    "'                - {model: MODEL, ram: 16Gi, interface: pcie}'"));
	assert_int_equal(spot()[0], '\0');

	make("coreweave", "gd-8xh100ib-i128", "europe",
	    "gd-8xh100ib-i128/europe", "H100", 8);
	assert_string_equal(launch(), "printf '%s\\n' 'apiVersion:"
	    " compute.coreweave.com/v1alpha1' 'kind: NodePool' 'metadata:'"
	    " '  name: gpucost' 'spec:' '  instanceType: ''gd-8xh100ib-i128'"
	    " '  targetNodes: 1' | kubectl apply -f -");
	plan.nodes = 4;
	assert_non_null(strstr(launch(), "'  targetNodes: 4' |"));
	make("coreweave", "NVIDIA L40 (8 GPU)", "europe",
	    "NVIDIA L40 (8 GPU)/europe", "L40", 8);
	assert_non_null(strstr(launch(), "'  instanceType: INSTANCE_TYPE'"));
	/* Spot: a Spot Node Pool of the same instances. */
	offer.spot_price = 500000;
	assert_non_null(strstr(spot(), "'  computeClass: Spot' "
	    "'  targetNodes: 1' | kubectl apply -f -"));
	assert_null(strstr(launch(), "computeClass"));

	make("salad", "RTX 4090 (24 GB)", "global", "RTX 4090 (24 GB)",
	    "RTX4090", 1);
	offer.spot_price = 160000;
	assert_string_equal(launch(), "curl -fsS -X POST -H \"Salad-Api-Key:"
	    " $SALAD_API_KEY\" -H 'Content-Type: application/json' -d"
	    " '{\"name\":\"gpucost\",\"container\":{\"image\":\"IMAGE\","
	    "\"resources\":{\"cpu\":4,\"memory\":8192,\"gpu_classes\":"
	    "[\"GPU_CLASS_ID\"]},\"priority\":\"high\"},"
	    "\"autostart_policy\":true,\"restart_policy\":\"always\","
	    "\"replicas\":1}' https://api.salad.com/api/public/organizations/"
	    "ORGANIZATION/projects/PROJECT/containers");
	assert_non_null(strstr(spot(), "\"priority\":\"batch\""));
}

/* Issue 28: Linode's CLI, OpenStack for OVHcloud, curl for CloudRift, Verda. */
static void
test_reach_providers(void **state)
{
	(void)state;
	make("linode", "g2-gpu-rtx4000a1-s", "us-ord",
	    "g2-gpu-rtx4000a1-s/us-ord", "RTX4000-Ada", 1);
	assert_string_equal(launch(), "linode-cli linodes create --type"
	    " 'g2-gpu-rtx4000a1-s' --region 'us-ord' --image"
	    " linode/ubuntu24.04 --root_pass ROOT_PASS --authorized_keys KEY");

	make("ovh", "l40s-90", "GRA11", "l40s-90/GRA11", "L40S", 1);
	assert_string_equal(launch(), "openstack --os-region-name 'GRA11'"
	    " server create --flavor 'l40s-90' --image 'Ubuntu 24.04'"
	    " --key-name KEY --network Ext-Net gpucost-1");
	plan.nodes = 3;
	assert_non_null(strstr(launch(), " --flavor 'l40s-90' --min 3 --max 3 "));

	make("cloudrift", "rtx49-8c-nr.1", "us-east-nc-nr-1",
	    "rtx49-8c-nr.1/us-east-nc-nr-1", "RTX4090", 1);
	assert_string_equal(launch(), "curl -fsS -X POST -H \"X-API-Key:"
	    " $CLOUDRIFT_API_KEY\" -H 'Content-Type: application/json' -d"
	    " '{\"version\":\"2026-09-08\",\"data\":{\"selector\":"
	    "{\"ByInstanceTypeAndLocation\":{\"instance_type\":"
	    "\"rtx49-8c-nr.1\",\"datacenters\":[\"us-east-nc-nr-1\"]}},"
	    "\"config\":{\"VirtualMachine\":{\"image_url\":\"IMAGE_URL\","
	    "\"ssh_key\":{\"PublicKeys\":[\"KEY\"]}}},"
	    "\"with_public_ip\":true}}'"
	    " https://api.cloudrift.ai/api/v1/instances/rent");
	make("verda", "1x H100 SXM5 80GB", "nordics", "1x H100 SXM5 80GB",
	    "H100", 1);
	assert_string_equal(launch(), "curl -fsS -X POST -H \"Authorization:"
	    " Bearer $VERDA_TOKEN\" -H 'Content-Type: application/json' -d"
	    " '{\"instance_type\":\"INSTANCE_TYPE\",\"image\":\"IMAGE\","
	    "\"ssh_key_ids\":[\"KEY\"],\"location_code\":\"FIN-01\","
	    "\"hostname\":\"gpucost-1\",\"description\":"
	    "\"1x H100 SXM5 80GB\"}' https://api.datacrunch.io/v1/instances");
	/* Verda's spot is the same call with "is_spot":true. */
	offer.spot_price = 100000;
	assert_true(launch_spot_command(&plan, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, "\"description\":\"1x H100 SXM5 80GB\","
	    "\"is_spot\":true}'"));
	/* The other three have none. */
	make("linode", "g2-gpu-rtx4000a1-s", "us-ord",
	    "g2-gpu-rtx4000a1-s/us-ord", "RTX4000-Ada", 1);
	offer.spot_price = 100000;
	assert_int_equal(launch_spot_command(&plan, buf, sizeof buf), 0);
}

/*
 * Issue 48: a spot price is shown exactly where there is a spot command.
 * rentable.h's spot_launch_providers[] is the one list: each of its
 * providers has a spot command for an offer with a spot price; every
 * other provider of the registry has none (and offer_spot_vet() keeps
 * no spot price for it).
 */
static void
test_spot_commands_agree(void **state)
{
	size_t i, n = 0;

	(void)state;
	for (i = 0; providers[i] != NULL; i++) {
		const char *id = providers[i]->id;

		make(id, "a3-highgpu-8g", "us-central1", "k", "H100", 8);
		offer.spot_price = 500000;
		if (rentable_spot_launch(id)) {
			if (launch_spot_command(&plan, buf, sizeof buf) == 0)
				fail_msg("%s keeps spot prices but has no spot "
				    "command", id);
			n++;
		} else {
			assert_int_equal(launch_spot_command(&plan, buf,
			    sizeof buf), 0);
			assert_true(offer_spot_vet(&offer));
			assert_false(money_known(offer.spot_price));
		}
	}
	for (i = 0; spot_launch_providers[i] != NULL; i++)
		;
	assert_int_equal(n, i);
	/* Vultr (hourly_cost_preemptible) and RunPod are not among them. */
	assert_false(rentable_spot_launch("vultr"));
	assert_false(rentable_spot_launch("runpod"));
}

/*
 * Issue 48: which row `gpucost launch KEY` means: a key exactly, an
 * instance type as the table shows it (its first row, the one the table
 * folds the others into), TYPE/REGION, and for an offer of region "all"
 * one of the provider's own regions; two providers alike: ambiguous.
 */
static void
test_find(void **state)
{
	struct offer o[5];
	struct plan p[5];
	struct launch_pick pick;
	char near[256];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		offer_init(&o[i]);
	o[0].provider = "aws"; o[0].instance_type = "p5.48xlarge";
	o[0].region = "us-east-2"; o[0].key = "p5.48xlarge/us-east-2";
	o[1].provider = "aws"; o[1].instance_type = "p5.48xlarge";
	o[1].region = "us-east-1"; o[1].key = "p5.48xlarge/us-east-1";
	o[2].provider = "lambda"; o[2].instance_type = "gpu_8x_h100_sxm5";
	o[2].region = "all"; o[2].key = "gpu_8x_h100_sxm5/all";
	o[3].provider = "oci"; o[3].instance_type = "BM.GPU.H100.8";
	o[3].region = "all"; o[3].key = "BM.GPU.H100.8";
	o[4].provider = "vast"; o[4].instance_type = "p5.48xlarge";
	o[4].region = "US"; o[4].key = "4100001";
	for (i = 0; i < 5; i++)
		cost_plan(&p[i], &o[i], 1);

	assert_int_equal(launch_find(p, 4, "p5.48xlarge/us-east-1", &pick),
	    LAUNCH_FOUND);
	assert_int_equal(pick.row, 1);
	assert_false(pick.by_type);
	assert_null(pick.region);
	/* The type: its first row in the answer's order. */
	assert_int_equal(launch_find(p, 4, "P5.48XLARGE", &pick), LAUNCH_FOUND);
	assert_int_equal(pick.row, 0);
	assert_true(pick.by_type);
	/* Keys and types of two providers: --provider chooses. */
	assert_int_equal(launch_find(p, 5, "p5.48xlarge", &pick),
	    LAUNCH_AMBIGUOUS);
	assert_string_equal(pick.other, "vast");
	assert_int_equal(launch_find(p, 5, "4100001", &pick), LAUNCH_FOUND);
	assert_int_equal(pick.row, 4);
	/* One price everywhere: a region of the provider's, none other. */
	assert_int_equal(launch_find(p, 4, "gpu_8x_h100_sxm5/us-east-1",
	    &pick), LAUNCH_FOUND);
	assert_int_equal(pick.row, 2);
	assert_string_equal(pick.region, "us-east-1");
	assert_int_equal(launch_find(p, 4, "gpu_8x_h100_sxm5/us-ashburn-1",
	    &pick), LAUNCH_NONE);
	assert_int_equal(launch_find(p, 4, "BM.GPU.H100.8/us-ashburn-1",
	    &pick), LAUNCH_FOUND);
	assert_string_equal(pick.region, "us-ashburn-1");
	assert_int_equal(launch_find(p, 4, "gpu_8x_h100_sxm5/all", &pick),
	    LAUNCH_FOUND);
	assert_null(pick.region);
	assert_int_equal(launch_find(p, 4, "p5.48xlarge/eu-west-1", &pick),
	    LAUNCH_NONE);
	assert_int_equal(launch_find(p, 0, "p5.48xlarge", &pick), LAUNCH_NONE);

	/* Did you mean: a typo, else what it starts; never Vast's ids. */
	assert_int_equal(launch_suggest(o, 5, "p5.48xlarge/us-east-3", near,
	    sizeof near), 2);
	assert_string_equal(near, "p5.48xlarge/us-east-2 or "
	    "p5.48xlarge/us-east-1");
	assert_int_equal(launch_suggest(o, 5, "gpu_8x_h100_sxm", near,
	    sizeof near), 1);
	assert_string_equal(near, "gpu_8x_h100_sxm5");
	assert_int_equal(launch_suggest(o, 5, "BM.GPU", near, sizeof near), 1);
	assert_string_equal(near, "BM.GPU.H100.8");
	assert_int_equal(launch_suggest(o, 5, "4100002", near, sizeof near),
	    1);
	assert_string_equal(near, "4100001");
	assert_int_equal(launch_suggest(o, 5, "41", near, sizeof near), 1);
	assert_int_equal(launch_suggest(o, 5, "p5", near, sizeof near), 1);
	assert_string_equal(near, "p5.48xlarge");
	assert_int_equal(launch_suggest(o, 5, "zzz", near, sizeof near), 0);
	assert_string_equal(near, "");
}

static void
test_hostile_and_overflow(void **state)
{
	char small[40];

	(void)state;
	/* Provider text that tries to end the command stays one word. */
	make("aws", "p5.48xlarge'; rm -rf ~; echo '", "us-east-1$(reboot)",
	    "k", "H100", 8);
	assert_string_equal(launch(), "aws ec2 run-instances --region"
	    " 'us-east-1$(reboot)' --instance-type"
	    " 'p5.48xlarge'\\''; rm -rf ~; echo '\\''' --image-id IMAGE"
	    " --count 1 --key-name KEY");
	/* A command that does not fit is no command, never a cut one. */
	make("aws", "p4d.24xlarge", "us-east-1", "k", "A100-40", 8);
	assert_int_equal(launch_command(&plan, small, sizeof small), 0);
	assert_string_equal(small, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_gcp),
		cmocka_unit_test(test_gcp_series),
		cmocka_unit_test(test_gcp_n1),
		cmocka_unit_test(test_vertex_table),
		cmocka_unit_test(test_aws),
		cmocka_unit_test(test_runpod),
		cmocka_unit_test(test_vast),
		cmocka_unit_test(test_lambda_vultr),
		cmocka_unit_test(test_new_providers),
		cmocka_unit_test(test_reach_providers),
		cmocka_unit_test(test_seed_clouds),
		cmocka_unit_test(test_spot_commands_agree),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_hostile_and_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
