/*
 * sign.c: ed25519 key pairs and signatures through libsodium.
 *
 * libsodium is loaded with dlopen() on first use, as zlib (gz.c) and
 * libcurl (http.c) are: only publish --sign/--keygen and a pull with a
 * pinned key need it, and a linked library is one more to map at every
 * start of every query. Its headers give the types and constants.
 */
#include "config.h"
#include "sign.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "paths.h"
#include "sha256.h"
#include "str.h"
#include "xalloc.h"

#define SECRET_TAG	"gpucost-ed25519-secret-key "
#define PUBLIC_TAG	"gpucost-ed25519-public-key "
#define KEY_FILE_MAX	1024

/* Sonames of libsodium's releases, newest first. */
static const char *const sodium_sonames[] = {
#ifdef __APPLE__
	"libsodium.26.dylib", "libsodium.23.dylib", "libsodium.dylib",
#else
	"libsodium.so.26", "libsodium.so.23", "libsodium.so",
#endif
};

/* The libsodium functions used here. */
static struct {
	int	(*sodium_init)(void);
	int	(*crypto_sign_keypair)(unsigned char *, unsigned char *);
	int	(*crypto_sign_detached)(unsigned char *, unsigned long long *,
		    const unsigned char *, unsigned long long,
		    const unsigned char *);
	int	(*crypto_sign_verify_detached)(const unsigned char *,
		    const unsigned char *, unsigned long long,
		    const unsigned char *);
	char	*(*sodium_bin2base64)(char *, size_t, const unsigned char *,
		    size_t, int);
	int	(*sodium_base642bin)(unsigned char *, size_t, const char *,
		    size_t, const char *, size_t *, const char **, int);
	void	(*sodium_memzero)(void *, size_t);
} na;
static void	*na_lib;	/* the dlopen() handle; NULL: not loaded */

