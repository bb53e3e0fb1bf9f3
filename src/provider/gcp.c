/* gcp.c: the Google Cloud adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_gcp = {
	.id = "gcp",
	.name = "Google Cloud",
	.key_env = "GCP_API_KEY",
	.key_required = true,
};
