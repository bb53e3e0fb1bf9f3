/* test_provider.c: the provider registry's adapter toolkit (provider.h). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "offer.h"
#include "provider.h"
#include "request.h"

/* Unreserved bytes stay; everything else, UTF-8 included, is %XX. */
static void
test_url_escape(void **state)
{
	char *s;

	(void)state;
	s = provider_url_escape("AZaz09-._~");
	assert_string_equal(s, "AZaz09-._~");
	free(s);
	s = provider_url_escape("a b/c?d=e&f+g%h\xc3\xa9");
	assert_string_equal(s, "a%20b%2Fc%3Fd%3De%26f%2Bg%25h%C3%A9");
	free(s);
	s = provider_url_escape("");
	assert_string_equal(s, "");
	free(s);
}

/* A key goes in one Authorization header; no key, no header. */
static void
test_bearer(void **state)
{
	struct provider_run run;
	struct http_request req;

	(void)state;
	memset(&run, 0, sizeof run);
	http_request_init(&req);
	provider_bearer(&run, &req);
	run.api_key = "";
	provider_bearer(&run, &req);
	assert_int_equal(req.nheaders, 0);
	run.api_key = "sk-123";
	provider_bearer(&run, &req);
	assert_int_equal(req.nheaders, 1);
	assert_string_equal(req.headers[0], "Authorization: Bearer sk-123");
	http_request_done(&req);
}

static void
test_offer_find(void **state)
{
	struct provider_run run;
	struct offer *o;

	(void)state;
	provider_run_init(&run, NULL);
	assert_null(provider_offer_find(&run, "a"));
	o = offer_list_add(&run.offers);
	strcpy(o->key, "a");
	o = offer_list_add(&run.offers);
	strcpy(o->key, "b");
	assert_ptr_equal(provider_offer_find(&run, "b"), &run.offers.v[1]);
	assert_ptr_equal(provider_offer_find(&run, "a"), &run.offers.v[0]);
	assert_null(provider_offer_find(&run, "c"));
	provider_run_done(&run);
}

/* Parser for test_parse_json: records what it saw. */
static int parsed_calls;

static int
parse_counting(struct provider_run *run, const struct cJSON *root,
    struct err *err)
{
	(void)run;
	parsed_calls++;
	if (cJSON_GetObjectItemCaseSensitive(root, "fail") != NULL) {
		err_set(err, "parser says no");
		return -1;
	}
	return 0;
}

/* The wrapper parses, insists on an object, and returns parse's answer. */
static void
test_parse_json(void **state)
{
	static const struct {
		const char	*body;		/* NULL: no body at all */
		int		 rc;
		int		 calls;
		const char	*msg;		/* start of err.msg */
	} cases[] = {
		{ "{\"a\": 1}", 0, 1, "" },
		{ "{\"fail\": true}", -1, 1, "parser says no" },
		{ "[1, 2]", -1, 0, "expected a JSON object, got array" },
		{ "\"text\"", -1, 0, "expected a JSON object, got string" },
		{ "{\"a\": ", -1, 0, "malformed JSON" },
		{ NULL, -1, 0, "" },
	};
	struct provider_run run;
	struct http_result res;
	struct err err;
	size_t i;
	int rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		provider_run_init(&run, NULL);
		memset(&res, 0, sizeof res);
		res.body = cases[i].body;
		res.body_len = cases[i].body != NULL ? strlen(cases[i].body) :
		    0;
		parsed_calls = 0;
		err_clear(&err);
		rc = provider_parse_json(&run, &res, parse_counting, &err);
		if (rc != cases[i].rc || parsed_calls != cases[i].calls ||
		    strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("case %zu: rc %d calls %d \"%s\"", i, rc,
			    parsed_calls, err.msg);
		/* A failure always says why. */
		if (rc < 0 && err.msg[0] == '\0')
			fail_msg("case %zu: no message", i);
		provider_run_done(&run);
	}
}

static void
test_get_number(void **state)
{
	cJSON *obj;
	struct err err;
	double v;

	(void)state;
	obj = cJSON_Parse("{\"a\": 5, \"n\": null, \"big\": 11, "
	    "\"neg\": -1, \"s\": \"x\"}");
	assert_non_null(obj);
	err_clear(&err);
	assert_int_equal(provider_get_number(obj, "a", "o", 10, &v, &err), 0);
	assert_int_equal((int)v, 5);
	assert_int_equal(provider_get_number(obj, "n", "o", 10, &v, &err), 0);
	assert_int_equal((int)v, -1);
	assert_int_equal(provider_get_number(obj, "gone", "o", 10, &v, &err),
	    0);
	assert_int_equal((int)v, -1);
	assert_int_equal(provider_get_number(obj, "big", "o", 10, &v, &err),
	    -1);
	assert_string_equal(err.msg, "big 11 is out of range 0..10");
	assert_int_equal(provider_get_number(obj, "neg", "o", 10, &v, &err),
	    -1);
	assert_string_equal(err.msg, "neg -1 is out of range 0..10");
	err_clear(&err);
	assert_int_equal(provider_get_number(obj, "s", "o", 10, &v, &err), -1);
	assert_non_null(strstr(err.msg, "o.s"));
	cJSON_Delete(obj);
}

/* Parts are joined with "; "; a full note is cut, never overrun. */
static void
test_note(void **state)
{
	struct provider_run run;
	size_t i, tally = 0;

	(void)state;
	provider_run_init(&run, NULL);
	provider_note(&run, "%zu zero-priced offer%s skipped", (size_t)1, "");
	assert_string_equal(run.note, "1 zero-priced offer skipped");
	provider_note(&run, "skipped %d MIG slices", 2);
	assert_string_equal(run.note,
	    "1 zero-priced offer skipped; skipped 2 MIG slices");
	for (i = 0; i < 40; i++)
		provider_note(&run, "part %zu of a long note", i);
	assert_int_equal(strlen(run.note), sizeof run.note - 1);
	assert_int_equal(strncmp(run.note, "1 zero-priced", 13), 0);

	provider_skip(&run, &tally);
	provider_skip(&run, NULL);
	assert_int_equal(run.skipped, 2);
	assert_int_equal(tally, 1);
	provider_run_done(&run);
}

static void
test_redact(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	provider_run_init(&run, NULL);
	err_set(&err, "bad key sk-1 (sk-1)");
	provider_redact(&run, &err);
	assert_string_equal(err.msg, "bad key sk-1 (sk-1)");
	run.api_key = "sk-1";
	provider_redact(&run, &err);
	assert_string_equal(err.msg, "bad key *** (***)");
	provider_redact(&run, NULL);
	provider_run_done(&run);
}

/* The id list in messages and --help is the registry, in its order. */
static void
test_id_list_is_the_registry(void **state)
{
	char want[256] = "";
	size_t i;

	(void)state;
	for (i = 0; providers[i] != NULL; i++) {
		if (i > 0)
			strcat(want, ",");
		strcat(want, providers[i]->id);
		assert_ptr_equal(provider_find(providers[i]->id), providers[i]);
	}
	assert_int_equal(i, 10);
	assert_string_equal(provider_id_list(), want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url_escape),
		cmocka_unit_test(test_bearer),
		cmocka_unit_test(test_offer_find),
		cmocka_unit_test(test_parse_json),
		cmocka_unit_test(test_get_number),
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_id_list_is_the_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
