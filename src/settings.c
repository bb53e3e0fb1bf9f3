/* settings.c: the config file and environment settings. */
#include "config.h"
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "paths.h"
#include "str.h"

static const char *const known_names[] = {
	"gcp_api_key", "lambda_api_key", "runpod_api_key", "vast_api_key",
	"vultr_api_key", "aws_regions", "timeout", "usd_per_eur", "from",
	"max_age", "from_key", NULL
};

/* Trim spaces and tabs at both ends, in place. */
static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int
settings_parse(struct settings *cfg, const char *text, const char *name,
    struct err *err)
{
	char line[1024], *eq, *key, *value;
	const char *p = text, *nl;
	size_t len, lineno = 0, i;

	cfg->n = 0;
	while (*p != '\0') {
		lineno++;
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof line) {
			err_set(err, "%s:%zu: line too long", name, lineno);
			return -1;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl != NULL ? 1 : 0);
		key = trim(line);
		if (*key == '\0' || *key == '#')
			continue;
		if ((eq = strchr(key, '=')) == NULL) {
			err_set(err, "%s:%zu: expected \"name = value\"", name,
			    lineno);
			return -1;
		}
		*eq = '\0';
		key = trim(key);
		value = trim(eq + 1);
		for (i = 0; known_names[i] != NULL; i++)
			if (strcmp(key, known_names[i]) == 0)
				break;
		if (known_names[i] == NULL) {
			char clean[64];

			str_sanitize(clean, sizeof clean, key, strlen(key));
			err_set(err, "%s:%zu: unknown setting \"%s\"", name,
			    lineno, clean);
			return -1;
		}
		if (cfg->n == sizeof cfg->entries / sizeof cfg->entries[0]) {
			err_set(err, "%s:%zu: too many settings", name, lineno);
			return -1;
		}
		str_copy(cfg->entries[cfg->n].name,
		    sizeof cfg->entries[cfg->n].name, key);
		str_copy(cfg->entries[cfg->n].value,
		    sizeof cfg->entries[cfg->n].value, value);
		cfg->n++;
	}
	return 0;
}

int
settings_load(struct settings *cfg, struct err *err)
{
	char text[16384];
	struct stat sb;
	size_t len = 0, i;
	ssize_t n;
	int fd, rc;

	memset(cfg, 0, sizeof *cfg);
	if (paths_config(cfg->path, sizeof cfg->path, err) < 0) {
		cfg->path[0] = '\0';
		return 0;	/* no HOME: no config file, not an error */
	}
	if ((rc = paths_open_regular(cfg->path, &fd, err)) != 0) {
		cfg->path[0] = '\0';
		return rc > 0 ? 0 : -1;		/* missing: an empty config */
	}
	/* One byte more than fits tells "too large" from "exactly full". */
	while (len < sizeof text) {
		n = read(fd, text + len, sizeof text - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "%s: %s", cfg->path, strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len == sizeof text) {
		close(fd);
		err_set(err, "%s: larger than %zu bytes", cfg->path,
		    sizeof text - 1);
		return -1;
	}
	text[len] = '\0';
	if (fstat(fd, &sb) == 0 && (sb.st_mode & 0077) != 0) {
		/* Only a problem when the file holds a key. */
		cfg->world_readable = true;
	}
	close(fd);
	if (settings_parse(cfg, text, cfg->path, err) < 0)
		return -1;
	if (cfg->world_readable) {
		cfg->world_readable = false;
		for (i = 0; i < cfg->n; i++)
			if (strstr(cfg->entries[i].name, "_api_key") != NULL &&
			    cfg->entries[i].value[0] != '\0')
				cfg->world_readable = true;
	}
	return 0;
}

const char *
settings_get(const struct settings *cfg, const char *env, const char *name)
{
	const char *v;
	size_t i;

	if (env != NULL && (v = getenv(env)) != NULL && v[0] != '\0')
		return v;
	for (i = 0; i < cfg->n; i++)
		if (strcmp(cfg->entries[i].name, name) == 0 &&
		    cfg->entries[i].value[0] != '\0')
			return cfg->entries[i].value;
	return NULL;
}

int
settings_key(const struct settings *cfg, const char *env, const char *name,
    const char **key, struct err *err)
{
	const char *v, *p;

	*key = NULL;
	v = settings_get(cfg, env, name);
	if (v == NULL)
		return 0;
	for (p = v; *p != '\0'; p++) {
		/*
		 * A CR or LF would end the header the key travels in and
		 * start one of the key's choosing; no key holds controls.
		 */
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			if (env != NULL && (p = getenv(env)) != NULL &&
			    p[0] != '\0')
				err_set(err, "%s holds a control character "
				    "(a line break?); fix the key: it was not "
				    "sent", env);
			else
				err_set(err, "%s in %s holds a control "
				    "character; fix the key: it was not sent",
				    name, cfg->path);
			return -1;
		}
	}
	*key = v;
	return 0;
}
