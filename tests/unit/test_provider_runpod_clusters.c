/*
 * test_provider_runpod_clusters.c: the RunPod Instant Clusters adapter on
 * fixture files (tests/fixtures/runpod-clusters) and on bodies built here.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_runpod_clusters;

#define TEST_NOW	1767225600
#define CLUSTERS_URL	"https://api.runpod.io/graphql"

/* One type and data centre of clusters.json: its offers of 2..8 nodes. */
struct want {
	const char	*id;
	const char	*dc;
	const char	*instance_type;
	const char	*gpu;
	int		 vram_gb;
	int64_t		 node_price;	/* micro-USD per node-hour */
	int		 vcpus;
	double		 ram_gb;
	enum availability av;
	int		 node_gbps;	/* data/fabric.tsv */
};

static const struct want good[] = {
	{ "NVIDIA H100 80GB HBM3", "US-KS-2", "Instant Cluster 8x H100 SXM",
	    "H100", 80, 23920000, 176, 1800, AV_AVAILABLE, 3200 },
	{ "NVIDIA H100 80GB HBM3", "EU-RO-1", "Instant Cluster 8x H100 SXM",
	    "H100", 80, 23920000, 176, 1800, AV_AVAILABLE, 3200 },
	{ "NVIDIA H200", "US-TX-3", "Instant Cluster 8x H200 SXM", "H200",
	    141, 28720000, 192, 2000, AV_LIMITED, 3200 },
	{ "NVIDIA A100-SXM4-80GB", "CA-MTL-1", "Instant Cluster 8x A100 SXM",
	    "A100-80", 80, 14320000, 128, 1000, AV_AVAILABLE, 1600 },
};

#define NGOOD	(sizeof good / sizeof good[0])

static int
run_dir(struct provider_run *run, const char *dir, const char *file,
    const char *base_url, struct harness_log *log, struct err *err)
{
	struct harness_route route = { "/graphql", "clusterPrice", file, 0 };

	provider_run_init(run, &provider_runpod_clusters);
	run->base_url = base_url;
	run->now = TEST_NOW;
	err_clear(err);
	return harness_run(&provider_runpod_clusters, run, &route, 1, dir, 0,
	    log, err);
}

/* A body built here, in a temporary fixture directory. */
static int
run_body(struct provider_run *run, const char *body, struct err *err)
{
	char *dir = harness_tmp_dir("runpod-clusters", body);
	int rc = run_dir(run, dir, "runpod-clusters", NULL, NULL, err);

	harness_tmp_dir_free(dir);
	return rc;
}

/* One POST of the cluster query, keyless, with matching variable names. */
static void
test_request(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	const cJSON *q, *vars;
	struct err err;
	cJSON *root;

	(void)state;
	assert_int_equal(run_dir(&run, NULL, "clusters.json", NULL, &log,
	    &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], CLUSTERS_URL);
	assert_string_equal(log.method[0], "POST");
	assert_null(strstr(log.headers[0], "Authorization"));
	root = cJSON_Parse(log.body[0]);
	assert_non_null(root);
	q = cJSON_GetObjectItemCaseSensitive(root, "query");
	assert_true(cJSON_IsString(q));
	assert_non_null(strstr(q->valuestring, "clusterPrice"));
	assert_non_null(strstr(q->valuestring, "nodeGroupDatacenters { id }"));
	assert_non_null(strstr(q->valuestring, "minVcpu minMemory"));
	/* RunPod ignores a filter whose variable name does not match. */
	assert_non_null(strstr(q->valuestring,
	    "gpuTypes(input: $gpuTypesInput)"));
	vars = cJSON_GetObjectItemCaseSensitive(root, "variables");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(vars, "gpuTypesInput"),
	    "cluster")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(vars, "lowestPriceInput"),
	    "gpuCount")->valueint, 8);
	cJSON_Delete(root);
	harness_log_free(&log);
	provider_run_done(&run);
	assert_null(provider_runpod_clusters.key_env);
}

/* GPUCOST_RUNPOD_CLUSTERS_URL replaces the origin and keeps the path. */
static void
test_base_url(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_dir(&run, NULL, "clusters.json",
	    "http://127.0.0.1:8081/", &log, &err), 0);
	assert_string_equal(log.url[0], "http://127.0.0.1:8081/graphql");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* The exact set: 4 type-and-data-centre pairs x 2..8 nodes, no more. */
