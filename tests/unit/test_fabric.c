/*
 * test_fabric.c: unit tests for fabric.c: the compiled-in table
 * (data/fabric.tsv) and --fabric's sets. The generator's refusals of a
 * malformed table are tested in tests/cli/fabric.sh.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "fabric.h"
#include "provider.h"

/* provider's instance type has this fabric, Gb/s and GPUDirect RDMA. */
static void
has_fabric(const char *provider, const char *type, enum fabric_kind kind,
    int gbps, enum fabric_gdr gdr, enum fabric_placement placement)
{
	const struct fabric *f = fabric_find(provider, type);

	if (f == NULL)
		fail_msg("%s %s: no fabric line", provider, type);
	if (f->kind != kind || f->node_gbps != gbps || f->gdr != gdr ||
	    f->placement != placement)
		fail_msg("%s %s: %s %d Gb/s gdr %s %s", provider, type,
		    fabric_kind_name(f->kind), f->node_gbps,
		    fabric_gdr_name(f->gdr),
		    fabric_placement_name(f->placement));
}

static void
test_lookup(void **state)
{
	(void)state;
	has_fabric("aws", "p5.48xlarge", FABRIC_EFA, 3200, GDR_YES,
	    PLACE_GROUP);
	/* The one-GPU p5 has 100 Gb/s, not the 48xlarge's 3200. */
	has_fabric("aws", "p5.4xlarge", FABRIC_EFA, 100, GDR_NO, PLACE_GROUP);
	has_fabric("aws", "p4d.24xlarge", FABRIC_EFA, 400, GDR_YES,
	    PLACE_GROUP);
	has_fabric("aws", "g6e.48xlarge", FABRIC_EFA, 400, GDR_UNKNOWN,
	    PLACE_GROUP);
	has_fabric("azure", "Standard_ND96isr_H100_v5", FABRIC_INFINIBAND,
	    3200, GDR_YES, PLACE_SCALE_SET);
	has_fabric("azure", "Standard_ND96asr_v4", FABRIC_INFINIBAND, 1600,
	    GDR_YES, PLACE_SCALE_SET);
	has_fabric("azure", "Standard_NC40ads_H100_v5", FABRIC_ETHERNET, 80,
	    GDR_NO, PLACE_NONE);
	has_fabric("gcp", "a3-megagpu-8g", FABRIC_TCPXO, 1600, GDR_NO,
	    PLACE_COMPACT);
	has_fabric("gcp", "a3-highgpu-8g", FABRIC_TCPX, 800, GDR_NO,
	    PLACE_COMPACT);
	/* The 1, 2 and 4 GPU A3 High have no TCPX, and no figure. */
	has_fabric("gcp", "a3-highgpu-2g", FABRIC_ETHERNET, 0, GDR_NO,
	    PLACE_COMPACT);
	has_fabric("gcp", "a3-ultragpu-8g", FABRIC_ROCE, 3200, GDR_YES,
	    PLACE_COMPACT);
	has_fabric("gcp", "a3-ultragpu-8g-nolssd", FABRIC_ROCE, 3200, GDR_YES,
	    PLACE_COMPACT);
	has_fabric("gcp", "a4-highgpu-8g", FABRIC_ROCE, 3200, GDR_YES,
	    PLACE_COMPACT);
	has_fabric("gcp", "a2-highgpu-4g", FABRIC_ETHERNET, 50, GDR_NO,
	    PLACE_COMPACT);
	has_fabric("oci", "BM.GPU.H100.8", FABRIC_ROCE, 3200, GDR_YES,
	    PLACE_CLUSTER_NETWORK);
	/* RunPod states the bandwidth, not the kind. */
	has_fabric("runpod-clusters", "Instant Cluster 8x H100 SXM",
	    FABRIC_UNKNOWN, 3200, GDR_UNKNOWN, PLACE_CLUSTER_PRODUCT);
	has_fabric("runpod-clusters", "Instant Cluster 8x A100 SXM",
	    FABRIC_UNKNOWN, 1600, GDR_UNKNOWN, PLACE_CLUSTER_PRODUCT);
	/* No line: unknown, never guessed. */
	assert_null(fabric_find("aws", "g4dn.12xlarge"));
	assert_null(fabric_find("vast", "8x-H100_SXM-32-65536"));
	assert_null(fabric_find("runpod", "8x H100 SXM"));
	/* The pattern is the provider's: GCP's name at AWS is nothing. */
	assert_null(fabric_find("aws", "a3-megagpu-8g"));
	/* Asked in turn (each provider's rows kept by the last asked). */
	has_fabric("aws", "p5.48xlarge", FABRIC_EFA, 3200, GDR_YES,
	    PLACE_GROUP);
	assert_null(fabric_find("vast", "8x-H100_SXM-32-65536"));
	assert_null(fabric_find("", "p5.48xlarge"));
	assert_null(fabric_find("an-unknown-provider-longer-than-31-bytes",
	    "p5.48xlarge"));
	has_fabric("aws", "p5.48xlarge", FABRIC_EFA, 3200, GDR_YES,
	    PLACE_GROUP);
	has_fabric("oci", "BM.GPU.H100.8", FABRIC_ROCE, 3200, GDR_YES,
	    PLACE_CLUSTER_NETWORK);
}

