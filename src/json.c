/* json.c: cJSON access with located error messages. */
#include "config.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "money.h"
#include "str.h"

/*
 * cJSON returns NULL for a body it cannot parse and for one it ran out
 * of memory building: counting failed allocations tells them apart.
 */
static unsigned long json_alloc_failures;

static void *
json_malloc(size_t size)
{
	void *p = malloc(size);

	if (p == NULL)
		json_alloc_failures++;
	return p;
}

static void
json_hooks(void)
{
	static int installed;
	cJSON_Hooks hooks = { json_malloc, free };

	if (!installed) {
		cJSON_InitHooks(&hooks);
		installed = 1;
	}
}

int
json_parse(const char *body, size_t len, cJSON **out, struct err *err)
{
	return json_parse_gap(body, len, len, 0, out, err);
}

size_t
json_depth_at(const char *s, size_t at)
{
	size_t i, depth = 0;
	bool in_string = false;

	for (i = 0; i < at; i++) {
		if (in_string) {
			if (s[i] == '\\' && i + 1 < at)
				i++;
			else if (s[i] == '"')
				in_string = false;
		} else if (s[i] == '"')
			in_string = true;
		else if (s[i] == '[' || s[i] == '{')
			depth++;
		else if ((s[i] == ']' || s[i] == '}') && depth > 0)
			depth--;
	}
	return depth;
}

/* The offset in the whole body of byte off of what json_parse_gap() read. */
static size_t
gap_offset(size_t off, size_t gap_at, size_t gap)
{
	return off >= gap_at ? off + gap : off;
}

int
json_parse_gap(const char *body, size_t len, size_t gap_at, size_t gap,
    cJSON **out, struct err *err)
{
	const char *p = body, *end = body + len, *where;
	char snippet[32];
	unsigned long failures;

	*out = NULL;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
	    *p == '\n'))
		p++;
	if (p == end) {
		err_set(err, "empty response body");
		return -1;
	}
	if (*p == '<') {
		str_sanitize(snippet, sizeof snippet, p,
		    (size_t)(end - p) < 20 ? (size_t)(end - p) : 20);
		err_set(err, "expected JSON, got HTML or XML (\"%s...\")",
		    snippet);
		return -1;
	}
	json_hooks();
	failures = json_alloc_failures;
	*out = cJSON_ParseWithLengthOpts(body, len, &where, 0);
	if (*out == NULL && json_alloc_failures != failures) {
		err_set(err, "out of memory parsing a %zu-byte JSON body", len);
		return -1;
	}
	if (*out != NULL && where != NULL) {
		/* Only whitespace may follow the value: "{} junk" is malformed. */
		const char *rest = where;

		while (rest < end && (*rest == ' ' || *rest == '\t' ||
		    *rest == '\r' || *rest == '\n'))
			rest++;
		if (rest < end) {
			err_set(err, "malformed JSON: unexpected data after the "
			    "value at byte %zu of %zu", gap_offset((size_t)(rest -
			    body), gap_at, gap), len + gap);
			cJSON_Delete(*out);
			*out = NULL;
			return -1;
		}
	}
	if (*out == NULL) {
		/* cJSON stops at its nesting limit: say so, not "malformed". */
		if (where != NULL && where >= body && where <= end &&
		    json_depth_at(body, (size_t)(where - body)) >=
		    CJSON_NESTING_LIMIT)
			err_set(err, "JSON nested too deep: more than %d levels "
			    "at byte %zu of %zu", CJSON_NESTING_LIMIT,
			    gap_offset((size_t)(where - body), gap_at, gap),
			    len + gap);
		else if (where != NULL && where >= body && where <= end)
			err_set(err, "malformed JSON at byte %zu of %zu%s",
			    gap_offset((size_t)(where - body), gap_at, gap),
			    len + gap,
			    where + 1 >= end ? " (the body ends early: "
			    "truncated?)" : "");
		else
			err_set(err, "malformed JSON");
		return -1;
	}
	return 0;
}

const char *
json_type_name(const cJSON *item)
{
	if (item == NULL || cJSON_IsNull(item))
		return "null";
	if (cJSON_IsString(item))
		return "string";
	if (cJSON_IsNumber(item))
		return "number";
	if (cJSON_IsBool(item))
		return "boolean";
	if (cJSON_IsArray(item))
		return "array";
	if (cJSON_IsObject(item))
		return "object";
	return "invalid";
}

/* Provider text for a message: sanitised and cut to fit buf. */
static const char *
quote(const char *s, char *buf, size_t size)
{
	str_sanitize(buf, size, s, strlen(s));
	return buf;
}

