/*
 * http.c: a batch of HTTP requests run concurrently with the libcurl
 * multi interface. This is the only file that includes <curl/curl.h>.
 *
 * Every request becomes a transfer (struct xfer) with its own easy
 * handle, error buffer and header list, found again from the handle
 * with CURLINFO_PRIVATE. A transfer moves through three states:
 *
 *	WAITING --due--> RUNNING --done--> finished (on_done, freed)
 *	   ^                |
 *	   +----retry-------+	429, 5xx or a connection error, while
 *				attempts remain (and, when streaming,
 *				before the first chunk went out)
 *
 * A new transfer is WAITING with "not before" = now. Each round of
 * http_batch_poll() adds the due transfers to the multi handle, waits in
 * curl_multi_poll() (never longer than the next due retry), runs
 * curl_multi_perform() and reads the finished ones with
 * curl_multi_info_read(). A retry takes the easy handle out of the multi
 * handle and puts the transfer back to WAITING with a "not before" time
 * (Retry-After, else 1 s, 2 s, 4 s ... capped by max_retry_wait), so a
 * backoff never holds up other transfers.
 *
 * Limits, per attempt: connect_timeout and timeout from the options;
 * a stall (less than 1 byte/s for min(timeout, 60) s, also while waiting
 * for the first byte) fails the attempt like a timeout; at most 5
 * redirects, http and https only; a buffered body stops at max_body.
 * Retry decisions look at the last attempt only; elapsed counts from
 * the first attempt's start to the end, waits included.
 *
 * Callbacks: on_chunk and on_progress run inside curl_multi_perform()
 * and may add requests or cancel (carried out as soon as libcurl
 * returns), nothing else; on_done runs outside libcurl and may add
 * requests or cancel others. None of them may free the batch, and a
 * nested http_batch_poll/run returns at once.
 */
#include "config.h"
#include "http.h"

#include <curl/curl.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "str.h"
#include "xalloc.h"

#if LIBCURL_VERSION_NUM < 0x075500
#error "libcurl >= 7.85 is needed (CURLOPT_PROTOCOLS_STR)"
#endif

#ifndef CURL_WRITEFUNC_ERROR		/* libcurl < 7.87 */
#define CURL_WRITEFUNC_ERROR	0xFFFFFFFF
#endif

/* The library file loaded at run time; configure may name another. */
#ifndef GPUCOST_CURL_SONAME
#ifdef __APPLE__
#define GPUCOST_CURL_SONAME	"libcurl.4.dylib"
#else
#define GPUCOST_CURL_SONAME	"libcurl.so.4"
#endif
#endif

/*
 * libcurl is loaded with dlopen() on first use, not linked: it pulls in
 * some 30 shared libraries (TLS, Kerberos, LDAP, SSH, IDN ...) whose
 * loading and relocation cost about 10 ms at every start, more than a
 * whole query of a 100k-offer cache, while only a refresh needs them.
 * Every libcurl call goes through this table (filled by lc_load()),
 * one entry per function: return type, name without "curl_", arguments.
 */
#define CURL_API(X)							\
	X(CURLcode, global_init, (long))				\
	X(void, global_cleanup, (void))					\
	X(CURL *, easy_init, (void))					\
	X(CURLcode, easy_setopt, (CURL *, CURLoption, ...))		\
	X(CURLcode, easy_getinfo, (CURL *, CURLINFO, ...))		\
	X(void, easy_cleanup, (CURL *))					\
	X(const char *, easy_strerror, (CURLcode))			\
	X(CURLM *, multi_init, (void))					\
	X(CURLMcode, multi_add_handle, (CURLM *, CURL *))		\
	X(CURLMcode, multi_remove_handle, (CURLM *, CURL *))		\
	X(CURLMcode, multi_poll, (CURLM *, struct curl_waitfd *,	\
	    unsigned int, int, int *))					\
	X(CURLMcode, multi_perform, (CURLM *, int *))			\
	X(CURLMsg *, multi_info_read, (CURLM *, int *))			\
	X(CURLMcode, multi_cleanup, (CURLM *))				\
	X(const char *, multi_strerror, (CURLMcode))			\
	X(struct curl_slist *, slist_append, (struct curl_slist *,	\
	    const char *))						\
	X(void, slist_free_all, (struct curl_slist *))

