/* lambda.c: the Lambda adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_lambda = {
	.id = "lambda",
	.name = "Lambda",
	.key_env = "LAMBDA_API_KEY",
	.key_required = true,
};
