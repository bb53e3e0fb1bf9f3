/* adapter_harness.c: run an adapter on fixture files (tests only). */
#include "config.h"
#include "adapter_harness.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "http.h"
#include "xalloc.h"

char *
harness_fixture_path(const char *name)
{
	const char *top = getenv("TOP_SRCDIR");

	return xasprintf("%s/tests/fixtures/%s", top != NULL ? top : ".",
	    name);
}

char *
harness_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	if (f == NULL) {
		fprintf(stderr, "harness: cannot open %s\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)size + 1);
	if (size > 0 && fread(buf, 1, (size_t)size, f) != (size_t)size)
		abort();
	buf[size] = '\0';
	fclose(f);
	*len = (size_t)size;
	return buf;
}

static void
log_request(struct harness_log *log, const struct http_request *req)
{
	size_t i, len = 1;
	char *h;

	if (log == NULL || log->n == HARNESS_LOG_MAX)
		return;
	for (i = 0; i < req->nheaders; i++)
		len += strlen(req->headers[i]) + 1;
	h = xcalloc(1, len);
	for (i = 0; i < req->nheaders; i++) {
		strcat(h, req->headers[i]);
		strcat(h, "\n");
	}
	log->url[log->n] = xstrdup(req->url);
	log->method[log->n] = xstrdup(req->method);
	log->headers[log->n] = h;
	log->conditional[log->n] = !req->conditional ? 0 :
	    req->refetch ? 'r' : 'c';
	log->body[log->n] = req->body != NULL ?
	    xstrndup(req->body, req->body_len) : xstrdup("");
	log->n++;
}

void
harness_log_free(struct harness_log *log)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		free(log->url[i]);
		free(log->method[i]);
		free(log->headers[i]);
		free(log->body[i]);
	}
	log->n = 0;
}

/* Answer one request; -1 with err when it or the adapter fails. */
static int
answer(const struct provider *p, struct provider_run *run,
    struct http_request *req, const struct harness_route *routes,
    size_t nroutes, const char *dir, size_t chunk, struct err *err)
{
	const struct harness_route *r = NULL;
	struct http_result res;
	char *path, *body;
	size_t i, len, off, n;
	int rc;

	for (i = 0; i < nroutes; i++) {
		if (strstr(req->url, routes[i].url_has) == NULL)
			continue;
		if (routes[i].body_has != NULL && (req->body == NULL ||
		    strstr(req->body, routes[i].body_has) == NULL))
			continue;
		r = &routes[i];
		break;
	}
	if (r == NULL) {
		err_set(err, "harness: no route for %s %s", req->method,
		    req->url);
		return -1;
	}
	path = xasprintf("%s/%s", dir, r->file);
	body = harness_read_file(path, &len);
	free(path);
	memset(&res, 0, sizeof res);
	res.req = req;
	res.status = r->status != 0 ? r->status : 200;
	res.attempts = 1;
	res.body_len = len;
	if (res.status < 200 || res.status > 299) {
		err_set(err, "HTTP %ld", res.status);
		free(body);
		return -1;
	}
	res.ok = true;
	if (req->stream) {
		if (chunk == 0)
			chunk = 4096;
		for (off = 0; off < len; off += n) {
			n = len - off < chunk ? len - off : chunk;
			if (p->chunk(run, req, body + off, n, err) < 0) {
				free(body);
				return -1;
			}
		}
	} else {
		if (req->max_body > 0 && len > req->max_body) {
			err_set(err, "body larger than %zu bytes", req->max_body);
			free(body);
			return -1;
		}
		res.body = body;
	}
	rc = p->response(run, &res, err);
	free(body);
	return rc;
}

int
harness_run(const struct provider *p, struct provider_run *run,
    const struct harness_route *routes, size_t nroutes, const char *dir,
    size_t chunk, struct harness_log *log, struct err *err)
{
	struct http_request *req;
	char *own_dir = NULL;
	int rc = 0;

	if (dir == NULL)
		dir = own_dir = harness_fixture_path(p->id);
	if (p->start(run, err) < 0) {
		free(own_dir);
		return -1;
	}
	/* FIFO: the order http.c would start them (completion may differ). */
	while (rc == 0 && run->nqueue > 0) {
		req = run->queue[0];
		memmove(run->queue, run->queue + 1,
		    (run->nqueue - 1) * sizeof *run->queue);
		run->nqueue--;
		log_request(log, req);
		rc = answer(p, run, req, routes, nroutes, dir, chunk, err);
		http_request_done(req);
		free(req);
	}
	if (rc == 0 && p->finish != NULL)
		rc = p->finish(run, err);
	/* What refresh.c checks of every adapter after finish(). */
	if (rc == 0)
		rc = provider_check_unique(run, err);
	free(own_dir);
	return rc;
}

void
harness_tmp_file(const char *dir, const char *name, const char *body)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (f == NULL || fputs(body, f) == EOF || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s\n", path);
		abort();
	}
	free(path);
}

char *
harness_tmp_dir(const char *name, const char *body)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpucost-harness-XXXXXX",
	    tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");

	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "cannot create %s\n", dir);
		abort();
	}
	harness_tmp_file(dir, name, body);
	return dir;
}

void
harness_tmp_dir_free(char *dir)
{
	DIR *d;
	struct dirent *e;
	char *path;

	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			path = xasprintf("%s/%s", dir, e->d_name);
			unlink(path);
			free(path);
		}
		closedir(d);
	}
	rmdir(dir);
	free(dir);
}

const struct offer *
harness_offer_find(const struct provider_run *run, const char *key)
{
	size_t i;

	for (i = 0; i < run->offers.n; i++)
		if (strcmp(run->offers.v[i].key, key) == 0)
			return &run->offers.v[i];
	return NULL;
}

const struct offer *
harness_offer(const struct provider_run *run, const char *key)
{
	const struct offer *o = harness_offer_find(run, key);

	if (o == NULL)
		fail_msg("no offer %s", key);
	return o;
}