static struct {
#define X(ret, name, args) ret (*name) args;
	CURL_API(X)
#undef X
} lc;

static void	*lc_lib;		/* the dlopen() handle; NULL: not loaded */
static bool	 lc_ready;		/* loaded and curl_global_init() done */
static char	 lc_error[HTTP_ERROR_MAX];	/* why loading failed */

#define BODY_MAX_DEFAULT   ((size_t)32 * 1024 * 1024)	/* bytes */
#define BODY_CHUNK_MIN	   ((size_t)16 * 1024)		/* bytes */
#define PROGRESS_INTERVAL  0.1		/* s between on_progress calls */
#define LOW_SPEED_TIME_MAX 60L		/* s under 1 byte/s: stalled */
#define REDIRECTS_MAX	   5L
#define ERROR_TEXT_MAX	   1024		/* bytes, unredacted */

enum xfer_state {
	XFER_WAITING,		/* queued, or between attempts */
	XFER_RUNNING,		/* in the multi handle */
	XFER_DONE		/* on_done is running or has run */
};

/* One request and everything needed to run it. */
struct xfer {
	struct xfer *prev, *next;	/* batch list, in add order */
	struct http_batch *batch;
	struct http_request *req;	/* owned */
	struct http_callbacks cb;
	void	*udata;
	unsigned long id;		/* add order, for cancel */
	enum xfer_state state;

	CURL	*easy;			/* NULL if setup failed */
	struct curl_slist *headers;	/* freed with the transfer */
	char	 errbuf[CURL_ERROR_SIZE];
	bool	 setup_failed;		/* res.error says why */
	bool	 cancel;		/* finish as "cancelled" */

	double	 not_before;		/* monotonic s: next start */
	double	 started;		/* monotonic s: first start */
	size_t	 max_body;		/* bytes, for a buffered body */

	/* This attempt. */
	char	*body;			/* buffered, NUL-terminated */
	size_t	 len;			/* bytes in body */
	size_t	 cap;		/* bytes allocated for body */
	long	 status;		/* from the last status line */
	char	 reason[64];	/* its reason phrase, sanitised */
	bool	 retry_after;	/* it had a Retry-After header */
	bool	 in_headers;	/* a status line came, not yet its end */
	bool	 too_big;		/* body cap hit */
	bool	 out_of_memory;		/* the body did not fit in memory */
	bool	 aborted;		/* on_chunk returned nonzero */
	double	 last_progress;		/* monotonic s; 0: never */

	/* Over all attempts. */
	bool	 delivered;		/* a chunk went to on_chunk */
	size_t	 streamed;		/* bytes given to on_chunk */

	struct http_result res;
};

struct http_batch {
	CURLM	*multi;		/* NULL: every request fails */
	struct http_options opts;
	struct xfer *head, *tail;	/* unfinished transfers */
	int	 pending;		/* transfers in the list */
	unsigned long next_id;
	bool	 in_curl;		/* inside curl_multi_perform() */
	bool	 busy;			/* inside http_batch_poll() */
};

/* Seconds on the monotonic clock. */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Set the transfer's error text from a format, masking the request's
 * secret: libcurl messages and the URL we append may hold an API key.
 */
static void __attribute__((format(printf, 2, 3)))
xfer_error(struct xfer *t, const char *fmt, ...)
{
	char text[ERROR_TEXT_MAX], *safe;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (i = 0; text[i] != '\0'; i++)
		if (text[i] == '\n' || text[i] == '\r')
			text[i] = ' ';
	safe = http_redact(text, t->req->redact);
	str_copy(t->res.error, sizeof t->res.error, safe);
	free(safe);
}

/* Report progress, at most every PROGRESS_INTERVAL seconds. */
static void
xfer_progress(struct xfer *t, size_t bytes)
{
	double now;

	if (t->cb.on_progress == NULL)
		return;
	now = now_s();
	if (t->last_progress > 0 && now - t->last_progress < PROGRESS_INTERVAL)
		return;
	t->last_progress = now;
	t->cb.on_progress(t->udata, t->req, bytes);
}

