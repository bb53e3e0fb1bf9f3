/*
 * gz.h: gzip (zlib) between file descriptors: compress a published
 * cache copy, and decompress one as it arrives, bounded.
 *
 * gzip rather than zstd: zlib is already on every machine that has
 * libcurl, any static web server, gunzip and Python read it, and at a
 * few MB of cache the better ratio of zstd saves little (the figures are
 * in the commit that added this file). Only gz.c includes zlib.h.
 */
#ifndef GPUCOST_GZ_H
#define GPUCOST_GZ_H

#include <stddef.h>
#include <stdint.h>

struct err;

/*
 * Compress everything readable from in_fd into out_fd as one gzip
 * member. Returns 0 with the byte counts, or -1 with err ("read
 * failed: ...", "write failed: ...").
 */
int	gz_compress_fd(int in_fd, int out_fd, uint64_t *in_bytes,
	    uint64_t *out_bytes, struct err *err);

/*
 * A streaming decompressor writing to out_fd, refusing to write more
 * than max_out bytes (a gzip bomb ends there, not on a full disk):
 *
 *	z = gz_inflate_new(fd, max);
 *	gz_inflate_feed(z, data, len, err)	(as pieces arrive)
 *	gz_inflate_finish(z, &n, err)		(the stream must be whole)
 *	gz_inflate_free(z);
 */
struct gz_inflate;

struct gz_inflate *gz_inflate_new(int out_fd, uint64_t max_out);
/* -1 with err: not gzip, corrupt, too large, bytes after the end, I/O. */
int	gz_inflate_feed(struct gz_inflate *z, const void *data, size_t len,
	    struct err *err);
/* -1 with err when the stream stopped before its end. */
int	gz_inflate_finish(struct gz_inflate *z, uint64_t *out_bytes,
	    struct err *err);
void	gz_inflate_free(struct gz_inflate *z);	/* NULL is fine */

#endif
