/*
 * db_history.c: what the cache remembers over time. Its one job: price
 * history (change points and refresh times, and their pruning) and the
 * stored watches with the offers each last saw.
 */
#include "config.h"
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"
#include "err.h"
#include "offer.h"
#include "xalloc.h"

/* A price point: observed_at, price, spot_price, availability. */
static void
row_point(sqlite3_stmt *st, void *elem)
{
	struct price_point *p = elem;
	char buf[16];

	p->at = sqlite3_column_int64(st, 0);
	p->price = db_stmt_money(st, 1);
	p->spot_price = db_stmt_money(st, 2);
	db_column_text(st, 3, buf, sizeof buf);
	if (availability_parse(buf, &p->availability) < 0)
		p->availability = AV_UNKNOWN;
}

int
db_history(struct db *db, const char *provider, const char *key,
    struct price_point **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare_cached(db, DB_STMT_HISTORY, "SELECT observed_at, "
	    "price, spot_price, availability FROM price_history WHERE "
	    "provider = ? AND key = ? ORDER BY observed_at, rowid", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = db_rows_cached(db, st, sizeof **out, row_point, &v, n, err);
	*out = v;
	return rc;
}

/* One integer column. */
static void
row_int64(sqlite3_stmt *st, void *elem)
{
	*(int64_t *)elem = sqlite3_column_int64(st, 0);
}

int
db_refresh_times(struct db *db, const char *provider, int64_t since,
    int64_t **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT at FROM refresh_log WHERE provider = ? "
	    "AND at >= ? ORDER BY at", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since);
	rc = db_rows(db, st, sizeof **out, row_int64, &v, n, err);
	*out = v;
	return rc;
}

