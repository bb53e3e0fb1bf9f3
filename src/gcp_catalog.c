/* gcp_catalog.c: GCP's GPU names, zones and Vertex AI regions. */
#include "config.h"
#include "gcp_catalog.h"

#include <string.h>

/* data/gcp_zones.tsv and data/vertex_training.tsv, compiled in. */
extern const char gcp_zones_tsv[];
extern const size_t gcp_zones_tsv_len;
extern const char vertex_training_tsv[];
extern const size_t vertex_training_tsv_len;

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Field 3 of the line of table whose fields 1 and 2 are k1 and k2. */
static size_t
table_find(const char *table, size_t tlen, const char *k1, const char *k2,
    char *out, size_t size)
{
	const char *line = table, *end = table + tlen, *eol, *t1, *t2;
	size_t l1 = strlen(k1), l2 = strlen(k2), n;

	out[0] = '\0';
	for (; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if (*line == '#')
			continue;
		if ((t1 = memchr(line, '\t', (size_t)(eol - line))) == NULL ||
		    (size_t)(t1 - line) != l1 || memcmp(line, k1, l1) != 0)
			continue;
		t1++;
		if ((t2 = memchr(t1, '\t', (size_t)(eol - t1))) == NULL ||
		    (size_t)(t2 - t1) != l2 || memcmp(t1, k2, l2) != 0)
			continue;
		t2++;
		n = (size_t)(eol - t2);
		if (n >= size)
			return 0;
		memcpy(out, t2, n);
		out[n] = '\0';
		return n;
	}
	return 0;
}

static const struct gcp_gpu gcp_gpus[] = {
	{ false, "A100-40", "nvidia-tesla-a100", "NVIDIA_A100",
	    "NVIDIA_TESLA_A100", "nvidia_a100" },
	{ false, "A100-80", "nvidia-a100-80gb", "NVIDIA_A100_80GB",
	    "NVIDIA_A100_80GB", "nvidia_a100_80gb" },
	{ false, "H100", "nvidia-h100-80gb", "NVIDIA_H100",
	    "NVIDIA_H100_80GB", "nvidia_h100" },
	{ false, "H100", "nvidia-h100-mega-80gb", "NVIDIA_H100_MEGA",
	    "NVIDIA_H100_MEGA_80GB", "nvidia_h100_mega" },
	{ false, "H200", "nvidia-h200-141gb", "NVIDIA_H200",
	    "NVIDIA_H200_141GB", "nvidia_h200" },
	{ false, "B200", "nvidia-b200", "NVIDIA_B200",
	    "NVIDIA_B200", "nvidia_b200" },
	{ false, "L4", "nvidia-l4", "NVIDIA_L4",
	    "NVIDIA_L4", "nvidia_l4" },
	{ true, "T4", "nvidia-tesla-t4", "NVIDIA_T4",
	    "NVIDIA_TESLA_T4", "nvidia_t4" },
	{ true, "V100-16", "nvidia-tesla-v100", "NVIDIA_V100",
	    "NVIDIA_TESLA_V100", "nvidia_v100" },
	{ true, "P100", "nvidia-tesla-p100", "NVIDIA_P100",
	    "NVIDIA_TESLA_P100", "nvidia_p100" },
	{ true, "P4", "nvidia-tesla-p4", "NVIDIA_P4",
	    "NVIDIA_TESLA_P4", "nvidia_p4" }
};
#define NGCP_GPUS (sizeof gcp_gpus / sizeof gcp_gpus[0])

/* Machine series with GPUs built in: the series names the GPU. */
static const struct {
	const char	*prefix;
	const char	*accel;
} gcp_series[] = {
	{ "a2-highgpu-", "nvidia-tesla-a100" },
	{ "a2-megagpu-", "nvidia-tesla-a100" },
	{ "a2-ultragpu-", "nvidia-a100-80gb" },
	{ "a3-highgpu-", "nvidia-h100-80gb" },
	{ "a3-edgegpu-", "nvidia-h100-80gb" },
	{ "a3-megagpu-", "nvidia-h100-mega-80gb" },
	{ "a3-ultragpu-", "nvidia-h200-141gb" },
	{ "a4-highgpu-", "nvidia-b200" },
	{ "g2-", "nvidia-l4" }
};

static const struct gcp_gpu *
gcp_gpu_by_accel(const char *accel)
{
	size_t i;

	for (i = 0; i < NGCP_GPUS; i++)
		if (strcmp(gcp_gpus[i].accel, accel) == 0)
			return &gcp_gpus[i];
	return NULL;
}

/* The machine's GPU in GCP's names. */
const struct gcp_gpu *
gcp_gpu_find(const char *provider, const char *instance_type, const char *gpu)
{
	size_t i;

	if (strcmp(provider, "gcp") != 0)
		return NULL;
	/* An N1 machine takes its GPU as an attachment (--accelerator). */
	if (has_prefix(instance_type, "n1-")) {
		for (i = 0; i < NGCP_GPUS; i++)
			if (gcp_gpus[i].n1 && strcmp(gcp_gpus[i].gpu, gpu) == 0)
				return &gcp_gpus[i];
		return NULL;
	}
	for (i = 0; i < sizeof gcp_series / sizeof gcp_series[0]; i++)
		if (has_prefix(instance_type, gcp_series[i].prefix))
			return gcp_gpu_by_accel(gcp_series[i].accel);
	return NULL;
}

/* The zones of a region with g. */
size_t
gcp_gpu_zones(const struct gcp_gpu *g, const char *region, char *buf,
    size_t size)
{
	return table_find(gcp_zones_tsv, gcp_zones_tsv_len, g->accel, region,
	    buf, size);
}

const char *
gcp_vertex_table(size_t *len)
{
	*len = vertex_training_tsv_len;
	return vertex_training_tsv;
}

/* Vertex AI custom training for g in region. */
enum gcp_vertex
gcp_vertex_training(const struct gcp_gpu *g, const char *region)
{
	char quota[32];
	bool listed = false;
	const char *line, *end, *eol;
	size_t n;

	if (g == NULL)
		return VERTEX_UNKNOWN;
	if (table_find(vertex_training_tsv, vertex_training_tsv_len,
	    g->vertex, region, quota, sizeof quota) > 0)
		return strcmp(quota, "no") == 0 ? VERTEX_NO : VERTEX_YES;
	/* A GPU Google's table lists, in a region it does not name: no. */
	n = strlen(g->vertex);
	end = vertex_training_tsv + vertex_training_tsv_len;
	for (line = vertex_training_tsv; line < end && !listed; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		listed = (size_t)(eol - line) > n && line[n] == '\t' &&
		    memcmp(line, g->vertex, n) == 0;
	}
	return listed ? VERTEX_NO : VERTEX_UNKNOWN;
}
