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

/* mkdir -p for the directory part of a file path. */
int	paths_make_parent(const char *file, struct err *err);

#endif
