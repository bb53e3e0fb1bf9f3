/*
 * json.h: cJSON with errors that name the place in the document.
 *
 * Adapters parse provider bodies with these helpers so every failure
 * reads like "offers[3].dph_total: expected a number, got string".
 */
#ifndef GPUCOST_JSON_H
#define GPUCOST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

struct err;

/*
 * Parse len bytes. An HTML page (a proxy's error page, a login wall) or
 * an empty body gets its own message. The caller frees *out with
 * cJSON_Delete().
 */
int	json_parse(const char *body, size_t len, cJSON **out, struct err *err);
/*
 * json_parse() of a body whose bytes from offset gap_at were cut out
 * (gap of them) before parsing: the messages give offsets and the length
 * of the whole body (json_stream.c parses the skeleton of a streamed one).
 */
int	json_parse_gap(const char *body, size_t len, size_t gap_at, size_t gap,
	    cJSON **out, struct err *err);

/*
 * How deeply nested JSON text s is at byte at (arrays and objects open
 * before it, strings skipped): where cJSON stopped past its nesting
 * limit (CJSON_NESTING_LIMIT), the body was no malformed JSON.
 */
size_t	json_depth_at(const char *s, size_t at);

/* Name of a JSON value's type ("string", "number", "null" ...). */
const char *json_type_name(const cJSON *item);

/*
 * Typed member access: obj[key] (path names obj in messages). A missing
 * or null member gives *found = false when found is non-NULL, and an
 * error otherwise. Numbers given as strings ("0.45") are accepted where
 * a number is expected.
 */
int	json_get_string(const cJSON *obj, const char *key, const char *path,
	    char *buf, size_t size, bool *found, struct err *err);
int	json_get_number(const cJSON *obj, const char *key, const char *path,
	    double *out, bool *found, struct err *err);
int	json_get_int(const cJSON *obj, const char *key, const char *path,
	    long long min, long long max, long long *out, bool *found,
	    struct err *err);
/* A price in USD (number or decimal string) as micro-USD. */
int	json_get_money(const cJSON *obj, const char *key, const char *path,
	    int64_t *out, bool *found, struct err *err);
/* An array or object member; NULL (and an error) when absent or wrong. */
const cJSON *json_get_array(const cJSON *obj, const char *key,
	    const char *path, struct err *err);
const cJSON *json_get_object(const cJSON *obj, const char *key,
	    const char *path, struct err *err);

#endif
