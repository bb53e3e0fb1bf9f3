/*
 * http.h: run a batch of HTTP requests concurrently (libcurl multi).
 *
 * This is the only interface to libcurl; nothing else includes curl.
 * Call order:
 *
 *	batch = http_batch_new(&options);
 *	http_batch_add(batch, req, &callbacks, udata);	  (any number)
 *	http_batch_run(batch);				  (CLI: until all done)
 *	  or repeatedly http_batch_poll(batch, fd, ms)	  (TUI: keeps the UI live)
 *	http_batch_free(batch);
 *
 * A request's callbacks run from inside run/poll: on_chunk for each
 * piece of a streamed body (req->stream), then on_done exactly once with
 * the outcome. on_done may add further requests (the next page) to the
 * same batch. A buffered body (req->stream false) is held in memory up
 * to req->max_body bytes and handed to on_done whole; a longer body
 * fails the request ("body larger than N bytes").
 *
 * Every transfer sends User-Agent gpucost/VERSION and Accept-Encoding
 * for the encodings libcurl can decode, allows only http and https
 * (redirects included), always verifies TLS, and is retried a bounded
 * number of times with backoff on connection errors, 429 and 5xx,
 * honouring Retry-After. A streamed request is retried only before its
 * first chunk was delivered.
 *
 * Conditional requests: req->if_none_match and req->if_modified_since,
 * when set, go out as those headers; the final response's ETag and
 * Last-Modified come back in the result. A 304 is ok, with no body.
 */
#ifndef GPUCOST_HTTP_H
#define GPUCOST_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "request.h"

struct http_callbacks {
	/* Streamed body piece; return nonzero to abort the request. */
	int	(*on_chunk)(void *udata, const struct http_request *req,
		    const char *data, size_t len);
	/* The outcome (ok or not). Runs exactly once per request. */
	void	(*on_done)(void *udata, const struct http_result *result);
	/* Progress: bytes received so far for this request (may be NULL). */
	void	(*on_progress)(void *udata, const struct http_request *req,
		    size_t bytes);
};

struct http_options {
	long	connect_timeout;	/* seconds */
	long	timeout;		/* seconds for a whole transfer */
	int	max_retries;		/* retries after the first attempt */
	long	max_retry_wait;		/* cap on one Retry-After/backoff, s */
};

struct http_batch;

/* Defaults: 15 s connect, 600 s transfer, 2 retries, 30 s max wait. */
void	http_options_default(struct http_options *opts);

struct http_batch *http_batch_new(const struct http_options *opts);
void	http_batch_free(struct http_batch *batch);	/* NULL is fine */

/*
 * Queue req (ownership passes to the batch, which frees it after
 * on_done). udata is passed to the callbacks.
 */
void	http_batch_add(struct http_batch *batch, struct http_request *req,
	    const struct http_callbacks *cb, void *udata);

/* Abort every pending request with this udata (each gets on_done). */
void	http_batch_cancel(struct http_batch *batch, void *udata);

/* Run until every request (including ones added meanwhile) is done. */
void	http_batch_run(struct http_batch *batch);

/*
 * Do what is ready, waiting at most timeout_ms for network activity or
 * for extra_fd (-1: none) to become readable. Returns the number of
 * requests still pending.
 */
int	http_batch_poll(struct http_batch *batch, int extra_fd, int timeout_ms);

/*
 * Global libcurl setup/teardown; main() calls each once. libcurl is
 * loaded at run time (dlopen) by http_global_init(), or by the first
 * http_batch_new() if nothing called it: a command that never fetches
 * never loads it. On failure http_global_error() says why (the library
 * missing, a symbol missing); it returns NULL when nothing failed.
 */
int	http_global_init(void);
const char *http_global_error(void);
void	http_global_cleanup(void);

#endif