/*
 * Append n bytes to the attempt's body buffer (room is checked). Returns
 * -1 when memory runs out: a body too big for this process fails its
 * request ("out of memory"), which the provider's status then records.
 */
static int
xfer_append(struct xfer *t, const char *data, size_t n)
{
	size_t want = t->len + n + 1, cap = t->cap;
	char *body;

	if (want > cap) {
		cap = cap < BODY_CHUNK_MIN ? BODY_CHUNK_MIN : cap;
		while (cap < want)
			cap = cap > SIZE_MAX / 2 ? want : cap * 2;
		if ((body = realloc(t->body, cap)) == NULL)
			return -1;
		t->body = body;
		t->cap = cap;
	}
	memcpy(t->body + t->len, data, n);
	t->len += n;
	t->body[t->len] = '\0';
	return 0;
}

/*
 * CURLOPT_WRITEFUNCTION: a piece of the (decoded) body. A 2xx body of a
 * streamed request goes to on_chunk; the error page of a streamed
 * request is not data and is dropped (so a 503 can still be retried);
 * any other body is buffered up to max_body, past which the transfer
 * fails at once.
 */
static size_t
xfer_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct xfer *t = arg;
	size_t n = size * nmemb;

	if (t->cancel)
		return CURL_WRITEFUNC_ERROR;
	if (t->req->stream && t->status >= 200 && t->status <= 299) {
		t->delivered = true;
		t->streamed += n;
		if (t->cb.on_chunk != NULL &&
		    t->cb.on_chunk(t->udata, t->req, data, n) != 0) {
			t->aborted = true;
			return CURL_WRITEFUNC_ERROR;
		}
		xfer_progress(t, t->streamed);
		return n;
	}
	if (t->req->stream)
		return n;
	if (n > t->max_body - t->len) {
		t->too_big = true;
		return CURL_WRITEFUNC_ERROR;
	}
	if (xfer_append(t, data, n) < 0) {
		t->out_of_memory = true;
		return CURL_WRITEFUNC_ERROR;
	}
	xfer_progress(t, t->len);
	return n;
}

/*
 * Keep a validator header's value (after the colon, len bytes) in dst
 * (HTTP_VALIDATOR_MAX bytes), or "" if it is not usable as one: too
 * long, or holding a control or non-ASCII byte (http_validator_ok()).
 */
static void
header_validator(char *dst, const char *value, size_t len)
{
	while (len > 0 && (*value == ' ' || *value == '\t')) {
		value++;
		len--;
	}
	dst[0] = '\0';
	if (!http_validator_ok(value, len))
		return;
	memcpy(dst, value, len);
	dst[len] = '\0';
}

/*
 * CURLOPT_HEADERFUNCTION: one header line, not NUL-terminated. Every
 * status line (a redirect, a 100 Continue, the final answer) starts a
 * new response, so it resets what the last one said. Keeps the status,
 * its reason, whether Retry-After came, and the validators (ETag,
 * Last-Modified) a conditional request sends back next time.
 */
static size_t
xfer_header(char *data, size_t size, size_t nitems, void *arg)
{
	struct xfer *t = arg;
	size_t n = size * nitems, i, end;

	end = n;
	while (end > 0 && (data[end - 1] == '\n' || data[end - 1] == '\r' ||
	    data[end - 1] == ' ' || data[end - 1] == '\t'))
		end--;
	if (end >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		/* "HTTP/1.1 503 Service Unavailable", "HTTP/2 200" */
		t->status = 0;
		t->reason[0] = '\0';
		t->retry_after = false;
		for (i = 5; i < end && data[i] != ' '; i++)
			continue;
		while (i < end && data[i] == ' ')
			i++;
		for (; i < end && data[i] >= '0' && data[i] <= '9'; i++)
			t->status = t->status * 10 + (data[i] - '0');
		while (i < end && data[i] == ' ')
			i++;
		str_sanitize(t->reason, sizeof t->reason, data + i, end - i);
		t->res.etag[0] = '\0';
		t->res.last_modified[0] = '\0';
		t->in_headers = true;
	} else if (end == 0)
		t->in_headers = false;
	else if (end >= 12 && strncasecmp(data, "Retry-After:", 12) == 0)
		t->retry_after = true;
	else if (end >= 5 && strncasecmp(data, "ETag:", 5) == 0)
		header_validator(t->res.etag, data + 5, end - 5);
	else if (end >= 14 && strncasecmp(data, "Last-Modified:", 14) == 0)
		header_validator(t->res.last_modified, data + 14, end - 14);
	return n;
}