/* Load and start libsodium once per process: 0, or -1 with err. */
static int
sign_init(struct err *err)
{
	char why[256] = "";
	void *sym;
	size_t i;

	if (na_lib != NULL)
		return 0;
	for (i = 0; i < sizeof sodium_sonames / sizeof sodium_sonames[0] &&
	    na_lib == NULL; i++)
		if ((na_lib = dlopen(sodium_sonames[i], RTLD_NOW |
		    RTLD_LOCAL)) == NULL && why[0] == '\0')
			snprintf(why, sizeof why, "%s", dlerror());
	if (na_lib == NULL) {
		err_set(err, "signatures need libsodium: cannot load %s", why);
		return -1;
	}
	/* memcpy: ISO C has no cast from void * to a function pointer. */
#define NA_SYM(name)							\
	if ((sym = dlsym(na_lib, #name)) == NULL)			\
		goto missing;						\
	memcpy(&na.name, &sym, sizeof sym);
	NA_SYM(sodium_init)
	NA_SYM(crypto_sign_keypair)
	NA_SYM(crypto_sign_detached)
	NA_SYM(crypto_sign_verify_detached)
	NA_SYM(sodium_bin2base64)
	NA_SYM(sodium_base642bin)
	NA_SYM(sodium_memzero)
#undef NA_SYM
	if (na.sodium_init() < 0) {
		err_set(err, "libsodium cannot start");
		goto fail;
	}
	return 0;
missing:
	err_set(err, "libsodium: %s", dlerror());
fail:
	dlclose(na_lib);
	na_lib = NULL;
	memset(&na, 0, sizeof na);
	return -1;
}

/* The key id: the first hex digits of the public key's sha256. */
static void
key_id(const unsigned char pk[32], char id[SIGN_KEY_ID_LEN + 1])
{
	struct sha256 h;
	char hex[SHA256_HEX_LEN + 1];

	sha256_init(&h);
	sha256_update(&h, pk, 32);
	sha256_hex(&h, hex);
	memcpy(id, hex, SIGN_KEY_ID_LEN);
	id[SIGN_KEY_ID_LEN] = '\0';
}

/* Decode base64 text (to its end or a newline) into exactly n bytes. */
static int
decode(const char *text, unsigned char *out, size_t n)
{
	size_t len = strcspn(text, "\r\n"), got = 0;
	const char *end;

	if (na.sodium_base642bin(out, n, text, len, NULL, &got, &end,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || got != n ||
	    end != text + len)
		return -1;
	return 0;
}

/* Write all of text to a new file path (mode); O_EXCL, no links. */
static int
write_new(const char *path, const char *text, mode_t mode, struct err *err)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    mode);
	if (fd < 0) {
		err_set(err, "%s: %s", path, errno == EEXIST ? "exists "
		    "already (a key is never overwritten)" : strerror(errno));
		return -1;
	}
	while (len > 0) {
		if ((n = write(fd, text, len)) < 0) {
			if (errno == EINTR)
				continue;
			err_set(err, "%s: %s", path, strerror(errno));
			close(fd);
			unlink(path);
			return -1;
		}
		text += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

int
sign_keygen(const char *path, char *pub, size_t size, struct err *err)
{
	unsigned char pk[32], sk[64];
	char b64[128], *line, *pub_path;
	int rc = -1;

	if (sign_init(err) < 0)
		return -1;
	na.crypto_sign_keypair(pk, sk);
	na.sodium_bin2base64(b64, sizeof b64, sk, sizeof sk,
	    sodium_base64_VARIANT_ORIGINAL);
	line = xasprintf(SECRET_TAG "%s\n", b64);
	na.sodium_memzero(b64, sizeof b64);
	na.sodium_memzero(sk, sizeof sk);
	pub_path = xasprintf("%s.pub", path);
	if (write_new(path, line, 0600, err) == 0) {
		na.sodium_bin2base64(b64, sizeof b64, pk, sizeof pk,
		    sodium_base64_VARIANT_ORIGINAL);
		snprintf(pub, size, PUBLIC_TAG "%s", b64);
		free(line);
		line = xasprintf("%s\n", pub);
		if (write_new(pub_path, line, 0644, err) == 0)
			rc = 0;
		else
			unlink(path);
	}
	na.sodium_memzero(line, strlen(line));
	free(line);
	free(pub_path);
	return rc;
}

/* Read a small key file whole (NUL-terminated) into buf. */
static int
read_key_file(const char *path, char *buf, size_t size, bool secret,
    struct err *err)
{
	struct stat sb;
	ssize_t n;
	size_t have = 0;
	int fd;

	/* A FIFO would wait for a writer forever: refused at once. */
	switch (paths_open_regular_nofollow(path, &fd, err)) {
	case 0:
		break;
	case 1:
		err_set(err, "%s: %s", path, strerror(ENOENT));
		return -1;
	default:
		return -1;
	}
	if (fstat(fd, &sb) < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (secret && (sb.st_mode & 077) != 0) {
		err_set(err, "%s: a secret key others may read (chmod 600 it)",
		    path);
		close(fd);
		return -1;
	}
	while (have + 1 < size && (n = read(fd, buf + have, size - 1 -
	    have)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		have += (size_t)n;
	}
	close(fd);
	buf[have] = '\0';
	return 0;
}

int
sign_secret_load(const char *path, struct sign_secret *sk, struct err *err)
{
	char buf[KEY_FILE_MAX];
	int rc = -1;

	memset(sk, 0, sizeof *sk);
	if (sign_init(err) < 0 || read_key_file(path, buf, sizeof buf, true,
	    err) < 0)
		return -1;
	if (strncmp(buf, SECRET_TAG, strlen(SECRET_TAG)) != 0 ||
	    decode(buf + strlen(SECRET_TAG), sk->sk, sizeof sk->sk) < 0)
		err_set(err, "%s: not a gpucost secret key (make one with "
		    "gpucost publish --keygen FILE)", path);
	else {
		key_id(sk->sk + 32, sk->id);
		rc = 0;
	}
	na.sodium_memzero(buf, sizeof buf);
	return rc;
}

void
sign_secret_done(struct sign_secret *sk)
{
	volatile unsigned char *p = sk->sk;
	size_t i;

	if (na_lib != NULL) {
		na.sodium_memzero(sk->sk, sizeof sk->sk);
		return;
	}
	for (i = 0; i < sizeof sk->sk; i++)
		p[i] = 0;
}

int
sign_public_load(const char *arg, struct sign_public *pk, struct err *err)
{
	char buf[KEY_FILE_MAX], q[80];
	const char *text = arg;

	memset(pk, 0, sizeof *pk);
	if (sign_init(err) < 0)
		return -1;
	if (strncmp(text, PUBLIC_TAG, strlen(PUBLIC_TAG)) == 0)
		text += strlen(PUBLIC_TAG);
	else if (decode(text, pk->pk, sizeof pk->pk) < 0) {
		/* Not the key itself: the file holding it. */
		if (read_key_file(arg, buf, sizeof buf, false, err) < 0) {
			err_prefix(err, "from_key");
			return -1;
		}
		if (strncmp(buf, PUBLIC_TAG, strlen(PUBLIC_TAG)) != 0) {
			err_set(err, "from_key: %s holds no gpucost public key",
			    str_quoted(arg, q, sizeof q));
			return -1;
		}
		text = buf + strlen(PUBLIC_TAG);
	}
	if (decode(text, pk->pk, sizeof pk->pk) < 0) {
		err_set(err, "from_key: not an ed25519 public key (32 bytes in "
		    "base64)");
		return -1;
	}
	key_id(pk->pk, pk->id);
	return 0;
}

int
sign_make(const struct sign_secret *sk, const char *text, size_t len,
    char *out, size_t size, struct err *err)
{
	unsigned char sig[crypto_sign_BYTES];

	if (sign_init(err) < 0)
		return -1;
	if (size < sodium_base64_ENCODED_LEN(sizeof sig,
	    sodium_base64_VARIANT_ORIGINAL)) {
		err_set(err, "signature buffer too small");
		return -1;
	}
	na.crypto_sign_detached(sig, NULL, (const unsigned char *)text, len,
	    sk->sk);
	na.sodium_bin2base64(out, size, sig, sizeof sig,
	    sodium_base64_VARIANT_ORIGINAL);
	return 0;
}

int
sign_check(const struct sign_public *pk, const char *text, size_t len,
    const char *sig, struct err *err)
{
	unsigned char raw[crypto_sign_BYTES];

	if (sign_init(err) < 0)
		return -1;
	if (decode(sig, raw, sizeof raw) < 0) {
		err_set(err, "not an ed25519 signature in base64");
		return -1;
	}
	if (na.crypto_sign_verify_detached(raw, (const unsigned char *)text, len,
	    pk->pk) != 0) {
		err_set(err, "does not match the pinned key %s: refused",
		    pk->id);
		return -1;
	}
	return 0;
}
