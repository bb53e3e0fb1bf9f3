/*
 * test_http.c: http.c against the fixture server (tests/server), with the
 * routes in tests/fixtures/http/routes. Skipped (77) when $FIXTURE_SERVER
 * is not set. Each test builds its own batch and uses its own paths.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "xalloc.h"

/* The fixture server shared by every test. */
static struct {
	pid_t	 pid;
	int	 port;
	char	 tmp[256];		/* mktemp -d folder */
	char	 port_file[300];
	char	 log_file[300];
	char	 dir[1024];		/* tests/fixtures/http */
} srv;

/* What one request's callbacks saw. */
struct rec {
	int	 done;			/* on_done calls */
	bool	 ok;
	long	 status;
	char	 error[HTTP_ERROR_MAX];
	char	*body;			/* copy of result.body, or NULL */
	size_t	 body_len;
	double	 elapsed;
	int	 attempts;
	int	 tag;
	char	 etag[HTTP_VALIDATOR_MAX];
	char	 last_modified[HTTP_VALIDATOR_MAX];

	char	*stream;		/* chunks joined */
	size_t	 stream_len;
	size_t	 chunks;
	size_t	 abort_after;		/* on_chunk fails after N chunks */
	bool	 cancel_in_chunk;	/* on_chunk cancels its udata */

	size_t	 progress_calls;
	size_t	 progress_last;
	bool	 progress_backwards;

	/* on_done actions */
	struct http_batch *batch;
	struct rec *next_page;		/* queue /page/2 with this rec */
	void	*cancel;		/* cancel this udata */
};

/* Seconds on the monotonic clock. */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read a whole file; NULL if it cannot be read. Caller frees. */
static char *
read_file(const char *path, size_t *len)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

/* A fixture file's bytes; fails the test if missing. */
static char *
fixture(const char *name, size_t *len)
{
	char path[1200], *data;

	snprintf(path, sizeof path, "%s/%s", srv.dir, name);
	if ((data = read_file(path, len)) == NULL)
		fail_msg("cannot read fixture %s", path);
	return data;
}