/* Append a header line, failing the setup if libcurl cannot. */
static int
xfer_add_header(struct xfer *t, const char *line)
{
	struct curl_slist *l;

	if ((l = lc.slist_append(t->headers, line)) == NULL)
		return -1;
	t->headers = l;
	return 0;
}

/*
 * Add "name: value" when value is not NULL. A value that is not a
 * validator (http_validator_ok()) fails the setup: it could end the
 * header line and start another.
 */
static int
xfer_validator(struct xfer *t, const char *name, const char *value)
{
	char line[64 + HTTP_VALIDATOR_MAX];

	if (value == NULL)
		return 0;
	if (!http_validator_ok(value, strlen(value))) {
		xfer_error(t, "%s: not a usable validator", name);
		return -1;
	}
	snprintf(line, sizeof line, "%s: %s", name, value);
	if (xfer_add_header(t, line) == -1) {
		xfer_error(t, "libcurl: cannot build the header list");
		return -1;
	}
	return 0;
}

/*
 * Create and configure the easy handle. Returns 0, or -1 with res.error
 * set (the transfer then fails when it is first due).
 */
static int
xfer_setup(struct xfer *t, const struct http_options *o)
{
	const struct http_request *req = t->req;
	const char *method = req->method != NULL ? req->method : "GET";
	bool send_body = false;
	CURLcode rc = CURLE_OK;
	CURL *e;
	size_t i;
	long low_time;

	if (t->batch->multi == NULL) {
		xfer_error(t, "libcurl: %s", lc_error[0] != '\0' ? lc_error :
		    "cannot create a multi handle");
		return -1;
	}
	if (req->url == NULL || req->url[0] == '\0') {
		xfer_error(t, "no URL");
		return -1;
	}
	if ((e = t->easy = lc.easy_init()) == NULL) {
		xfer_error(t, "libcurl: cannot create a handle");
		return -1;
	}

	/* Stall: less than 1 byte/s for this long fails the attempt. */
	low_time = o->timeout > 0 && o->timeout < LOW_SPEED_TIME_MAX ?
	    o->timeout : LOW_SPEED_TIME_MAX;

	/* Stop at the first option libcurl refuses. */
#define SET(opt, val) do {						\
	if (rc == CURLE_OK)						\
		rc = lc.easy_setopt(e, opt, val);			\
} while (0)
	SET(CURLOPT_PRIVATE, (void *)t);
	SET(CURLOPT_ERRORBUFFER, t->errbuf);
	SET(CURLOPT_URL, req->url);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/*
	 * A request carrying a secret does not follow redirects: libcurl
	 * keeps Authorization to the first host, but sends every other
	 * header (X-Goog-Api-Key) wherever a Location points.
	 */
	SET(CURLOPT_FOLLOWLOCATION, req->redact != NULL ? 0L : 1L);
	SET(CURLOPT_MAXREDIRS, REDIRECTS_MAX);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	SET(CURLOPT_USERAGENT, "gpucost/" PACKAGE_VERSION);
	if (req->raw)
		SET(CURLOPT_HTTP_CONTENT_DECODING, 0L);
	else
		SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
	SET(CURLOPT_TIMEOUT, o->timeout);
	SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
	SET(CURLOPT_LOW_SPEED_TIME, low_time);
	SET(CURLOPT_WRITEFUNCTION, xfer_write);
	SET(CURLOPT_WRITEDATA, (void *)t);
	SET(CURLOPT_HEADERFUNCTION, xfer_header);
	SET(CURLOPT_HEADERDATA, (void *)t);
	/* A declared Content-Length over the cap fails before any body. */
	if (!req->stream)
		SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->max_body);

	/* The method is sent as given, a GET with a body included. */
	if (strcmp(method, "HEAD") == 0)
		SET(CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "GET") == 0 && req->body == NULL)
		SET(CURLOPT_HTTPGET, 1L);
	else {
		send_body = true;
		if (strcmp(method, "POST") != 0)
			SET(CURLOPT_CUSTOMREQUEST, method);
		/* The body stays in req, owned by the transfer: no copy. */
		SET(CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)(req->body != NULL ? req->body_len : 0));
		SET(CURLOPT_POSTFIELDS, req->body != NULL ? req->body : "");
	}
