/*
 * fuzz_json.c: json_parse() and the typed getters on fuzzed JSON. The
 * body is handed over without a NUL after it, so json_parse() must keep
 * to its length. Every member of every object (to a bounded depth and
 * count) is read with each getter. Properties: a string comes back
 * sanitised and within its buffer, at any buffer size; a number is
 * finite, an int within its bounds, a price within 0..MONEY_MAX; a
 * failure has a message with no terminal control characters.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fuzz_run.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DEPTH_MAX	8
#define MEMBERS_MAX	256

/* A failed getter's message must be safe (the key is clean here). */
static void
check_err(const char *what, int rc, const struct err *err)
{
	if (rc < 0 && (err->msg[0] == '\0' || !fuzz_text_is_safe(err->msg)))
		fuzz_fail("%s: bad message: %s", what, err->msg);
}

/* Read member key of obj with every getter. */
static void
read_member(const cJSON *obj, const char *key)
{
	static const size_t sizes[] = { 1, 2, 5, 24, 64 };
	struct err err;
	char *buf;
	double d;
	long long ll;
	int64_t money;
	bool found;
	size_t i;
	int rc;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		buf = xmalloc(sizes[i]);
		err_clear(&err);
		rc = json_get_string(obj, key, "doc", buf, sizes[i], &found,
		    &err);
		check_err("json_get_string", rc, &err);
		if (rc == 0 && found && !str_is_clean(buf))
			fuzz_fail("json_get_string: \"%s\" not sanitised", buf);
		if (strnlen(buf, sizes[i]) == sizes[i])
			fuzz_fail("json_get_string: not terminated");
		free(buf);
	}
	err_clear(&err);
	rc = json_get_number(obj, key, "doc", &d, &found, &err);
	check_err("json_get_number", rc, &err);
	if (rc == 0 && found && !isfinite(d))
		fuzz_fail("json_get_number: not finite");
	err_clear(&err);
	rc = json_get_int(obj, key, "doc", -5, 1000, &ll, &found, &err);
	check_err("json_get_int", rc, &err);
	if (rc == 0 && found && (ll < -5 || ll > 1000))
		fuzz_fail("json_get_int: %lld out of -5..1000", ll);
	err_clear(&err);
	rc = json_get_int(obj, key, "doc", LLONG_MIN, LLONG_MAX, &ll, NULL,
	    &err);
	check_err("json_get_int", rc, &err);
	err_clear(&err);
	rc = json_get_money(obj, key, "doc", &money, &found, &err);
	check_err("json_get_money", rc, &err);
	if (rc == 0 && found && (money < 0 || money > MONEY_MAX))
		fuzz_fail("json_get_money: %lld out of range",
		    (long long)money);
	err_clear(&err);
	if (json_get_array(obj, key, "doc", &err) == NULL)
		check_err("json_get_array", -1, &err);
	err_clear(&err);
	if (json_get_object(obj, key, "doc", &err) == NULL)
		check_err("json_get_object", -1, &err);
}

/* Visit item and its children, reading each object's members. */
static void
walk(const cJSON *item, int depth, size_t *budget)
{
	const cJSON *child;

	if (depth > DEPTH_MAX)
		return;
	(void)json_type_name(item);
	cJSON_ArrayForEach(child, item) {
		if (*budget == 0)
			return;
		(*budget)--;
		if (cJSON_IsObject(item) && child->string != NULL &&
		    str_is_clean(child->string))
			read_member(item, child->string);
		walk(child, depth + 1, budget);
	}
	/* A member that is not there. */
	if (cJSON_IsObject(item))
		read_member(item, "absent");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err;
	cJSON *root;
	size_t budget = MEMBERS_MAX;
	char *copy;

	/* Exactly size bytes: no NUL after the body to lean on. */
	copy = xmalloc(size > 0 ? size : 1);
	memcpy(copy, data, size);
	err_clear(&err);
	if (json_parse(copy, size, &root, &err) < 0) {
		if (root != NULL)
			fuzz_fail("json_parse: failed but returned a tree");
		check_err("json_parse", -1, &err);
	} else {
		walk(root, 0, &budget);
		cJSON_Delete(root);
	}
	free(copy);
	return 0;
}
