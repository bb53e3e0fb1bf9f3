/*
 * fixture_server.c: a small HTTP/1.1 server on 127.0.0.1 for gpucost's tests.
 *
 * It serves recorded provider responses from a directory according to a
 * routes file, injects faults (status codes, stalls, slow or truncated
 * bodies, dropped connections) and logs every request so that a test can
 * check what gpucost sent. tests/server/README.md documents the options and
 * the routes-file format.
 *
 * Data flow: the main thread binds 127.0.0.1:0, writes the port to the port
 * file, then accepts connections and watches the idle timer and the signal
 * flag. Each connection gets a detached thread that reads one request, logs
 * it, picks the first matching route and answers with "Connection: close".
 * A stalled route therefore only ever blocks its own thread.
 *
 * Only libc (with POSIX threads) is used, so this file builds on its own:
 *	cc -std=c11 -D_GNU_SOURCE -o fixture_server fixture_server.c
 * (add -pthread on a C library older than glibc 2.34).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1		/* ppoll(), getline(), strtok_r() */
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define HEAD_MAX	(64 * 1024)	/* request line + headers, bytes */
#define HDR_MAX		100		/* request headers kept */
#define BODY_MAX	(1024 * 1024)	/* request body accepted, bytes */
#define BODY_LOG_MAX	2000		/* request body bytes logged */
#define IO_BUF		(64 * 1024)	/* file streaming buffer, bytes */
#define DRAIN_MS	1000		/* lingering read after a response */

#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))

/* A growable array of strings; entries may be NULL. */
struct strv {
	char	**v;
	size_t	  n;
};

/* One line of the routes file. */
struct route {
	int		 line;		/* line number in the routes file */
	char		*method;	/* "GET", "POST", ... or "*" */
	char		*path;		/* percent-decoded */
	int		 prefix;	/* path ended in '*': prefix match */
	struct strv	 qname;		/* decoded query names required */
	struct strv	 qvalue;	/* their values; NULL = any value */
	struct strv	 body;		/* substrings the body must hold */
	char		*file;		/* relative to --dir; NULL for "-" */
	int		 status;	/* response status code */
	struct strv	 headers;	/* extra "Name: value" lines */
	long		 big_header;	/* bytes of an "X-Big" header; 0 none */
	char		*type;		/* Content-Type; NULL = by file name */
	long		 delay_ms;	/* stall before the status line, ms */
	long		 drip_bytes;	/* body piece size, bytes; 0 = off */
	long		 drip_ms;	/* pause before each piece, ms */
	long long	 truncate;	/* body bytes sent; -1 = all */
	int		 close;		/* send nothing, just close */
	int		 gzip;		/* file is gzip: Content-Encoding */
	int		 chunked;	/* Transfer-Encoding: chunked */
	long		 times;		/* matches allowed; -1 = unlimited */
	long		 hits;		/* matches so far; under srv.lock */
	char		*etag;		/* ETag value, or NULL */
	char		*last_modified;	/* Last-Modified value, or NULL */
	time_t		 modified;	/* the same, as epoch seconds */
};

/* The parsed routes file, shared by connections and reference counted. */
struct table {
	struct route	*routes;
	size_t		 n;
	int		 refs;		/* srv.table owns one; srv.lock */
	dev_t		 dev;		/* identity of the file it came from */
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtime;
};

/* One request header, pointing into request.head. */
struct header {
	char	*name;
	char	*value;
};

/* One parsed request. */
struct request {
	char		*head;		/* owned copy of line + headers */
	char		*method;
	char		*target;	/* raw, as sent */
	char		*path;		/* owned, percent-decoded */
	struct strv	 qname;		/* decoded query names */
	struct strv	 qvalue;	/* decoded values; NULL if no '=' */
	struct header	 hdrs[HDR_MAX];
	size_t		 nhdrs;
	char		*body;		/* owned, NUL-terminated, or NULL */
	size_t		 bodylen;
};

/* A client connection with its input buffer. */
struct conn {
	int	 fd;
	char	*in;			/* HEAD_MAX bytes */
	size_t	 inpos;			/* first unread byte */
	size_t	 inlen;			/* bytes held */
};

/* A growable output buffer for response heads. */
struct sbuf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

/* Process-wide state. */
static struct {
	const char	*dir;		/* fixture directory */
	char		*routes_path;	/* routes file */
	long		 idle_ms;	/* idle time before exit; 0 = never */
	int		 io_timeout_s;	/* per-connection socket timeout, s */
	pthread_mutex_t	 lock;		/* guards below and route hits */
	struct table	*table;		/* current routes */
	int		 active;	/* open connections */
	struct timespec	 last;		/* last accept or close, monotonic */
	pthread_mutex_t	 log_lock;	/* guards log */
	FILE		*log;		/* request log, or NULL */
} srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.log_lock = PTHREAD_MUTEX_INITIALIZER,
};

static volatile sig_atomic_t stop_signal;	/* set by SIGTERM/SIGINT */

