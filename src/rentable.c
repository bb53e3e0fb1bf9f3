/* rentable.c: retired sizes, host bounds, market references (rentable.h). */
#include "config.h"
#include "rentable.h"

#include <string.h>

#include "note_info.h"
#include "str.h"

const char *const marketplace_providers[] = { "vast", NULL };

const char *const spot_launch_providers[] = {
	"aws", "azure", "coreweave", "gcp", "oci", "salad", "vast", "verda",
	NULL
};

bool
rentable_spot_launch(const char *provider)
{
	size_t i;

	for (i = 0; spot_launch_providers[i] != NULL; i++)
		if (strcmp(spot_launch_providers[i], provider) == 0)
			return true;
	return false;
}

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
rentable_spot_stale(int64_t fetched_at, int64_t now)
{
	return now > 0 && now - fetched_at > RENTABLE_SPOT_SECONDS;
}

bool
rentable_market_reference(unsigned notes, int64_t fetched_at, int64_t now)
{
	return (notes & NOTE_BIT(NOTE_SINGLE_LISTING)) != 0 &&
	    now - fetched_at > RENTABLE_MARKET_SECONDS;
}
