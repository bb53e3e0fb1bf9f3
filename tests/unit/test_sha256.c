/*
 * test_sha256.c: sha256.c against the NIST test vectors (FIPS 180-4
 * examples and the "one million a" long message), fed whole and in
 * pieces that cross the 64-byte block boundary at every offset.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sha256.h"

static void
hash_is(const char *msg, size_t len, const char *want)
{
	struct sha256 h;
	char hex[SHA256_HEX_LEN + 1];

	sha256_init(&h);
	sha256_update(&h, msg, len);
	sha256_hex(&h, hex);
	assert_string_equal(hex, want);
}

static void
test_nist_short(void **state)
{
	(void)state;
	hash_is("", 0,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hash_is("abc", 3,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 448 bits: the padding needs a second block. */
	hash_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* 896 bits. */
	hash_is("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 112,
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void
test_nist_million_a(void **state)
{
	struct sha256 h;
	char chunk[1000], hex[SHA256_HEX_LEN + 1];
	int i;

	(void)state;
	memset(chunk, 'a', sizeof chunk);
	sha256_init(&h);
	for (i = 0; i < 1000; i++)
		sha256_update(&h, chunk, sizeof chunk);
	sha256_hex(&h, hex);
	assert_string_equal(hex,
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Any split of a message gives the digest of the whole. */
static void
test_pieces(void **state)
{
	char msg[300], whole[SHA256_HEX_LEN + 1], part[SHA256_HEX_LEN + 1];
	struct sha256 h;
	size_t i, cut;

	(void)state;
	for (i = 0; i < sizeof msg; i++)
		msg[i] = (char)(i * 7 + 3);
	sha256_init(&h);
	sha256_update(&h, msg, sizeof msg);
	sha256_hex(&h, whole);
	for (cut = 0; cut <= sizeof msg; cut++) {
		sha256_init(&h);
		sha256_update(&h, msg, cut);
		sha256_update(&h, msg + cut, sizeof msg - cut);
		sha256_hex(&h, part);
		assert_string_equal(part, whole);
	}
	/* One byte at a time. */
	sha256_init(&h);
	for (i = 0; i < sizeof msg; i++)
		sha256_update(&h, msg + i, 1);
	sha256_hex(&h, part);
	assert_string_equal(part, whole);
}

/* 55, 56, 63 and 64 bytes: the edges of the padding. */
static void
test_padding_edges(void **state)
{
	char a[64];

	(void)state;
	memset(a, 'a', sizeof a);
	hash_is(a, 55,
	    "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	hash_is(a, 56,
	    "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	hash_is(a, 63,
	    "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
	hash_is(a, 64,
	    "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nist_short),
		cmocka_unit_test(test_nist_million_a),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_padding_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
