/* fuzz_run.c: run an adapter on memory buffers and check its output. */
#include "config.h"
#include "fuzz_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "http.h"
#include "offer.h"
#include "str.h"
#include "xalloc.h"

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: property broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int
fuzz_text_is_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		/* U+0080..U+009F (C1 controls, CSI among them) in UTF-8. */
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return 0;
	}
	return 1;
}

/* Feed a streamed body to the chunk hook in two exactly-sized pieces. */
static int
feed_chunks(const struct provider *p, struct provider_run *run,
    const struct http_request *req, const char *body, size_t len,
    size_t split, struct err *err)
{
	size_t at[3], i, n;
	char *piece;
	int rc = 0;

	if (split > len)
		split = len;
	at[0] = 0;
	at[1] = split;
	at[2] = len;
	for (i = 0; i < 2 && rc == 0; i++) {
		n = at[i + 1] - at[i];
		if (n == 0)
			continue;
		piece = xmalloc(n);
		memcpy(piece, body + at[i], n);
		rc = p->chunk(run, req, piece, n, err);
		free(piece);
	}
	return rc;
}

/* Answer one request and hand the result to the adapter. */
static int
answer_one(const struct provider *p, struct provider_run *run,
    const struct http_request *req, fuzz_answer_fn answer, void *udata,
    size_t nth, size_t split, struct err *err)
{
	struct http_result res;
	const char *body;
	char *copy = NULL;
	size_t len;
	int rc;

	if (answer(udata, req, nth, &body, &len) < 0) {
		err_set(err, "fuzz: request failed");
		return -1;
	}
	memset(&res, 0, sizeof res);
	res.req = req;
	res.status = 200;
	res.ok = true;
	res.attempts = 1;
	res.body_len = len;
	if (req->stream) {
		if (p->chunk == NULL) {
			err_set(err, "fuzz: adapter cannot stream");
			return -1;
		}
		if (feed_chunks(p, run, req, body, len, split, err) < 0)
			return -1;
	} else {
		if (req->max_body > 0 && len > req->max_body) {
			err_set(err, "body larger than %zu bytes",
			    req->max_body);
			return -1;
		}
		copy = xmalloc(len + 1);
		memcpy(copy, body, len);
		copy[len] = '\0';
		res.body = copy;
	}
	rc = p->response(run, &res, err);
	free(copy);
	return rc;
}

int
fuzz_run(const struct provider *p, struct provider_run *run,
    fuzz_answer_fn answer, void *udata, size_t split, struct err *err)
{
	struct http_request *req;
	size_t nth = 0;
	int rc;

	err_clear(err);
	if ((rc = p->start(run, err)) < 0)
		return -1;
	/* FIFO: the order http.c would start them. */
	while (rc == 0 && run->nqueue > 0) {
		if (nth == FUZZ_REQUESTS_MAX) {
			err_set(err, "fuzz: more than %d requests",
			    FUZZ_REQUESTS_MAX);
			return -1;
		}
		req = run->queue[0];
		memmove(run->queue, run->queue + 1,
		    (run->nqueue - 1) * sizeof *run->queue);
		run->nqueue--;
		rc = answer_one(p, run, req, answer, udata, nth++, split, err);
		http_request_done(req);
		free(req);
	}
	if (rc == 0 && p->finish != NULL)
		rc = p->finish(run, err);
	return rc < 0 ? -1 : 0;
}

/* Abort unless the offer field is sanitised provider text. */
static void
check_text(const struct provider_run *run, size_t i, const char *field,
    const char *s)
{
	if (!str_is_clean(s))
		fuzz_fail("%s: offer %zu: %s \"%s\" is not sanitised",
		    run->provider->id, i, field, s);
}

void
fuzz_check_run(const struct provider_run *run, int rc, const struct err *err)
{
	const struct offer *o;
	struct err check;
	size_t i;

	for (i = 0; i < run->offers.n; i++) {
		o = &run->offers.v[i];
		check_text(run, i, "provider", o->provider);
		check_text(run, i, "key", o->key);
		check_text(run, i, "instance_type", o->instance_type);
		check_text(run, i, "region", o->region);
		check_text(run, i, "gpu", o->gpu);
		check_text(run, i, "gpu_raw", o->gpu_raw);
		if (rc == 0 && offer_check(o, &check) < 0)
			fuzz_fail("%s: offer %zu fails offer_check: %s",
			    run->provider->id, i, check.msg);
		/* What offer_check() leaves to the adapters. */
		if (strcmp(o->provider, run->provider->id) != 0 ||
		    o->fetched_at != run->now || o->source != SRC_LIVE)
			fuzz_fail("%s: offer %zu not stamped by the run",
			    run->provider->id, i);
		if ((unsigned)o->interconnect > IC_NVLINK ||
		    (unsigned)o->availability > AV_UNAVAILABLE ||
		    o->spot_interruption < -1 || o->spot_interruption > 4 ||
		    !(o->reliability < 0 || o->reliability <= 1))
			fuzz_fail("%s: offer %zu: enum or ratio out of range",
			    run->provider->id, i);
	}
	if (rc == 0)
		return;
	if (err->msg[0] == '\0')
		fuzz_fail("%s: failed without a message", run->provider->id);
	if (!fuzz_text_is_safe(err->msg))
		fuzz_fail("%s: message holds control characters: %s",
		    run->provider->id, err->msg);
}

void
fuzz_provider(const struct provider *p, fuzz_answer_fn answer, void *udata,
    size_t split)
{
	struct provider_run run;
	struct err err;
	int rc;

	provider_run_init(&run, p);
	run.now = 1757720000;
	run.api_key = FUZZ_API_KEY;
	run.account = "fuzz-account";	/* SaladCloud's organisation */
	run.usd_per_eur = 1080000;	/* 1.08: for a provider billing in EUR */
	rc = fuzz_run(p, &run, answer, udata, split, &err);
	fuzz_check_run(&run, rc, &err);
	provider_run_done(&run);
}

/* The fuzzed body of fuzz_provider_body(). */
struct fuzz_body {
	const char	*data;
	size_t		 len;
};

/* Every request gets the body. */
static int
answer_body(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct fuzz_body *b = udata;

	(void)req;
	(void)nth;
	*body = b->data;
	*len = b->len;
	return 0;
}

void
fuzz_provider_body(const struct provider *p, const uint8_t *data,
    size_t size)
{
	struct fuzz_body b = { (const char *)data, size };

	fuzz_provider(p, answer_body, &b, 0);
}
