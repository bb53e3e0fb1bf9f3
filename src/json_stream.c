/* json_stream.c: the elements of one array of a JSON body, as it arrives. */
#include "config.h"
#include "json_stream.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "str.h"
#include "xalloc.h"

#define KEY_MAX		64

enum js_mode {
	JS_START,		/* whitespace before the root value */
	JS_RAW,			/* the root is not an object: kept whole */
	JS_OBJECT,		/* inside the root object */
	JS_ARRAY,		/* inside the streamed array */
	JS_DONE,		/* after the root object */
	JS_FAILED
};

/* Where a root member (depth 1) is: "key" : value , */
enum js_slot {
	SLOT_KEY,		/* a key may start */
	SLOT_KEY_TEXT,		/* inside a key */
	SLOT_COLON,		/* after a key */
	SLOT_VALUE,		/* after the colon */
	SLOT_OTHER		/* inside or after a value */
};

/* Inside the streamed array. */
enum js_elem {
	EL_FIRST,		/* after '[': an element or ']' */
	EL_NEXT,		/* after ',': an element */
	EL_IN,			/* inside an element */
	EL_AFTER		/* after an element: ',' or ']' */
};

struct js_buf {
	char	*v;
	size_t	 n;
	size_t	 cap;
};

struct json_stream {
	char	 key[KEY_MAX];
	size_t	 keylen;
	size_t	 max_body;
	size_t	 max_kept;
	json_stream_element fn;
	void	*arg;

	enum js_mode mode;
	size_t	 pos;		/* bytes of the body seen */
	struct js_buf kept;	/* the skeleton: the body minus the elements */
	size_t	 gap_at;	/* offset in kept where the elements were */
	size_t	 gap;		/* bytes of the body cut out there */
	bool	 streamed;	/* the array was found (only the first is) */

	/* The root object, outside the array. */
	int	 depth;
	bool	 in_string;
	bool	 escape;
	enum js_slot slot;
	size_t	 key_at;	/* offset in kept of the current key's text */
	bool	 key_match;

	/* The element being cut. */
	enum js_elem el;
	struct js_buf elem;
	size_t	 elem_at;	/* its offset in the body */
	int	 edepth;
	bool	 estring;
	bool	 eescape;
	bool	 escalar;	/* a number, true, false or null */
	size_t	 index;
};

struct json_stream *
json_stream_new(const char *key, size_t max_body, size_t max_kept,
    json_stream_element fn, void *arg)
{
	struct json_stream *js = xcalloc(1, sizeof *js);

	str_copy(js->key, sizeof js->key, key);
	js->keylen = strlen(js->key);
	js->max_body = max_body;
	js->max_kept = max_kept;
	js->fn = fn;
	js->arg = arg;
	js->gap_at = SIZE_MAX;
	return js;
}

void
json_stream_free(struct json_stream *js)
{
	if (js == NULL)
		return;
	free(js->kept.v);
	free(js->elem.v);
	free(js);
}

size_t
json_stream_count(const struct json_stream *js)
{
	return js->index;
}