/* Number of times needle occurs in the server's request log. */
static int
log_count(const char *needle)
{
	char *log, *p;
	int n = 0;

	if ((log = read_file(srv.log_file, NULL)) == NULL)
		return 0;
	for (p = log; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	free(log);
	return n;
}

/* on_chunk: keep the piece; fail once abort_after chunks were seen. */
static int
rec_chunk(void *udata, const struct http_request *req, const char *data,
    size_t len)
{
	struct rec *r = udata;

	(void)req;
	if (r->abort_after > 0 && r->chunks >= r->abort_after)
		return -1;
	r->stream = xreallocarray(r->stream, r->stream_len + len + 1, 1);
	memcpy(r->stream + r->stream_len, data, len);
	r->stream_len += len;
	r->stream[r->stream_len] = '\0';
	r->chunks++;
	if (r->cancel_in_chunk)
		http_batch_cancel(r->batch, r);
	return 0;
}

/* on_progress: count the calls and check the byte count never drops. */
static void
rec_progress(void *udata, const struct http_request *req, size_t bytes)
{
	struct rec *r = udata;

	(void)req;
	if (bytes < r->progress_last)
		r->progress_backwards = true;
	r->progress_last = bytes;
	r->progress_calls++;
}

static void rec_done(void *udata, const struct http_result *res);

static const struct http_callbacks rec_cb = {
	.on_chunk = rec_chunk,
	.on_done = rec_done,
	.on_progress = rec_progress,
};

/* A new request for path on the fixture server (or an absolute URL). */
static struct http_request *
req_new(const char *path)
{
	struct http_request *req;

	req = xmalloc(sizeof *req);
	http_request_init(req);
	if (strstr(path, "://") != NULL)
		req->url = xstrdup(path);
	else
		req->url = xasprintf("http://127.0.0.1:%d%s", srv.port, path);
	return req;
}

/* on_done: copy the result, then do what the rec asks for. */
static void
rec_done(void *udata, const struct http_result *res)
{
	struct rec *r = udata;
	struct http_request *req;

	r->done++;
	r->ok = res->ok;
	r->status = res->status;
	snprintf(r->error, sizeof r->error, "%s", res->error);
	free(r->body);
	r->body = NULL;
	if (res->body != NULL) {
		r->body = xmalloc(res->body_len + 1);
		memcpy(r->body, res->body, res->body_len + 1);
	}
	r->body_len = res->body_len;
	r->elapsed = res->elapsed;
	r->attempts = res->attempts;
	r->tag = res->req->tag;
	snprintf(r->etag, sizeof r->etag, "%s", res->etag);
	snprintf(r->last_modified, sizeof r->last_modified, "%s",
	    res->last_modified);

	if (r->next_page != NULL) {
		req = req_new("/page/2");
		req->tag = 2;
		http_batch_add(r->batch, req, &rec_cb, r->next_page);
	}
	if (r->cancel != NULL)
		http_batch_cancel(r->batch, r->cancel);
}

/* Free what a rec holds and clear it. */
static void
rec_free(struct rec *r)
{
	free(r->body);
	free(r->stream);
	memset(r, 0, sizeof *r);
}

/* A batch with fast retries for tests: retries, each wait capped at wait_s. */
static struct http_batch *
batch_new(int retries, long wait_s)
{
	struct http_options o;

	http_options_default(&o);
	o.connect_timeout = 5;
	o.timeout = 10;
	o.max_retries = retries;
	o.max_retry_wait = wait_s;
	return http_batch_new(&o);
}

/* Run one GET of path in its own batch into r. */
static void
get_one(const char *path, struct rec *r, int retries, long wait_s)
{
	struct http_batch *b = batch_new(retries, wait_s);

	http_batch_add(b, req_new(path), &rec_cb, r);
	http_batch_run(b);
	http_batch_free(b);
	assert_int_equal(r->done, 1);
}

/* Assert that haystack contains needle, showing both if not. */
static void
assert_has(const char *haystack, const char *needle)
{
	if (strstr(haystack, needle) == NULL)
		fail_msg("\"%s\" does not contain \"%s\"", haystack, needle);
}

/* 200: the body arrives byte for byte, with the status and no error. */
static void
test_buffered(void **state)
{
	struct rec r = { 0 };
	size_t len;
	char *want = fixture("hello.json", &len);

	(void)state;
	get_one("/hello", &r, 2, 1);
	assert_true(r.ok);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.error, "");
	assert_int_equal(r.attempts, 1);
	assert_int_equal(r.body_len, len);
	assert_non_null(r.body);
	assert_memory_equal(r.body, want, len);
	assert_true(r.progress_calls >= 1);
	assert_int_equal(r.progress_last, len);
	free(want);
	rec_free(&r);
}

/* Three requests delayed 1 s each take about 1 s together, not 3. */
static void
test_concurrent(void **state)
{
	struct http_batch *b = batch_new(0, 1);
	struct rec r[3];
	char path[32];
	double t0, took;
	int i;

	(void)state;
	memset(r, 0, sizeof r);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "/slow/%d", i);
		http_batch_add(b, req_new(path), &rec_cb, &r[i]);
	}
	t0 = now_s();
	http_batch_run(b);
	took = now_s() - t0;
	http_batch_free(b);
	print_message("3 x 1 s delayed requests took %.3f s\n", took);
	for (i = 0; i < 3; i++) {
		assert_int_equal(r[i].done, 1);
		assert_true(r[i].ok);
		assert_true(r[i].elapsed >= 0.95);
		rec_free(&r[i]);
	}
	assert_true(took >= 0.95);
	/* One after another: 3 s. Room for a busy machine, not for that. */
	assert_true(took < 2.9);
}

/* 500 every time: max_retries retries, then the status as the error. */
static void
test_retry_500(void **state)
{
	struct rec r = { 0 };

	(void)state;
	get_one("/error", &r, 2, 1);
	print_message("500 x 3 attempts took %.3f s\n", r.elapsed);
	assert_false(r.ok);
	assert_int_equal(r.status, 500);
	assert_int_equal(r.attempts, 3);
	assert_string_equal(r.error, "HTTP 500 Internal Server Error");
	assert_int_equal(log_count("REQ GET /error\n"), 3);
	/* Backoff 1 s then 2 s, each capped at 1 s. */
	assert_true(r.elapsed >= 1.9);
	assert_true(r.elapsed < 4.0);
	rec_free(&r);
}

