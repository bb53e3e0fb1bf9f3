/* vultr.c: the Vultr adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_vultr = {
	.id = "vultr",
	.name = "Vultr",
	.key_env = "VULTR_API_KEY",
	.key_required = false,
};