#undef SET
	if (rc != CURLE_OK) {
		xfer_error(t, "libcurl: %s", lc.easy_strerror(rc));
		return -1;
	}

	for (i = 0; i < req->nheaders; i++)
		if (xfer_add_header(t, req->headers[i]) == -1)
			goto nomem;
	/* Validators go out only if they could have come from us. */
	if (req->if_none_match != NULL || req->if_modified_since != NULL) {
		if (xfer_validator(t, "If-None-Match", req->if_none_match) ==
		    -1 || xfer_validator(t, "If-Modified-Since",
		    req->if_modified_since) == -1)
			return -1;
	}
	/* Send the body at once instead of waiting for "100 Continue". */
	if (send_body && xfer_add_header(t, "Expect:") == -1)
		goto nomem;
	if (t->headers != NULL &&
	    (rc = lc.easy_setopt(e, CURLOPT_HTTPHEADER, t->headers)) !=
	    CURLE_OK) {
		xfer_error(t, "libcurl: %s", lc.easy_strerror(rc));
		return -1;
	}
	return 0;
nomem:
	xfer_error(t, "libcurl: cannot build the header list");
	return -1;
}

/* Free a transfer and the request it owns. */
static void
xfer_free(struct xfer *t)
{
	if (t->easy != NULL)
		lc.easy_cleanup(t->easy);
	if (t->headers != NULL)
		lc.slist_free_all(t->headers);
	free(t->body);
	http_request_done(t->req);
	free(t->req);
	free(t);
}

/* Take t out of the batch's list. */
static void
xfer_unlink(struct http_batch *b, struct xfer *t)
{
	if (t->prev != NULL)
		t->prev->next = t->next;
	else
		b->head = t->next;
	if (t->next != NULL)
		t->next->prev = t->prev;
	else
		b->tail = t->prev;
	t->prev = t->next = NULL;
	b->pending--;
}

/*
 * Finish t with res.ok and res.error as set: fill in the rest of the
 * result, call on_done, free t. on_done may add and cancel transfers.
 */
static void
xfer_finish(struct http_batch *b, struct xfer *t)
{
	struct http_result *r = &t->res;
	char *eff = NULL;

	if (t->state == XFER_RUNNING)
		lc.multi_remove_handle(b->multi, t->easy);
	t->state = XFER_DONE;
	xfer_unlink(b, t);

	r->req = t->req;
	r->elapsed = t->res.attempts > 0 ? now_s() - t->started : 0;
	if (t->req->stream) {
		r->body = NULL;
		r->body_len = t->streamed;
	} else {
		r->body = r->status != 0 ? (t->body != NULL ? t->body : "") :
		    NULL;
		r->body_len = r->status != 0 ? t->len : 0;
	}
	if (r->ok)
		r->error[0] = '\0';
	r->url = t->req->url;
	if (t->easy != NULL && lc.easy_getinfo(t->easy, CURLINFO_EFFECTIVE_URL,
	    &eff) == CURLE_OK && eff != NULL)
		r->url = eff;
	if (t->cb.on_done != NULL)
		t->cb.on_done(t->udata, r);
	xfer_free(t);
}

/* Finish t as cancelled. */
static void
xfer_cancelled(struct http_batch *b, struct xfer *t)
{
	t->res.ok = false;
	t->res.status = 0;
	xfer_error(t, "cancelled");
	xfer_finish(b, t);
}

/* Forget what the previous attempt received. */
static void
xfer_reset_attempt(struct xfer *t)
{
	t->len = 0;
	if (t->body != NULL)
		t->body[0] = '\0';
	t->status = 0;
	t->reason[0] = '\0';
	t->retry_after = false;
	t->in_headers = false;
	t->too_big = false;
	t->out_of_memory = false;
	t->aborted = false;
	t->errbuf[0] = '\0';
	t->res.status = 0;
	t->res.error[0] = '\0';
	t->res.etag[0] = '\0';
	t->res.last_modified[0] = '\0';
}

