/*
 * adapter_harness.h: drive a provider adapter on fixture files, with no
 * network: what refresh.c does with http.c, minus libcurl. Unit tests of
 * the adapters use it to check parsing, pagination and the requests an
 * adapter makes (URLs, headers, bodies).
 */
#ifndef GPUCOST_TESTS_ADAPTER_HARNESS_H
#define GPUCOST_TESTS_ADAPTER_HARNESS_H

#include <stddef.h>

#include "provider.h"

/* How to answer a request: the first route that matches wins. */
struct harness_route {
	const char	*url_has;	/* substring of the request URL */
	const char	*body_has;	/* substring of the request body, or NULL */
	const char	*file;		/* fixture file under the fixture dir */
	long		 status;	/* 0 means 200 */
};

#define HARNESS_LOG_MAX 64

/* What the adapter asked for, for assertions. */
struct harness_log {
	size_t	n;
	char	*url[HARNESS_LOG_MAX];
	char	*method[HARNESS_LOG_MAX];
	char	*headers[HARNESS_LOG_MAX];	/* "\n"-joined */
	char	*body[HARNESS_LOG_MAX];
	/* 'c' conditional, 'r' conditional but refetched, 0 neither */
	char	 conditional[HARNESS_LOG_MAX];
};

/*
 * Run p over run (initialised by provider_run_init and with its in
 * fields set): start, then answer every queued request from routes
 * (files under dir, "$TOP_SRCDIR/tests/fixtures/<id>" when dir is NULL),
 * streaming bodies in chunks of chunk bytes (0: 4096), then finish. An
 * unrouted request or a status other than 2xx fails like a refresh would.
 * Returns 0 or -1 with err; log (may be NULL) records the requests.
 * The caller still calls provider_run_done(run) and harness_log_free().
 */
int	harness_run(const struct provider *p, struct provider_run *run,
	    const struct harness_route *routes, size_t nroutes,
	    const char *dir, size_t chunk, struct harness_log *log,
	    struct err *err);

void	harness_log_free(struct harness_log *log);

/* The run's offer with key, or NULL (a test that checks an absence). */
const struct offer *harness_offer_find(const struct provider_run *run,
	    const char *key);
/* The run's offer with key; the test fails if there is none. */
const struct offer *harness_offer(const struct provider_run *run,
	    const char *key);

/* Read a whole fixture file; caller frees. Aborts the test if missing. */
char	*harness_read_file(const char *path, size_t *len);

/* "$TOP_SRCDIR/tests/fixtures/<name>" (or relative to the cwd). */
char	*harness_fixture_path(const char *name);

/*
 * A new temporary fixture directory holding file name with body (for
 * bodies a test builds); harness_tmp_file() adds another file to it.
 * harness_tmp_dir_free() removes the files and the directory.
 */
char	*harness_tmp_dir(const char *name, const char *body);
void	harness_tmp_file(const char *dir, const char *name, const char *body);
void	harness_tmp_dir_free(char *dir);

#endif
