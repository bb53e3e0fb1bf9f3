/* provider.c: the provider registry. */
#include "config.h"
#include "provider.h"

#include "str.h"

static const struct provider provider_aws = {
	.id = "aws",
	.name = "AWS",
	.key_env = NULL,
	.key_required = false,
};

static const struct provider provider_gcp = {
	.id = "gcp",
	.name = "Google Cloud",
	.key_env = "GCP_API_KEY",
	.key_required = true,
};

static const struct provider provider_runpod = {
	.id = "runpod",
	.name = "RunPod",
	.key_env = "RUNPOD_API_KEY",
	.key_required = false,
};

static const struct provider provider_vast = {
	.id = "vast",
	.name = "Vast.ai",
	.key_env = "VAST_API_KEY",
	.key_required = false,
};

static const struct provider provider_lambda = {
	.id = "lambda",
	.name = "Lambda",
	.key_env = "LAMBDA_API_KEY",
	.key_required = true,
};

static const struct provider provider_vultr = {
	.id = "vultr",
	.name = "Vultr",
	.key_env = "VULTR_API_KEY",
	.key_required = false,
};

const struct provider *const providers[] = {
	&provider_aws,
	&provider_gcp,
	&provider_runpod,
	&provider_vast,
	&provider_lambda,
	&provider_vultr,
	NULL
};

const struct provider *
provider_find(const char *id)
{
	size_t i;

	for (i = 0; providers[i] != NULL; i++)
		if (str_eq_nocase(providers[i]->id, id))
			return providers[i];
	return NULL;
}

const char *
provider_id_list(void)
{
	return "aws,gcp,runpod,vast,lambda,vultr";
}