/* 429 with Retry-After (seconds, a past date, too long): honoured, capped. */
static void
test_retry_after(void **state)
{
	struct rec r = { 0 }, past = { 0 }, capped = { 0 };

	(void)state;
	get_one("/limited", &r, 2, 5);
	print_message("429 Retry-After: 1, then 200: %.3f s\n", r.elapsed);
	assert_true(r.ok);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.attempts, 2);
	assert_true(r.elapsed >= 1.0);
	/* Waited the second asked (a second retry would be 3 s). */
	assert_true(r.elapsed < 2.9);

	/* A date already past means now: no 1 s backoff. */
	get_one("/limited-date", &past, 2, 5);
	assert_true(past.ok);
	assert_int_equal(past.attempts, 2);
	assert_true(past.elapsed < 0.9);

	/* An hour is cut to max_retry_wait (1 s). */
	get_one("/limited-long", &capped, 2, 1);
	assert_true(capped.ok);
	assert_int_equal(capped.attempts, 2);
	assert_true(capped.elapsed >= 0.95);
	/* Not the hour asked. */
	assert_true(capped.elapsed < 30.0);
	rec_free(&r);
	rec_free(&past);
	rec_free(&capped);
}

/* Streamed: several chunks that add up to the file, progress as it goes. */
static void
test_stream(void **state)
{
	struct http_batch *b = batch_new(2, 1);
	struct http_request *req;
	struct rec r = { 0 }, again = { 0 }, stop = { 0 };
	size_t len;
	char *want = fixture("stream.csv", &len);

	(void)state;
	req = req_new("/stream");
	req->stream = true;
	http_batch_add(b, req, &rec_cb, &r);
	/* A 503 page is not data: retried, and never given to on_chunk. */
	req = req_new("/stream-503");
	req->stream = true;
	http_batch_add(b, req, &rec_cb, &again);
	/* on_chunk failing stops the transfer, with no retry. */
	req = req_new("/stream");
	req->stream = true;
	stop.abort_after = 1;
	http_batch_add(b, req, &rec_cb, &stop);
	http_batch_run(b);
	http_batch_free(b);

	print_message("stream: %zu chunks, %zu progress calls in %.3f s\n",
	    r.chunks, r.progress_calls, r.elapsed);
	assert_int_equal(r.done, 1);
	assert_true(r.ok);
	assert_null(r.body);
	assert_int_equal(r.body_len, len);
	assert_int_equal(r.stream_len, len);
	assert_memory_equal(r.stream, want, len);
	assert_true(r.chunks >= 2);
	assert_true(r.progress_calls >= 1);
	/* At most one call per ~100 ms, plus the first. */
	assert_true((double)r.progress_calls <= r.elapsed / 0.1 + 2);
	assert_false(r.progress_backwards);
	assert_true(r.progress_last <= len);

	assert_true(again.ok);
	assert_int_equal(again.attempts, 2);
	assert_int_equal(again.stream_len, len);
	assert_memory_equal(again.stream, want, len);

	assert_false(stop.ok);
	assert_int_equal(stop.attempts, 1);
	assert_int_equal(stop.chunks, 1);
	assert_has(stop.error, "stopped by the receiver");
	free(want);
	rec_free(&r);
	rec_free(&again);
	rec_free(&stop);
}

/* Bodies over max_body fail, with or without a Content-Length. */
static void
test_body_cap(void **state)
{
	struct http_batch *b = batch_new(2, 1);
	struct http_request *req;
	struct rec known = { 0 }, chunked = { 0 }, exact = { 0 };
	size_t len;
	char *want = fixture("hello.json", &len);

	(void)state;
	req = req_new("/hello");
	req->max_body = 100;
	http_batch_add(b, req, &rec_cb, &known);
	req = req_new("/chunked");
	req->max_body = 100;
	http_batch_add(b, req, &rec_cb, &chunked);
	req = req_new("/chunked");
	req->max_body = len;
	http_batch_add(b, req, &rec_cb, &exact);
	http_batch_run(b);
	http_batch_free(b);

	assert_false(known.ok);
	assert_string_equal(known.error, "body larger than 100 bytes");
	assert_int_equal(known.attempts, 1);
	assert_false(chunked.ok);
	assert_string_equal(chunked.error, "body larger than 100 bytes");
	assert_int_equal(chunked.attempts, 1);
	assert_true(exact.ok);
	assert_int_equal(exact.body_len, len);
	assert_memory_equal(exact.body, want, len);
	free(want);
	rec_free(&known);
	rec_free(&chunked);
	rec_free(&exact);
}

