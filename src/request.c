/* request.c: the request record (no transport here; see http.c). */
#include "config.h"
#include "request.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void
http_request_init(struct http_request *req)
{
	memset(req, 0, sizeof *req);
	req->method = "GET";
}

void
http_request_done(struct http_request *req)
{
	size_t i;

	if (req == NULL)
		return;
	free(req->url);
	free(req->body);
	free(req->if_none_match);
	free(req->if_modified_since);
	for (i = 0; i < req->nheaders; i++)
		free(req->headers[i]);
	if (req->redact != NULL) {
		/* Do not leave a key lying in freed memory. */
		memset(req->redact, 0, strlen(req->redact));
		free(req->redact);
	}
	http_request_init(req);
}

struct http_request *
http_request_dup(const struct http_request *req)
{
	struct http_request *dup;
	size_t i;

	dup = xmalloc(sizeof *dup);
	http_request_init(dup);
	dup->url = req->url != NULL ? xstrdup(req->url) : NULL;
	dup->method = req->method;
	if (req->body != NULL) {
		dup->body = xmalloc(req->body_len + 1);
		memcpy(dup->body, req->body, req->body_len);
		dup->body[req->body_len] = '\0';
		dup->body_len = req->body_len;
	}
	for (i = 0; i < req->nheaders; i++)
		dup->headers[i] = xstrdup(req->headers[i]);
	dup->nheaders = req->nheaders;
	dup->redact = req->redact != NULL ? xstrdup(req->redact) : NULL;
	dup->stream = req->stream;
	dup->max_body = req->max_body;
	dup->tag = req->tag;
	dup->conditional = req->conditional;
	dup->refetch = req->refetch;
	return dup;
}

bool
http_validator_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= HTTP_VALIDATOR_MAX)
		return false;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

void
http_request_header(struct http_request *req, const char *name,
    const char *value)
{
	if (req->nheaders == HTTP_HEADERS_MAX)
		abort();	/* a programming error: adapters send a few */
	req->headers[req->nheaders++] = xasprintf("%s: %s", name, value);
}

char *
http_redact(const char *text, const char *secret)
{
	size_t slen, n = 0;
	const char *p, *hit;
	char *out, *o;

	if (secret == NULL || secret[0] == '\0')
		return xstrdup(text);
	slen = strlen(secret);
	for (p = text; (hit = strstr(p, secret)) != NULL; p = hit + slen)
		n++;
	out = xmalloc(strlen(text) + n * 3 + 1);
	o = out;
	for (p = text; (hit = strstr(p, secret)) != NULL; p = hit + slen) {
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		memcpy(o, "***", 3);
		o += 3;
	}
	strcpy(o, p);
	return out;
}
