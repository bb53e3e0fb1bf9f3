/*
 * pull.c: fetch and verify a published cache, then merge it (the SQL is
 * db.c's, the transport http.c's, the format manifest.c's and gz.c's).
 */
#include "config.h"
#include "pull.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "err.h"
#include "gz.h"
#include "http.h"
#include "lockfile.h"
#include "paths.h"
#include "provider.h"
#include "sha256.h"
#include "str.h"
#include "xalloc.h"

#define TMP_SUFFIX	".from-"	/* CACHE.from-XXXXXX, ours */

/* What arrives of the data file: hashed, counted, decompressed. */
struct sink {
	struct sha256	 hash;
	struct gz_inflate *z;
	uint64_t	 bytes, max;
	unsigned char	 head[2];	/* the first bytes: gzip or not */
	struct err	 err;
	bool		 failed;	/* stop: err says why */
	struct err	 gz_err;
	bool		 bad_gzip;	/* gz_err says why */
};

static int
sink_feed(struct sink *s, const void *data, size_t len)
{
	if (s->failed)
		return -1;
	if (s->bytes < 2)
		memcpy(s->head + s->bytes, data, len < 2 - s->bytes ?
		    len : 2 - s->bytes);
	if (len > s->max - s->bytes) {
		err_set(&s->err, "larger than the %llu bytes the manifest "
		    "says", (unsigned long long)s->max);
		s->failed = true;
		return -1;
	}
	s->bytes += len;
	sha256_update(&s->hash, data, len);
	/*
	 * Bad gzip data is kept going to the end: the sha256 then tells a
	 * tampered or replaced file from one gzip cannot read.
	 */
	if (!s->bad_gzip && gz_inflate_feed(s->z, data, len, &s->gz_err) < 0)
		s->bad_gzip = true;
	return 0;
}

/* One http request's outcome, copied out of on_done. */
struct fetch {
	struct sink	*sink;		/* streamed (the data file) or NULL */
	bool		 ok;
	long		 status;
	char		 error[HTTP_ERROR_MAX];
	char		*body;		/* buffered body, owned */
	size_t		 body_len;
	char		 etag[128], last_modified[64];
};

static int
fetch_chunk(void *udata, const struct http_request *req, const char *data,
    size_t len)
{
	struct fetch *f = udata;

	(void)req;
	return sink_feed(f->sink, data, len) < 0 ? 1 : 0;
}

static void
fetch_done(void *udata, const struct http_result *r)
{
	struct fetch *f = udata;

	f->ok = r->ok;
	f->status = r->status;
	str_copy(f->error, sizeof f->error, r->error);
	if (r->body != NULL && f->sink == NULL) {
		f->body = xmalloc(r->body_len + 1);
		memcpy(f->body, r->body, r->body_len);
		f->body[r->body_len] = '\0';
		f->body_len = r->body_len;
	}
	str_copy(f->etag, sizeof f->etag, r->etag);
	str_copy(f->last_modified, sizeof f->last_modified, r->last_modified);
}

/* GET url (headers: conditional ones, or none) through a batch of one. */
static void
fetch_url(const char *url, long timeout, const char *etag, const char *since,
    struct fetch *f)
{
	static const struct http_callbacks cb = { fetch_chunk, fetch_done,
	    NULL };
	struct http_options hopts;
	struct http_batch *batch;
	struct http_request *req = xcalloc(1, sizeof *req);

	http_request_init(req);
	req->url = xstrdup(url);
	req->method = "GET";
	req->stream = f->sink != NULL;
	req->max_body = MANIFEST_BYTES_MAX;
	if (etag != NULL && etag[0] != '\0')
		http_request_header(req, "If-None-Match", etag);
	if (since != NULL && since[0] != '\0')
		http_request_header(req, "If-Modified-Since", since);
	http_options_default(&hopts);
	if (timeout > 0) {
		hopts.timeout = timeout;
		if (hopts.connect_timeout > timeout)
			hopts.connect_timeout = timeout;
	}
	batch = http_batch_new(&hopts);
	http_batch_add(batch, req, &cb, f);
	http_batch_run(batch);
	http_batch_free(batch);
}

