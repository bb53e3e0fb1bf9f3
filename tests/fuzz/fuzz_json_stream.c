/*
 * fuzz_json_stream.c: the streaming scanner of src/json_stream.c on
 * fuzzed bodies. The first byte picks where the body is cut in two (the
 * rest is the body). Properties: the scanner never reads outside what it
 * is given; one piece or two give the same elements, skeleton and
 * verdict (so a chunk boundary never matters); a body cJSON accepts
 * whole is accepted, and its root's "offers" elements are the ones
 * handed over, in order; a refusal has a safe one-line message.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fuzz_run.h"
#include "json_stream.h"
#include "xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define KEPT_MAX	((size_t)1 << 20)
#define TEXT_MAX	((size_t)1 << 16)

/* The elements seen, printed one after another. */
struct seen {
	char	*text;
	size_t	 len;
	size_t	 n;
};

static int
collect(void *arg, const cJSON *item, size_t index, size_t offset,
    struct err *err)
{
	struct seen *s = arg;
	char *p = cJSON_PrintUnformatted(item);
	size_t n;

	(void)offset;
	(void)err;
	if (index != s->n)
		fuzz_fail("element %zu handed over as %zu", s->n, index);
	s->n++;
	if (p == NULL)
		return 0;
	n = strlen(p);
	if (s->len + n + 2 < TEXT_MAX) {
		memcpy(s->text + s->len, p, n);
		s->len += n;
		s->text[s->len++] = ';';
		s->text[s->len] = '\0';
	}
	free(p);
	return 0;
}

/* Scan body, cut at `cut`: 0 or -1; elements in *s, skeleton in *skel. */
static int
scan(const char *body, size_t len, size_t cut, struct seen *s, char **skel,
    struct err *err)
{
	struct json_stream *js;
	cJSON *root = NULL;
	char *copy;
	int rc;

	s->len = s->n = 0;
	s->text[0] = '\0';
	*skel = NULL;
	err_clear(err);
	js = json_stream_new("offers", (size_t)1 << 30, KEPT_MAX, collect, s);
	/* Exactly-sized copies: ASan sees any read past a piece. */
	copy = xmalloc(cut > 0 ? cut : 1);
	memcpy(copy, body, cut);
	rc = json_stream_feed(js, copy, cut, err);
	free(copy);
	if (rc == 0) {
		copy = xmalloc(len - cut > 0 ? len - cut : 1);
		memcpy(copy, body + cut, len - cut);
		rc = json_stream_feed(js, copy, len - cut, err);
		free(copy);
	}
	if (rc == 0)
		rc = json_stream_finish(js, &root, err);
	if (rc == 0) {
		*skel = cJSON_PrintUnformatted(root);
		cJSON_Delete(root);
	} else if (err->msg[0] == '\0' || !fuzz_text_is_safe(err->msg))
		fuzz_fail("bad message: %s", err->msg);
	json_stream_free(js);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen one, two;
	char *skel1, *skel2;
	const char *body;
	struct err err1, err2;
	size_t len, cut;
	int rc1, rc2;

	if (size < 1)
		return 0;
	body = (const char *)data + 1;
	len = size - 1;
	cut = len > 0 ? data[0] % (len + 1) : 0;
	one.text = xmalloc(TEXT_MAX);
	two.text = xmalloc(TEXT_MAX);
	rc1 = scan(body, len, len, &one, &skel1, &err1);
	rc2 = scan(body, len, cut, &two, &skel2, &err2);
	if (rc1 != rc2 || one.n != two.n || strcmp(one.text, two.text) != 0 ||
	    (rc1 == 0 && strcmp(skel1 != NULL ? skel1 : "",
	    skel2 != NULL ? skel2 : "") != 0) ||
	    (rc1 < 0 && strcmp(err1.msg, err2.msg) != 0))
		fuzz_fail("cut at %zu changes the answer: %d/%d, %zu/%zu "
		    "elements, \"%s\" / \"%s\"", cut, rc1, rc2, one.n, two.n,
		    err1.msg, err2.msg);
	{
		const char *end = NULL;
		cJSON *whole = cJSON_ParseWithLengthOpts(body, len, &end, 0);
		const cJSON *offers, *item;
		struct seen want;
		char *p;
		size_t n;

		/* Only whitespace may follow, as json_parse() requires. */
		while (whole != NULL && end != NULL && end < body + len &&
		    (*end == ' ' || *end == '\t' || *end == '\r' ||
		    *end == '\n'))
			end++;
		if (whole != NULL && (end == NULL || end == body + len)) {
			if (rc1 < 0)
				fuzz_fail("valid JSON refused: %s", err1.msg);
			want.text = xmalloc(TEXT_MAX);
			want.len = want.n = 0;
			want.text[0] = '\0';
			offers = cJSON_IsObject(whole) ?
			    cJSON_GetObjectItemCaseSensitive(whole, "offers") :
			    NULL;
			/* Streamed only when the first "offers" is an array. */
			if (cJSON_IsArray(offers) && one.n > 0) {
				cJSON_ArrayForEach(item, offers) {
					p = cJSON_PrintUnformatted(item);
					if (p == NULL)
						continue;
					n = strlen(p);
					if (want.len + n + 2 < TEXT_MAX) {
						memcpy(want.text + want.len, p,
						    n);
						want.len += n;
						want.text[want.len++] = ';';
						want.text[want.len] = '\0';
					}
					free(p);
				}
				if (strcmp(want.text, one.text) != 0)
					fuzz_fail("elements differ from the "
					    "whole parse");
			}
			free(want.text);
		}
		cJSON_Delete(whole);
	}
	free(skel1);
	free(skel2);
	free(one.text);
	free(two.text);
	return 0;
}
