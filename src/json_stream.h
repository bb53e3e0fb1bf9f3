/*
 * json_stream.h: one array of a JSON body, element by element, as the
 * body arrives.
 *
 * A marketplace answers {"offers":[...]} with tens of megabytes of
 * offers. Parsed whole, the body and its cJSON tree take about ten
 * times that. This scanner reads the body in the pieces the network
 * delivers, tracking strings, escapes and nesting, cuts each element
 * of the root object's array named `key` out of the stream and hands it,
 * parsed by cJSON, to a callback; only one element is held at a time.
 * Everything else of the body (the other members, and the array as
 * "[]") is kept as the skeleton, parsed at the end, so the caller sees
 * the same document as before minus the elements it was given. A body
 * that is not an object (an HTML error page, an array) is kept whole
 * and parsed at the end, with json_parse()'s messages.
 *
 * Every error names its byte offset in the whole body. Pure: no I/O.
 */
#ifndef GPUCOST_JSON_STREAM_H
#define GPUCOST_JSON_STREAM_H

#include <stddef.h>

#include <cJSON.h>

struct err;
struct json_stream;

/*
 * One element: item (freed by the scanner after the call), its index in
 * the array and its byte offset in the body. Returns 0, or -1 with err
 * to stop the scan.
 */
typedef int (*json_stream_element)(void *arg, const cJSON *item,
	    size_t index, size_t offset, struct err *err);

/*
 * A scanner for the array at key of the root object. max_body caps the
 * whole body, max_kept the skeleton and any one element (the memory it
 * may hold).
 */
struct json_stream *json_stream_new(const char *key, size_t max_body,
	    size_t max_kept, json_stream_element fn, void *arg);
void	json_stream_free(struct json_stream *js);	/* NULL is fine */

/* The next len bytes of the body. Returns 0, or -1 with err. */
int	json_stream_feed(struct json_stream *js, const char *data, size_t len,
	    struct err *err);

/*
 * The body ended: check that it was complete and parse its skeleton into
 * *root (the caller frees it with cJSON_Delete()). The array streamed
 * is there, empty; an array that was not streamed (the body was not an
 * object, say) is there whole.
 */
int	json_stream_finish(struct json_stream *js, cJSON **root,
	    struct err *err);

/* Elements handed to the callback so far. */
size_t	json_stream_count(const struct json_stream *js);

#endif
