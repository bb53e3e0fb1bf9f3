/*
 * pull.c: fetch and verify a published cache, then merge it (the SQL is
 * db.c's, the transport http.c's, the format manifest.c's and gz.c's).
 */
#include "config.h"
#include "pull.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "err.h"
#include "gz.h"
#include "http.h"
#include "lockfile.h"
#include "paths.h"
#include "provider.h"
#include "sha256.h"
#include "sign.h"
#include "signals.h"
#include "str.h"
#include "xalloc.h"

#define TMP_SUFFIX	".from-"	/* CACHE.from-XXXXXX, ours */

/* Room left beyond what a pull writes next to the cache. */
#define FREE_MARGIN	((uint64_t)16 << 20)
#define COPY_BUF	(64 * 1024)

/* How much a pull may still take, and whether it must stop. */
struct budget {
	double	 deadline;		/* CLOCK_MONOTONIC seconds */
	double	 started;
	long	 seconds;		/* the whole budget */
};

static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds left (at least 1 while any is left; 0 when none). */
static long
budget_left(const struct budget *b)
{
	double left = b->deadline - mono_now();

	return left <= 0 ? 0 : left < 1 ? 1 : (long)left + 1;
}

/* Out of time or interrupted: err says which. */
static bool
budget_over(const struct budget *b, struct err *err)
{
	if (signals_caught != 0) {
		err_set(err, "interrupted");
		return true;
	}
	if (mono_now() > b->deadline) {
		err_set(err, "took longer than its %ld s deadline", b->seconds);
		return true;
	}
	return false;
}

/* What arrives of the data file: hashed, counted, kept as it came. */
struct sink {
	struct sha256	 hash;
	int		 fd;		/* the compressed temporary file */
	uint64_t	 bytes, max;
	unsigned char	 head[2];	/* the first bytes: gzip or not */
	const struct budget *budget;
	struct err	 err;
	bool		 failed;	/* stop: err says why */
};

