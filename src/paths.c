/* paths.c: XDG locations of the cache and the config file. */
#include "config.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"

/* Write base/rest into out, base from $env or $HOME/fallback. */
static int
xdg_path(const char *env, const char *fallback, const char *rest, char *out,
    size_t size, struct err *err)
{
	const char *base = getenv(env), *home;
	int n;

	/* The spec says relative XDG paths are invalid and must be ignored. */
	if (base != NULL && base[0] == '/')
		n = snprintf(out, size, "%s/%s", base, rest);
	else {
		home = getenv("HOME");
		if (home == NULL || home[0] == '\0') {
			err_set(err, "neither $%s nor $HOME is set; use --db", env);
			return -1;
		}
		n = snprintf(out, size, "%s/%s/%s", home, fallback, rest);
	}
	if (n < 0 || (size_t)n >= size) {
		err_set(err, "$%s or $HOME is too long", env);
		return -1;
	}
	return 0;
}

int
paths_make_parent(const char *file, struct err *err)
{
	char dir[4096], *p;

	if (strlen(file) >= sizeof dir) {
		err_set(err, "%s: path too long", file);
		return -1;
	}
	strcpy(dir, file);
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
				err_set(err, "cannot create %s: %s", dir,
				    strerror(errno));
				return -1;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	return 0;
}

int
paths_db(const char *opt_db, char *out, size_t size, struct err *err)
{
	const char *env = getenv("GPUCOST_DB");
	const char *chosen = opt_db != NULL ? opt_db :
	    (env != NULL && env[0] != '\0') ? env : NULL;

	if (chosen != NULL) {
		if (strlen(chosen) >= size) {
			err_set(err, "cache path too long");
			return -1;
		}
		strcpy(out, chosen);
		return 0;
	}
	if (xdg_path("XDG_DATA_HOME", ".local/share", "gpucost/gpucost.db",
	    out, size, err) < 0)
		return -1;
	return paths_make_parent(out, err);
}

int
paths_config(char *out, size_t size, struct err *err)
{
	return xdg_path("XDG_CONFIG_HOME", ".config", "gpucost/config", out,
	    size, err);
}

int
paths_watch_state(char *out, size_t size, struct err *err)
{
	if (xdg_path("XDG_STATE_HOME", ".local/state", "gpucost/watch.db",
	    out, size, err) < 0)
		return -1;
	return paths_make_parent(out, err);
}

/* What kind of file st is, for "is a FIFO, not a regular file". */
static const char *
file_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO (named pipe)";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/* paths_open_regular() with more open(2) flags (O_NOFOLLOW). */
static int
open_regular(const char *path, int more, int *fd_out, struct err *err)
{
	struct stat st;
	int fd, flags;

	*fd_out = -1;
	/*
	 * O_NONBLOCK: opening a FIFO for reading would wait for a writer
	 * forever. Checking the open descriptor, not the name, leaves no
	 * window for the file to be swapped between check and use.
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | more);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(err, "%s: is %s, not a regular file", path,
		    file_kind(&st));
		close(fd);
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	*fd_out = fd;
	return 0;
}

int
paths_open_regular(const char *path, int *fd_out, struct err *err)
{
	return open_regular(path, 0, fd_out, err);
}

int
paths_open_regular_nofollow(const char *path, int *fd_out, struct err *err)
{
	return open_regular(path, O_NOFOLLOW, fd_out, err);
}
