/*
 * test_gz.c: gz.c: a round trip through files, and the refusals of the
 * bounded decompressor: cut short, corrupt, not gzip, bytes after the
 * end, larger than announced.
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
#include <unistd.h>

#include "err.h"
#include "gz.h"

#define DATA_LEN	(300 * 1000)

/* A temporary file, unlinked at once: its fd. */
static int
temp_fd(void)
{
	char path[] = "/tmp/gpucost-test-gz.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

/* Read all of fd from its start into a new buffer. */
static unsigned char *
slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	unsigned char *buf = malloc((size_t)end + 1);

	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)end, 0), end);
	*len = (size_t)end;
	return buf;
}

static unsigned char *data;
static unsigned char *packed;
static size_t packed_len;

static int
setup(void **state)
{
	uint64_t in, out;
	int src, dst;
	size_t i;

	(void)state;
	data = malloc(DATA_LEN);
	for (i = 0; i < DATA_LEN; i++)	/* compressible, not trivial */
		data[i] = (unsigned char)("gpucost offers "[i % 15] + (i / 977) % 3);
	src = temp_fd();
	assert_int_equal(write(src, data, DATA_LEN), DATA_LEN);
	lseek(src, 0, SEEK_SET);
	dst = temp_fd();
	assert_int_equal(gz_compress_fd(src, dst, &in, &out, NULL), 0);
	assert_int_equal(in, DATA_LEN);
	packed = slurp(dst, &packed_len);
	assert_int_equal(out, packed_len);
	close(src);
	close(dst);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	free(data);
	free(packed);
	return 0;
}

/* Decompress buf[0..len) in pieces of step bytes; 0 or -1 with err. */
static int
inflate_buf(const unsigned char *buf, size_t len, size_t step, uint64_t max,
    size_t *out_len, unsigned char **out, struct err *err)
{
	struct gz_inflate *z;
	uint64_t n = 0;
	size_t off;
	int fd = temp_fd(), rc = 0;

	z = gz_inflate_new(fd, max);
	for (off = 0; off < len && rc == 0; off += step)
		rc = gz_inflate_feed(z, buf + off, len - off < step ? len - off :
		    step, err);
	if (rc == 0)
		rc = gz_inflate_finish(z, &n, err);
	gz_inflate_free(z);
	if (out != NULL)
		*out = slurp(fd, out_len);
	close(fd);
	return rc;
}

static void
test_round_trip(void **state)
{
	unsigned char *got;
	size_t got_len;
	struct err err;

	(void)state;
	assert_true(packed_len < DATA_LEN / 4);
	assert_true(packed[0] == 0x1f && packed[1] == 0x8b);
	/* Whole, and in odd pieces. */
	assert_int_equal(inflate_buf(packed, packed_len, packed_len, DATA_LEN,
	    &got_len, &got, &err), 0);
	assert_int_equal(got_len, DATA_LEN);
	assert_memory_equal(got, data, DATA_LEN);
	free(got);
	assert_int_equal(inflate_buf(packed, packed_len, 7, DATA_LEN, &got_len,
	    &got, &err), 0);
	assert_int_equal(got_len, DATA_LEN);
	assert_memory_equal(got, data, DATA_LEN);
	free(got);
}

static void
test_cut_short(void **state)
{
	struct err err;

	(void)state;
	assert_int_equal(inflate_buf(packed, packed_len - 5, 4096, DATA_LEN,
	    NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "cut short"));
	assert_int_equal(inflate_buf(packed, packed_len / 2, 4096, DATA_LEN,
	    NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "cut short"));
}

static void
test_corrupt(void **state)
{
	unsigned char *bad = malloc(packed_len);
	struct err err;

	(void)state;
	memcpy(bad, packed, packed_len);
	bad[packed_len / 2] ^= 0x55;
	assert_int_equal(inflate_buf(bad, packed_len, 4096, DATA_LEN, NULL, NULL,
	    &err), -1);
	assert_true(strstr(err.msg, "corrupt") != NULL ||
	    strstr(err.msg, "larger") != NULL);
	/* The CRC in the trailer covers what the deflate data cannot. */
	memcpy(bad, packed, packed_len);
	bad[packed_len - 6] ^= 1;
	assert_int_equal(inflate_buf(bad, packed_len, 4096, DATA_LEN, NULL, NULL,
	    &err), -1);
	assert_non_null(strstr(err.msg, "corrupt"));
	free(bad);
	assert_int_equal(inflate_buf((const unsigned char *)"SQLite format 3",
	    15, 15, DATA_LEN, NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "not gzip"));
}

static void
test_trailing_bytes(void **state)
{
	unsigned char *more = malloc(packed_len + 3);
	struct err err;

	(void)state;
	memcpy(more, packed, packed_len);
	memcpy(more + packed_len, "xyz", 3);
	assert_int_equal(inflate_buf(more, packed_len + 3, packed_len + 3,
	    DATA_LEN, NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "after the end"));
	assert_int_equal(inflate_buf(more, packed_len + 3, 1000, DATA_LEN, NULL,
	    NULL, &err), -1);
	assert_non_null(strstr(err.msg, "after the end"));
	free(more);
}

/* Larger than announced: stops at the cap, never writes past it. */
static void
test_cap(void **state)
{
	unsigned char *got;
	size_t got_len;
	struct err err;

	(void)state;
	assert_int_equal(inflate_buf(packed, packed_len, 4096, DATA_LEN - 1,
	    &got_len, &got, &err), -1);
	assert_non_null(strstr(err.msg, "larger than"));
	assert_true(got_len <= DATA_LEN - 1);
	free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
