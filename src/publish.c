/*
 * publish.c: write a published copy of the cache and its manifest into
 * a directory (files, compression, manifest; the SQL is db.c's).
 */
#include "config.h"
#include "publish.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "err.h"
#include "gz.h"
#include "lockfile.h"
#include "paths.h"
#include "sha256.h"
#include "str.h"
#include "xalloc.h"

#define TMP_PREFIX	".gpucost-tmp-"		/* ours, removed when stale */
#define DATA_PREFIX	"gpucost-"
#define DATA_SUFFIX	".db.gz"
#define FILE_MODE	0644			/* a web server serves them */

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool
has_suffix(const char *s, const char *x)
{
	size_t ls = strlen(s), lx = strlen(x);

	return ls >= lx && strcmp(s + ls - lx, x) == 0;
}

/* A new empty temporary file in dir: its fd and malloc'd *path. */
static int
temp_file(const char *dir, const char *what, char **path, struct err *err)
{
	int fd;

	*path = xasprintf("%s/" TMP_PREFIX "%s-XXXXXX", dir, what);
	if ((fd = mkstemp(*path)) < 0) {
		err_set(err, "%s: cannot create a file there: %s", dir,
		    strerror(errno));
		free(*path);
		*path = NULL;
		return -1;
	}
	return fd;
}

/* fsync fd and give it FILE_MODE; -1 with err naming path. */
static int
sync_file(int fd, const char *path, struct err *err)
{
	if (fchmod(fd, FILE_MODE) < 0 || fsync(fd) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
sync_dir(const char *dir, struct err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0) {
		err_set(err, "%s: cannot sync the directory: %s", dir,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* sha256 of the file at fd from its start. */
static int
hash_fd(int fd, const char *path, char hex[SHA256_HEX_LEN + 1],
    struct err *err)
{
	unsigned char buf[64 * 1024];
	struct sha256 h;
	off_t off = 0;
	ssize_t n;

	sha256_init(&h);
	while ((n = pread(fd, buf, sizeof buf, off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "%s: %s", path, strerror(errno));
			return -1;
		}
		sha256_update(&h, buf, (size_t)n);
		off += n;
	}
	sha256_hex(&h, hex);
	return 0;
}

/* Remove our temporary files (stale: we hold the publish lock). */
static void
remove_stale(const char *dir)
{
	struct dirent *e;
	DIR *d;
	char *path;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!has_prefix(e->d_name, TMP_PREFIX))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		unlink(path);
		free(path);
	}
	closedir(d);
}

/* The manifest in dir now, if there is a readable one (0), else -1. */
static int
previous_manifest(const char *dir, struct manifest *m)
{
	char *path, buf[65536];
	struct err err;
	ssize_t n = -1;
	int fd;

	path = xasprintf("%s/" MANIFEST_NAME, dir);
	if (paths_open_regular(path, &fd, &err) == 0) {
		n = read(fd, buf, sizeof buf);
		close(fd);
	}
	free(path);
	return n > 0 && manifest_parse(buf, (size_t)n, m, &err) == 0 ? 0 : -1;
}

/* Does dir hold the file name? */
static bool
dir_has(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat sb;
	bool yes = stat(path, &sb) == 0 && S_ISREG(sb.st_mode);

	free(path);
	return yes;
}

/* Remove data files but keep1 and keep2; the count removed. */
static size_t
prune(const char *dir, const char *keep1, const char *keep2)
{
	struct dirent *e;
	size_t n = 0;
	char *path;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!has_prefix(e->d_name, DATA_PREFIX) ||
		    !has_suffix(e->d_name, DATA_SUFFIX) ||
		    strcmp(e->d_name, keep1) == 0 ||
		    strcmp(e->d_name, keep2) == 0)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (unlink(path) == 0)
			n++;
		free(path);
	}
	closedir(d);
	return n;
}

/* The manifest's providers from the copy itself (what it holds). */
static int
manifest_providers(const char *copy, struct manifest *m, struct err *err)
{
	struct provider_status *st = NULL;
	struct db *db;
	size_t n = 0, i;

	if (db_open_snapshot(copy, &db, err) < 0) {
		err_prefix(err, "the copy %s", copy);
		return -1;
	}
	if (db_status(db, &st, &n, err) < 0) {
		db_close(db);
		return -1;
	}
	db_close(db);
	for (i = 0; i < n && m->nproviders < MANIFEST_PROVIDERS_MAX; i++) {
		struct manifest_provider *mp = &m->providers[m->nproviders++];

		str_copy(mp->id, sizeof mp->id, st[i].provider);
		str_copy(mp->source, sizeof mp->source,
		    source_name(st[i].source));
		mp->offer_count = st[i].offer_count;
		mp->newest = st[i].newest;
		mp->oldest = st[i].oldest;
		mp->last_success = st[i].last_success;
		mp->last_attempt = st[i].last_attempt;
		str_copy(mp->last_error, sizeof mp->last_error,
		    st[i].last_error);
	}
	free(st);
	return 0;
}