/* The member, or NULL with *found false / an error for missing. */
static const cJSON *
member(const cJSON *obj, const char *key, const char *path, bool *found,
    struct err *err, int *rc)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*rc = 0;
	if (item == NULL || cJSON_IsNull(item)) {
		if (found != NULL)
			*found = false;
		else {
			err_set(err, "%s.%s: missing", path, key);
			*rc = -1;
		}
		return NULL;
	}
	if (found != NULL)
		*found = true;
	return item;
}

int
json_get_string(const cJSON *obj, const char *key, const char *path,
    char *buf, size_t size, bool *found, struct err *err)
{
	const cJSON *item;
	int rc;

	if (size > 0)
		buf[0] = '\0';
	if ((item = member(obj, key, path, found, err, &rc)) == NULL)
		return rc;
	if (!cJSON_IsString(item)) {
		err_set(err, "%s.%s: expected a string, got %s", path, key,
		    json_type_name(item));
		return -1;
	}
	str_sanitize(buf, size, item->valuestring, strlen(item->valuestring));
	return 0;
}

int
json_get_number(const cJSON *obj, const char *key, const char *path,
    double *out, bool *found, struct err *err)
{
	const cJSON *item;
	char *end, clean[24];
	int rc;

	if ((item = member(obj, key, path, found, err, &rc)) == NULL)
		return rc;
	if (cJSON_IsNumber(item))
		*out = item->valuedouble;
	else if (cJSON_IsString(item) && item->valuestring[0] != '\0') {
		*out = strtod(item->valuestring, &end);
		if (*end != '\0') {
			err_set(err, "%s.%s: expected a number, got \"%s\"",
			    path, key, quote(item->valuestring, clean,
			    sizeof clean));
			return -1;
		}
	} else {
		err_set(err, "%s.%s: expected a number, got %s", path, key,
		    json_type_name(item));
		return -1;
	}
	if (!isfinite(*out)) {
		err_set(err, "%s.%s: not a finite number", path, key);
		return -1;
	}
	return 0;
}

int
json_get_int(const cJSON *obj, const char *key, const char *path,
    long long min, long long max, long long *out, bool *found,
    struct err *err)
{
	double v;

	if (json_get_number(obj, key, path, &v, found, err) < 0)
		return -1;
	if (found != NULL && !*found)
		return 0;
	/*
	 * (double)max rounds (LLONG_MAX to 2^63, which no long long holds):
	 * refuse 2^63 before the cast, and check the bounds again after.
	 */
	if (v < (double)min || v > (double)max || v >= 0x1p63 ||
	    isless(floor(v), v) || (long long)v < min || (long long)v > max) {
		err_set(err, "%s.%s: %g is not a whole number in %lld..%lld",
		    path, key, v, min, max);
		return -1;
	}
	*out = (long long)v;
	return 0;
}

int
json_get_money(const cJSON *obj, const char *key, const char *path,
    int64_t *out, bool *found, struct err *err)
{
	const cJSON *item;
	char clean[24];
	int rc;

	*out = MONEY_NONE;
	if ((item = member(obj, key, path, found, err, &rc)) == NULL)
		return rc;
	if (cJSON_IsString(item)) {
		if (money_parse(item->valuestring, strlen(item->valuestring),
		    out) < 0) {
			err_set(err, "%s.%s: expected a price in USD, got "
			    "\"%s\"", path, key, quote(item->valuestring, clean,
			    sizeof clean));
			return -1;
		}
		return 0;
	}
	if (!cJSON_IsNumber(item)) {
		err_set(err, "%s.%s: expected a price in USD, got %s", path,
		    key, json_type_name(item));
		return -1;
	}
	if (money_from_double(item->valuedouble, out) < 0) {
		err_set(err, "%s.%s: price %g is negative, not finite or "
		    "absurd", path, key, item->valuedouble);
		return -1;
	}
	return 0;
}

const cJSON *
json_get_array(const cJSON *obj, const char *key, const char *path,
    struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsArray(item)) {
		err_set(err, "%s.%s: expected an array, got %s", path, key,
		    item == NULL ? "nothing" : json_type_name(item));
		return NULL;
	}
	return item;
}

const cJSON *
json_get_object(const cJSON *obj, const char *key, const char *path,
    struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsObject(item)) {
		err_set(err, "%s.%s: expected an object, got %s", path, key,
		    item == NULL ? "nothing" : json_type_name(item));
		return NULL;
	}
	return item;
}
