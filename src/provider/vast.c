/* vast.c: the Vast.ai adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_vast = {
	.id = "vast",
	.name = "Vast.ai",
	.key_env = "VAST_API_KEY",
	.key_required = false,
};