/* Write text to dir/manifest.json: temporary name, fsync, rename. */
static int
write_manifest(const char *dir, const char *text, struct err *err)
{
	char *tmp = NULL, *path;
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd, rc = -1;

	if ((fd = temp_file(dir, "manifest", &tmp, err)) < 0)
		return -1;
	path = xasprintf("%s/" MANIFEST_NAME, dir);
	while (off < len) {
		n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "%s: %s", tmp, strerror(errno));
			goto done;
		}
		off += (size_t)n;
	}
	if (sync_file(fd, tmp, err) < 0)
		goto done;
	if (rename(tmp, path) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		goto done;
	}
	rc = 0;
done:
	close(fd);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

int
publish_cache(struct db *db, const char *dir, int64_t now,
    const char *generator, const struct sign_secret *sk,
    struct publish_result *res, struct err *err)
{
	struct manifest *m = &res->manifest;
	char *lock_path, *copy = NULL, *packed = NULL, *final = NULL;
	struct manifest *prev = xmalloc(sizeof *prev);
	char stamp[32], *text;
	uint64_t in_bytes, out_bytes;
	double start = now_seconds();
	struct stat sb;
	time_t tt = (time_t)now;
	struct tm tm;
	int lock_fd = -1, cfd = -1, pfd = -1, rc = -1;

	memset(res, 0, sizeof *res);
	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		if (stat(dir, &sb) < 0)
			err_set(err, "%s: %s", dir, strerror(errno));
		else
			err_set(err, "%s: not a directory", dir);
		free(prev);
		return -1;
	}
	lock_path = xasprintf("%s/.gpucost-publish.lock", dir);
	rc = lockfile_take(lock_path, PUBLISH_LOCK_WAIT, "publish", &lock_fd,
	    err);
	free(lock_path);
	if (rc < 0) {
		free(prev);
		return -1;
	}
	rc = -1;
	remove_stale(dir);

	/* The copy: consistent, without personal data, checked. */
	if ((cfd = temp_file(dir, "db", &copy, err)) < 0)
		goto done;
	if (db_publish_copy(db, copy, now, err) < 0)
		goto done;
	m->format = MANIFEST_FORMAT;
	m->schema_version = DB_SCHEMA_VERSION;
	m->created_at = now;
	str_copy(m->generator, sizeof m->generator, generator);
	if (manifest_providers(copy, m, err) < 0)
		goto done;

	/* Compressed, synced, hashed, then under its content's name. */
	if ((pfd = temp_file(dir, "gz", &packed, err)) < 0)
		goto done;
	if (gz_compress_fd(cfd, pfd, &in_bytes, &out_bytes, err) < 0) {
		err_prefix(err, "%s", packed);
		goto done;
	}
	m->db_size = in_bytes;
	m->size = out_bytes;
	if (sync_file(pfd, packed, err) < 0 ||
	    hash_fd(pfd, packed, m->sha256, err) < 0)
		goto done;
	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm) == 0)
		str_copy(stamp, sizeof stamp, "0");
	/*
	 * The same data as the manifest there names: leave both alone, so
	 * readers' conditional requests get "not modified".
	 */
	if (previous_manifest(dir, prev) == 0 &&
	    strcmp(prev->sha256, m->sha256) == 0 && dir_has(dir, prev->file)) {
		*m = *prev;
		if (sk == NULL ? prev->signature[0] == '\0' :
		    strcmp(prev->key_id, sk->id) == 0) {
			res->unchanged = true;
			res->seconds = now_seconds() - start;
			rc = 0;
			goto done;
		}
		/* The same data, signed now (or by another key). */
		goto manifest;
	}
	snprintf(m->file, sizeof m->file, DATA_PREFIX "%s-%.8s" DATA_SUFFIX,
	    stamp, m->sha256);
	final = xasprintf("%s/%s", dir, m->file);
	if (rename(packed, final) < 0) {
		err_set(err, "%s: %s", final, strerror(errno));
		goto done;
	}
	free(packed);
	packed = NULL;
	if (sync_dir(dir, err) < 0)
		goto done;

	/* The manifest last: it names only a whole file. */
manifest:
	if (previous_manifest(dir, prev) < 0)
		prev->file[0] = '\0';	/* unreadable: protects nothing */
	m->key_id[0] = m->signature[0] = '\0';
	if (sk != NULL) {
		char signed_text[MANIFEST_SIGNED_MAX];

		manifest_signed_text(m, signed_text, sizeof signed_text);
		if (sign_make(sk, signed_text, strlen(signed_text),
		    m->signature, sizeof m->signature, err) < 0)
			goto done;
		str_copy(m->key_id, sizeof m->key_id, sk->id);
	}
	if ((text = manifest_to_json(m)) == NULL) {
		err_set(err, "out of memory writing the manifest");
		goto done;
	}
	rc = write_manifest(dir, text, err);
	free(text);
	if (rc < 0 || (rc = sync_dir(dir, err)) < 0)
		goto done;
	res->pruned = prune(dir, m->file, prev->file);
	res->seconds = now_seconds() - start;
done:
	if (cfd >= 0)
		close(cfd);
	if (pfd >= 0)
		close(pfd);
	if (copy != NULL)
		unlink(copy);
	if (packed != NULL)
		unlink(packed);
	free(copy);
	free(packed);
	free(final);
	free(prev);
	close(lock_fd);		/* unlocks */
	return rc;
}
