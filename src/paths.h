/*
 * paths.h: where gpucost keeps its files (XDG base directories).
 */
#ifndef GPUCOST_PATHS_H
#define GPUCOST_PATHS_H

#include <stddef.h>

struct err;

/*
 * The cache path: opt_db (--db) if set, else $GPUCOST_DB, else
 * $XDG_DATA_HOME/gpucost/gpucost.db, else ~/.local/share/gpucost/gpucost.db.
 * For the two default locations the directory is created (mode 0700).
 */
int	paths_db(const char *opt_db, char *out, size_t size, struct err *err);

/* $XDG_CONFIG_HOME/gpucost/config or ~/.config/gpucost/config. */
int	paths_config(char *out, size_t size, struct err *err);

/*
 * The user's own watch delivery state, for a cache they may not write:
 * $XDG_STATE_HOME/gpucost/watch.db or ~/.local/state/gpucost/watch.db;
 * the directory is created (mode 0700).
 */
int	paths_watch_state(char *out, size_t size, struct err *err);

/* mkdir -p for the directory part of a file path. */
int	paths_make_parent(const char *file, struct err *err);

/*
 * Open an existing file for reading, refusing at once what is not a
 * regular file (a FIFO, a device, a directory, a socket) with "PATH: is a
 * FIFO (named pipe), not a regular file". Returns 0 and *fd (blocking,
 * close-on-exec), 1 when the file does not exist, -1 with err set.
 */
int	paths_open_regular(const char *path, int *fd, struct err *err);
/* The same, refusing a symbolic link too (a key file). */
int	paths_open_regular_nofollow(const char *path, int *fd,
	    struct err *err);

#endif