/* A body cut short is an error that says so; it is retried. */
static void
test_truncated(void **state)
{
	struct rec r = { 0 }, once = { 0 }, streamed = { 0 }, chunked = { 0 };
	struct http_batch *b;
	struct http_request *req;
	size_t len;
	char *want = fixture("stream.csv", &len), text[128];

	(void)state;
	get_one("/truncated", &r, 0, 0);
	assert_false(r.ok);
	assert_int_equal(r.attempts, 1);
	snprintf(text, sizeof text,
	    "connection closed early: received 1200 of %zu bytes", len);
	assert_has(r.error, text);
	print_message("truncated: %s\n", r.error);

	/* Without a Content-Length, the count alone. */
	get_one("/truncated-chunked", &chunked, 0, 0);
	assert_false(chunked.ok);
	assert_has(chunked.error, "connection closed early: received ");
	print_message("truncated, chunked: %s\n", chunked.error);

	/* Streamed, a cut after data went out cannot be retried. */
	b = batch_new(2, 0);
	req = req_new("/truncated");
	req->stream = true;
	http_batch_add(b, req, &rec_cb, &streamed);
	http_batch_run(b);
	http_batch_free(b);
	assert_false(streamed.ok);
	assert_int_equal(streamed.attempts, 1);
	assert_int_equal(streamed.stream_len, 1200);
	assert_memory_equal(streamed.stream, want, 1200);
	assert_has(streamed.error, text);

	get_one("/truncated-once", &once, 1, 0);
	assert_true(once.ok);
	assert_int_equal(once.attempts, 2);
	assert_int_equal(once.body_len, len);
	assert_memory_equal(once.body, want, len);
	free(want);
	rec_free(&r);
	rec_free(&once);
	rec_free(&streamed);
	rec_free(&chunked);
}

/* A server that never answers: timed out, retried, within the bounds. */
static void
test_stall(void **state)
{
	struct http_options o;
	struct http_batch *b;
	struct rec r = { 0 };

	(void)state;
	http_options_default(&o);
	o.connect_timeout = 1;
	o.timeout = 1;
	o.max_retries = 1;
	o.max_retry_wait = 0;
	b = http_batch_new(&o);
	http_batch_add(b, req_new("/stall"), &rec_cb, &r);
	http_batch_run(b);
	http_batch_free(b);
	print_message("stall: %s after %.3f s\n", r.error, r.elapsed);
	assert_int_equal(r.done, 1);
	assert_false(r.ok);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.attempts, 2);
	if (strstr(r.error, "timed out") == NULL &&
	    strstr(r.error, "too slow") == NULL)
		fail_msg("stall error: %s", r.error);
	assert_true(r.elapsed >= 1.9);
	assert_true(r.elapsed < 2.0 * (double)o.timeout + 1.5);
	rec_free(&r);
}

/* A gzip-encoded answer is decoded. */
static void
test_gzip(void **state)
{
	struct rec r = { 0 };
	size_t len;
	char *want = fixture("hello.json", &len);

	(void)state;
	get_one("/gzip", &r, 0, 0);
	assert_true(r.ok);
	assert_int_equal(r.body_len, len);
	assert_memory_equal(r.body, want, len);
	free(want);
	rec_free(&r);
}

/* A conditional request answered 304 is ok, with no body. */
static void
test_not_modified(void **state)
{
	struct http_batch *b;
	struct http_request *req;
	struct rec first = { 0 }, again = { 0 };

	(void)state;
	get_one("/etag", &first, 0, 0);
	assert_true(first.ok);
	assert_int_equal(first.status, 200);

	b = batch_new(0, 0);
	req = req_new("/etag");
	http_request_header(req, "If-None-Match", "\"v7\"");
	http_batch_add(b, req, &rec_cb, &again);
	http_batch_run(b);
	http_batch_free(b);
	assert_true(again.ok);
	assert_int_equal(again.status, 304);
	assert_int_equal(again.body_len, 0);
	assert_string_equal(again.error, "");
	rec_free(&first);
	rec_free(&again);
}

