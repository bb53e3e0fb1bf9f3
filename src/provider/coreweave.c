/*
 * coreweave.c: CoreWeave, a provider without a price feed.
 *
 * CoreWeave prices whole nodes on its pricing page
 * (https://www.coreweave.com/pricing) and publishes no machine-readable
 * list, nor an API that answers with prices. Its offers are the dated
 * list prices restated in data/list_prices.tsv, which
 * tools/make-snapshot.py copies into the built-in snapshot; a refresh
 * fetches nothing and says which list they are (provider.h, no_feed).
 * To rent: a CKS NodePool with the instance type, kubectl apply
 * (launch.c).
 */
#include "config.h"
#include "provider.h"

const struct provider provider_coreweave = {
	.id = "coreweave",
	.name = "CoreWeave",
	.no_feed = "CoreWeave publishes no price feed",
};
