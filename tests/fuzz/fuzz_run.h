/*
 * fuzz_run.h: drive a provider adapter from memory buffers, for the
 * libFuzzer targets in tests/fuzz: what refresh.c does with http.c,
 * minus libcurl and files (tests/unit/adapter_harness.c reads files).
 *
 * A target picks the body of every request its adapter queues with an
 * answer callback, runs the adapter with fuzz_run() and then checks the
 * properties every adapter must keep whatever the provider sends, with
 * fuzz_check_run(): each offer's text is sanitised (str_is_clean), each
 * offer of a successful run passes offer_check(), and a failed run says
 * why in one line without terminal control characters. A broken
 * property abort()s, which libFuzzer reports as a crash.
 */
#ifndef GPUCOST_TESTS_FUZZ_RUN_H
#define GPUCOST_TESTS_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "provider.h"

struct err;
struct http_request;

/* Most requests one run may make; more fails the run (a paging loop). */
#define FUZZ_REQUESTS_MAX	64	/* Scaleway asks 18 at least */

/* The fixed key a target gives adapters that need one. */
#define FUZZ_API_KEY		"fuzz-api-key-0123"

/*
 * The body for request number nth (0 first): set *body and *len (the
 * memory stays the caller's) and return 0, or return -1 to fail the
 * request as a transport error would.
 */
typedef int (*fuzz_answer_fn)(void *udata, const struct http_request *req,
	    size_t nth, const char **body, size_t *len);

/*
 * Run p over run (initialised with provider_run_init and its in fields
 * set): start, answer every queued request in FIFO order, then finish.
 * A streamed body goes to the chunk hook in two pieces split at byte
 * split (clamped to the body's length), each in its own exactly-sized
 * buffer, so reading past a chunk is an ASan report. A buffered body is
 * copied and NUL-terminated, as http.c hands it over. Returns 0 or -1
 * with err, as the adapter's hooks did. The caller still calls
 * provider_run_done().
 */
int	fuzz_run(const struct provider *p, struct provider_run *run,
	    fuzz_answer_fn answer, void *udata, size_t split, struct err *err);

/* Check the run's properties (see above) given fuzz_run's result. */
void	fuzz_check_run(const struct provider_run *run, int rc,
	    const struct err *err);

/* The common case: one provider, every request answered by answer. */
void	fuzz_provider(const struct provider *p, fuzz_answer_fn answer,
	    void *udata, size_t split);

/* One provider, every request answered with the same data. */
void	fuzz_provider_body(const struct provider *p, const uint8_t *data,
	    size_t size);

/* abort() with a message naming the target and what broke. */
void	fuzz_fail(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* Does a message hold no C0/C1 control, DEL or escape? */
int	fuzz_text_is_safe(const char *s);

#endif