#define LM_V9	"Tue, 03 Mar 2026 10:00:00 GMT"

/* Run req in its own batch into r. */
static void
run_one(struct http_request *req, struct rec *r)
{
	struct http_batch *b = batch_new(0, 0);

	http_batch_add(b, req, &rec_cb, r);
	http_batch_run(b);
	http_batch_free(b);
	assert_int_equal(r->done, 1);
}

/*
 * The validators of an answer come back in the result; sent back as
 * If-None-Match or If-Modified-Since they get a 304 with no body, which
 * reports them again.
 */
static void
test_validators(void **state)
{
	struct http_request *req;
	struct rec first = { 0 }, by_tag = { 0 }, by_date = { 0 };
	char *log;

	(void)state;
	get_one("/validators", &first, 0, 0);
	assert_true(first.ok);
	assert_int_equal(first.status, 200);
	assert_string_equal(first.etag, "\"v9\"");
	assert_string_equal(first.last_modified, LM_V9);

	req = req_new("/validators");
	req->if_none_match = xstrdup(first.etag);
	run_one(req, &by_tag);
	assert_true(by_tag.ok);
	assert_int_equal(by_tag.status, 304);
	assert_int_equal(by_tag.body_len, 0);
	assert_string_equal(by_tag.etag, "\"v9\"");

	req = req_new("/validators");
	req->if_modified_since = xstrdup(first.last_modified);
	run_one(req, &by_date);
	assert_int_equal(by_date.status, 304);
	assert_string_equal(by_date.last_modified, LM_V9);

	log = read_file(srv.log_file, NULL);
	assert_non_null(log);
	assert_has(log, "HDR If-None-Match: \"v9\"\n");
	assert_has(log, "HDR If-Modified-Since: " LM_V9 "\n");
	free(log);
	rec_free(&first);
	rec_free(&by_tag);
	rec_free(&by_date);
}

/*
 * A validator with a control byte, or too long to keep, is reported as
 * none (never cleaned up into another one); one a request would send
 * with a line break fails the request before anything is sent.
 */
static void
test_validators_refused(void **state)
{
	struct http_request *req;
	struct rec ctl = { 0 }, lng = { 0 }, bad = { 0 };

	(void)state;
	get_one("/etag-control", &ctl, 0, 0);
	assert_true(ctl.ok);
	assert_string_equal(ctl.etag, "");
	assert_string_equal(ctl.last_modified, "");
	get_one("/etag-long", &lng, 0, 0);
	assert_true(lng.ok);
	assert_string_equal(lng.etag, "");

	req = req_new("/validators?injected");
	req->if_none_match = xstrdup("\"v9\"\r\nX-Injected: yes");
	run_one(req, &bad);
	assert_false(bad.ok);
	assert_int_equal(bad.status, 0);
	assert_has(bad.error, "not a usable validator");
	rec_free(&ctl);
	rec_free(&lng);
	rec_free(&bad);
}

/* Method, body and headers arrive as given, with our User-Agent. */
static void
test_post_headers(void **state)
{
	static const char query[] = "{\"query\":\"{ gpuTypes { id } }\"}";
	struct http_batch *b = batch_new(0, 0);
	struct http_request *req;
	struct rec post = { 0 }, put = { 0 };
	size_t len;
	char *want = fixture("post.json", &len);

	(void)state;
	req = req_new("/graphql?case=post");
	req->method = "POST";
	req->body = xstrdup(query);
	req->body_len = strlen(query);
	http_request_header(req, "Content-Type", "application/json");
	http_request_header(req, "X-Gpucost-Test", "hello there");
	http_batch_add(b, req, &rec_cb, &post);
	req = req_new("/put");
	req->method = "PUT";
	req->body = xstrdup("replace=1");
	req->body_len = 9;
	http_batch_add(b, req, &rec_cb, &put);
	http_batch_run(b);
	http_batch_free(b);

	assert_true(post.ok);
	assert_int_equal(post.body_len, len);
	assert_memory_equal(post.body, want, len);
	assert_true(put.ok);
	assert_int_equal(log_count("REQ POST /graphql?case=post\n"), 1);
	assert_int_equal(log_count("HDR X-Gpucost-Test: hello there\n"), 1);
	assert_int_equal(log_count("HDR Content-Type: application/json\n"), 1);
	assert_int_equal(log_count("BODY {\"query\":\"{ gpuTypes { id } }\"}"
	    "\n"), 1);
	assert_int_equal(log_count("REQ PUT /put\n"), 1);
	assert_int_equal(log_count("BODY replace=1\n"), 1);
	assert_true(log_count("HDR User-Agent: gpucost/" PACKAGE_VERSION "\n")
	    >= 2);
	assert_true(log_count("HDR Accept-Encoding: ") >= 2);
	assert_int_equal(log_count("HDR Expect:"), 0);
	free(want);
	rec_free(&post);
	rec_free(&put);
}

