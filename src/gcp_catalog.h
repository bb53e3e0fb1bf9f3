/*
 * gcp_catalog.h: GCP's names for the GPUs it rents and where they can
 * be had: for each GPU the Compute Engine accelerator type and quota
 * metric and the Vertex AI accelerator type and quota metric; the zones
 * of a region that have it (data/gcp_zones.tsv) and whether Vertex AI
 * custom training takes it in a region (data/vertex_training.tsv), both
 * tables compiled in.
 *
 * It takes names (a provider, an instance type, a GPU id, a region),
 * never an offer: the --vertex filter (offer.c) and the launch commands
 * (launch.c) both ask it, and offer.c need not depend on launch.c,
 * which depends on offers. Pure: no I/O, no globals with state.
 */
#ifndef GPUCOST_GCP_CATALOG_H
#define GPUCOST_GCP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

struct gcp_gpu {
	bool		 n1;		/* attached to N1 machines */
	const char	*gpu;		/* canonical id */
	const char	*accel;		/* Compute Engine accelerator type */
	const char	*metric;	/* Compute Engine quota: NVIDIA_<x>_GPUS */
	const char	*vertex;	/* Vertex AI acceleratorType */
	const char	*vertex_metric;	/* aiplatform ..._<x>_gpus */
};

/* Vertex AI training in a region: yes, no, or not known. */
enum gcp_vertex {
	VERTEX_UNKNOWN = 0,	/* not GCP, or a GPU the table lacks */
	VERTEX_NO,
	VERTEX_YES
};

/*
 * The GPU a machine carries in GCP's names (static, never NULL-freed),
 * or NULL when provider is not "gcp" or the machine is not one we can
 * name. instance_type is as the gcp adapter names it: an A2/A3/A4/G2
 * type names its GPU ("a3-highgpu-8g"); an N1 host carries gpu, the
 * canonical id, as an attachment ("n1-standard-8+1xT4").
 */
const struct gcp_gpu *gcp_gpu_find(const char *provider,
	    const char *instance_type, const char *gpu);

/*
 * The zones of region that have g, separated by single spaces, into
 * buf; its length, or 0 (buf "") when none are known or they do not fit.
 */
size_t	gcp_gpu_zones(const struct gcp_gpu *g, const char *region, char *buf,
	    size_t size);

/* Whether Vertex AI custom training takes g in region (g NULL: unknown). */
/* data/vertex_training.tsv as compiled in (len bytes): what the cache's
 * stored Vertex flags were computed from (db_sort_keys_version()). */
const char	*gcp_vertex_table(size_t *len);
enum gcp_vertex gcp_vertex_training(const struct gcp_gpu *g,
	    const char *region);

#endif