/* Every line names a provider gpucost has, a source, and sane numbers. */
static void
test_rows(void **state)
{
	const struct fabric *f;
	size_t i, j;

	(void)state;
	assert_true(fabric_row_count >= 40);
	for (i = 0; i < fabric_row_count; i++) {
		f = &fabric_rows[i];
		/* fabric_find() keeps a provider's rows: they are together. */
		if (i > 0 && strcmp(f->provider, fabric_rows[i - 1].provider))
			for (j = 0; j < i; j++)
				if (strcmp(fabric_rows[j].provider,
				    f->provider) == 0)
					fail_msg("line %zu: %s apart from its "
					    "line %zu", i, f->provider, j);
		if (provider_find(f->provider) == NULL)
			fail_msg("line %zu: unknown provider %s", i, f->provider);
		assert_true(f->source[0] != '\0');
		assert_true(f->node_gbps >= 0 && f->node_gbps <= 100000);
		/* An RDMA fabric is placed by something. */
		if (f->kind != FABRIC_UNKNOWN && f->kind != FABRIC_ETHERNET)
			assert_true(f->placement != PLACE_NONE &&
			    f->placement != PLACE_UNKNOWN);
	}
}

static void
test_sets(void **state)
{
	char bad[32], buf[64];
	unsigned set;

	(void)state;
	assert_int_equal(fabric_set_parse("rdma", &set, bad, sizeof bad), 0);
	assert_int_equal(set, FABRIC_RDMA);
	assert_true(fabric_set_has(set, FABRIC_EFA));
	assert_true(fabric_set_has(set, FABRIC_INFINIBAND));
	assert_true(fabric_set_has(set, FABRIC_ROCE));
	assert_false(fabric_set_has(set, FABRIC_TCPXO));
	assert_false(fabric_set_has(set, FABRIC_ETHERNET));
	assert_false(fabric_set_has(set, FABRIC_UNKNOWN));
	assert_int_equal(fabric_set_parse("EFA, ib,tcpxo", &set, bad,
	    sizeof bad), 0);
	assert_int_equal(set, FABRIC_BIT(FABRIC_EFA) |
	    FABRIC_BIT(FABRIC_INFINIBAND) | FABRIC_BIT(FABRIC_TCPXO));
	fabric_set_text(set, buf, sizeof buf);
	assert_string_equal(buf, "efa,infiniband,tcpxo");
	assert_int_equal(fabric_set_parse("any", &set, bad, sizeof bad), 0);
	assert_true(fabric_set_has(set, FABRIC_UNKNOWN));
	fabric_set_text(set, buf, sizeof buf);
	assert_string_equal(buf, "any");
	assert_int_equal(fabric_set_parse("rdma,tcpx", &set, bad, sizeof bad),
	    0);
	fabric_set_text(set, buf, sizeof buf);
	assert_string_equal(buf, "rdma,tcpx");
	/* Unknown words, empty items and NVLink (inside a node) refused. */
	assert_int_equal(fabric_set_parse("efa,nvlink", &set, bad, sizeof bad),
	    -1);
	assert_string_equal(bad, "nvlink");
	assert_int_equal(fabric_set_parse("efa,", &set, bad, sizeof bad), -1);
	assert_int_equal(fabric_set_parse("", &set, bad, sizeof bad), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