/* A request added from on_done runs in the same batch run. */
static void
test_add_from_done(void **state)
{
	struct http_batch *b = batch_new(0, 0);
	struct http_request *req;
	struct rec p1 = { 0 }, p2 = { 0 };

	(void)state;
	p1.batch = b;
	p1.next_page = &p2;
	req = req_new("/page/1");
	req->tag = 1;
	http_batch_add(b, req, &rec_cb, &p1);
	http_batch_run(b);
	http_batch_free(b);
	assert_int_equal(p1.done, 1);
	assert_int_equal(p1.tag, 1);
	assert_true(p1.ok);
	assert_string_equal(p1.body, "{\"page\":1,\"next\":\"/page/2\"}\n");
	assert_int_equal(p2.done, 1);
	assert_int_equal(p2.tag, 2);
	assert_true(p2.ok);
	assert_string_equal(p2.body, "{\"page\":2,\"next\":null}\n");
	rec_free(&p1);
	rec_free(&p2);
}

/*
 * Cancel: from on_done (a running and a waiting-to-retry request of
 * another udata), and from the caller between polls.
 */
static void
test_cancel(void **state)
{
	struct http_batch *b = batch_new(2, 30);
	struct rec victim = { 0 }, quick = { 0 }, other = { 0 }, late = { 0 };
	struct rec self = { 0 };
	struct http_request *req;
	int pending = 0, i;
	double t0;

	(void)state;
	/* One udata: a stalled request, and a 503 told to retry in 30 s. */
	http_batch_add(b, req_new("/stall"), &rec_cb, &victim);
	http_batch_add(b, req_new("/busy"), &rec_cb, &victim);
	t0 = now_s();
	while (log_count("REQ GET /busy\n") < 1 && now_s() - t0 < 3)
		http_batch_poll(b, -1, 20);
	for (i = 0; i < 5; i++)		/* the 503 arrives: waiting */
		http_batch_poll(b, -1, 20);
	assert_int_equal(victim.done, 0);

	/* quick's on_done cancels both. */
	quick.batch = b;
	quick.cancel = &victim;
	http_batch_add(b, req_new("/hello"), &rec_cb, &quick);
	http_batch_run(b);
	print_message("cancel from on_done: %.3f s\n", now_s() - t0);
	assert_int_equal(quick.done, 1);
	assert_true(quick.ok);
	assert_int_equal(victim.done, 2);
	assert_false(victim.ok);
	assert_string_equal(victim.error, "cancelled");
	/* Not the stall's: the victim was cancelled. */
	assert_true(now_s() - t0 < 10.0);

	/* From the caller, between polls; a later add is not cancelled. */
	http_batch_add(b, req_new("/stall"), &rec_cb, &other);
	for (i = 0; i < 5; i++)
		pending = http_batch_poll(b, -1, 20);
	assert_int_equal(pending, 1);
	assert_int_equal(other.done, 0);
	http_batch_cancel(b, &other);
	assert_int_equal(other.done, 1);
	assert_false(other.ok);
	assert_string_equal(other.error, "cancelled");
	assert_int_equal(other.attempts, 1);
	http_batch_add(b, req_new("/hello"), &rec_cb, &late);
	http_batch_cancel(b, &victim);	/* nothing left of that udata */
	http_batch_run(b);
	assert_int_equal(late.done, 1);
	assert_true(late.ok);

	/* From on_chunk, inside libcurl: carried out when it returns. */
	req = req_new("/stream");
	req->stream = true;
	self.batch = b;
	self.cancel_in_chunk = true;
	http_batch_add(b, req, &rec_cb, &self);
	http_batch_run(b);
	assert_int_equal(self.done, 1);
	assert_false(self.ok);
	assert_string_equal(self.error, "cancelled");
	assert_int_equal(self.chunks, 1);
	http_batch_free(b);
	rec_free(&victim);
	rec_free(&quick);
	rec_free(&other);
	rec_free(&late);
	rec_free(&self);
}

