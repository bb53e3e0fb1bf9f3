/* aws.c: the AWS adapter (identity only until its fetcher lands). */
#include "config.h"

#include "provider.h"

const struct provider provider_aws = {
	.id = "aws",
	.name = "AWS",
	.key_env = NULL,
	.key_required = false,
};
