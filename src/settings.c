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
#include "provider.h"
#include "str.h"

/*
 * The settings besides the providers' API keys (<id>_api_key for every
 * provider that takes one), each documented in the README and gpucost(1).
 * A number is checked here, so a bad value is named with its line
 * before anything runs; usd_per_eur is checked by currency.c (its
 * message names the file), the others are text.
 */
static const struct setting_info {
	const char	*name;
	long		 min, max;	/* both 0: not a number */
	const char	*unit;
} setting_info[] = {
	{ "aws_regions", 0, 0, NULL },
	{ "usd_per_eur", 0, 0, NULL },
	{ "from", 0, 0, NULL },
	{ "history_days", 1, 36500, "days" },
	{ "timeout", 1, 86400, "seconds" },
	{ "max_age", 0, 0, NULL },	/* a duration: checked where it is read */
	{ "max_age_budget", 1, 3600, "seconds" },	/* cmd_query.c */
	{ "from_key", 0, 0, NULL },	/* checked by sign.c where it is read */
	{ "salad_organization", 0, 0, NULL },	/* SaladCloud's, with its key */
};
#define NSETTINGS (sizeof setting_info / sizeof setting_info[0])

/* "<id>_api_key" of provider p into buf; false if p takes no key. */
static bool
key_name(const struct provider *p, char *buf, size_t size)
{
	if (p->key_env == NULL)
		return false;
	snprintf(buf, size, "%s_api_key", p->id);
	return true;
}

/* The known setting nearest to key, or NULL when none is close. */
static const char *
nearest_setting(const char *key, char *buf, size_t size)
{
	char name[64];
	size_t i, d, best = strlen(key) / 3 + 1;
	const char *found = NULL;

	if (best < 2)
		best = 2;
	best++;
	for (i = 0; i < NSETTINGS; i++)
		if ((d = str_distance(key, setting_info[i].name)) < best) {
			best = d;
			found = setting_info[i].name;
		}
	for (i = 0; providers[i] != NULL; i++)
		if (key_name(providers[i], name, sizeof name) &&
		    (d = str_distance(key, name)) < best) {
			best = d;
			str_copy(buf, size, name);
			found = buf;
		}
	return found;
}

/*
 * Is key a known setting? A number's value must be one in its range:
 * -1 with "FILE:LINE: name: expected a number of days from 1 to 36500".
 */
static int
check_setting(const char *key, const char *value, const char *file,
    size_t lineno, struct err *err)
{
	char name[64], clean[64], near[64], *end;
	const struct setting_info *si = NULL;
	const char *guess;
	size_t i;
	long v;

	for (i = 0; i < NSETTINGS; i++)
		if (strcmp(key, setting_info[i].name) == 0)
			si = &setting_info[i];
	for (i = 0; si == NULL && providers[i] != NULL; i++)
		if (key_name(providers[i], name, sizeof name) &&
		    strcmp(key, name) == 0)
			return 0;
	if (si == NULL) {
		str_sanitize(clean, sizeof clean, key, strlen(key));
		if ((guess = nearest_setting(clean, near, sizeof near)) != NULL)
			err_set(err, "%s:%zu: unknown setting \"%s\"; did you "
			    "mean \"%s\"?", file, lineno, clean, guess);
		else
			err_set(err, "%s:%zu: unknown setting \"%s\" (see "
			    "FILES in gpucost(1) for the settings)", file,
			    lineno, clean);
		return -1;
	}
	if (si->unit == NULL || value[0] == '\0')
		return 0;
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < si->min ||
	    v > si->max) {
		err_set(err, "%s:%zu: %s: expected a number of %s from %ld to "
		    "%ld", file, lineno, key, si->unit, si->min, si->max);
		return -1;
	}
	return 0;
}

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
	size_t len, lineno = 0;

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
		if (check_setting(key, value, name, lineno, err) < 0)
			return -1;
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
