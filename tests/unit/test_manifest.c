/*
 * test_manifest.c: manifest.c: a manifest survives the round trip to
 * JSON and back, and every kind of bad manifest is refused with a
 * message naming the field.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "err.h"
#include "manifest.h"
#include "sign.h"
#include "str.h"

#include <unistd.h>

#define SHA	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void
sample(struct manifest *m)
{
	memset(m, 0, sizeof *m);
	m->format = MANIFEST_FORMAT;
	m->schema_version = DB_SCHEMA_VERSION;
	m->created_at = 1795428000;	/* 2026-11-23T10:00:00Z */
	str_copy(m->generator, sizeof m->generator, "gpucost 0.1.0");
	str_copy(m->file, sizeof m->file,
	    "gpucost-20261123T100000Z-01234567.db.gz");
	m->size = 812345;
	m->db_size = 4153344;
	str_copy(m->sha256, sizeof m->sha256, SHA);
	m->nproviders = 2;
	str_copy(m->providers[0].id, sizeof m->providers[0].id, "aws");
	str_copy(m->providers[0].source, sizeof m->providers[0].source, "live");
	m->providers[0].offer_count = 1234;
	m->providers[0].newest = 1795427892;
	m->providers[0].oldest = 1795427000;
	m->providers[0].last_success = 1795427892;
	m->providers[0].last_attempt = 1795427892;
	str_copy(m->providers[1].id, sizeof m->providers[1].id, "vast");
	str_copy(m->providers[1].source, sizeof m->providers[1].source,
	    "snapshot");
	m->providers[1].offer_count = 10;
	m->providers[1].newest = 1767225600;
	m->providers[1].last_attempt = 1795427900;
	str_copy(m->providers[1].last_error, sizeof m->providers[1].last_error,
	    "HTTP 429 Too Many Requests");
}

static void
test_round_trip(void **state)
{
	struct manifest a, b;
	struct err err;
	char *text;

	(void)state;
	sample(&a);
	text = manifest_to_json(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"created_at\":\t\"2026-11-23T10:00:00Z\""));
	assert_int_equal(manifest_parse(text, strlen(text), &b, &err), 0);
	assert_int_equal(b.format, a.format);
	assert_int_equal(b.schema_version, a.schema_version);
	assert_int_equal(b.created_at, a.created_at);
	assert_string_equal(b.generator, a.generator);
	assert_string_equal(b.file, a.file);
	assert_int_equal(b.size, a.size);
	assert_int_equal(b.db_size, a.db_size);
	assert_string_equal(b.sha256, a.sha256);
	assert_int_equal(b.nproviders, 2);
	assert_string_equal(b.providers[0].id, "aws");
	assert_string_equal(b.providers[0].source, "live");
	assert_int_equal(b.providers[0].offer_count, 1234);
	assert_int_equal(b.providers[0].newest, a.providers[0].newest);
	assert_int_equal(b.providers[0].oldest, a.providers[0].oldest);
	assert_int_equal(b.providers[0].last_success,
	    a.providers[0].last_success);
	assert_string_equal(b.providers[0].last_error, "");
	assert_int_equal(b.providers[1].last_success, 0);
	assert_string_equal(b.providers[1].last_error,
	    "HTTP 429 Too Many Requests");
	free(text);
}

/* Replace the first `from` in the sample's JSON by `to`; parse it. */
static int
parse_edited(const char *from, const char *to, struct err *err)
{
	struct manifest m;
	char *text, *at, *edited;
	int rc;

	sample(&m);
	text = manifest_to_json(&m);
	assert_non_null(text);
	at = strstr(text, from);
	assert_non_null(at);
	edited = malloc(strlen(text) + strlen(to) + 1);
	memcpy(edited, text, (size_t)(at - text));
	strcpy(edited + (at - text), to);
	strcat(edited, at + strlen(from));
	rc = manifest_parse(edited, strlen(edited), &m, err);
	free(edited);
	free(text);
	return rc;
}

