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
#include "offer_text.h"

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
	o->key = tstr("a");
	o = offer_list_add(&run.offers);
	o->key = tstr("b");
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
	/* The _at form names the record in the range error too. */
	assert_int_equal(provider_get_number_at(obj, "a", "data[2]", 10, &v,
	    &err), 0);
	assert_int_equal((int)v, 5);
	assert_int_equal(provider_get_number_at(obj, "gone", "data[2]", 10, &v,
	    &err), 0);
	assert_int_equal((int)v, -1);
	assert_int_equal(provider_get_number_at(obj, "neg", "data[2]", 10, &v,
	    &err), -1);
	assert_string_equal(err.msg, "data[2].neg -1 is out of range 0..10");
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

	/* Skip counts: singular, plural, none left out. */
	{
		static const char *const what[3][2] = {
			{ "CPU plan", "CPU plans" },
			{ "MIG slice", "MIG slices" },
			{ "monthly price", "monthly prices" },
		};
		const size_t counts[3] = { 3, 0, 1 };

		provider_run_init(&run, NULL);
		provider_note_skips(&run, counts, what, 3);
		assert_string_equal(run.note, "3 CPU plans skipped; "
		    "1 monthly price skipped");
		provider_run_done(&run);
	}
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
/* Only a GET without a body may be asked for conditionally. */
static void
test_conditional(void **state)
{
	struct provider_run run;
	struct http_request *get, *post, *get_body;

	(void)state;
	provider_run_init(&run, NULL);
	get = provider_queue(&run, strdup("http://h/doc"), NULL, 1);
	post = provider_queue(&run, strdup("http://h/graphql"), "POST", 2);
	get_body = provider_queue(&run, strdup("http://h/q"), "GET", 3);
	get_body->body = strdup("{}");
	get_body->body_len = 2;
	assert_false(get->conditional);
	provider_conditional(get);
	provider_conditional(post);
	provider_conditional(get_body);
	assert_true(get->conditional);
	assert_false(post->conditional);
	assert_false(get_body->conditional);
	provider_run_done(&run);
}

/*
 * Page 1 of a paged list is conditional, and refetched in full unless
 * the last success recorded the list as one page.
 */
static void
test_first_page(void **state)
{
	static const struct provider_meta old[] = {
		{ "pages:plans", "1" },
		{ "pages:metal", "2" },
	};
	struct provider_run run;
	struct http_request *one, *two, *unknown;

	(void)state;
	provider_run_init(&run, NULL);
	run.old_meta = old;
	run.nold_meta = 2;
	one = provider_queue(&run, strdup("http://h/plans"), NULL, 1);
	two = provider_queue(&run, strdup("http://h/metal"), NULL, 2);
	unknown = provider_queue(&run, strdup("http://h/new"), NULL, 3);
	provider_first_page(&run, one, "plans");
	provider_first_page(&run, two, "metal");
	provider_first_page(&run, unknown, "new");
	assert_true(one->conditional && !one->refetch);
	assert_true(two->conditional && two->refetch);
	assert_true(unknown->conditional && unknown->refetch);
	provider_list_pages(&run, "plans", 3);
	provider_list_pages(&run, "metal", 1);
	assert_int_equal(run.nnew_meta, 2);
	assert_string_equal(run.new_meta[0].name, "pages:plans");
	assert_string_equal(run.new_meta[0].value, "3");
	assert_string_equal(run.new_meta[1].name, "pages:metal");
	assert_string_equal(run.new_meta[1].value, "1");
	provider_run_done(&run);
}

/*
 * A held (304'd) request asked again: the same URL, method, headers,
 * secret, tag, limits and body, but none of the validators.
 */
static void
test_request_dup(void **state)
{
	struct http_request req, *dup;

	(void)state;
	http_request_init(&req);
	req.url = strdup("http://h/doc");
	req.method = "PUT";
	req.body = malloc(4);
	memcpy(req.body, "a\0b", 4);	/* a body may hold a NUL */
	req.body_len = 3;
	http_request_header(&req, "Accept", "application/json");
	http_request_header(&req, "Authorization", "Bearer k");
	req.redact = strdup("k");
	req.stream = true;
	req.max_body = 4096;
	req.tag = 7;
	req.conditional = true;
	req.if_none_match = strdup("\"v1\"");
	req.if_modified_since = strdup("Tue, 03 Mar 2026 10:00:00 GMT");
	dup = http_request_dup(&req);
	assert_string_equal(dup->url, "http://h/doc");
	assert_ptr_not_equal(dup->url, req.url);
	assert_string_equal(dup->method, "PUT");
	assert_int_equal(dup->body_len, 3);
	assert_memory_equal(dup->body, "a\0b", 3);
	assert_int_equal(dup->nheaders, 2);
	assert_string_equal(dup->headers[0], "Accept: application/json");
	assert_string_equal(dup->headers[1], "Authorization: Bearer k");
	assert_string_equal(dup->redact, "k");
	assert_true(dup->stream);
	assert_int_equal(dup->max_body, 4096);
	assert_int_equal(dup->tag, 7);
	assert_true(dup->conditional);
	assert_null(dup->if_none_match);
	assert_null(dup->if_modified_since);
	http_request_done(&req);
	http_request_done(dup);
	free(dup);
}

/* What may be kept and sent back as a validator. */
static void
test_validator_ok(void **state)
{
	char long_tag[HTTP_VALIDATOR_MAX + 1];

	(void)state;
	assert_true(http_validator_ok("\"v1\"", 4));
	assert_true(http_validator_ok("W/\"v1\"", 6));
	assert_true(http_validator_ok("Tue, 03 Mar 2026 10:00:00 GMT", 29));
	assert_false(http_validator_ok("", 0));
	assert_false(http_validator_ok("\"v1\"\r\nX: y", 10));
	assert_false(http_validator_ok("\"v\x7f\"", 4));
	assert_false(http_validator_ok("\"caf\xc3\xa9\"", 7));
	memset(long_tag, 'a', sizeof long_tag);
	assert_true(http_validator_ok(long_tag, HTTP_VALIDATOR_MAX - 1));
	assert_false(http_validator_ok(long_tag, HTTP_VALIDATOR_MAX));
}

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
	assert_int_equal(i, 17);
	/* A refresh of all, and --provider naming all, take every one. */
	assert_true(i <= FILTER_PROVIDERS_MAX);
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
		cmocka_unit_test(test_conditional),
		cmocka_unit_test(test_first_page),
		cmocka_unit_test(test_request_dup),
		cmocka_unit_test(test_validator_ok),
		cmocka_unit_test(test_id_list_is_the_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
