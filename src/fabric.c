/* fabric.c: the inter-node fabric table and --fabric's sets. */
#include "config.h"
#include "fabric.h"

#include <fnmatch.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "str.h"

static const char *const kind_names[FABRIC_KIND_COUNT] = {
	NULL, "efa", "infiniband", "roce", "tcpxo", "tcpx", "ethernet"
};

static const char *const placement_names[] = {
	NULL, "placement-group", "compact-placement", "scale-set",
	"cluster-network", "cluster-product", "none", "node-pool"
};

const struct fabric *
fabric_find(const char *provider, const char *instance_type)
{
	/*
	 * Called for every offer read (offer_set_fabric()), mostly for
	 * runs of one provider's offers (a table walks in key order): the
	 * rows of the last provider asked are kept, so a provider with no
	 * row (Vast, most of a big cache) costs one comparison, not a
	 * pass over the table (560 instructions an offer).
	 */
	static struct str_run memo;
	size_t i, from, to;

	/* The table holds each provider's rows together (tested). */
	str_run_find(&memo, fabric_rows, fabric_row_count,
	    sizeof fabric_rows[0], offsetof(struct fabric, provider), provider,
	    &from, &to);
	for (i = from; i < to; i++)
		if (fnmatch(fabric_rows[i].pattern, instance_type, 0) == 0)
			return &fabric_rows[i];
	return NULL;
}

const char *
fabric_kind_name(enum fabric_kind kind)
{
	return (unsigned)kind < FABRIC_KIND_COUNT ? kind_names[kind] : NULL;
}

const char *
fabric_gdr_name(enum fabric_gdr gdr)
{
	return gdr == GDR_YES ? "yes" : gdr == GDR_NO ? "no" : "unknown";
}

const char *
fabric_placement_name(enum fabric_placement placement)
{
	if ((size_t)placement >= sizeof placement_names /
	    sizeof placement_names[0])
		return NULL;
	return placement_names[placement];
}

/* The set one word names, or 0. */
static unsigned
word_set(const char *w)
{
	unsigned k;

	if (str_eq_nocase(w, "rdma"))
		return FABRIC_RDMA;
	if (str_eq_nocase(w, "any"))
		return FABRIC_ANY;
	if (str_eq_nocase(w, "ib"))
		return FABRIC_BIT(FABRIC_INFINIBAND);
	for (k = 1; k < FABRIC_KIND_COUNT; k++)
		if (str_eq_nocase(w, kind_names[k]))
			return FABRIC_BIT(k);
	return 0;
}

int
fabric_set_parse(const char *text, unsigned *set, char *bad, size_t badsize)
{
	char w[32];
	const char *s = text;
	unsigned out = 0, one;
	size_t len;

	for (;;) {
		s += strspn(s, " ");
		len = strcspn(s, ", ");
		if (len >= sizeof w)
			len = sizeof w - 1;
		memcpy(w, s, len);
		w[len] = '\0';
		if ((one = word_set(w)) == 0) {
			str_copy(bad, badsize, w);
			return -1;
		}
		out |= one;
		s += strcspn(s, ",");
		if (*s == '\0')
			break;
		s++;
	}
	*set = out;
	return 0;
}

size_t
fabric_set_text(unsigned set, char *buf, size_t size)
{
	size_t len = 0;
	unsigned k;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (set & FABRIC_ANY)
		return str_copy(buf, size, "any");
	if ((set & FABRIC_RDMA) == FABRIC_RDMA) {
		len += str_copy(buf, size, "rdma");
		set &= ~FABRIC_RDMA;
	}
	for (k = 1; k < FABRIC_KIND_COUNT; k++)
		if ((set & FABRIC_BIT(k)) && len + 1 < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
			    len > 0 ? "," : "", kind_names[k]);
	return len < size ? len : size - 1;
}

bool
fabric_set_has(unsigned set, enum fabric_kind kind)
{
	if (set & FABRIC_ANY)
		return true;
	return kind != FABRIC_UNKNOWN && (set & FABRIC_BIT(kind)) != 0;
}