/*
 * Start t's next attempt. Returns true if t was finished instead (setup
 * failure): callbacks ran and the list may have changed.
 */
static bool
xfer_start(struct http_batch *b, struct xfer *t, double now)
{
	CURLMcode mc;

	if (t->setup_failed) {
		t->res.ok = false;
		xfer_finish(b, t);
		return true;
	}
	xfer_reset_attempt(t);
	if (t->res.attempts == 0)
		t->started = now;
	t->res.attempts++;
	if ((mc = lc.multi_add_handle(b->multi, t->easy)) != CURLM_OK) {
		t->res.ok = false;
		xfer_error(t, "libcurl: %s", lc.multi_strerror(mc));
		xfer_finish(b, t);
		return true;
	}
	t->state = XFER_RUNNING;
	return false;
}

/* Start every waiting transfer that is due. */
static void
batch_start_due(struct http_batch *b)
{
	struct xfer *t;
	double now = now_s();

again:
	for (t = b->head; t != NULL; t = t->next) {
		if (t->state != XFER_WAITING || t->not_before > now)
			continue;
		if (xfer_start(b, t, now))
			goto again;	/* on_done ran: the list changed */
	}
}

/* Finish the transfers whose cancel was asked for inside libcurl. */
static void
batch_reap_cancelled(struct http_batch *b)
{
	struct xfer *t;

again:
	for (t = b->head; t != NULL; t = t->next)
		if (t->cancel) {
			xfer_cancelled(b, t);
			goto again;
		}
}

/* True for libcurl errors worth another attempt: the network's fault. */
static bool
retryable_code(CURLcode code)
{
	switch (code) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

/*
 * Seconds to wait before attempt number attempts + 1: the server's
 * Retry-After if it sent one, else 1, 2, 4 ... s; at most max_wait.
 */
static double
retry_wait(struct xfer *t, long max_wait)
{
	curl_off_t after = 0;
	double wait;
	int shift = t->res.attempts - 1;

	/*
	 * libcurl parses both forms (seconds, HTTP-date; a date already
	 * past is negative: now). Asking only when this response had the
	 * header keeps a stale value out.
	 */
	if (t->retry_after &&
	    lc.easy_getinfo(t->easy, CURLINFO_RETRY_AFTER, &after) ==
	    CURLE_OK)
		wait = after > 0 ? (double)after : 0;
	else
		wait = (double)(1L << (shift < 20 ? shift : 20));
	if (max_wait < 0)
		max_wait = 0;
	return wait < (double)max_wait ? wait : (double)max_wait;
}

/* Set res.error for a libcurl failure of the attempt that just ended. */
static void
xfer_curl_error(struct xfer *t, CURLcode code)
{
	curl_off_t got = 0, want = -1;
	const char *text;

	if (code == CURLE_PARTIAL_FILE) {
		lc.easy_getinfo(t->easy, CURLINFO_SIZE_DOWNLOAD_T, &got);
		lc.easy_getinfo(t->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
		    &want);
		if (want >= 0)
			xfer_error(t, "connection closed early: received "
			    "%lld of %lld bytes (%s)", (long long)got,
			    (long long)want, t->req->url);
		else
			xfer_error(t, "connection closed early: received "
			    "%lld bytes (%s)", (long long)got, t->req->url);
		return;
	}
	/*
	 * libcurl's own words, and which URL (its key masked); running
	 * out of memory in words the rest of gpucost uses for it. But
	 * libcurl says "out of memory", and nothing more, for a header line
	 * longer than it holds (CURL_MAX_HTTP_HEADER, 100 kB): between a
	 * status line and the end of its headers that is what it was.
	 */
	if (code == CURLE_OUT_OF_MEMORY && t->errbuf[0] == '\0')
		text = t->in_headers ? "a response header too large (libcurl "
		    "holds at most 100 kB)" : "out of memory";
	else
		text = t->errbuf[0] != '\0' ? t->errbuf :
		    lc.easy_strerror(code);
	xfer_error(t, "%s (%s)", text, t->req->url);
}

/*
 * An attempt ended with code: decide the outcome, then either schedule
 * another attempt or finish the transfer.
 */
static void
xfer_done(struct http_batch *b, struct xfer *t, CURLcode code)
{
	struct http_result *r = &t->res;
	bool retry = false;
	long status = 0;
	double wait;

	if (t->cancel) {
		xfer_cancelled(b, t);
		return;
	}
	if (lc.easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status) !=
	    CURLE_OK)
		status = 0;
	r->status = status;
	r->ok = false;

	if (code == CURLE_OK) {
		r->ok = (status >= 200 && status <= 299) || status == 304;
		if (!r->ok) {
			if (t->status == status && t->reason[0] != '\0')
				xfer_error(t, "HTTP %ld %s", status, t->reason);
			else
				xfer_error(t, "HTTP %ld", status);
		}
		retry = status == 429 || (status >= 500 && status <= 599);
	} else if (t->out_of_memory) {
		xfer_error(t, "out of memory after %zu bytes of the body",
		    t->len);
	} else if (t->too_big || code == CURLE_FILESIZE_EXCEEDED) {
		xfer_error(t, "body larger than %zu bytes", t->max_body);
	} else if (t->aborted) {
		xfer_error(t, "stopped by the receiver after %zu bytes",
		    t->streamed);
	} else {
		xfer_curl_error(t, code);
		retry = retryable_code(code);
	}

	if (retry && r->attempts <= b->opts.max_retries &&
	    !(t->req->stream && t->delivered)) {
		wait = retry_wait(t, b->opts.max_retry_wait);
		lc.multi_remove_handle(b->multi, t->easy);
		t->state = XFER_WAITING;
		t->not_before = now_s() + wait;
		return;
	}
	xfer_finish(b, t);
}