static int
sink_feed(struct sink *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t left = len;
	ssize_t n;

	if (s->failed)
		return -1;
	if (budget_over(s->budget, &s->err)) {
		s->failed = true;
		return -1;
	}
	if (s->bytes < 2)
		memcpy(s->head + s->bytes, data, len < 2 - s->bytes ?
		    len : 2 - s->bytes);
	if (len > s->max - s->bytes) {
		err_set(&s->err, "larger than the %llu bytes the manifest "
		    "says%s", (unsigned long long)s->max, s->bytes == 0 &&
		    !(s->head[0] == 0x1f && s->head[1] == 0x8b) ? " (not gzip "
		    "as received: does the server add Content-Encoding: gzip "
		    "to .gz files?)" : "");
		s->failed = true;
		return -1;
	}
	s->bytes += len;
	sha256_update(&s->hash, data, len);
	while (left > 0) {
		if ((n = write(s->fd, p, left)) < 0) {
			if (errno == EINTR)
				continue;
			err_set(&s->err, "write failed: %s", strerror(errno));
			s->failed = true;
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
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
	char		*url;		/* the URL that answered, owned */
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
	free(f->url);
	f->url = xstrdup(r->url != NULL ? r->url : r->req->url);
	str_copy(f->etag, sizeof f->etag, r->etag);
	str_copy(f->last_modified, sizeof f->last_modified, r->last_modified);
}

/*
 * GET url (headers: conditional ones, or none) through a batch of one,
 * within the budget: a signal or the deadline cancels it.
 */
static void
fetch_url(const char *url, long timeout, const struct budget *b,
    const char *etag, const char *since, struct fetch *f)
{
	static const struct http_callbacks cb = { fetch_chunk, fetch_done,
	    NULL };
	struct http_options hopts;
	struct http_batch *batch;
	struct http_request *req = xcalloc(1, sizeof *req);
	long left = budget_left(b);
	struct err why;

	http_request_init(req);
	req->url = xstrdup(url);
	req->method = "GET";
	req->stream = f->sink != NULL;
	/* The data file's bytes are hashed as they are on the server. */
	req->raw = f->sink != NULL;
	req->max_body = MANIFEST_BYTES_MAX;
	if (etag != NULL && etag[0] != '\0')
		http_request_header(req, "If-None-Match", etag);
	if (since != NULL && since[0] != '\0')
		http_request_header(req, "If-Modified-Since", since);
	http_options_default(&hopts);
	if (timeout > 0)
		hopts.timeout = timeout;
	if (left > 0 && hopts.timeout > left)
		hopts.timeout = left;
	if (hopts.connect_timeout > hopts.timeout)
		hopts.connect_timeout = hopts.timeout;
	batch = http_batch_new(&hopts);
	http_batch_add(batch, req, &cb, f);
	while (http_batch_poll(batch, -1, 200) > 0)
		if (budget_over(b, &why)) {
			http_batch_cancel(batch, f);
			http_batch_free(batch);
			f->ok = false;
			str_copy(f->error, sizeof f->error, why.msg);
			return;
		}
	http_batch_free(batch);
	/* libcurl's timeout was the time left: say it was the deadline. */
	if (!f->ok && mono_now() > b->deadline - 1.0)
		snprintf(f->error, sizeof f->error, "took longer than its %ld "
		    "s deadline", b->seconds);
}

static bool
is_url(const char *s)
{
	return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/* The URL or path of name next to the manifest at (or of) source. */
static char *
beside(const char *source, const char *name)
{
	size_t len = strlen(source);
	const char *end;

	if (is_url(source)) {
		/* The directory of the URL's path, query and fragment off. */
		end = source + strcspn(source, "?#");
		if (end > source && end[-1] != '/' && (len = (size_t)(end -
		    source)) > 5 && strncmp(end - 5, ".json", 5) == 0) {
			while (end > source && end[-1] != '/')
				end--;
			return xasprintf("%.*s%s", (int)(end - source), source,
			    name);
		}
		return xasprintf("%.*s%s%s", (int)(end - source), source,
		    end > source && end[-1] == '/' ? "" : "/", name);
	}
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

/* The directory of the cache (freed by the caller). */
static char *
cache_dir(const char *db_path)
{
	const char *slash = strrchr(db_path, '/');

	return slash == NULL ? xstrdup(".") : slash == db_path ? xstrdup("/") :
	    xstrndup(db_path, (size_t)(slash - db_path));
}

/* Temporary files of a pull that died (we hold the lock: all stale). */
static void
remove_stale(const char *db_path)
{
	const char *slash = strrchr(db_path, '/');
	char *dir, *prefix, *path;
	struct dirent *e;
	DIR *d;

	dir = cache_dir(db_path);
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

/*
 * Is there room next to the cache for the compressed file and the copy
 * it inflates to, with a margin? Checked before a byte is written: a
 * pull never fills the disk the cache lives on.
 */
static int
room_for(const char *db_path, uint64_t need, struct err *err)
{
	char *dir = cache_dir(db_path);
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(dir, &sv) < 0) {
		free(dir);
		return 0;	/* cannot tell: the writes will say */
	}
	avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	if (avail < need + FREE_MARGIN) {
		err_set(err, "needs %llu MB free in %s for the copy and its "
		    "compressed file; %llu MB are", (unsigned long long)
		    ((need + FREE_MARGIN) >> 20), dir,
		    (unsigned long long)(avail >> 20));
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
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
get_data(const struct pull_options *o, const struct budget *b,
    const char *where, struct sink *s, struct err *err)
{
	struct fetch f;
	char buf[COPY_BUF];
	ssize_t n;
	int fd;

	if (is_url(where)) {
		memset(&f, 0, sizeof f);
		f.sink = s;
		fetch_url(where, o->timeout, b, NULL, NULL, &f);
		free(f.body);
		free(f.url);
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

/*
 * Download the data file into gz_fd, hashing it as it comes; only once
 * its size and sha256 are the manifest's is it inflated (into db_fd, at
 * most the manifest's db_size): a file that is not the one the
 * manifest names is never decompressed.
 */
static int
get_verified(const struct pull_options *o, const struct budget *b,
    const struct manifest *m, const char *where, int gz_fd, int db_fd,
    struct pull_report *rep, struct err *err)
{
	struct gz_inflate *z = NULL;
	struct sink s;
	char hex[SHA256_HEX_LEN + 1], buf[COPY_BUF];
	uint64_t out = 0;
	ssize_t n;
	int rc = -1;

	memset(&s, 0, sizeof s);
	sha256_init(&s.hash);
	s.fd = gz_fd;
	s.budget = b;
	/* Not a byte past the size: a longer file stops there. */
	s.max = m->size;
	if (get_data(o, b, where, &s, err) < 0)
		return -1;
	rep->data_bytes = s.bytes;
	sha256_hex(&s.hash, hex);
	if (s.bytes < m->size) {
		err_set(err, "received %llu of the %llu bytes the manifest "
		    "says (cut short)", (unsigned long long)s.bytes,
		    (unsigned long long)m->size);
		return -1;
	}
	if (strcmp(hex, m->sha256) != 0) {
		err_set(err, "sha256 %.12s... is not the manifest's %.12s...: "
		    "not the file it names%s", hex, m->sha256,
		    s.head[0] == 0x1f && s.head[1] == 0x8b ? "" :
		    " (not gzip as received: does the server add "
		    "Content-Encoding: gzip to .gz files?)");
		return -1;
	}
	if (lseek(gz_fd, 0, SEEK_SET) < 0) {
		err_set(err, "cannot read it back: %s", strerror(errno));
		return -1;
	}
	z = gz_inflate_new(db_fd, m->db_size);
	while ((n = read(gz_fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "cannot read it back: %s", strerror(errno));
			goto done;
		}
		if (budget_over(b, err) ||
		    gz_inflate_feed(z, buf, (size_t)n, err) < 0)
			goto done;
	}
	if (gz_inflate_finish(z, &out, err) < 0)
		goto done;
	if (out != m->db_size) {
		err_set(err, "%llu bytes once decompressed, the manifest says "
		    "%llu", (unsigned long long)out,
		    (unsigned long long)m->db_size);
		goto done;
	}
	rc = 0;
done:
	gz_inflate_free(z);
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

/*
 * Has every provider of the selection been merged from the copy sha
 * (the pull state names, per provider, the copy it was last merged
 * from)? A pull of a few providers leaves the others to a later one.
 */
static int
all_merged(struct db *db, const struct pull_report *rep, const char *sha,
    bool *all, struct err *err)
{
	char name[PROVIDER_META_NAME_MAX], have[SHA256_HEX_LEN + 1];
	bool found;
	size_t i;

	*all = sha[0] != '\0';
	for (i = 0; i < rep->nres && *all; i++) {
		snprintf(name, sizeof name, PULL_META_MERGED "%s",
		    rep->res[i].provider);
		if (db_meta_get(db, PULL_META_OWNER, name, have, sizeof have,
		    &found, err) < 0)
			return -1;
		*all = found && strcmp(have, sha) == 0;
	}
	return 0;
}

/* The state a pull leaves: what it imported, from where, how to ask again. */
static size_t
state_meta(struct provider_meta *meta, const struct pull_report *rep,
    const char *key, const char *sha, const char *etag,
    const char *last_modified)
{
	static const char *const names[] = { "source", "sha256", "etag",
	    "last_modified" };
	const char *values[4];
	size_t i, n = 0;

	values[0] = key;
	values[1] = sha;
	values[2] = etag;
	values[3] = last_modified;
	for (i = 0; i < 4; i++, n++) {
		str_copy(meta[n].name, sizeof meta[n].name, names[i]);
		str_copy(meta[n].value, sizeof meta[n].value, values[i]);
	}
	for (i = 0; i < rep->nres; i++, n++) {
		snprintf(meta[n].name, sizeof meta[n].name, PULL_META_MERGED
		    "%s", rep->res[i].provider);
		str_copy(meta[n].value, sizeof meta[n].value, sha);
	}
	return n;
}

/*
 * An interrupted pull leaves the trace an interrupted refresh does: in
 * the status of each provider it was pulling, the cached offers kept.
 */
static void
record_interrupt(struct db *db, const struct pull_report *rep, int64_t now,
    int sig, double seconds)
{
	char why[DB_ERROR_MAX];
	struct err err;
	size_t i;

	snprintf(why, sizeof why, "interrupted by %s after %.1f s (refresh "
	    "--from); kept the cached offers", signals_name(sig), seconds);
	for (i = 0; i < rep->nres; i++)
		db_record_failure(db, rep->res[i].provider, now, why, &err);
}

/* Mask the URL's password wherever it appears in err's message. */
static void
redact_err(const char *source, struct err *err)
{
	const char *pw;
	size_t len;
	char *secret, *masked;

	free(str_url_redact(source, &pw, &len));
	if (pw == NULL || len == 0)
		return;
	secret = xstrndup(pw, len);
	masked = http_redact(err->msg, secret);
	str_copy(err->msg, sizeof err->msg, masked);
	free(masked);
	memset(secret, 0, len);
	free(secret);
}

/* Check the manifest's signature against the pinned key. */
static int
check_signature(const struct pull_options *o, const struct manifest *m,
    struct err *err)
{
	char text[MANIFEST_SIGNED_MAX];

	if (o->key == NULL)
		return 0;
	if (m->signature[0] == '\0') {
		err_set(err, "not signed, and a key is pinned (from_key %s): "
		    "refused", o->key->id);
		return -1;
	}
	if (strcmp(m->key_id, o->key->id) != 0) {
		err_set(err, "signed by key %s, not the pinned key %s: refused",
		    m->key_id, o->key->id);
		return -1;
	}
	manifest_signed_text(m, text, sizeof text);
	if (sign_check(o->key, text, strlen(text), m->signature, err) < 0) {
		err_prefix(err, "signature");
		return -1;
	}
	return 0;
}

static int
pull_run(const struct pull_options *o, const struct budget *b, struct db *db,
    struct pull_report *rep, char **tmp_gz, char **tmp_db, struct err *err)
{
	struct provider_meta meta[4 + MANIFEST_PROVIDERS_MAX];
	struct db_copy_limits lim;
	char key[SHA256_HEX_LEN + 1], old_key[SHA256_HEX_LEN + 1];
	char old_sha[SHA256_HEX_LEN + 1], etag[128], since[64], clean[64];
	char *where = NULL, *text = NULL, *shown = NULL;
	struct manifest *m = &rep->manifest;
	struct fetch f;
	size_t len = 0, nmeta;
	bool found, all;
	int64_t now = o->now;
	int gz_fd = -1, db_fd = -1, rc = -1;

	memset(&f, 0, sizeof f);
	source_key(o->source, key);
	merge_list(o, rep);
	if (db_meta_get(db, PULL_META_OWNER, "source", old_key, sizeof old_key,
	    &found, err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "sha256", old_sha, sizeof old_sha,
	    &found, err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "etag", etag, sizeof etag, &found,
	    err) < 0 ||
	    db_meta_get(db, PULL_META_OWNER, "last_modified", since,
	    sizeof since, &found, err) < 0)
		goto done;
	/*
	 * Another source's validators mean nothing here; nor do ours when
	 * the last pull left some of the providers asked for now: the
	 * server would say "not modified" and they would stay old.
	 */
	if (all_merged(db, rep, old_sha, &all, err) < 0)
		goto done;
	if (strcmp(old_key, key) != 0 || !all)
		etag[0] = since[0] = '\0';

	/* The manifest. */
	rc = PULL_REFUSED;
	if (is_url(o->source)) {
		where = strcspn(o->source, "?#") > 5 && strncmp(o->source +
		    strcspn(o->source, "?#") - 5, ".json", 5) == 0 ?
		    xstrdup(o->source) : beside(o->source, MANIFEST_NAME);
		fetch_url(where, o->timeout, b, etag, since, &f);
		rep->manifest_bytes = f.body_len;
		if (f.ok && f.status == 304) {
			if (etag[0] == '\0' && since[0] == '\0') {
				err_set(err, "answered 304 Not Modified to a "
				    "request that named no copy: nothing to "
				    "import (a broken server or proxy)");
				goto done;
			}
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
		/* Redirected: the data file is beside where it answered. */
		if (f.url != NULL && strcmp(f.url, where) != 0) {
			free(where);
			where = xstrdup(f.url);
		}
	} else {
		where = beside(o->source, MANIFEST_NAME);
		if (read_local(where, MANIFEST_BYTES_MAX, &text, &len, err) < 0)
			goto done;
		rep->manifest_bytes = len;
	}
	if (manifest_parse(text, len, m, err) < 0)
		goto manifest_failed;
	if (m->created_at > now + DB_COPY_SKEW) {
		manifest_time(m->created_at, clean, sizeof clean);
		err_set(err, "manifest: created_at %s is in the future (more "
		    "than %d minutes ahead of this clock): refused", clean,
		    DB_COPY_SKEW / 60);
		goto manifest_failed;
	}
	if (check_signature(o, m, err) < 0)
		goto manifest_failed;
	if (o->key != NULL)
		rep->signed_by = true;
	nmeta = state_meta(meta, rep, key, m->sha256, f.etag, f.last_modified);
	if (all_merged(db, rep, m->sha256, &all, err) < 0) {
		rc = -1;
		goto done;
	}
	if (all) {
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

	/*
	 * The data, next to the cache, checked before anything is merged;
	 * over http(s) beside the URL that answered for the manifest.
	 */
	shown = where;
	where = beside(is_url(o->source) ? shown : o->source, m->file);
	free(shown);
	shown = NULL;
	if (room_for(o->db_path, m->size + m->db_size, err) < 0) {
		rc = -1;
		goto done;
	}
	*tmp_gz = xasprintf("%s" TMP_SUFFIX "XXXXXX", o->db_path);
	*tmp_db = xasprintf("%s" TMP_SUFFIX "XXXXXX", o->db_path);
	if ((gz_fd = mkstemp(*tmp_gz)) < 0 || (db_fd = mkstemp(*tmp_db)) < 0) {
		err_set(err, "%s: %s", gz_fd < 0 ? *tmp_gz : *tmp_db,
		    strerror(errno));
		rc = -1;
		goto done;
	}
	if (get_verified(o, b, m, where, gz_fd, db_fd, rep, err) < 0)
		goto data_failed;
	close(gz_fd);
	gz_fd = -1;
	unlink(*tmp_gz);
	close(db_fd);
	db_fd = -1;
	memset(&lim, 0, sizeof lim);
	lim.now = now;
	/* The checks and the merge: seconds for a real copy; bounded. */
	lim.seconds = (double)budget_left(b);
	if (lim.seconds > DB_COPY_WORK_MAX)
		lim.seconds = DB_COPY_WORK_MAX;
	lim.stop = &signals_caught;
	if (lim.seconds <= 0 || db_merge_from(db, *tmp_db, &lim, rep->res,
	    rep->nres, PULL_META_OWNER, meta, nmeta, err) < 0) {
		if (lim.seconds <= 0)
			err_set(err, "took longer than its %ld s deadline",
			    b->seconds);
		goto data_failed;
	}
	rc = 0;
	goto done;
manifest_failed:
	shown = str_url_redact(where, NULL, NULL);
	err_prefix(err, "%s", shown);
	goto done;
data_failed:
	shown = str_url_redact(where, NULL, NULL);
	err_prefix(err, "%s", shown);
done:
	if (gz_fd >= 0)
		close(gz_fd);
	if (db_fd >= 0)
		close(db_fd);
	free(shown);
	free(where);
	free(text);
	free(f.body);
	free(f.url);
	return rc;
}

int
pull_cache(const struct pull_options *o, struct pull_report *rep,
    struct err *err)
{
	struct signals_saved old;
	struct budget b;
	struct db *db = NULL;
	char *lock_path, *tmp_gz = NULL, *tmp_db = NULL;
	int lock_fd = -1, rc;

	memset(rep, 0, sizeof *rep);
	b.started = mono_now();
	b.seconds = o->deadline > 0 ? o->deadline : PULL_DEADLINE_DEFAULT;
	b.deadline = b.started + (double)b.seconds;
	if (o->catch_signals)
		signals_catch(&old);
	lock_path = xasprintf("%s.lock", o->db_path);
	rc = lockfile_take(lock_path, o->lock_wait, "refresh", &lock_fd, err);
	free(lock_path);
	if (rc < 0) {
		rc = rc == LOCKFILE_BUSY ? PULL_BUSY : -1;
		goto out;
	}
	rc = -1;
	if (cache_open_writer(o->db_path, &db, err) < 0)
		goto done;
	remove_stale(o->db_path);
	rc = pull_run(o, &b, db, rep, &tmp_gz, &tmp_db, err);
	rep->signal = signals_caught;
	if (rc != 0 && signals_caught != 0) {
		record_interrupt(db, rep, o->now, signals_caught,
		    mono_now() - b.started);
		err_set(err, "interrupted by %s after %.1f s; kept the cached "
		    "offers", signals_name(rep->signal), mono_now() - b.started);
	}
done:
	if (tmp_gz != NULL)
		unlink(tmp_gz);
	if (tmp_db != NULL)
		remove_temp(tmp_db);
	free(tmp_gz);
	free(tmp_db);
	db_close(db);
	if (lock_fd >= 0)
		close(lock_fd);		/* unlocks */
out:
	if (rc != 0)
		redact_err(o->source, err);
	if (o->catch_signals)
		signals_restore(&old);
	return rc;
}
