/*
 * settings.h: settings from the environment and the config file.
 *
 * The file ($XDG_CONFIG_HOME/gpucost/config) holds "name = value" lines;
 * '#' starts a comment. Known names: <provider>_api_key for every
 * provider that takes a key (gcp_api_key, lambda_api_key ...),
 * aws_regions, usd_per_eur, from (refresh --from's default),
 * history_days (1..36500) and timeout (refresh --timeout's default,
 * 1..86400 seconds); any other name is refused with its line and the
 * nearest known name.
 * An environment variable (GCP_API_KEY,
 * GPUCOST_AWS_REGIONS ...) wins over the file.
 */
#ifndef GPUCOST_SETTINGS_H
#define GPUCOST_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

struct err;

#define SETTINGS_VALUE_MAX 512

struct settings {
	char	path[4096];		/* the file read, "" if none */
	bool	world_readable;		/* holds keys and others may read it */
	size_t	n;
	struct {
		char	name[64];
		char	value[SETTINGS_VALUE_MAX];
	} entries[32];
};

/*
 * Read the config file (a missing file is an empty config). Returns 0, or
 * -1 with "FILE:LINE: what" for a malformed line, an unknown name or a
 * number out of its range.
 */
int	settings_load(struct settings *cfg, struct err *err);

/* Parse config text (for tests); name is used in messages. */
int	settings_parse(struct settings *cfg, const char *text,
	    const char *name, struct err *err);

/* $env if set and non-empty, else the file's value for name, else NULL. */
const char *settings_get(const struct settings *cfg, const char *env,
	    const char *name);

/*
 * settings_get() for an API key, refusing one that holds a control
 * character (a CR/LF in a key would inject a request header): -1 with a
 * message naming the variable or the file's setting, never the key.
 * Returns 0 and *key (NULL when there is none).
 */
int	settings_key(const struct settings *cfg, const char *env,
	    const char *name, const char **key, struct err *err);

#endif
