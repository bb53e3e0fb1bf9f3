/*
 * lockfile.h: an exclusive flock(2) on a file next to what it guards:
 * the refresh lock (CACHE.lock, taken by `refresh` and `refresh --from`)
 * and the publish lock of a directory. The kernel drops it when the
 * process dies, kill -9 included, so a crash never leaves it held.
 */
#ifndef GPUCOST_LOCKFILE_H
#define GPUCOST_LOCKFILE_H

struct err;

#define LOCKFILE_BUSY	(-2)

/*
 * Open (creating, mode 0600; never through a symbolic link, and only
 * a regular file) and lock path, waiting up to wait_s
 * seconds. Returns 0 and *fd (close it to unlock); LOCKFILE_BUSY with
 * "another WHAT is running (it holds PATH); waited N s, try again
 * later"; or -1 with err set.
 */
int	lockfile_take(const char *path, long wait_s, const char *what,
	    int *fd, struct err *err);

#endif