static void
test_parse(void **state)
{
	char key[OFFER_KEY_MAX];
	const struct offer *o;
	struct offer c;
	struct provider_run run;
	struct err err;
	size_t i;
	int n;

	(void)state;
	assert_int_equal(run_dir(&run, NULL, "clusters.json", NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, NGOOD * 7);
	for (i = 0; i < NGOOD; i++)
		for (n = 2; n <= 8; n++) {
			snprintf(key, sizeof key, "%dx8_%s_%s", n, good[i].id,
			    good[i].dc);
			o = harness_offer(&run, key);
			assert_string_equal(o->provider, "runpod-clusters");
			assert_string_equal(o->instance_type,
			    good[i].instance_type);
			assert_string_equal(o->region, good[i].dc);
			assert_string_equal(o->gpu, good[i].gpu);
			assert_int_equal(o->gpu_count, 8);
			assert_int_equal(o->nodes, n);
			assert_int_equal(o->vram_gb, good[i].vram_gb);
			assert_int_equal(o->interconnect, IC_NVLINK);
			assert_int_equal(o->price, good[i].node_price);
			assert_int_equal(o->spot_price, MONEY_NONE);
			assert_int_equal(o->vcpus, good[i].vcpus);
			assert_true(o->ram_gb > good[i].ram_gb - 1e-9 &&
			    o->ram_gb < good[i].ram_gb + 1e-9);
			assert_int_equal(o->availability, good[i].av);
			assert_int_equal(o->source, SRC_LIVE);
			/* As the cache will give it: RunPod's stated fabric. */
			c = *o;
			offer_set_fabric(&c);
			assert_int_equal(offer_node_gbps(&c), good[i].node_gbps);
			assert_int_equal(offer_fabric_kind(&c), FABRIC_UNKNOWN);
			assert_int_equal(c.fabric->placement,
			    PLACE_CLUSTER_PRODUCT);
		}
	/* The distractors: out of stock, no data centre, no cluster price. */
	assert_null(harness_offer_find(&run, "2x8_NVIDIA B200_US-KS-2"));
	assert_null(harness_offer_find(&run,
	    "2x8_NVIDIA GeForce RTX 4090_EU-SE-1"));
	assert_null(harness_offer_find(&run, "9x8_NVIDIA H100 80GB HBM3_US-KS-2"));
	assert_int_equal(run.skipped, 4);
	assert_non_null(strstr(run.note, "2 types with no cluster price"));
	assert_non_null(strstr(run.note, "1 type with no data centre"));
	assert_non_null(strstr(run.note, "1 type out of stock"));
	provider_run_done(&run);
}

/* Broken answers fail the refresh with the record and field named. */
static void
test_faults(void **state)
{
	static const struct {
		const char *body;
		const char *msg;
	} cases[] = {
		{ "{\"errors\": [{\"message\": \"rate limited\"}]}",
		    "GraphQL error: rate limited" },
		{ "{\"data\": {\"gpuTypes\": []}}", "data.gpuTypes: empty" },
		{ "{\"data\": {}}", "gpuTypes" },
		{ "[]", "expected a JSON object" },
		/* A 200 of nothing but distractors keeps the cached clusters. */
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"x\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": null}]}}", "no priced cluster among 1 type" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"\"}]}}",
		    "data.gpuTypes[0].id: empty" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": 1e300}]}}", "clusterPrice" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": -2.5}]}}", "clusterPrice" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": "
		    "1000000, \"clusterPrice\": 2.5}]}}", "maxGpuCount" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": 2.5, \"nodeGroupDatacenters\": \"US\"}]}}",
		    "nodeGroupDatacenters: expected an array" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": 2.5, \"nodeGroupDatacenters\": "
		    "[{\"id\": \"\"}]}]}}", "nodeGroupDatacenters[0].id: empty" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": 2.5, \"nodeGroupDatacenters\": "
		    "[{\"id\": \"US-KS-2\"}, {\"id\": \"US-KS-2\"}], \"lowestPrice\":"
		    " {\"minVcpu\": 8, \"minMemory\": 64}}]}}", "duplicate" },
		{ "{\"data\": {\"gpuTypes\": [{\"id\": \"H\", \"maxGpuCount\": 8,"
		    " \"clusterPrice\": 2.5, \"nodeGroupDatacenters\": "
		    "[{\"id\": \"US-KS-2\"}], \"lowestPrice\": {\"minVcpu\": -8, "
		    "\"minMemory\": 64}}]}}", "minVcpu" },
	};
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(run_body(&run, cases[i].body, &err), -1);
		if (strstr(err.msg, cases[i].msg) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
			    cases[i].msg);
		provider_run_done(&run);
	}
}

/* Hostile text is stripped of control characters before it is kept. */
static void
test_hostile(void **state)
{
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_body(&run, "{\"data\": {\"gpuTypes\": [{\"id\": "
	    "\"NVIDIA H100 80GB HBM3\", \"displayName\": \"H100\\u001b[2J SXM\","
	    " \"memoryInGb\": 80, \"maxGpuCount\": 8, \"clusterPrice\": 2.5, "
	    "\"nodeGroupDatacenters\": [{\"id\": \"US-KS-2\\u0007\\u009b\"}], "
	    "\"lowestPrice\": {\"minVcpu\": 8, \"minMemory\": 64, "
	    "\"stockStatus\": \"High\"}}]}}", &err), 0);
	assert_int_equal(run.offers.n, 7);
	for (i = 0; i < run.offers.n; i++) {
		assert_null(strchr(run.offers.v[i].instance_type, '\033'));
		assert_null(strchr(run.offers.v[i].region, '\007'));
		assert_null(strstr(run.offers.v[i].region, "\xc2\x9b"));
	}
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_base_url),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
