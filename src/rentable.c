/* rentable.c: retired sizes, host bounds, market references (rentable.h). */
#include "config.h"
#include "rentable.h"

#include <string.h>

#include "notes.h"
#include "offer.h"
#include "str.h"

const char *const marketplace_providers[] = { "vast", NULL };

const struct retired *
retired_provider(const char *provider)
{
	size_t i;

	for (i = 0; i < retired_count; i++)
		if (strcmp(retired_table[i].provider, provider) == 0 &&
		    strcmp(retired_table[i].instance_type, "*") == 0)
			return &retired_table[i];
	return NULL;
}

const struct retired *
retired_size(const char *provider, const char *instance_type)
{
	const struct retired *r;
	size_t i;

	for (i = 0; i < retired_count; i++) {
		r = &retired_table[i];
		/* Sizes are case-insensitive at Azure (armSkuName). */
		if (strcmp(r->provider, provider) == 0 &&
		    (strcmp(r->instance_type, "*") == 0 ||
		    str_eq_nocase(r->instance_type, instance_type)))
			return r;
	}
	return NULL;
}

bool
offer_retired(const struct offer *o)
{
	return retired_size(o->provider, o->instance_type) != NULL;
}

int
offer_host_bounds(struct offer *o)
{
	int dropped = 0;

	if (o->gpu_count <= 0)
		return 0;
	if (o->vcpus > (double)RENTABLE_VCPUS_PER_GPU_MAX * o->gpu_count) {
		o->vcpus = 0;
		dropped |= 1;
	}
	if (o->ram_gb > (double)RENTABLE_RAM_GB_PER_GPU_MAX * o->gpu_count) {
		o->ram_gb = 0;
		dropped |= 2;
	}
	return dropped;
}

bool
offer_is_listing(const struct offer *o)
{
	return (o->notes & NOTE_BIT(NOTE_SINGLE_LISTING)) != 0;
}

bool
offer_market_reference(const struct offer *o, int64_t now)
{
	return offer_is_listing(o) && now - o->fetched_at >
	    RENTABLE_MARKET_SECONDS;
}

size_t
offers_vet(struct offer *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (offer_retired(&v[i]))
			continue;
		offer_host_bounds(&v[i]);
		if (k != i)
			v[k] = v[i];
		k++;
	}
	return k;
}