/* Append one byte to b, which may hold max bytes. */
static int
buf_put(struct js_buf *b, char c, size_t max)
{
	if (b->n >= max)
		return -1;
	if (b->n == b->cap) {
		b->cap = b->cap < 256 ? 256 : b->cap * 2;
		if (b->cap > max)
			b->cap = max;
		b->v = xreallocarray(b->v, b->cap, 1);
	}
	b->v[b->n++] = c;
	return 0;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Keep c in the skeleton. */
static int
keep(struct json_stream *js, char c, struct err *err)
{
	if (buf_put(&js->kept, c, js->max_kept) < 0) {
		err_set(err, "more than %zu bytes of JSON outside the \"%s\" "
		    "array (at byte %zu)", js->max_kept, js->key, js->pos);
		return -1;
	}
	return 0;
}

static int
malformed(struct json_stream *js, const char *why, struct err *err)
{
	err_set(err, "malformed JSON at byte %zu: %s", js->pos, why);
	return -1;
}

/* Parse the element cut out and hand it over. */
static int
deliver(struct json_stream *js, struct err *err)
{
	const char *where = NULL, *end = js->elem.v + js->elem.n;
	cJSON *item;
	int rc;

	item = cJSON_ParseWithLengthOpts(js->elem.v, js->elem.n, &where, 0);
	if (item == NULL && where != NULL && where >= js->elem.v &&
	    where <= end && json_depth_at(js->elem.v, (size_t)(where -
	    js->elem.v)) >= CJSON_NESTING_LIMIT) {
		err_set(err, "JSON nested too deep: more than %d levels at "
		    "byte %zu (%s[%zu])", CJSON_NESTING_LIMIT, js->elem_at +
		    (size_t)(where - js->elem.v), js->key, js->index);
		return -1;
	}
	if (item == NULL || (where != NULL && where < end)) {
		cJSON_Delete(item);
		err_set(err, "malformed JSON at byte %zu (%s[%zu])",
		    js->elem_at + (where != NULL && where >= js->elem.v &&
		    where <= end ? (size_t)(where - js->elem.v) : 0), js->key,
		    js->index);
		return -1;
	}
	rc = js->fn(js->arg, item, js->index, js->elem_at, err);
	cJSON_Delete(item);
	js->index++;
	js->elem.n = 0;
	js->el = EL_AFTER;
	return rc;
}

/* One byte inside the streamed array (not kept, but for its ']'). */
static int
array_byte(struct json_stream *js, char c, struct err *err)
{
	if (js->el == EL_IN) {
		if (js->escalar && (is_space(c) || c == ',' || c == ']')) {
			/* The scalar ends here; c is the next token. */
			if (deliver(js, err) < 0)
				return -1;
		} else {
			if (buf_put(&js->elem, c, js->max_kept) < 0) {
				err_set(err, "%s[%zu] at byte %zu is larger "
				    "than %zu bytes", js->key, js->index,
				    js->elem_at, js->max_kept);
				return -1;
			}
			if (js->escalar)
				return 0;
			if (js->estring) {
				if (js->eescape)
					js->eescape = false;
				else if (c == '\\')
					js->eescape = true;
				else if (c == '"')
					js->estring = false;
			} else if (c == '"')
				js->estring = true;
			else if (c == '{' || c == '[')
				js->edepth++;
			else if (c == '}' || c == ']')
				js->edepth--;
			if (!js->estring && js->edepth <= 0)
				return deliver(js, err);
			return 0;
		}
	}
	if (is_space(c))
		return 0;
	if (js->el == EL_AFTER || js->el == EL_FIRST) {
		if (c == ']') {
			js->mode = JS_OBJECT;
			js->slot = SLOT_OTHER;
			return keep(js, c, err);
		}
		if (js->el == EL_AFTER) {
			if (c == ',') {
				js->el = EL_NEXT;
				return 0;
			}
			return malformed(js, "expected ',' or ']' after an "
			    "element", err);
		}
	}
	if (c == ',' || c == ']')
		return malformed(js, "expected an element", err);
	js->el = EL_IN;
	js->elem.n = 0;
	js->elem_at = js->pos;
	js->edepth = c == '{' || c == '[' ? 1 : 0;
	js->estring = c == '"';
	js->eescape = false;
	js->escalar = !js->estring && js->edepth == 0;
	if (c == '}')
		return malformed(js, "expected an element", err);
	return buf_put(&js->elem, c, js->max_kept);
}

/* One byte of the root object, outside the array: kept. */
static int
object_byte(struct json_stream *js, char c, struct err *err)
{
	if (js->in_string) {
		if (js->escape)
			js->escape = false;
		else if (c == '\\')
			js->escape = true;
		else if (c == '"') {
			js->in_string = false;
			if (js->depth == 1 && js->slot == SLOT_KEY_TEXT) {
				js->key_match = js->kept.n - js->key_at ==
				    js->keylen && memcmp(js->kept.v +
				    js->key_at, js->key, js->keylen) == 0;
				js->slot = SLOT_COLON;
			}
		}
		return keep(js, c, err);
	}
	if (js->depth == 1) {
		if (c == '[' && js->slot == SLOT_VALUE && js->key_match &&
		    !js->streamed) {
			if (keep(js, c, err) < 0)
				return -1;
			js->mode = JS_ARRAY;
			js->streamed = true;
			js->el = EL_FIRST;
			js->gap_at = js->kept.n;
			return 0;
		}
		if (c == ',')
			js->slot = SLOT_KEY;
		else if (c == ':' && js->slot == SLOT_COLON)
			js->slot = SLOT_VALUE;
		else if (c == '"' && js->slot == SLOT_KEY) {
			js->slot = SLOT_KEY_TEXT;
			js->key_at = js->kept.n + 1;
		} else if (!is_space(c))
			js->slot = SLOT_OTHER;
	}
	if (c == '"')
		js->in_string = true;
	else if (c == '{' || c == '[')
		js->depth++;
	else if (c == '}' || c == ']') {
		if (--js->depth == 0)
			js->mode = JS_DONE;
	}
	return keep(js, c, err);
}

int
json_stream_feed(struct json_stream *js, const char *data, size_t len,
    struct err *err)
{
	size_t i;
	int rc = 0;

	if (js->mode == JS_FAILED) {
		err_set(err, "the body was already refused");
		return -1;
	}
	if (len > js->max_body - js->pos) {
		err_set(err, "body larger than %zu bytes", js->max_body);
		js->mode = JS_FAILED;
		return -1;
	}
	for (i = 0; i < len && rc == 0; i++, js->pos++) {
		char c = data[i];

		switch (js->mode) {
		case JS_START:
			if (c == '{') {
				js->mode = JS_OBJECT;
				js->depth = 1;
				js->slot = SLOT_KEY;
			} else if (!is_space(c))
				js->mode = JS_RAW;
			rc = keep(js, c, err);
			break;
		case JS_OBJECT:
			rc = object_byte(js, c, err);
			break;
		case JS_ARRAY:
			rc = array_byte(js, c, err);
			/* Every byte up to the closing ']' is cut out. */
			if (js->mode == JS_ARRAY)
				js->gap++;
			break;
		case JS_RAW:
		case JS_DONE:
			rc = keep(js, c, err);
			break;
		case JS_FAILED:
			rc = -1;
			break;
		}
	}
	if (rc < 0)
		js->mode = JS_FAILED;
	return rc;
}

int
json_stream_finish(struct json_stream *js, cJSON **root, struct err *err)
{
	size_t gap_at;

	*root = NULL;
	if (js->mode == JS_FAILED) {
		err_set(err, "the body was already refused");
		return -1;
	}
	/* The array never ended (cJSON would point at its '['). */
	if (js->mode == JS_ARRAY) {
		js->mode = JS_FAILED;
		err_set(err, "malformed JSON at byte %zu of %zu (the body ends "
		    "early: truncated?)", js->pos, js->pos);
		return -1;
	}
	gap_at = js->gap_at != SIZE_MAX ? js->gap_at : js->kept.n;
	return json_parse_gap(js->kept.v != NULL ? js->kept.v : "",
	    js->kept.n, gap_at, js->gap, root, err);
}