/* http_batch_poll wakes up for extra_fd, and returns the pending count. */
static void
test_poll_fd(void **state)
{
	struct http_batch *b = batch_new(0, 0);
	struct rec r = { 0 };
	int fds[2], pending;
	double t0, took;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	http_batch_add(b, req_new("/stall"), &rec_cb, &r);
	pending = http_batch_poll(b, fds[0], 0);
	assert_int_equal(pending, 1);
	assert_int_equal(write(fds[1], "k", 1), 1);
	t0 = now_s();
	pending = http_batch_poll(b, fds[0], 3000);
	took = now_s() - t0;
	assert_int_equal(pending, 1);
	assert_true(took < 1.0);
	/* Nothing pending: still waits for the fd, which is readable. */
	http_batch_cancel(b, &r);
	assert_int_equal(r.done, 1);
	t0 = now_s();
	assert_int_equal(http_batch_poll(b, fds[0], 3000), 0);
	assert_true(now_s() - t0 < 1.0);
	/* And with nothing pending and no fd, does not wait at all. */
	t0 = now_s();
	assert_int_equal(http_batch_poll(b, -1, 3000), 0);
	assert_true(now_s() - t0 < 0.5);
	http_batch_free(b);
	close(fds[0]);
	close(fds[1]);
	rec_free(&r);
}

/* A port on 127.0.0.1 with nothing listening. */
static int
closed_port(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd, port;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

/* A key in the URL never shows in the error; connection errors retry. */
static void
test_redact(void **state)
{
	struct rec r = { 0 };
	struct http_batch *b = batch_new(1, 0);
	struct http_request *req;
	char url[128];

	(void)state;
	snprintf(url, sizeof url,
	    "http://127.0.0.1:%d/v1/skus?key=S3CRET-K3Y&page=1", closed_port());
	req = req_new(url);
	req->redact = xstrdup("S3CRET-K3Y");
	http_batch_add(b, req, &rec_cb, &r);
	http_batch_run(b);
	http_batch_free(b);
	print_message("refused: %s\n", r.error);
	assert_false(r.ok);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.attempts, 2);
	assert_null(r.body);
	assert_has(r.error, "key=***");
	assert_null(strstr(r.error, "S3CRET"));
	rec_free(&r);
}

/*
 * Issue 43: a response header libcurl will not hold (200 kB; its limit is
 * 100 kB) is "header too large", never "out of memory", and not retried.
 */
static void
test_header_too_large(void **state)
{
	struct rec r = { 0 };
	struct http_batch *b = batch_new(1, 2);

	(void)state;
	http_batch_add(b, req_new("/bigheader"), &rec_cb, &r);
	http_batch_run(b);
	http_batch_free(b);
	print_message("200 kB header: %s\n", r.error);
	assert_false(r.ok);
	assert_has(r.error, "header too large");
	assert_null(strstr(r.error, "out of memory"));
	assert_has(r.error, "/bigheader");
	assert_int_equal(r.attempts, 1);
	rec_free(&r);
}

