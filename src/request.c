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
	for (i = 0; i < req->nheaders; i++)
		free(req->headers[i]);
	if (req->redact != NULL) {
		/* Do not leave a key lying in freed memory. */
		memset(req->redact, 0, strlen(req->redact));
		free(req->redact);
	}
	http_request_init(req);
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
