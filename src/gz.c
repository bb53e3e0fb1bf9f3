/*
 * gz.c: gzip compression and bounded decompression with zlib.
 *
 * zlib is loaded with dlopen() on first use, as libcurl is (http.c):
 * only publish and refresh --from need it, and a linked library is one
 * more to map at every start of every query (startup is measured
 * against `true`: bench/startup.sh).
 */
#include "config.h"
#include "gz.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZLIB_CONST	/* next_in points at const bytes */
#include <zlib.h>

#include "err.h"
#include "xalloc.h"

#ifndef GPUCOST_ZLIB_SONAME
#ifdef __APPLE__
#define GPUCOST_ZLIB_SONAME	"libz.1.dylib"
#else
#define GPUCOST_ZLIB_SONAME	"libz.so.1"
#endif
#endif

/* The zlib functions used here (deflateInit2() and inflateInit2() are macros over the _ ones). */
static struct {
	int	(*deflateInit2_)(z_streamp, int, int, int, int, int,
		    const char *, int);
	int	(*deflate)(z_streamp, int);
	int	(*deflateEnd)(z_streamp);
	int	(*inflateInit2_)(z_streamp, int, const char *, int);
	int	(*inflate)(z_streamp, int);
	int	(*inflateEnd)(z_streamp);
} zl;
static void	*zl_lib;		/* the dlopen() handle; NULL: not loaded */
static char	 zl_error[256];		/* why it could not be loaded */

