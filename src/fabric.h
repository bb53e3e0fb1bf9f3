/*
 * fabric.h: the network between the nodes of a multi-node job.
 *
 * NVLink joins the GPUs inside one node; past one node, what decides
 * how fast a training job runs is the fabric between nodes: EFA,
 * InfiniBand, RoCE, GCP's GPUDirect-TCPX/TCPXO, or plain Ethernet. The
 * table is data/fabric.tsv (each line with its source), compiled in by
 * tools/gen-fabric-table.sh: provider and instance-type glob -> fabric,
 * Gb/s per node, NICs, GPUDirect RDMA, the placement construct the
 * nodes must be started in and the largest published group. An
 * instance type with no line is unknown, never guessed. Pure.
 */
#ifndef GPUCOST_FABRIC_H
#define GPUCOST_FABRIC_H

#include <stdbool.h>
#include <stddef.h>

enum fabric_kind {
	FABRIC_UNKNOWN = 0,
	FABRIC_EFA,
	FABRIC_INFINIBAND,
	FABRIC_ROCE,
	FABRIC_TCPXO,
	FABRIC_TCPX,
	FABRIC_ETHERNET,
	FABRIC_KIND_COUNT
};

/* Sets of kinds, for --fabric. */
#define FABRIC_BIT(k)	(1u << (k))
#define FABRIC_RDMA	(FABRIC_BIT(FABRIC_EFA) | FABRIC_BIT(FABRIC_INFINIBAND) | \
			    FABRIC_BIT(FABRIC_ROCE))
/* What a multi-node plan needs when --fabric is not given. */
#define FABRIC_TRAINING	(FABRIC_RDMA | FABRIC_BIT(FABRIC_TCPXO) |	\
			    FABRIC_BIT(FABRIC_TCPX))
/* --fabric any: every fabric, unknown included. */
#define FABRIC_ANY	(1u << 15)

enum fabric_gdr {
	GDR_UNKNOWN = 0,
	GDR_YES,
	GDR_NO
};

enum fabric_placement {
	PLACE_UNKNOWN = 0,
	PLACE_GROUP,		/* AWS cluster placement group */
	PLACE_COMPACT,		/* GCP compact placement policy */
	PLACE_SCALE_SET,	/* Azure VM scale set */
	PLACE_CLUSTER_NETWORK,	/* OCI cluster network, Vultr gpu-fabric */
	PLACE_CLUSTER_PRODUCT,	/* sold as one cluster (RunPod) */
	PLACE_NONE,		/* no construct: nodes share no fabric */
	PLACE_NODE_POOL		/* CoreWeave CKS NodePool, one region */
};

/* One line of data/fabric.tsv. Numbers are 0 when unknown. */
struct fabric {
	const char	*provider;
	const char	*pattern;	/* fnmatch(3) glob on the instance type */
	enum fabric_kind kind;
	int		 node_gbps;	/* scale-out Gb/s per node */
	int		 nics;		/* scale-out NICs per node */
	enum fabric_gdr	 gdr;
	enum fabric_placement placement;
	int		 max_nodes;	/* largest published group */
	const char	*source;
	const char	*note;		/* caveats, "" when none */
};

extern const struct fabric fabric_rows[];
extern const size_t fabric_row_count;

/* The first line of provider matching instance_type, or NULL (unknown). */
const struct fabric *fabric_find(const char *provider,
	    const char *instance_type);

/* "efa" ...; NULL for FABRIC_UNKNOWN. */
const char *fabric_kind_name(enum fabric_kind kind);
/* "yes", "no", "unknown". */
const char *fabric_gdr_name(enum fabric_gdr gdr);
/* "placement-group" ...; NULL for PLACE_UNKNOWN. */
const char *fabric_placement_name(enum fabric_placement placement);

/*
 * A comma list of kinds into a set: efa, infiniband (or ib), roce,
 * tcpxo, tcpx, ethernet, rdma (efa, infiniband and roce) and any.
 * Returns 0, or -1 with the first unknown word copied into bad.
 */
int	fabric_set_parse(const char *text, unsigned *set, char *bad,
	    size_t badsize);
/* The set as fabric_set_parse() reads it back ("rdma,tcpxo", "any"). */
size_t	fabric_set_text(unsigned set, char *buf, size_t size);
/* Is kind in set? Unknown is only in "any". */
bool	fabric_set_has(unsigned set, enum fabric_kind kind);

#endif