/* Print a message prefixed with the program name to stderr. */
static void PRINTFLIKE(1, 2)
warn_msg(const char *fmt, ...)
{
	va_list	ap;

	fputs("fixture_server: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Print a message and exit with status 2 (usage or setup error). */
static void PRINTFLIKE(1, 2)
die(const char *fmt, ...)
{
	va_list	ap;

	fputs("fixture_server: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* malloc() that aborts on failure: a test server cannot do better. */
static void *
xmalloc(size_t n)
{
	void	*p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL) {
		fputs("fixture_server: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* realloc() that aborts on failure. */
static void *
xrealloc(void *old, size_t n)
{
	void	*p;

	if ((p = realloc(old, n == 0 ? 1 : n)) == NULL) {
		fputs("fixture_server: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* Copy n bytes of s into a new NUL-terminated string. */
static char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Copy a NUL-terminated string. */
static char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* Append s (taken over, may be NULL) to sv. */
static void
strv_add(struct strv *sv, char *s)
{
	sv->v = xrealloc(sv->v, (sv->n + 1) * sizeof *sv->v);
	sv->v[sv->n++] = s;
}

/* Free every string in sv and the array itself. */
static void
strv_free(struct strv *sv)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/* Append formatted text to sb. */
static void PRINTFLIKE(2, 3)
sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (sb->len + (size_t)n + 1 > sb->cap) {
		sb->cap = (sb->len + (size_t)n + 1) * 2;
		sb->p = xrealloc(sb->p, sb->cap);
	}
	va_start(ap, fmt);
	vsnprintf(sb->p + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

/* Milliseconds elapsed since t on the monotonic clock. */
static long
elapsed_ms(const struct timespec *t)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - t->tv_sec) * 1000 +
	    (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Sleep for ms milliseconds, resuming after signals. */
static void
sleep_ms(long ms)
{
	struct timespec	ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		continue;
}

/* Value of a hex digit, or -1. */
static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Percent-decode s in place; with plus, '+' becomes a space (query strings).
 * A '%' not followed by two hex digits is kept as is. Returns -1 if the
 * result would contain a NUL byte.
 */
static int
url_decode(char *s, int plus)
{
	char	*w = s;
	int	 hi, lo;

	for (; *s != '\0'; s++) {
		if (*s == '%' && (hi = hexval(s[1])) >= 0 &&
		    (lo = hexval(s[2])) >= 0) {
			if (hi == 0 && lo == 0)
				return -1;
			*w++ = (char)(hi * 16 + lo);
			s += 2;
		} else if (plus && *s == '+')
			*w++ = ' ';
		else
			*w++ = *s;
	}
	*w = '\0';
	return 0;
}

/* Parse a whole decimal number in [min, max]; returns -1 if it is not one. */
static int
parse_num(const char *s, long long min, long long max, long long *out)
{
	char		*end;
	long long	 v;

	if (!isdigit((unsigned char)*s) && *s != '-')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* True if a '/'- or '\'-separated segment of path is "..". */
static int
has_dotdot(const char *path)
{
	const char	*seg = path, *p;

	for (p = path;; p++) {
		if (*p == '/' || *p == '\\' || *p == '\0') {
			if (p - seg == 2 && seg[0] == '.' && seg[1] == '.')
				return 1;
			if (*p == '\0')
				return 0;
			seg = p + 1;
		}
	}
}

/*
 * Split a query string (modified in place) at '&' and '=' into decoded
 * names and values. A piece without '=' gets a NULL value. Returns -1 on a
 * piece that decodes to a NUL byte.
 */
static int
query_split(char *q, struct strv *names, struct strv *values)
{
	char	*piece, *eq, *save = NULL;

	for (piece = strtok_r(q, "&", &save); piece != NULL;
	    piece = strtok_r(NULL, "&", &save)) {
		if ((eq = strchr(piece, '=')) != NULL)
			*eq++ = '\0';
		if (url_decode(piece, 1) == -1 ||
		    (eq != NULL && url_decode(eq, 1) == -1))
			return -1;
		strv_add(names, xstrdup(piece));
		strv_add(values, eq != NULL ? xstrdup(eq) : NULL);
	}
	return 0;
}

/* Free what a route owns. */
static void
route_done(struct route *r)
{
	free(r->method);
	free(r->path);
	strv_free(&r->qname);
	strv_free(&r->qvalue);
	strv_free(&r->body);
	free(r->file);
	strv_free(&r->headers);
	free(r->type);
	free(r->etag);
	free(r->last_modified);
}

/*
 * Parse an HTTP date in its one current form (RFC 9110 IMF-fixdate,
 * "Sun, 06 Nov 1994 08:49:37 GMT") into epoch seconds; -1 if it is not
 * one.
 */
static int
http_date(const char *s, time_t *out)
{
	struct tm	 tm;
	const char	*end;

	memset(&tm, 0, sizeof tm);
	end = strptime(s, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	*out = timegm(&tm);
	return 0;
}

/*
 * Parse one option word of a route. Returns 0, or -1 with a message in why.
 */
static int
route_option(struct route *r, char *opt, char *why, size_t whylen)
{
	char		*val, *colon, *name, *line;
	long long	 n, ms;

	if (strcmp(opt, "close") == 0) {
		r->close = 1;
		return 0;
	}
	if (strcmp(opt, "gzip") == 0) {
		r->gzip = 1;
		return 0;
	}
	if (strcmp(opt, "chunked") == 0) {
		r->chunked = 1;
		return 0;
	}
	if (strncmp(opt, "body~=", 6) == 0) {
		val = opt + 6;
		if (*val == '\0' || url_decode(val, 0) == -1)
			goto bad;
		strv_add(&r->body, xstrdup(val));
		return 0;
	}
	if ((val = strchr(opt, '=')) == NULL) {
		snprintf(why, whylen, "unknown option '%s'", opt);
		return -1;
	}
	*val++ = '\0';
	if (url_decode(val, 0) == -1)
		goto bad;

	if (strcmp(opt, "status") == 0) {
		if (parse_num(val, 100, 599, &n) == -1)
			goto bad;
		r->status = (int)n;
	} else if (strcmp(opt, "header") == 0) {
		if ((colon = strchr(val, ':')) == NULL || colon == val ||
		    strpbrk(val, "\r\n") != NULL)
			goto bad;
		*colon++ = '\0';
		name = val;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		line = xmalloc(strlen(name) + strlen(colon) + 3);
		sprintf(line, "%s: %s", name, colon);
		strv_add(&r->headers, line);
	} else if (strcmp(opt, "bigheader") == 0) {
		if (parse_num(val, 1, 64L * 1024 * 1024, &n) == -1)
			goto bad;
		r->big_header = (long)n;
	} else if (strcmp(opt, "type") == 0) {
		if (*val == '\0' || strpbrk(val, "\r\n") != NULL)
			goto bad;
		free(r->type);
		r->type = xstrdup(val);
	} else if (strcmp(opt, "delay") == 0) {
		if (parse_num(val, 0, 3600000, &n) == -1)
			goto bad;
		r->delay_ms = (long)n;
	} else if (strcmp(opt, "drip") == 0) {
		if ((colon = strchr(val, '/')) == NULL)
			goto bad;
		*colon++ = '\0';
		if (parse_num(val, 1, IO_BUF, &n) == -1 ||
		    parse_num(colon, 0, 3600000, &ms) == -1)
			goto bad;
		r->drip_bytes = (long)n;
		r->drip_ms = (long)ms;
	} else if (strcmp(opt, "truncate") == 0) {
		if (parse_num(val, 0, LLONG_MAX, &n) == -1)
			goto bad;
		r->truncate = n;
	} else if (strcmp(opt, "times") == 0) {
		if (parse_num(val, 1, LONG_MAX, &n) == -1)
			goto bad;
		r->times = (long)n;
	} else if (strcmp(opt, "etag") == 0) {
		if (*val == '\0' || strpbrk(val, "\r\n") != NULL)
			goto bad;
		free(r->etag);
		r->etag = xstrdup(val);
	} else if (strcmp(opt, "last-modified") == 0) {
		if (http_date(val, &r->modified) == -1)
			goto bad;
		free(r->last_modified);
		r->last_modified = xstrdup(val);
	} else {
		snprintf(why, whylen, "unknown option '%s'", opt);
		return -1;
	}
	return 0;
bad:
	snprintf(why, whylen, "bad option '%s'", opt);
	return -1;
}

/*
 * Parse one routes-file line (modified in place) into r. Returns 1 for a
 * route, 0 for a blank or comment line, -1 with a message in why.
 */
static int
route_parse(struct route *r, char *line, char *why, size_t whylen)
{
	const char	*sep = " \t\r\n";
	char		*save = NULL, *method, *path, *file, *opt, *q;
	size_t		 len;

	method = strtok_r(line, sep, &save);
	if (method == NULL || *method == '#')
		return 0;
	path = strtok_r(NULL, sep, &save);
	file = strtok_r(NULL, sep, &save);
	if (path == NULL || file == NULL) {
		snprintf(why, whylen, "expected METHOD PATH FILE [option ...]");
		return -1;
	}

	r->status = 200;
	r->truncate = -1;
	r->times = -1;
	r->method = xstrdup(method);
	if (*path != '/') {
		snprintf(why, whylen, "path '%s' does not start with '/'",
		    path);
		return -1;
	}
	if ((q = strchr(path, '?')) != NULL) {
		*q++ = '\0';
		if (query_split(q, &r->qname, &r->qvalue) == -1) {
			snprintf(why, whylen, "bad query string");
			return -1;
		}
	}
	if (url_decode(path, 0) == -1) {
		snprintf(why, whylen, "bad path");
		return -1;
	}
	len = strlen(path);
	if (len > 0 && path[len - 1] == '*') {
		r->prefix = 1;
		path[len - 1] = '\0';
	}
	r->path = xstrdup(path);
	if (strcmp(file, "-") != 0) {
		if (*file == '/' || has_dotdot(file)) {
			snprintf(why, whylen, "file '%s' is outside --dir",
			    file);
			return -1;
		}
		r->file = xstrdup(file);
	}

	while ((opt = strtok_r(NULL, sep, &save)) != NULL) {
		if (*opt == '#')
			break;
		if (route_option(r, opt, why, whylen) == -1)
			return -1;
	}
	return 1;
}

/* Free a table that nobody references any more. */
static void
table_free(struct table *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		route_done(&t->routes[i]);
	free(t->routes);
	free(t);
}

/*
 * Read and parse the routes file at path. Returns a table with one
 * reference, or NULL with a message in why.
 */
static struct table *
table_load(const char *path, char *why, size_t whylen)
{
	FILE		*f;
	struct table	*t;
	struct stat	 st;
	struct route	 r;
	char		*line = NULL, msg[200];
	size_t		 cap = 0;
	int		 lineno = 0, rc;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	t = xmalloc(sizeof *t);
	memset(t, 0, sizeof *t);
	t->refs = 1;
	if (fstat(fileno(f), &st) == 0) {
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		t->size = st.st_size;
		t->mtime = st.st_mtim;
	}
	while (getline(&line, &cap, f) != -1) {
		lineno++;
		memset(&r, 0, sizeof r);
		r.line = lineno;
		rc = route_parse(&r, line, msg, sizeof msg);
		if (rc == -1) {
			snprintf(why, whylen, "%s:%d: %s", path, lineno, msg);
			route_done(&r);
			table_free(t);
			t = NULL;
			break;
		}
		if (rc == 0) {
			route_done(&r);
			continue;
		}
		t->routes = xrealloc(t->routes, (t->n + 1) * sizeof r);
		t->routes[t->n++] = r;
	}
	free(line);
	fclose(f);
	return t;
}

/* Drop a table reference; the caller holds srv.lock. */
static void
table_put_locked(struct table *t)
{
	if (t != NULL && --t->refs == 0)
		table_free(t);
}

/*
 * Take a reference to the current routes, first reloading the routes file
 * if it was replaced or modified. A file that fails to parse is reported
 * and the previous routes stay in force.
 */
static struct table *
table_get(void)
{
	struct table	*t;
	struct stat	 st;
	char		 why[512];

	pthread_mutex_lock(&srv.lock);
	t = srv.table;
	if (stat(srv.routes_path, &st) == 0 && (st.st_dev != t->dev ||
	    st.st_ino != t->ino || st.st_size != t->size ||
	    st.st_mtim.tv_sec != t->mtime.tv_sec ||
	    st.st_mtim.tv_nsec != t->mtime.tv_nsec)) {
		if ((t = table_load(srv.routes_path, why, sizeof why)) ==
		    NULL) {
			warn_msg("routes not reloaded: %s", why);
			/* Remember the bad file so it is reported once. */
			t = srv.table;
			t->dev = st.st_dev;
			t->ino = st.st_ino;
			t->size = st.st_size;
			t->mtime = st.st_mtim;
		} else {
			table_put_locked(srv.table);
			srv.table = t;
		}
	}
	t->refs++;
	pthread_mutex_unlock(&srv.lock);
	return t;
}

/* Drop a reference taken with table_get(). */
static void
table_put(struct table *t)
{
	pthread_mutex_lock(&srv.lock);
	table_put_locked(t);
	pthread_mutex_unlock(&srv.lock);
}

/* Value of the first request header called name, or NULL. */
static const char *
req_header(const struct request *req, const char *name)
{
	size_t	i;

	for (i = 0; i < req->nhdrs; i++)
		if (strcasecmp(req->hdrs[i].name, name) == 0)
			return req->hdrs[i].value;
	return NULL;
}

/* True if route r matches req, ignoring its times= budget. */
static int
route_matches(const struct route *r, const struct request *req)
{
	size_t	i, j;

	if (strcmp(r->method, "*") != 0 && strcmp(r->method, req->method) !=
	    0 && !(strcmp(r->method, "GET") == 0 &&
	    strcmp(req->method, "HEAD") == 0))
		return 0;
	if (r->prefix) {
		if (strncmp(r->path, req->path, strlen(r->path)) != 0)
			return 0;
	} else if (strcmp(r->path, req->path) != 0)
		return 0;
	for (i = 0; i < r->qname.n; i++) {
		for (j = 0; j < req->qname.n; j++) {
			if (strcmp(r->qname.v[i], req->qname.v[j]) != 0)
				continue;
			if (r->qvalue.v[i] == NULL || (req->qvalue.v[j] !=
			    NULL && strcmp(r->qvalue.v[i],
			    req->qvalue.v[j]) == 0))
				break;
		}
		if (j == req->qname.n)
			return 0;
	}
	for (i = 0; i < r->body.n; i++)
		if (req->body == NULL || strstr(req->body, r->body.v[i]) ==
		    NULL)
			return 0;
	return 1;
}

/*
 * The first route of t that matches req and still has matches left, or
 * NULL. Counts the match against the route's times= budget.
 */
static const struct route *
table_match(struct table *t, const struct request *req)
{
	struct route	*r;
	size_t		 i;

	pthread_mutex_lock(&srv.lock);
	for (i = 0; i < t->n; i++) {
		r = &t->routes[i];
		if (r->times >= 0 && r->hits >= r->times)
			continue;
		if (route_matches(r, req)) {
			r->hits++;
			pthread_mutex_unlock(&srv.lock);
			return r;
		}
	}
	pthread_mutex_unlock(&srv.lock);
	return NULL;
}

/* Write s[0..len) to f with newlines and other control bytes escaped. */
static void
log_escaped(FILE *f, const char *s, size_t len)
{
	size_t		i;
	unsigned char	c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* Append the REQ/HDR/BODY/END record of req to the request log. */
static void
log_request(const struct request *req)
{
	FILE	*f;
	size_t	 i;

	pthread_mutex_lock(&srv.log_lock);
	if ((f = srv.log) != NULL) {
		fputs("REQ ", f);
		log_escaped(f, req->method, strlen(req->method));
		fputc(' ', f);
		log_escaped(f, req->target, strlen(req->target));
		fputc('\n', f);
		for (i = 0; i < req->nhdrs; i++) {
			fputs("HDR ", f);
			log_escaped(f, req->hdrs[i].name,
			    strlen(req->hdrs[i].name));
			fputs(": ", f);
			log_escaped(f, req->hdrs[i].value,
			    strlen(req->hdrs[i].value));
			fputc('\n', f);
		}
		if (req->bodylen > 0) {
			fputs("BODY ", f);
			log_escaped(f, req->body, req->bodylen > BODY_LOG_MAX ?
			    BODY_LOG_MAX : req->bodylen);
			fputc('\n', f);
		}
		fputs("END\n", f);
		fflush(f);
	}
	pthread_mutex_unlock(&srv.log_lock);
}

/*
 * Append "RES <status> <body bytes> <method> <target>" to the request log
 * once a response went out (status 0: the connection was closed without
 * one), so a test can check what was answered and how many body bytes it
 * cost.
 */
static void
log_response(const struct request *req, int status, long long bytes)
{
	FILE	*f;

	pthread_mutex_lock(&srv.log_lock);
	if ((f = srv.log) != NULL) {
		fprintf(f, "RES %d %lld ", status, bytes);
		log_escaped(f, req->method, strlen(req->method));
		fputc(' ', f);
		log_escaped(f, req->target, strlen(req->target));
		fputc('\n', f);
		fflush(f);
	}
	pthread_mutex_unlock(&srv.log_lock);
}

/* Send all of buf; returns -1 once the peer is gone. */
static int
send_all(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reason phrase for a status code. */
static const char *
reason(int status)
{
	switch (status) {
	case 100: return "Continue";
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 206: return "Partial Content";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 304: return "Not Modified";
	case 307: return "Temporary Redirect";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 408: return "Request Timeout";
	case 411: return "Length Required";
	case 413: return "Content Too Large";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	case 505: return "HTTP Version Not Supported";
	default: return "Status";
	}
}

/*
 * Send a complete text/plain response (head only for HEAD requests).
 * Returns the body bytes sent.
 */
static long long
send_text(int fd, int status, int head_only, const char *text)
{
	struct sbuf	sb = { 0 };
	int		rc;

	sb_printf(&sb, "HTTP/1.1 %d %s\r\n"
	    "Content-Type: text/plain\r\n"
	    "Content-Length: %zu\r\n"
	    "Connection: close\r\n\r\n%s", status, reason(status),
	    strlen(text), head_only ? "" : text);
	rc = send_all(fd, sb.p, sb.len);
	free(sb.p);
	return rc == 0 && !head_only ? (long long)strlen(text) : 0;
}

/* Read more input into c->in; returns bytes read, 0 at EOF, -1 on error. */
static ssize_t
conn_fill(struct conn *c)
{
	ssize_t	n;

	if (c->inpos == c->inlen)
		c->inpos = c->inlen = 0;
	else if (c->inlen == HEAD_MAX && c->inpos > 0) {
		memmove(c->in, c->in + c->inpos, c->inlen - c->inpos);
		c->inlen -= c->inpos;
		c->inpos = 0;
	}
	if (c->inlen == HEAD_MAX)
		return -1;
	do
		n = recv(c->fd, c->in + c->inlen, HEAD_MAX - c->inlen, 0);
	while (n == -1 && errno == EINTR);
	if (n > 0)
		c->inlen += (size_t)n;
	return n;
}

/* Read exactly n bytes into dst; returns -1 on EOF or error. */
static int
conn_read(struct conn *c, char *dst, size_t n)
{
	size_t	take;

	while (n > 0) {
		if (c->inpos == c->inlen && conn_fill(c) <= 0)
			return -1;
		take = c->inlen - c->inpos;
		if (take > n)
			take = n;
		memcpy(dst, c->in + c->inpos, take);
		c->inpos += take;
		dst += take;
		n -= take;
	}
	return 0;
}

/*
 * Read one line (without CRLF) into a new string in *out; returns -1 on
 * EOF, error or a line longer than the input buffer.
 */
static int
conn_getline(struct conn *c, char **out)
{
	char	*nl;
	size_t	 len;

	for (;;) {
		nl = memchr(c->in + c->inpos, '\n', c->inlen - c->inpos);
		if (nl != NULL)
			break;
		if (conn_fill(c) <= 0)
			return -1;
	}
	len = (size_t)(nl - (c->in + c->inpos));
	if (len > 0 && nl[-1] == '\r')
		len--;
	*out = xstrndup(c->in + c->inpos, len);
	c->inpos = (size_t)(nl - c->in) + 1;
	return 0;
}

/* Append n bytes of body; returns 413 if the body grows too large. */
static int
body_read(struct conn *c, struct request *req, size_t n)
{
	if (n > BODY_MAX - req->bodylen)
		return 413;
	req->body = xrealloc(req->body, req->bodylen + n + 1);
	if (conn_read(c, req->body + req->bodylen, n) == -1)
		return 400;
	req->bodylen += n;
	req->body[req->bodylen] = '\0';
	return 0;
}

/* Read a chunked request body; returns 0 or an error status. */
static int
body_read_chunked(struct conn *c, struct request *req)
{
	char		*line, *end;
	unsigned long	 size;
	int		 rc;

	for (;;) {
		if (conn_getline(c, &line) == -1)
			return 400;
		errno = 0;
		size = strtoul(line, &end, 16);
		if (end == line || errno != 0 || (*end != '\0' &&
		    *end != ';' && *end != ' ' && *end != '\t')) {
			free(line);
			return 400;
		}
		free(line);
		if (size == 0)
			break;
		if (size > BODY_MAX)
			return 413;
		if ((rc = body_read(c, req, size)) != 0)
			return rc;
		if (conn_getline(c, &line) == -1)
			return 400;
		rc = *line != '\0';
		free(line);
		if (rc)
			return 400;
	}
	/* Trailer fields up to an empty line are read and ignored. */
	for (;;) {
		if (conn_getline(c, &line) == -1)
			return 400;
		rc = *line == '\0';
		free(line);
		if (rc)
			return 0;
	}
}

/*
 * Find the end of the request head in c->in. Returns the offset of the first
 * body byte, or 0 if the head is not complete yet. Bare "\n" line ends are
 * accepted as well as "\r\n".
 */
static size_t
head_end(const struct conn *c)
{
	size_t	i;

	for (i = 0; i < c->inlen; i++) {
		if (c->in[i] != '\n')
			continue;
		if (i + 1 < c->inlen && c->in[i + 1] == '\n')
			return i + 2;
		if (i + 2 < c->inlen && c->in[i + 1] == '\r' &&
		    c->in[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* True if s is a non-empty HTTP token (method or header name). */
static int
is_token(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) &&
		    strchr("!#$%&'*+-.^_`|~", *s) == NULL)
			return 0;
	return 1;
}

/* Parse the request line and headers in req->head; returns 0 or a status. */
static int
head_parse(struct request *req)
{
	char		*line, *next, *sp, *colon, *v, *end, *target, *q;
	const char	*version;

	line = req->head;
	if ((next = strchr(line, '\n')) == NULL)
		return 400;
	*next++ = '\0';
	if (next - line >= 2 && next[-2] == '\r')
		next[-2] = '\0';

	/* METHOD SP request-target SP HTTP-version, nothing else. */
	req->method = line;
	if ((sp = strchr(line, ' ')) == NULL)
		return 400;
	*sp++ = '\0';
	req->target = sp;
	if ((sp = strchr(sp, ' ')) == NULL)
		return 400;
	*sp++ = '\0';
	version = sp;
	if (!is_token(req->method) || *req->target == '\0' ||
	    strchr(version, ' ') != NULL || strncmp(version, "HTTP/", 5) != 0)
		return 400;
	if (strncmp(version, "HTTP/1.", 7) != 0)
		return 505;
	for (v = req->target; *v != '\0'; v++)
		if ((unsigned char)*v <= 0x20 || *v == 0x7f)
			return 400;

	/* Headers: "Name: value", optional whitespace around the value. */
	for (line = next; *line != '\0' && *line != '\n' &&
	    strcmp(line, "\r\n") != 0; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			return 400;
		*next++ = '\0';
		if (next - line >= 2 && next[-2] == '\r')
			next[-2] = '\0';
		if (*line == ' ' || *line == '\t')
			return 400;	/* obsolete line folding */
		if ((colon = strchr(line, ':')) == NULL)
			return 400;
		*colon = '\0';
		if (!is_token(line))
			return 400;
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			continue;
		end = v + strlen(v);
		while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		for (end = v; *end != '\0'; end++)
			if ((unsigned char)*end < 0x20 && *end != '\t')
				return 400;
		if (req->nhdrs == HDR_MAX)
			return 431;
		req->hdrs[req->nhdrs].name = line;
		req->hdrs[req->nhdrs].value = v;
		req->nhdrs++;
	}

	/* Origin form, or absolute form with the authority stripped. */
	target = req->target;
	if (strncasecmp(target, "http://", 7) == 0 ||
	    strncasecmp(target, "https://", 8) == 0) {
		target = strstr(target, "//") + 2;
		target += strcspn(target, "/?#");
	}
	if (*target != '/' && *target != '\0' && *target != '?')
		return 400;
	target = xstrndup(target, strcspn(target, "#"));
	if ((q = strchr(target, '?')) != NULL)
		*q++ = '\0';
	req->path = xstrdup(*target == '\0' ? "/" : target);
	if (url_decode(req->path, 0) == -1 || (q != NULL &&
	    query_split(q, &req->qname, &req->qvalue) == -1)) {
		free(target);
		return 400;
	}
	free(target);
	return 0;
}

/*
 * Read one request from c into req. Returns 0, -1 if the client went away
 * without sending anything, or an HTTP error status to answer with.
 */
static int
req_read(struct conn *c, struct request *req)
{
	const char	*cl, *te, *expect;
	size_t		 end, have;
	long long	 len;
	ssize_t		 n;
	int		 rc;

	while ((end = head_end(c)) == 0) {
		if (c->inlen == HEAD_MAX)
			return 431;
		if ((n = conn_fill(c)) > 0)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 408;
		return c->inlen == 0 ? -1 : 400;
	}
	if (memchr(c->in, '\0', end) != NULL)
		return 400;
	req->head = xstrndup(c->in, end);
	c->inpos = end;
	if ((rc = head_parse(req)) != 0)
		return rc;

	cl = req_header(req, "Content-Length");
	te = req_header(req, "Transfer-Encoding");
	if (cl != NULL && te != NULL)
		return 400;
	if (te != NULL && strcasecmp(te, "chunked") != 0)
		return 501;
	len = 0;
	if (cl != NULL && parse_num(cl, 0, LLONG_MAX, &len) == -1)
		return 400;
	if (len > BODY_MAX)
		return 413;

	/* curl waits a second for "100 Continue" before sending the body. */
	have = c->inlen - c->inpos;
	expect = req_header(req, "Expect");
	if (expect != NULL && strcasecmp(expect, "100-continue") == 0 &&
	    (te != NULL || (size_t)len > have))
		send_all(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);

	if (te != NULL)
		return body_read_chunked(c, req);
	if (len > 0)
		return body_read(c, req, (size_t)len);
	return 0;
}

/* Free what req owns. */
static void
req_done(struct request *req)
{
	free(req->head);
	free(req->path);
	strv_free(&req->qname);
	strv_free(&req->qvalue);
	free(req->body);
}

/* True if the If-None-Match list in inm names etag (or is "*"). */
static int
etag_matches(const char *inm, const char *etag)
{
	const char	*p = inm, *e;
	size_t		 len;

	if (strncmp(etag, "W/", 2) == 0)
		etag += 2;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		e = p + strcspn(p, ",");
		len = (size_t)(e - p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 1 && *p == '*')
			return 1;
		if (len > 2 && strncmp(p, "W/", 2) == 0) {
			p += 2;
			len -= 2;
		}
		if (len == strlen(etag) && strncmp(p, etag, len) == 0)
			return 1;
		p = e;
	}
	return 0;
}

/* True if Accept-Encoding value ae accepts gzip with a non-zero q. */
static int
accepts_gzip(const char *ae)
{
	const char	*p = ae, *e, *semi, *qp;
	size_t		 len;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		e = p + strcspn(p, ",");
		semi = memchr(p, ';', (size_t)(e - p));
		len = (size_t)((semi != NULL ? semi : e) - p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if ((len == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (len == 6 && strncasecmp(p, "x-gzip", 6) == 0) ||
		    (len == 1 && *p == '*')) {
			qp = semi != NULL ? strstr(semi, "q=") : NULL;
			if (qp == NULL || qp >= e || strtod(qp + 2, NULL) > 0)
				return 1;
		}
		p = e;
	}
	return 0;
}

/* Content-Type for a route: type=, else by the file name, else JSON. */
static const char *
content_type(const struct route *r)
{
	size_t	len;

	if (r->type != NULL)
		return r->type;
	if (r->file != NULL) {
		len = strlen(r->file);
		if ((len > 4 && strcasecmp(r->file + len - 4, ".csv") == 0) ||
		    (len > 7 && strcasecmp(r->file + len - 7, ".csv.gz") == 0))
			return "text/csv";
	}
	return "application/json";
}

/*
 * Stream the body from file descriptor in (or nothing if in is -1): size
 * bytes, cut to the route's truncate=, dripped and chunked as it says.
 * Returns the body bytes sent (chunk framing not counted).
 */
static long long
send_body(int fd, int in, long long size, const struct route *r)
{
	char		 *buf, line[32];
	long long	  limit, sent = 0;
	size_t		  want;
	ssize_t		  n;
	int		  len;

	limit = r->truncate >= 0 && r->truncate < size ? r->truncate : size;
	buf = xmalloc(IO_BUF);
	while (sent < limit) {
		want = IO_BUF;
		if (r->drip_bytes > 0 && want > (size_t)r->drip_bytes)
			want = (size_t)r->drip_bytes;
		if ((long long)want > limit - sent)
			want = (size_t)(limit - sent);
		do
			n = read(in, buf, want);
		while (n == -1 && errno == EINTR);
		if (n <= 0) {
			warn_msg("%s: short read", r->file);
			break;
		}
		if (r->drip_bytes > 0)
			sleep_ms(r->drip_ms);
		if (r->chunked) {
			len = snprintf(line, sizeof line, "%zx\r\n", (size_t)n);
			if (send_all(fd, line, (size_t)len) == -1)
				break;
		}
		if (send_all(fd, buf, (size_t)n) == -1)
			break;
		if (r->chunked && send_all(fd, "\r\n", 2) == -1)
			break;
		sent += n;
	}
	/* A truncated chunked body also lacks its last chunk. */
	if (r->chunked && sent == size)
		send_all(fd, "0\r\n\r\n", 5);
	free(buf);
	return sent;
}

/*
 * Whether req's validators name the route's current copy: If-None-Match
 * against etag=, else (RFC 9110 13.1.3: only without If-None-Match)
 * If-Modified-Since at or after last-modified=.
 */
static int
not_modified(const struct request *req, const struct route *r)
{
	const char	*inm, *ims;
	time_t		 since;

	if ((inm = req_header(req, "If-None-Match")) != NULL)
		return r->etag != NULL && etag_matches(inm, r->etag);
	ims = req_header(req, "If-Modified-Since");
	return ims != NULL && r->last_modified != NULL &&
	    http_date(ims, &since) == 0 && r->modified <= since;
}

/*
 * Answer req according to route r; *status and *bytes say what was sent
 * (status 0: nothing, the connection is just closed).
 */
static void
respond(struct conn *c, const struct request *req, const struct route *r,
    int *status_out, long long *bytes_out)
{
	struct sbuf	 sb = { 0 };
	struct stat	 st;
	const char	*ae;
	char		*path;
	long long	 size = 0;
	size_t		 i;
	int		 in = -1, head_only, no_body, status = r->status;

	*status_out = 0;
	*bytes_out = 0;
	sleep_ms(r->delay_ms);
	if (r->close)
		return;
	head_only = strcmp(req->method, "HEAD") == 0;

	if (not_modified(req, r))
		status = 304;
	ae = req_header(req, "Accept-Encoding");
	if (status != 304 && r->gzip && (ae == NULL || !accepts_gzip(ae))) {
		*status_out = 406;
		*bytes_out = send_text(c->fd, 406, head_only,
		    "gzip route: request lacks Accept-Encoding: gzip\n");
		return;
	}

	no_body = status < 200 || status == 204 || status == 304;
	if (r->file != NULL && !no_body) {
		path = xmalloc(strlen(srv.dir) + strlen(r->file) + 2);
		sprintf(path, "%s/%s", srv.dir, r->file);
		in = open(path, O_RDONLY | O_CLOEXEC);
		if (in == -1 || fstat(in, &st) == -1 || !S_ISREG(st.st_mode)) {
			warn_msg("routes line %d: %s: %s", r->line, path,
			    in == -1 ? strerror(errno) : "not a regular file");
			*status_out = 500;
			*bytes_out = send_text(c->fd, 500, head_only,
			    "fixture file missing\n");
			if (in != -1)
				close(in);
			free(path);
			return;
		}
		free(path);
		size = (long long)st.st_size;
	}

	sb_printf(&sb, "HTTP/1.1 %d %s\r\n", status, reason(status));
	if (!no_body) {
		sb_printf(&sb, "Content-Type: %s\r\n", content_type(r));
		if (r->chunked)
			sb_printf(&sb, "Transfer-Encoding: chunked\r\n");
		else
			sb_printf(&sb, "Content-Length: %lld\r\n", size);
		if (r->gzip)
			sb_printf(&sb, "Content-Encoding: gzip\r\n");
	}
	if (r->etag != NULL)
		sb_printf(&sb, "ETag: %s\r\n", r->etag);
	if (r->last_modified != NULL)
		sb_printf(&sb, "Last-Modified: %s\r\n", r->last_modified);
	for (i = 0; i < r->headers.n; i++)
		sb_printf(&sb, "%s\r\n", r->headers.v[i]);
	if (r->big_header > 0)
		sb_printf(&sb, "X-Big: %0*d\r\n", (int)r->big_header, 0);
	sb_printf(&sb, "Connection: close\r\n\r\n");

	*status_out = status;
	if (send_all(c->fd, sb.p, sb.len) == 0 && !head_only && !no_body)
		*bytes_out = send_body(c->fd, in, size, r);
	free(sb.p);
	if (in != -1)
		close(in);
}

/*
 * Close a connection gracefully: send FIN, then read what the client still
 * sends for a short while, so unread input does not turn into a RST that
 * could destroy the response before the client reads it.
 */
static void
conn_close(struct conn *c)
{
	struct timespec	 start;
	struct pollfd	 pfd;
	char		 buf[4096];
	long		 left;

	shutdown(c->fd, SHUT_WR);
	clock_gettime(CLOCK_MONOTONIC, &start);
	pfd.fd = c->fd;
	pfd.events = POLLIN;
	while ((left = DRAIN_MS - elapsed_ms(&start)) > 0) {
		if (poll(&pfd, 1, (int)left) <= 0)
			break;
		if (recv(c->fd, buf, sizeof buf, 0) <= 0)
			break;
	}
	close(c->fd);
}

/* Record that a connection opened (delta 1) or closed (delta -1). */
static void
activity(int delta)
{
	pthread_mutex_lock(&srv.lock);
	srv.active += delta;
	clock_gettime(CLOCK_MONOTONIC, &srv.last);
	pthread_mutex_unlock(&srv.lock);
}

/* Thread body: serve one connection, then close it. */
static void *
conn_main(void *arg)
{
	struct conn		*c = arg;
	struct request		 req;
	struct table		*t;
	const struct route	*r;
	struct sbuf		 sb = { 0 };
	long long		 bytes;
	int			 rc, status;

	memset(&req, 0, sizeof req);
	rc = req_read(c, &req);
	if (rc == -1)
		goto done;
	if (rc != 0) {
		if (req.target != NULL)
			log_request(&req);
		bytes = send_text(c->fd, rc, 0, rc == 408 ?
		    "request timeout\n" :
		    rc == 413 ? "request body too large\n" :
		    rc == 431 ? "request head too large\n" :
		    "malformed request\n");
		if (req.target != NULL)
			log_response(&req, rc, bytes);
		goto done;
	}
	log_request(&req);

	if (has_dotdot(req.path)) {
		bytes = send_text(c->fd, 403, strcmp(req.method, "HEAD") == 0,
		    "path with '..' refused\n");
		log_response(&req, 403, bytes);
		goto done;
	}
	t = table_get();
	if ((r = table_match(t, &req)) != NULL)
		respond(c, &req, r, &status, &bytes);
	else {
		sb_printf(&sb, "no route for %s %s\n", req.method, req.path);
		status = 404;
		bytes = send_text(c->fd, 404, strcmp(req.method, "HEAD") == 0,
		    sb.p != NULL ? sb.p : "no route\n");
		free(sb.p);
	}
	table_put(t);
	log_response(&req, status, bytes);
done:
	conn_close(c);
	req_done(&req);
	free(c->in);
	free(c);
	activity(-1);
	return NULL;
}

/* Start a detached thread for an accepted socket, or close it. */
static void
conn_start(int fd)
{
	struct conn	*c;
	struct timeval	 tv;
	pthread_attr_t	 attr;
	pthread_t	 tid;
	int		 flags;

	/* Accepted sockets inherit O_NONBLOCK on some systems; undo it. */
	if ((flags = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	tv.tv_sec = srv.io_timeout_s;
	tv.tv_usec = 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);

	c = xmalloc(sizeof *c);
	c->fd = fd;
	c->in = xmalloc(HEAD_MAX);
	c->inpos = c->inlen = 0;
	activity(1);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&tid, &attr, conn_main, c) != 0) {
		warn_msg("pthread_create failed; dropping a connection");
		close(fd);
		free(c->in);
		free(c);
		activity(-1);
	}
	pthread_attr_destroy(&attr);
}

/* Write "PORT\n" to path atomically: a temporary file, then rename(). */
static void
write_port_file(const char *path, unsigned port)
{
	char	*tmp;
	FILE	*f;

	tmp = xmalloc(strlen(path) + 32);
	sprintf(tmp, "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		die("%s: %s", tmp, strerror(errno));
	fprintf(f, "%u\n", port);
	if (fclose(f) != 0)
		die("%s: %s", tmp, strerror(errno));
	if (rename(tmp, path) == -1)
		die("rename %s: %s", path, strerror(errno));
	free(tmp);
}

/* Signal handler for SIGTERM and SIGINT. */
static void
on_signal(int sig)
{
	stop_signal = sig;
}

/* Print the usage message to f. */
static void
usage(FILE *f)
{
	fputs("usage: fixture_server --dir DIR --port-file FILE "
	    "[--log FILE]\n"
	    "                      [--idle-timeout SECONDS] "
	    "[--routes FILE]\n", f);
}

/* Bind 127.0.0.1:0 and listen; returns the socket and sets *port. */
static int
listen_local(unsigned *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		die("socket: %s", strerror(errno));
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1)
		die("bind 127.0.0.1:0: %s", strerror(errno));
	if (listen(fd, 128) == -1)
		die("listen: %s", strerror(errno));
	if (getsockname(fd, (struct sockaddr *)&sin, &len) == -1)
		die("getsockname: %s", strerror(errno));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	*port = ntohs(sin.sin_port);
	return fd;
}

/* Parse options, listen, write the port file, serve until idle or signal. */
int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir",		required_argument, NULL, 'd' },
		{ "port-file",		required_argument, NULL, 'p' },
		{ "log",		required_argument, NULL, 'l' },
		{ "idle-timeout",	required_argument, NULL, 'i' },
		{ "routes",		required_argument, NULL, 'r' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL,			0,		   NULL, 0 }
	};
	const char		*port_file = NULL, *log_path = NULL;
	const char		*routes = NULL;
	struct sigaction	 sa;
	struct pollfd		 pfd;
	struct timespec		 ts;
	sigset_t		 block, orig;
	char			 why[512], *end;
	double			 idle = 60;
	unsigned		 port;
	int			 ch, lfd, fd, active;
	long			 idle_for;

	while ((ch = getopt_long(argc, argv, "d:p:l:i:r:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			srv.dir = optarg;
			break;
		case 'p':
			port_file = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		case 'i':
			errno = 0;
			idle = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !(idle >= 0 && idle <= 86400))
				die("bad --idle-timeout '%s'", optarg);
			break;
		case 'r':
			routes = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || srv.dir == NULL || port_file == NULL) {
		usage(stderr);
		return 2;
	}
	srv.idle_ms = (long)(idle * 1000);
	/* Socket timeouts bound a silent client; never shorter than 1 s. */
	srv.io_timeout_s = idle >= 1 && idle <= 60 ? (int)idle : 60;
	if (idle > 0 && idle < 1)
		srv.io_timeout_s = 1;
	if (routes != NULL)
		srv.routes_path = xstrdup(routes);
	else {
		srv.routes_path = xmalloc(strlen(srv.dir) + 8);
		sprintf(srv.routes_path, "%s/routes", srv.dir);
	}
	if ((srv.table = table_load(srv.routes_path, why, sizeof why)) == NULL)
		die("%s", why);
	if (log_path != NULL) {
		if ((srv.log = fopen(log_path, "a")) == NULL)
			die("%s: %s", log_path, strerror(errno));
		setvbuf(srv.log, NULL, _IOLBF, 0);
	}

	/*
	 * Signals are blocked everywhere except inside ppoll() in this
	 * thread, so a SIGTERM can neither be lost nor hit a worker.
	 */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &orig);
	sigdelset(&orig, SIGTERM);
	sigdelset(&orig, SIGINT);

	lfd = listen_local(&port);
	write_port_file(port_file, port);
	activity(0);

	pfd.fd = lfd;
	pfd.events = POLLIN;
	while (!stop_signal) {
		pthread_mutex_lock(&srv.lock);
		active = srv.active;
		idle_for = elapsed_ms(&srv.last);
		pthread_mutex_unlock(&srv.lock);
		if (srv.idle_ms > 0 && active == 0 && idle_for >= srv.idle_ms)
			break;

		ts.tv_sec = 0;
		ts.tv_nsec = 100 * 1000000L;
		if (ppoll(&pfd, 1, &ts, &orig) <= 0)
			continue;
		while ((fd = accept(lfd, NULL, NULL)) != -1) {
			fcntl(fd, F_SETFD, FD_CLOEXEC);
			conn_start(fd);
		}
		if (errno == EMFILE || errno == ENFILE)
			sleep_ms(50);	/* let connections finish */
	}
	close(lfd);

	/* Workers may still be running after a signal: detach the log. */
	pthread_mutex_lock(&srv.log_lock);
	if (srv.log != NULL)
		fclose(srv.log);
	srv.log = NULL;
	pthread_mutex_unlock(&srv.log_lock);
	pthread_mutex_lock(&srv.lock);
	if (srv.active == 0) {
		table_put_locked(srv.table);
		srv.table = NULL;
		free(srv.routes_path);
		srv.routes_path = NULL;
	}
	pthread_mutex_unlock(&srv.lock);
	return 0;
}