/* Load zlib once per process: 0, or -1 with zl_error set. */
static int
zl_load(void)
{
	void *sym;

	if (zl_lib != NULL)
		return 0;
	if (zl_error[0] != '\0')
		return -1;
	if ((zl_lib = dlopen(GPUCOST_ZLIB_SONAME, RTLD_NOW | RTLD_LOCAL)) ==
	    NULL) {
		snprintf(zl_error, sizeof zl_error, "cannot load %s",
		    dlerror());
		return -1;
	}
	/* memcpy: ISO C has no cast from void * to a function pointer. */
#define ZL_SYM(name)							\
	if ((sym = dlsym(zl_lib, #name)) == NULL)			\
		goto missing;						\
	memcpy(&zl.name, &sym, sizeof sym);
	ZL_SYM(deflateInit2_)
	ZL_SYM(deflate)
	ZL_SYM(deflateEnd)
	ZL_SYM(inflateInit2_)
	ZL_SYM(inflate)
	ZL_SYM(inflateEnd)
#undef ZL_SYM
	return 0;
missing:
	snprintf(zl_error, sizeof zl_error, "%s: %s", GPUCOST_ZLIB_SONAME,
	    dlerror());
	dlclose(zl_lib);
	zl_lib = NULL;
	memset(&zl, 0, sizeof zl);
	return -1;
}

#define GZ_CHUNK	(128 * 1024)
#define GZ_WINDOW	(15 + 16)	/* deflate's largest window, gzip wrapper */
#define GZ_LEVEL	6		/* zlib's default: level 9 saved 1-2 % */

/* Write all of buf to fd, retrying short writes. */
static int
write_all(int fd, const unsigned char *buf, size_t len, struct err *err)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "write failed: %s", strerror(errno));
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int
gz_compress_fd(int in_fd, int out_fd, uint64_t *in_bytes, uint64_t *out_bytes,
    struct err *err)
{
	unsigned char *in, *out;
	z_stream zs;
	ssize_t n;
	int flush, rc = -1, zrc;

	*in_bytes = *out_bytes = 0;
	memset(&zs, 0, sizeof zs);
	if (zl_load() < 0) {
		err_set(err, "zlib: %s", zl_error);
		return -1;
	}
	if (zl.deflateInit2_(&zs, GZ_LEVEL, Z_DEFLATED, GZ_WINDOW, 8,
	    Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof zs) != Z_OK) {
		err_set(err, "zlib: cannot start compressing");
		return -1;
	}
	in = xmalloc(GZ_CHUNK);
	out = xmalloc(GZ_CHUNK);
	do {
		n = read(in_fd, in, GZ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "read failed: %s", strerror(errno));
			goto done;
		}
		*in_bytes += (uint64_t)n;
		flush = n == 0 ? Z_FINISH : Z_NO_FLUSH;
		zs.next_in = in;
		zs.avail_in = (uInt)n;
		do {
			zs.next_out = out;
			zs.avail_out = GZ_CHUNK;
			zrc = zl.deflate(&zs, flush);
			if (zrc == Z_STREAM_ERROR) {
				err_set(err, "zlib: compression failed");
				goto done;
			}
			if (write_all(out_fd, out, GZ_CHUNK - zs.avail_out,
			    err) < 0)
				goto done;
			*out_bytes += GZ_CHUNK - zs.avail_out;
		} while (zs.avail_out == 0);
	} while (flush != Z_FINISH);
	rc = 0;
done:
	zl.deflateEnd(&zs);
	free(in);
	free(out);
	return rc;
}

struct gz_inflate {
	z_stream	 zs;
	int		 fd;
	uint64_t	 max_out, out_bytes;
	bool		 ended;		/* the gzip trailer was read */
	bool		 failed;
	bool		 started;	/* inflateInit2 worked: inflateEnd owed */
	unsigned char	 buf[GZ_CHUNK];
};

struct gz_inflate *
gz_inflate_new(int out_fd, uint64_t max_out)
{
	struct gz_inflate *z = xcalloc(1, sizeof *z);

	z->fd = out_fd;
	z->max_out = max_out;
	/* 15 + 16: gzip only (a zlib or raw stream is not what we publish). */
	if (zl_load() == 0 && zl.inflateInit2_(&z->zs, GZ_WINDOW,
	    ZLIB_VERSION, (int)sizeof z->zs) == Z_OK)
		z->started = true;
	else
		z->failed = true;
	return z;
}

int
gz_inflate_feed(struct gz_inflate *z, const void *data, size_t len,
    struct err *err)
{
	const unsigned char *p = data;
	size_t have;
	int zrc;

	if (z->failed) {
		err_set(err, "zlib: %s", zl_error[0] != '\0' ? zl_error :
		    "cannot decompress");
		return -1;
	}
	while (len > 0) {
		if (z->ended) {
			err_set(err, "bytes after the end of the gzip data");
			goto fail;
		}
		/* avail_in is an unsigned int: feed at most 1 GiB at once. */
		z->zs.next_in = p;
		z->zs.avail_in = (uInt)(len > (1u << 30) ? (1u << 30) : len);
		p += z->zs.avail_in;
		len -= z->zs.avail_in;
		do {
			z->zs.next_out = z->buf;
			z->zs.avail_out = sizeof z->buf;
			zrc = zl.inflate(&z->zs, Z_NO_FLUSH);
			if (zrc == Z_NEED_DICT || zrc == Z_DATA_ERROR ||
			    zrc == Z_STREAM_ERROR || zrc == Z_MEM_ERROR) {
				err_set(err, "%s", z->out_bytes == 0 &&
				    z->zs.total_in < 10 ? "not gzip data" :
				    "the gzip data is corrupt");
				goto fail;
			}
			have = sizeof z->buf - z->zs.avail_out;
			if (have > z->max_out - z->out_bytes) {
				err_set(err, "larger than the %llu bytes "
				    "announced once decompressed",
				    (unsigned long long)z->max_out);
				goto fail;
			}
			if (write_all(z->fd, z->buf, have, err) < 0)
				goto fail;
			z->out_bytes += have;
			if (zrc == Z_STREAM_END) {
				z->ended = true;
				if (z->zs.avail_in > 0) {
					err_set(err, "bytes after the end of "
					    "the gzip data");
					goto fail;
				}
				break;
			}
		} while (z->zs.avail_in > 0 || z->zs.avail_out == 0);
	}
	return 0;
fail:
	z->failed = true;
	return -1;
}

int
gz_inflate_finish(struct gz_inflate *z, uint64_t *out_bytes, struct err *err)
{
	*out_bytes = z->out_bytes;
	if (z->failed) {
		err_set(err, "zlib: cannot decompress");
		return -1;
	}
	if (!z->ended) {
		err_set(err, "the gzip data is cut short");
		return -1;
	}
	return 0;
}

void
gz_inflate_free(struct gz_inflate *z)
{
	if (z == NULL)
		return;
	if (z->started)
		zl.inflateEnd(&z->zs);
	free(z);
}
