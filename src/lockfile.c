/* lockfile.c: an exclusive flock on a lock file, with a bounded wait. */
#include "config.h"
#include "lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
lockfile_take(const char *path, long wait_s, const char *what, int *fd,
    struct err *err)
{
	double deadline = now_seconds() + (double)wait_s;
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	struct stat sb;

	/*
	 * Never through a symbolic link, never anything but a regular
	 * file: a link planted where the lock goes would otherwise have
	 * us create (or lock) a file wherever it points.
	 */
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK, 0600);
	if (*fd < 0) {
		err_set(err, "cannot open the lock file %s: %s", path,
		    errno == ELOOP ? "it is a symbolic link (remove it)" :
		    strerror(errno));
		return -1;
	}
	if (fstat(*fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		err_set(err, "the lock file %s is not a regular file (remove "
		    "it)", path);
		close(*fd);
		*fd = -1;
		return -1;
	}
	for (;;) {
		if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			err_set(err, "cannot lock %s: %s", path,
			    strerror(errno));
			break;
		}
		if (now_seconds() >= deadline) {
			err_set(err, "another %s is running (it holds %s); "
			    "waited %ld s, try again later", what, path,
			    wait_s);
			close(*fd);
			*fd = -1;
			return LOCKFILE_BUSY;
		}
		nanosleep(&pause, NULL);
	}
	close(*fd);
	*fd = -1;
	return -1;
}