/* Only http and https, redirects included; a redirect to http works. */
static void
test_protocols(void **state)
{
	struct http_batch *b = batch_new(2, 1);
	struct rec file = { 0 }, redir = { 0 }, bad_redir = { 0 }, none = { 0 };
	struct http_request *req;

	(void)state;
	http_batch_add(b, req_new("file:///etc/passwd"), &rec_cb, &file);
	http_batch_add(b, req_new("/redirect"), &rec_cb, &redir);
	http_batch_add(b, req_new("/redirect-file"), &rec_cb, &bad_redir);
	req = req_new("/hello");
	free(req->url);
	req->url = NULL;
	http_batch_add(b, req, &rec_cb, &none);
	/* A failure found when adding still reports from inside poll. */
	assert_int_equal(none.done, 0);
	http_batch_run(b);
	http_batch_free(b);
	print_message("file://: %s\n", file.error);
	print_message("redirect to file://: %s\n", bad_redir.error);

	assert_false(file.ok);
	assert_int_equal(file.status, 0);
	assert_int_equal(file.attempts, 1);
	assert_null(file.body);
	assert_has(file.error, "file");
	assert_true(redir.ok);
	assert_int_equal(redir.status, 200);
	assert_false(bad_redir.ok);
	assert_int_equal(bad_redir.attempts, 1);
	assert_null(strstr(bad_redir.body != NULL ? bad_redir.body : "",
	    "root:"));
	assert_int_equal(none.done, 1);
	assert_false(none.ok);
	assert_int_equal(none.attempts, 0);
	assert_string_equal(none.error, "no URL");
	rec_free(&file);
	rec_free(&redir);
	rec_free(&bad_redir);
	rec_free(&none);
}

/* Start the fixture server on a temporary folder and read its port. */
static int
server_start(void **state)
{
	const char *exe = getenv("FIXTURE_SERVER");
	const char *top = getenv("TOP_SRCDIR");
	const char *tmpdir = getenv("TMPDIR");
	char *port;
	double t0;

	(void)state;
	snprintf(srv.dir, sizeof srv.dir, "%s/tests/fixtures/http",
	    top != NULL ? top : ".");
	snprintf(srv.tmp, sizeof srv.tmp, "%s/test_http.XXXXXX",
	    tmpdir != NULL && tmpdir[0] != '\0' ? tmpdir : "/tmp");
	if (mkdtemp(srv.tmp) == NULL) {
		fprintf(stderr, "mkdtemp %s: %s\n", srv.tmp, strerror(errno));
		return -1;
	}
	snprintf(srv.port_file, sizeof srv.port_file, "%s/port", srv.tmp);
	snprintf(srv.log_file, sizeof srv.log_file, "%s/req.log", srv.tmp);

	if ((srv.pid = fork()) == -1)
		return -1;
	if (srv.pid == 0) {
		execl(exe, exe, "--dir", srv.dir, "--port-file",
		    srv.port_file, "--log", srv.log_file, "--idle-timeout",
		    "60", (char *)NULL);
		fprintf(stderr, "exec %s: %s\n", exe, strerror(errno));
		_exit(127);
	}
	t0 = now_s();
	while ((port = read_file(srv.port_file, NULL)) == NULL) {
		if (now_s() - t0 > 10 || waitpid(srv.pid, NULL, WNOHANG) != 0) {
			fprintf(stderr, "fixture server did not start\n");
			return -1;
		}
		usleep(20000);
	}
	srv.port = atoi(port);
	free(port);
	return srv.port > 0 ? 0 : -1;
}

/* Stop the server and remove its files. */
static int
server_stop(void **state)
{
	(void)state;
	if (srv.pid > 0) {
		kill(srv.pid, SIGTERM);
		waitpid(srv.pid, NULL, 0);
	}
	unlink(srv.port_file);
	unlink(srv.log_file);
	rmdir(srv.tmp);
	return 0;
}

/* Skip without a fixture server; else run every test against one. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffered),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_retry_500),
		cmocka_unit_test(test_retry_after),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_body_cap),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_stall),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_not_modified),
		cmocka_unit_test(test_validators),
		cmocka_unit_test(test_validators_refused),
		cmocka_unit_test(test_post_headers),
		cmocka_unit_test(test_add_from_done),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_poll_fd),
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_protocols),
		cmocka_unit_test(test_header_too_large),
	};
	const char *exe = getenv("FIXTURE_SERVER");
	int rc;

	if (exe == NULL || exe[0] == '\0') {
		printf("test_http: FIXTURE_SERVER is not set, skipping\n");
		return 77;
	}
	if (http_global_init() != 0) {
		fprintf(stderr, "test_http: curl_global_init failed\n");
		return 99;
	}
	rc = cmocka_run_group_tests(tests, server_start, server_stop);
	http_global_cleanup();
	return rc;
}