/* Handle every transfer libcurl reports as done. */
static void
batch_read_done(struct http_batch *b)
{
	struct xfer *t;
	CURLMsg *msg;
	CURLcode code;
	char *priv;
	int left;

	while ((msg = lc.multi_info_read(b->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		/* Copy out: msg dies when its handle leaves the multi. */
		code = msg->data.result;
		priv = NULL;
		lc.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		if ((t = (struct xfer *)(void *)priv) == NULL)
			continue;
		xfer_done(b, t, code);
	}
}

/* Milliseconds until the next waiting transfer is due (cap: limit). */
static int
batch_wait_ms(const struct http_batch *b, int limit)
{
	const struct xfer *t;
	double now = now_s(), ms;
	int wait = limit;

	for (t = b->head; t != NULL; t = t->next) {
		if (t->state != XFER_WAITING)
			continue;
		ms = (t->not_before - now) * 1000 + 1;
		if (ms <= 0)
			return 0;
		if (ms < (double)wait)
			wait = (int)ms;
	}
	return wait;
}

/* Fill in the documented defaults. */
void
http_options_default(struct http_options *opts)
{
	opts->connect_timeout = 15;
	opts->timeout = 600;	/* a 300 MB AWS file at modest speeds */
	opts->max_retries = 2;
	opts->max_retry_wait = 30;
}

/* An empty batch; opts NULL means the defaults. */
struct http_batch *
http_batch_new(const struct http_options *opts)
{
	struct http_batch *b;

	b = xcalloc(1, sizeof *b);
	if (opts != NULL)
		b->opts = *opts;
	else
		http_options_default(&b->opts);
	/* NULL when libcurl is missing or out of memory: requests fail. */
	if (http_global_init() == 0)
		b->multi = lc.multi_init();
	return b;
}

/* Free the batch; unfinished transfers are dropped without on_done. */
void
http_batch_free(struct http_batch *batch)
{
	struct xfer *t;

	if (batch == NULL)
		return;
	while ((t = batch->head) != NULL) {
		if (t->state == XFER_RUNNING)
			lc.multi_remove_handle(batch->multi, t->easy);
		xfer_unlink(batch, t);
		xfer_free(t);
	}
	if (batch->multi != NULL)
		lc.multi_cleanup(batch->multi);
	free(batch);
}

/* Queue a transfer; it starts in the next round of http_batch_poll. */
void
http_batch_add(struct http_batch *batch, struct http_request *req,
    const struct http_callbacks *cb, void *udata)
{
	struct xfer *t;

	t = xcalloc(1, sizeof *t);
	t->batch = batch;
	t->req = req;
	if (cb != NULL)
		t->cb = *cb;
	t->udata = udata;
	t->id = batch->next_id++;
	t->state = XFER_WAITING;
	t->max_body = req->max_body != 0 ? req->max_body : BODY_MAX_DEFAULT;
	t->res.req = req;

	t->prev = batch->tail;
	if (batch->tail != NULL)
		batch->tail->next = t;
	else
		batch->head = t;
	batch->tail = t;
	batch->pending++;

	if (xfer_setup(t, &batch->opts) == -1)
		t->setup_failed = true;
}

/* Finish every unfinished transfer of udata as "cancelled". */
void
http_batch_cancel(struct http_batch *batch, void *udata)
{
	struct xfer *t;
	unsigned long last = batch->next_id;	/* not those added later */

	for (t = batch->head; t != NULL; t = t->next)
		if (t->udata == udata && t->id < last)
			t->cancel = true;
	/* Inside libcurl, handles cannot leave the multi: poll does it. */
	if (!batch->in_curl)
		batch_reap_cancelled(batch);
}

/* One round: start due transfers, wait, run libcurl, report. */
int
http_batch_poll(struct http_batch *batch, int extra_fd, int timeout_ms)
{
	struct curl_waitfd wfd;
	int running, wait;

	/* Called from a callback: only the outer round may drive libcurl. */
	if (batch->busy)
		return batch->pending;
	batch->busy = true;

	batch_start_due(batch);
	wait = batch_wait_ms(batch, timeout_ms > 0 ? timeout_ms : 0);
	if (batch->multi != NULL && (batch->pending > 0 || extra_fd >= 0)) {
		memset(&wfd, 0, sizeof wfd);
		wfd.fd = extra_fd;
		wfd.events = CURL_WAIT_POLLIN;
		lc.multi_poll(batch->multi, extra_fd >= 0 ? &wfd : NULL,
		    extra_fd >= 0 ? 1 : 0, wait, NULL);
		batch->in_curl = true;
		lc.multi_perform(batch->multi, &running);
		batch->in_curl = false;
		batch_reap_cancelled(batch);
		batch_read_done(batch);
	}
	batch_start_due(batch);

	batch->busy = false;
	return batch->pending;
}

/* Rounds until nothing is pending. */
void
http_batch_run(struct http_batch *batch)
{
	if (batch->busy)
		return;
	while (http_batch_poll(batch, -1, 1000) > 0)
		continue;
}

/* Load libcurl and fill lc; -1 with lc_error set if it cannot be. */
static int
lc_load(void)
{
	void *sym;

	if ((lc_lib = dlopen(GPUCOST_CURL_SONAME, RTLD_NOW | RTLD_LOCAL)) ==
	    NULL) {
		snprintf(lc_error, sizeof lc_error, "cannot load %s", dlerror());
		return -1;
	}
	/* memcpy: ISO C has no cast from void * to a function pointer. */
#define X(ret, name, args)						\
	if ((sym = dlsym(lc_lib, "curl_" #name)) == NULL)		\
		goto missing;						\
	memcpy(&lc.name, &sym, sizeof sym);
	CURL_API(X)
#undef X
	return 0;
missing:
	snprintf(lc_error, sizeof lc_error, "%s: %s", GPUCOST_CURL_SONAME,
	    dlerror());
	dlclose(lc_lib);
	lc_lib = NULL;
	memset(&lc, 0, sizeof lc);
	return -1;
}

/* Load libcurl and run its global setup, once per process. */
int
http_global_init(void)
{
	if (lc_ready)
		return 0;
	if (lc_error[0] != '\0' || (lc_lib == NULL && lc_load() < 0))
		return -1;
	if (lc.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(lc_error, sizeof lc_error, "curl_global_init failed");
		return -1;
	}
	lc_ready = true;
	return 0;
}

/* Why libcurl could not be loaded or set up, or NULL. */
const char *
http_global_error(void)
{
	return lc_error[0] != '\0' ? lc_error : NULL;
}

/* libcurl's global teardown (the library stays mapped until exit). */
void
http_global_cleanup(void)
{
	if (!lc_ready)
		return;
	lc.global_cleanup();
	lc_ready = false;
}