static bool
is_url(const char *s)
{
	return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/* The URL or path of name next to the manifest of source. */
static char *
beside(const char *source, const char *name)
{
	size_t len = strlen(source);

	if (is_url(source) && len > 5 && strcmp(source + len - 5, ".json") == 0)
		return xasprintf("%.*s%s", (int)(strrchr(source, '/') + 1 -
		    source), source, name);
	return xasprintf("%s%s%s", source, len > 0 && source[len - 1] == '/' ?
	    "" : "/", name);
}

/* Read a whole local file of at most max bytes; *out freed by caller. */
static int
read_local(const char *path, size_t max, char **out, size_t *len,
    struct err *err)
{
	char *buf = xmalloc(max + 1);
	size_t have = 0;
	ssize_t n;
	int fd;

	*out = NULL;
	switch (paths_open_regular(path, &fd, err)) {
	case 0:
		break;
	case 1:
		err_set(err, "%s: no such file", path);
		/* FALLTHROUGH */
	default:
		free(buf);
		return -1;
	}
	while ((n = read(fd, buf + have, max + 1 - have)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || have + (size_t)n > max) {
			err_set(err, "%s: %s", path, n < 0 ? strerror(errno) :
			    "too large for a manifest");
			close(fd);
			free(buf);
			return -1;
		}
		have += (size_t)n;
	}
	close(fd);
	buf[have] = '\0';
	*out = buf;
	*len = have;
	return 0;
}

/* Remove path and the side files SQLite may have made next to it. */
static void
remove_temp(const char *path)
{
	static const char *const sides[] = { "", "-journal", "-wal", "-shm" };
	char *p;
	size_t i;

	for (i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		p = xasprintf("%s%s", path, sides[i]);
		unlink(p);
		free(p);
	}
}

/* Temporary files of a pull that died (we hold the lock: all stale). */
static void
remove_stale(const char *db_path)
{
	const char *slash = strrchr(db_path, '/');
	char *dir, *prefix, *path;
	struct dirent *e;
	DIR *d;

	dir = slash == NULL ? xstrdup(".") : slash == db_path ? xstrdup("/") :
	    xstrndup(db_path, (size_t)(slash - db_path));
	prefix = xasprintf("%s" TMP_SUFFIX, slash == NULL ? db_path :
	    slash + 1);
	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
				continue;
			path = xasprintf("%s/%s", dir, e->d_name);
			unlink(path);
			free(path);
		}
		closedir(d);
	}
	free(prefix);
	free(dir);
}

/* The key the pull state is stored under for source: its sha256. */
static void
source_key(const char *source, char hex[SHA256_HEX_LEN + 1])
{
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, source, strlen(source));
	sha256_hex(&h, hex);
}

/* Stream the data file (URL or path) into the sink. */
static int
get_data(const struct pull_options *o, const char *where, struct sink *s,
    struct err *err)
{
	struct fetch f;
	char buf[64 * 1024];
	ssize_t n;
	int fd;

