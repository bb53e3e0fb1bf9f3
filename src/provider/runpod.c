/* runpod.c: the RunPod adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_runpod = {
	.id = "runpod",
	.name = "RunPod",
	.key_env = "RUNPOD_API_KEY",
	.key_required = false,
};