static void
refused(const char *from, const char *to, const char *want)
{
	struct err err;

	err.msg[0] = '\0';
	assert_int_equal(parse_edited(from, to, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s -> %s: got \"%s\", want \"%s\"", from, to,
		    err.msg, want);
	assert_true(str_is_clean(err.msg));
}

static void
test_refusals(void **state)
{
	char schema[64], newer[64];

	(void)state;
	refused("\"format\":\t1", "\"format\":\t2", "format 2 is newer");
	snprintf(schema, sizeof schema, "\"schema_version\":\t%d",
	    DB_SCHEMA_VERSION);
	snprintf(newer, sizeof newer, "\"schema_version\":\t%d",
	    DB_SCHEMA_VERSION + 1);
	refused(schema, newer, "made by a newer gpucost");
	refused("gpucost-20261123T100000Z-01234567.db.gz", "../etc/passwd",
	    "not a plain file name");
	refused("gpucost-20261123T100000Z-01234567.db.gz", "a/b.db.gz",
	    "not a plain file name");
	refused("gpucost-20261123T100000Z-01234567.db.gz", ".hidden",
	    "not a plain file name");
	refused("gpucost-20261123T100000Z-01234567.db.gz", "a\\u0001b",
	    "not a plain file name");
	refused(SHA, "0123", "sha256");
	refused(SHA, "0123456789ABCDEF0123456789abcdef0123456789abcdef"
	    "0123456789abcdef", "sha256");
	refused("\"size\":\t812345", "\"size\":\t-1", "size");
	refused("\"size\":\t812345", "\"size\":\t\"big\"", "size");
	refused("\"gzip\"", "\"zstd\"", "expected gzip");
	refused("\"2026-11-23T10:00:00Z\"", "\"yesterday\"", "created_at");
	refused("\"id\":\t\"aws\"", "\"id\":\t\"AWS\\u001b[2J\"",
	    "not a provider id");
	refused("\"source\":\t\"live\"", "\"source\":\t\"team\"", "source");
	refused("\"data\":", "\"dada\":", "data");
}

static void
test_not_json(void **state)
{
	struct manifest m;
	struct err err;

	(void)state;
	assert_int_equal(manifest_parse("<html>404</html>", 16, &m, &err), -1);
	assert_non_null(strstr(err.msg, "manifest"));
	assert_int_equal(manifest_parse("", 0, &m, &err), -1);
	assert_int_equal(manifest_parse("[1]", 3, &m, &err), -1);
	assert_non_null(strstr(err.msg, "expected a JSON object"));
}

/* Text is sanitised: a control character cannot reach a terminal. */
static void
test_text_sanitised(void **state)
{
	struct manifest m;
	struct err err;
	const char *text = "{\"format\": 1, \"schema_version\": 1, "
	    "\"generator\": \"evil\\u001b[2J\", "
	    "\"created_at\": \"2026-11-23T10:00:00Z\", \"data\": {\"file\": "
	    "\"x.db.gz\", \"compression\": \"gzip\", \"size\": 1, \"db_size\": "
	    "1, \"sha256\": \"" SHA "\"}, \"providers\": [{\"id\": \"aws\", "
	    "\"source\": \"live\", \"offer_count\": 1, \"fetched_at\": null, "
	    "\"last_error\": \"bad\\r\\nthing\\u009b\"}]}";

	(void)state;
	assert_int_equal(manifest_parse(text, strlen(text), &m, &err), 0);
	assert_true(str_is_clean(m.generator));
	assert_true(str_is_clean(m.providers[0].last_error));
	assert_int_equal(m.providers[0].newest, 0);
}

static void
test_file_names(void **state)
{
	(void)state;
	assert_true(manifest_file_name_ok("gpucost-20261123T100000Z-1a2b3c4d.db.gz"));
	assert_false(manifest_file_name_ok(""));
	assert_false(manifest_file_name_ok(".."));
	assert_false(manifest_file_name_ok("manifest json"));
	assert_false(manifest_file_name_ok("a%2fb"));
}

/*
 * A signed manifest: the signature survives the round trip and checks
 * against the signer's public key; a changed field, another key or a
 * malformed signature does not.
 */
static void
test_signed(void **state)
{
	struct manifest m, back, other;
	struct sign_secret sk, sk2;
	struct sign_public pk;
	char dir[] = "/tmp/gpucost-test-sign-XXXXXX", path[128], path2[128];
	char pub[128], pub2[128], text[MANIFEST_SIGNED_MAX], *json;
	struct err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/k", dir);
	snprintf(path2, sizeof path2, "%s/k2", dir);
	assert_int_equal(sign_keygen(path, pub, sizeof pub, &err), 0);
	assert_int_equal(sign_keygen(path, pub2, sizeof pub2, &err), -1);
	assert_non_null(strstr(err.msg, "never overwritten"));
	assert_int_equal(sign_keygen(path2, pub2, sizeof pub2, &err), 0);
	assert_int_equal(sign_secret_load(path, &sk, &err), 0);
	assert_int_equal(sign_secret_load(path2, &sk2, &err), 0);
	assert_int_equal(sign_public_load(pub, &pk, &err), 0);
	assert_string_equal(pk.id, sk.id);
	assert_string_not_equal(sk.id, sk2.id);

	sample(&m);
	manifest_signed_text(&m, text, sizeof text);
	assert_int_equal(sign_make(&sk, text, strlen(text), m.signature,
	    sizeof m.signature, &err), 0);
	str_copy(m.key_id, sizeof m.key_id, sk.id);
	json = manifest_to_json(&m);
	assert_int_equal(manifest_parse(json, strlen(json), &back, &err), 0);
	free(json);
	assert_string_equal(back.signature, m.signature);
	assert_string_equal(back.key_id, sk.id);
	manifest_signed_text(&back, text, sizeof text);
	assert_int_equal(sign_check(&pk, text, strlen(text), back.signature,
	    &err), 0);

	/* Another sha256 under the same signature. */
	other = back;
	other.sha256[0] = other.sha256[0] == 'a' ? 'b' : 'a';
	manifest_signed_text(&other, text, sizeof text);
	assert_int_equal(sign_check(&pk, text, strlen(text), other.signature,
	    &err), -1);
	assert_non_null(strstr(err.msg, "does not match"));
	/* Signed by the other key. */
	manifest_signed_text(&back, text, sizeof text);
	assert_int_equal(sign_make(&sk2, text, strlen(text), other.signature,
	    sizeof other.signature, &err), 0);
	assert_int_equal(sign_check(&pk, text, strlen(text), other.signature,
	    &err), -1);
	assert_int_equal(sign_check(&pk, text, strlen(text), "not base64!",
	    &err), -1);
	assert_int_equal(sign_public_load("gpucost-ed25519-public-key AAAA",
	    &pk, &err), -1);
	sign_secret_done(&sk);
	sign_secret_done(&sk2);
	unlink(path);
	unlink(path2);
	snprintf(path, sizeof path, "%s/k.pub", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/k2.pub", dir);
	unlink(path);
	rmdir(dir);
}

/* A password in a URL is masked, nothing else changed. */
static void
test_url_redact(void **state)
{
	static const char *const cases[][2] = {
		{ "https://ann:s3cret@host/x/", "https://ann:***@host/x/" },
		{ "http://ann:p@ss@host:8080/", "http://ann:***@host:8080/" },
		{ "https://host/a@b", "https://host/a@b" },
		{ "https://ann@host/", "https://ann@host/" },
		{ "/srv/www/gpucost", "/srv/www/gpucost" },
	};
	const char *pw;
	size_t i, len;
	char *r;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		r = str_url_redact(cases[i][0], &pw, &len);
		assert_string_equal(r, cases[i][1]);
		free(r);
	}
	free(str_url_redact("https://ann:s3cret@host/", &pw, &len));
	assert_int_equal(len, 6);
	assert_memory_equal(pw, "s3cret", 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_not_json),
		cmocka_unit_test(test_text_sanitised),
		cmocka_unit_test(test_file_names),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_url_redact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
