/*
 * provider.h: the registry of GPU providers gpucost knows.
 *
 * Each provider has a short id (the value of --provider, the key in the
 * cache and the name of its fixtures), a display name and, where its
 * price API wants one, the environment variable holding the API key.
 * The adapters that fetch and parse live prices hang off these entries
 * (src/provider/<id>.c).
 */
#ifndef GPUCOST_PROVIDER_H
#define GPUCOST_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>

struct provider {
	const char	*id;		/* "vast": --provider, cache key */
	const char	*name;		/* "Vast.ai", for display */
	const char	*key_env;	/* "VAST_API_KEY", NULL when none is used */
	bool		 key_required;	/* skip the provider when the key is unset */
};

/* Every provider, in display order, NULL-terminated. */
extern const struct provider *const providers[];

/* The provider with this id (case-insensitive), or NULL. */
const struct provider *provider_find(const char *id);

/* Comma-separated list of every id ("aws,gcp,..."), for messages. */
const char *provider_id_list(void);

#endif