int
db_prune_history(struct db *db, int64_t before, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	/*
	 * Old change points go, except each offer's last one before the
	 * cut: it is the price the period starts at.
	 */
	st = db_prepare(db, "DELETE FROM price_history AS h WHERE "
	    "observed_at < ?1 AND observed_at < (SELECT max(observed_at) FROM "
	    "price_history WHERE provider = h.provider AND key = h.key AND "
	    "observed_at < ?1);"
	    , err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	st = db_prepare(db, "DELETE FROM committed_history AS h WHERE "
	    "observed_at < ?1 AND observed_at < (SELECT max(observed_at) FROM "
	    "committed_history WHERE provider = h.provider AND key = h.key "
	    "AND kind = h.kind AND months = h.months AND upfront = h.upfront "
	    "AND observed_at < ?1)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	st = db_prepare(db, "DELETE FROM refresh_log WHERE at < ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/*
 * A watch's known offers are one text, watch.known, read and written
 * whole: a line per offer in key order (provider, then key, as strcmp()
 * orders them), "provider TAB key TAB price TAB availability TAB
 * reported_at LF", the price empty when unknown, a backslash, tab or
 * newline in a name written "\\", "\t", "\n" (DB_WATCH_KNOWN_SQL writes
 * the same). A row per offer cost a cron'd watch that knows 1,000
 * offers 2.4 million instructions to load (issue 29); this is one
 * value and a scan.
 */

#define KNOWN_SPECIAL	"\\\t\n"	/* what a name escapes */

/* s escaped at p; the end. */
static char *
known_put_escaped(char *p, const char *s)
{
	size_t run;

	for (;;) {
		run = strcspn(s, KNOWN_SPECIAL);
		memcpy(p, s, run);
		p += run;
		s += run;
		if (*s == '\0')
			return p;
		*p++ = '\\';
		*p++ = *s == '\t' ? 't' : *s == '\n' ? 'n' : '\\';
		s++;
	}
}

/* v in decimal at p; the end. */
static char *
known_put_int(char *p, int64_t v)
{
	char digits[20], *d = digits + sizeof digits;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n;

	do
		*--d = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*p++ = '-';
	n = (size_t)(digits + sizeof digits - d);
	memcpy(p, d, n);
	return p + n;
}

/* The text of v[0..n) (in key order), malloc'd; *len. */
static char *
known_format(const struct db_watch_offer *v, size_t n, size_t *len)
{
	size_t i, size = 1;
	char *text, *p;

	/* Each name at most doubled by its escapes. */
	for (i = 0; i < n; i++)
		size += 2 * (strlen(v[i].provider) + strlen(v[i].key)) +
		    2 * 21 + 16 + 5;
	p = text = xmalloc(size);
	for (i = 0; i < n; i++) {
		const struct db_watch_offer *w = &v[i];
		const char *av = availability_name(w->availability);

		p = known_put_escaped(p, w->provider);
		*p++ = '\t';
		p = known_put_escaped(p, w->key);
		*p++ = '\t';
		if (money_known(w->price))
			p = known_put_int(p, w->price);
		*p++ = '\t';
		memcpy(p, av, strlen(av));
		p += strlen(av);
		*p++ = '\t';
		p = known_put_int(p, w->reported_at);
		*p++ = '\n';
	}
	*p = '\0';
	*len = (size_t)(p - text);
	return text;
}

/*
 * The name s[0..len) unescaped where it is, NUL-terminated, cut to max -
 * 1 bytes as a record once kept it (the byte after the name, its tab,
 * takes the NUL of a name that has no escapes); false if damaged or
 * empty.
 */
static bool
known_name(char *s, size_t len, size_t max)
{
	size_t i, n = 0;
	char c;

	for (i = 0; i < len; i++) {
		c = s[i];
		if (c == '\\') {
			if (++i == len)
				return false;
			c = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' :
			    s[i] == '\\' ? '\\' : '\0';
			if (c == '\0')
				return false;
		}
		if (n + 1 < max)
			s[n++] = c;
	}
	s[n] = '\0';
	return n > 0;
}

static bool
known_get_int(const char *s, size_t len, int64_t *out)
{
	uint64_t u = 0;
	size_t i = 0;
	bool neg = len > 0 && s[0] == '-';

	if (neg)
		i++;
	if (i == len || len - i > 19)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		u = u * 10 + (uint64_t)(s[i] - '0');
	}
	if (u > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

/*
 * One line's offer into w (its five fields, without the LF at s[len]);
 * its names are unescaped in place, and w points at them.
 */
static bool
known_parse_line(char *s, size_t len, struct db_watch_offer *w)
{
	char *f[5], *p = s, *end = s + len, *tab;
	size_t flen[5], k;
	char av[16];

	for (k = 0; k < 5; k++) {
		tab = memchr(p, '\t', (size_t)(end - p));
		if ((tab == NULL) != (k == 4))
			return false;
		if (tab == NULL)
			tab = end;
		f[k] = p;
		flen[k] = (size_t)(tab - p);
		p = tab + 1;
	}
	if (flen[3] >= sizeof av)
		return false;
	memset(w, 0, sizeof *w);
	w->price = MONEY_NONE;
	if (flen[2] > 0 && !known_get_int(f[2], flen[2], &w->price))
		return false;
	memcpy(av, f[3], flen[3]);
	av[flen[3]] = '\0';
	if (availability_parse(av, &w->availability) < 0 ||
	    !known_get_int(f[4], flen[4], &w->reported_at))
		return false;
	/* Last: a name's NUL may take the tab after it. */
	if (!known_name(f[0], flen[0], OFFER_PROVIDER_MAX) ||
	    !known_name(f[1], flen[1], OFFER_KEY_MAX))
		return false;
	w->provider = f[0];
	w->key = f[1];
	return true;
}

/*
 * The offers of a watch's text (text[len] a NUL) into *out (*n),
 * malloc'd, their names unescaped in text; the line of the first that
 * is not one into *bad_line and -1.
 */
static int
known_parse(char *text, size_t len, struct db_watch_offer **out, size_t *n,
    size_t *bad_line)
{
	char *p = text, *end = text + len, *eol;
	struct db_watch_offer *v;
	size_t lines = 0;

	for (; p < end && (eol = memchr(p, '\n', (size_t)(end - p))) != NULL;
	    p = eol + 1)
		lines++;
	/* A last line without its newline is one more (and damaged). */
	lines += p < end;
	p = text;
	v = xreallocarray(NULL, lines > 0 ? lines : 1, sizeof *v);
	*n = 0;
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL || !known_parse_line(p, (size_t)(eol - p),
		    &v[*n])) {
			*bad_line = *n + 1;
			free(v);
			*n = 0;
			return -1;
		}
		(*n)++;
		p = eol + 1;
	}
	*out = v;
	return 0;
}

void
db_watch_known_free(struct db_watch_known *k)
{
	free(k->v);
	free(k->names);
	k->v = NULL;
	k->n = 0;
	k->names = NULL;
}

int
db_watch_load(struct db *db, const char *query, struct db_watch_known *out,
    int64_t *last_run, struct err *err)
{
	sqlite3_stmt *st;
	size_t bad = 0, len = 0;
	int rc;

	memset(out, 0, sizeof *out);
	*last_run = 0;
	if ((st = db_prepare(db, "SELECT last_run, known FROM watch WHERE "
	    "query = ?", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 1);

		*last_run = sqlite3_column_int64(st, 0);
		if (text != NULL) {
			len = (size_t)sqlite3_column_bytes(st, 1);
			out->names = xmalloc(len + 1);
			memcpy(out->names, text, len + 1);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_watch_known_free(out);
		db_file_error(db, err);
		return -1;
	}
	if (out->names != NULL && known_parse(out->names, len, &out->v,
	    &out->n, &bad) < 0) {
		db_watch_known_free(out);
		err_set(err, "%s: watch \"%s\": what it knows is damaged at "
		    "line %zu; 'gpucost watch %s --forget' starts it anew",
		    db->path, query, bad, query);
		return -1;
	}
	return 0;
}

int
db_watch_offer_cmp(const void *a, const void *b)
{
	const struct db_watch_offer *x = a, *y = b;
	int c;

	if ((c = strcmp(x->provider, y->provider)) != 0)
		return c;
	return strcmp(x->key, y->key);
}

/* An offer and its place in the caller's array. */
struct watch_ref {
	const struct db_watch_offer *w;
	size_t	 at;
};

/* By key, then by place: the last of a repeated key sorts last. */
static int
watch_ref_cmp(const void *a, const void *b)
{
	const struct watch_ref *x = a, *y = b;
	int c = db_watch_offer_cmp(x->w, y->w);

	return c != 0 ? c : x->at < y->at ? -1 : x->at > y->at;
}

size_t
db_watch_offers_unique(struct db_watch_offer *v, size_t n)
{
	struct db_watch_offer *out;
	struct watch_ref *idx;
	size_t i, m;

	for (i = 1; i < n && db_watch_offer_cmp(&v[i - 1], &v[i]) < 0; i++)
		;
	if (i >= n)
		return n;
	idx = xcalloc(n, sizeof *idx);
	for (i = 0; i < n; i++) {
		idx[i].w = &v[i];
		idx[i].at = i;
	}
	qsort(idx, n, sizeof *idx, watch_ref_cmp);
	out = xcalloc(n, sizeof *out);
	for (i = m = 0; i < n; i++) {
		if (m > 0 && db_watch_offer_cmp(&out[m - 1], idx[i].w) == 0)
			m--;
		out[m++] = *idx[i].w;
	}
	memcpy(v, out, m * sizeof *v);
	free(out);
	free(idx);
	return m;
}

/*
 * Replace what watch query knows by v[0..n) (the last of a repeated
 * offer standing), with its last run now and its count for --list.
 */
int
db_watch_store(struct db *db, const char *query,
    const struct db_watch_offer *v, size_t n, int64_t now, struct err *err)
{
	struct db_watch_offer *copy = NULL;
	sqlite3_stmt *st;
	size_t i, m = n, len;
	char *text;
	int rc;

	/* Given in key order without repeats (cmd_watch.c's), used as it
	 * is; otherwise a sorted copy. */
	for (i = 1; i < n && db_watch_offer_cmp(&v[i - 1], &v[i]) < 0; i++)
		;
	if (i < n) {
		copy = xreallocarray(NULL, n, sizeof *copy);
		memcpy(copy, v, n * sizeof *copy);
		m = db_watch_offers_unique(copy, n);
		v = copy;
	}
	text = known_format(v, m, &len);
	free(copy);
	st = db_prepare(db, "INSERT INTO watch (query, created_at, last_run, "
	    "offers, known) VALUES (?1, ?2, ?2, ?3, ?4) ON CONFLICT (query) DO "
	    "UPDATE SET last_run = ?2, offers = ?3, known = ?4", err);
	if (st == NULL) {
		free(text);
		return -1;
	}
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)m);
	sqlite3_bind_text(st, 4, text, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(text);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/* A stored watch with the number of offers it tracks. */
static void
row_watch(sqlite3_stmt *st, void *elem)
{
	struct db_watch *w = elem;

	db_column_text(st, 0, w->query, sizeof w->query);
	w->created_at = sqlite3_column_int64(st, 1);
	w->last_run = sqlite3_column_int64(st, 2);
	w->offers = (size_t)sqlite3_column_int64(st, 3);
}

int
db_watch_list(struct db *db, struct db_watch **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	/* The count stored by the last run (migration 25 counted those
	 * before it). */
	st = db_prepare(db, "SELECT query, created_at, last_run, "
	    "coalesce(offers, 0) FROM watch ORDER BY created_at, query", err);
	if (st == NULL)
		return -1;
	rc = db_rows(db, st, sizeof **out, row_watch, &v, n, err);
	*out = v;
	return rc;
}

int
db_watch_forget(struct db *db, const char *query, bool *found,
    struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	*found = false;
	if ((st = db_prepare(db, "DELETE FROM watch WHERE query = ?", err)) ==
	    NULL)
		return -1;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*found = rc == SQLITE_DONE && sqlite3_changes(db->sql) > 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/*
 * The watch state file: the watch table of the cache's schema (the
 * migrations 6 -> 7, 13 -> 14 and 24 -> 25 made it) and nothing else,
 * marked 'gpuw'. Version 1 had no watch.offers (WATCH_STATE_V2 adds
 * it); versions 1 and 2 kept the known offers in a row each
 * (DB_WATCH_KNOWN_SQL moves them into watch.known).
 */
#define WATCH_STATE_APP_ID	0x67707577
#define WATCH_STATE_VERSION	3
#define WATCH_STATE_V2	"ALTER TABLE watch ADD COLUMN offers INTEGER;"
#define WATCH_STATE_SCHEMA						\
	"CREATE TABLE IF NOT EXISTS watch ("				\
	"  query TEXT PRIMARY KEY,"					\
	"  created_at INTEGER NOT NULL,"				\
	"  last_run INTEGER NOT NULL,"					\
	"  offers INTEGER,"						\
	"  known TEXT NOT NULL DEFAULT ''"				\
	");"

int
db_open_watch_state(const char *path, struct db **out, struct err *err)
{
	struct stat sb;
	struct db *db;
	long long app, version, objects;
	int fd;

	*out = NULL;
	/* The user's own file: made 0600 before SQLite opens it, never a link. */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		err_set(err, "watch state %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		err_set(err, "watch state %s: not a regular file", path);
		close(fd);
		return -1;
	}
	close(fd);
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	if (sqlite3_open_v2(path, &db->sql, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		db_err(db, err, "cannot open it");
		goto fail;
	}
	sqlite3_busy_timeout(db->sql, 10000);
	if (db_int(db, "PRAGMA application_id", &app, err) < 0 ||
	    db_int(db, "PRAGMA user_version", &version, err) < 0 ||
	    db_int(db, "SELECT count(*) FROM sqlite_master", &objects, err) < 0)
		goto fail;
	/* Only an empty file becomes one: never someone else's database. */
	if (app == 0 && version == 0 && objects == 0) {
		if (db_exec(db, "BEGIN IMMEDIATE;" WATCH_STATE_SCHEMA
		    "PRAGMA user_version = 3;"
		    /* WATCH_STATE_APP_ID */
		    "PRAGMA application_id = 1735423351;" "COMMIT", err) < 0) {
			sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
	} else if (app == WATCH_STATE_APP_ID && (version == 1 ||
	    version == 2)) {
		/* user_version read again under the lock: another process
		 * may have upgraded it meanwhile. */
		if (db_exec(db, "BEGIN IMMEDIATE", err) < 0 ||
		    db_int(db, "PRAGMA user_version", &version, err) < 0 ||
		    (version == 1 && db_exec(db, WATCH_STATE_V2, err) < 0) ||
		    (version < 3 && db_exec(db, DB_WATCH_KNOWN_SQL
		    "PRAGMA user_version = 3;", err) < 0) ||
		    db_exec(db, "COMMIT", err) < 0) {
			sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
			err_prefix(err, "upgrading the watch state");
			goto fail;
		}
	} else if (app != WATCH_STATE_APP_ID ||
	    version != WATCH_STATE_VERSION) {
		err_set(err, "watch state %s: not a gpucost watch state file "
		    "(or one from a newer gpucost); move it away", path);
		goto fail;
	}
	*out = db;
	return 0;
fail:
	db_close(db);
	return -1;
}