	if (is_url(where)) {
		memset(&f, 0, sizeof f);
		f.sink = s;
		fetch_url(where, o->timeout, NULL, NULL, &f);
		free(f.body);
		if (s->failed) {
			err_set(err, "%s", s->err.msg);
			return -1;
		}
		if (!f.ok || f.status == 304) {
			err_set(err, "%s", f.error[0] != '\0' ? f.error :
			    "not downloaded");
			return -1;
		}
		return 0;
	}
	switch (paths_open_regular(where, &fd, err)) {
	case 0:
		break;
	case 1:
		err_set(err, "no such file");
		/* FALLTHROUGH */
	default:
		return -1;
	}
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "%s", strerror(errno));
			close(fd);
			return -1;
		}
		if (sink_feed(s, buf, (size_t)n) < 0) {
			err_set(err, "%s", s->err.msg);
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* Download, verify and open-check the data file into tmp. */
static int
get_verified(const struct pull_options *o, const struct manifest *m,
    const char *where, int fd, const char *tmp, struct pull_report *rep,
    struct err *err)
{
	struct sink s;
	char hex[SHA256_HEX_LEN + 1];
	uint64_t out = 0;
	struct db *snap;
	int rc = -1;

	memset(&s, 0, sizeof s);
	sha256_init(&s.hash);
	/* Not a byte past the size: a longer file stops there. */
	s.max = m->size;
	s.z = gz_inflate_new(fd, m->db_size);
	if (get_data(o, where, &s, err) < 0)
		goto done;
	rep->data_bytes = s.bytes;
	sha256_hex(&s.hash, hex);
	if (s.bytes < m->size) {
		err_set(err, "received %llu of the %llu bytes the manifest "
		    "says (cut short)", (unsigned long long)s.bytes,
		    (unsigned long long)m->size);
		goto done;
	}
	if (strcmp(hex, m->sha256) != 0) {
		err_set(err, "sha256 %.12s... is not the manifest's %.12s...: "
		    "not the file it names%s", hex, m->sha256,
		    s.head[0] == 0x1f && s.head[1] == 0x8b ? "" :
		    " (not gzip as received: does the server add "
		    "Content-Encoding: gzip to .gz files?)");
		goto done;
	}
	if (s.bad_gzip) {
		err_set(err, "%s", s.gz_err.msg);
		goto done;
	}
	if (gz_inflate_finish(s.z, &out, err) < 0)
		goto done;
	if (out != m->db_size) {
		err_set(err, "%llu bytes once decompressed, the manifest says "
		    "%llu", (unsigned long long)out,
		    (unsigned long long)m->db_size);
		goto done;
	}
	if (db_open_snapshot(tmp, &snap, err) < 0)
		goto done;
	db_close(snap);
	rc = 0;
done:
	gz_inflate_free(s.z);
	return rc;
}

/* The providers to merge: the selection, or every one we know. */
static void
merge_list(const struct pull_options *o, struct pull_report *rep)
{
	size_t i, j;

	rep->nres = 0;
	for (i = 0; providers[i] != NULL &&
	    rep->nres < MANIFEST_PROVIDERS_MAX; i++) {
		for (j = 0; j < o->nproviders; j++)
			if (strcmp(o->providers[j], providers[i]->id) == 0)
				break;
		if (o->nproviders > 0 && j == o->nproviders)
			continue;
		memset(&rep->res[rep->nres], 0, sizeof rep->res[0]);
		str_copy(rep->res[rep->nres].provider,
		    sizeof rep->res[0].provider, providers[i]->id);
		rep->nres++;
	}
}

/* The state a pull leaves: what it imported, from where, how to ask again. */
static size_t
state_meta(struct provider_meta *meta, const char *key, const char *sha,
    const char *etag, const char *last_modified)
{
	static const char *const names[] = { "source", "sha256", "etag",
	    "last_modified" };
	const char *values[4];
	size_t i;

	values[0] = key;
	values[1] = sha;
	values[2] = etag;
	values[3] = last_modified;
	for (i = 0; i < 4; i++) {
		str_copy(meta[i].name, sizeof meta[i].name, names[i]);
		str_copy(meta[i].value, sizeof meta[i].value, values[i]);
	}
	return 4;
}

int
pull_cache(const struct pull_options *o, struct pull_report *rep,
    struct err *err)
{
	struct provider_meta meta[4];
	char key[SHA256_HEX_LEN + 1], old_key[SHA256_HEX_LEN + 1];
	char old_sha[SHA256_HEX_LEN + 1], etag[128], since[64];
	char *lock_path, *where = NULL, *text = NULL, *tmp = NULL;
	struct manifest *m = &rep->manifest;
	struct fetch f;
	struct db *db = NULL;
	size_t len = 0, nmeta;
	bool found;
	int lock_fd = -1, fd = -1, rc;

	memset(rep, 0, sizeof *rep);
	memset(&f, 0, sizeof f);
	lock_path = xasprintf("%s.lock", o->db_path);
	rc = lockfile_take(lock_path, o->lock_wait, "refresh", &lock_fd, err);
	free(lock_path);
	if (rc < 0)
		return rc == LOCKFILE_BUSY ? PULL_BUSY : -1;
	rc = -1;
	if (cache_open_writer(o->db_path, &db, err) < 0)
		goto done;
	remove_stale(o->db_path);
	source_key(o->source, key);
	if (db_meta_get(db, PULL_META_OWNER, "source", old_key, sizeof old_key,
	    &found, err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "sha256", old_sha, sizeof old_sha,
	    &found, err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "etag", etag, sizeof etag, &found,
	    err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "last_modified", since,
	    sizeof since, &found, err) < 0)
		goto done;
	/* Another source's validators mean nothing here. */
	if (strcmp(old_key, key) != 0)
		etag[0] = since[0] = '\0';

	/* The manifest. */
	rc = PULL_REFUSED;
	if (is_url(o->source)) {
		where = strlen(o->source) > 5 && strcmp(o->source +
		    strlen(o->source) - 5, ".json") == 0 ?
		    xstrdup(o->source) : beside(o->source, MANIFEST_NAME);
		fetch_url(where, o->timeout, etag, since, &f);
		rep->manifest_bytes = f.body_len;
		if (f.ok && f.status == 304) {
			rep->not_modified = true;
			rc = 0;
			goto done;
		}
		if (!f.ok) {
			err_set(err, "%s", f.error);
			goto done;
		}
		text = f.body;
		len = f.body_len;
		f.body = NULL;
	} else {
		where = beside(o->source, MANIFEST_NAME);
		if (read_local(where, MANIFEST_BYTES_MAX, &text, &len, err) < 0)
			goto done;
		rep->manifest_bytes = len;
	}
	if (manifest_parse(text, len, m, err) < 0) {
		err_prefix(err, "%s", where);
		goto done;
	}
	nmeta = state_meta(meta, key, m->sha256, f.etag, f.last_modified);
	if (strcmp(old_sha, m->sha256) == 0) {
		/* Nothing new; remember how to ask next time. */
		rep->already = true;
		rc = 0;
		if (db_meta_set(db, PULL_META_OWNER, "etag", f.etag, err) < 0 ||
		    db_meta_set(db, PULL_META_OWNER, "last_modified",
		    f.last_modified, err) < 0 ||
		    db_meta_set(db, PULL_META_OWNER, "source", key, err) < 0)
			rc = -1;
		goto done;
	}

	/* The data, next to the cache, checked before anything is merged. */
	free(where);
	where = beside(o->source, m->file);
	tmp = xasprintf("%s" TMP_SUFFIX "XXXXXX", o->db_path);
	if ((fd = mkstemp(tmp)) < 0) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		tmp = NULL;
		rc = -1;
		goto done;
	}
	if (get_verified(o, m, where, fd, tmp, rep, err) < 0) {
		err_prefix(err, "%s", where);
		goto done;
	}
	close(fd);
	fd = -1;
	merge_list(o, rep);
	rc = db_merge_from(db, tmp, rep->res, rep->nres, PULL_META_OWNER, meta,
	    nmeta, err) < 0 ? -1 : 0;
done:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL)
		remove_temp(tmp);
	free(tmp);
	free(where);
	free(text);
	free(f.body);
	db_close(db);
	close(lock_fd);		/* unlocks */
	return rc;
}
