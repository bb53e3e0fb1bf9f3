/*
 * sign.h: optional signatures of a published cache (ed25519, libsodium).
 *
 * `gpucost publish --keygen FILE` makes a key pair: FILE, the secret key
 * (mode 0600), and FILE.pub, the public key, one line each:
 *
 *	gpucost-ed25519-secret-key <base64 of 64 bytes>
 *	gpucost-ed25519-public-key <base64 of 32 bytes>
 *
 * `publish --sign FILE` signs the manifest's description of the data
 * (manifest_signed_text(): file name, sizes, sha256, creation time,
 * schema); a reader who pinned the public key (`from_key` in the config,
 * `--from-key`) refuses a manifest that is unsigned, signed by another
 * key or whose signature does not match. The data file's sha256 then
 * ties the data to the signature. Only sign.c includes sodium.h.
 */
#ifndef GPUCOST_SIGN_H
#define GPUCOST_SIGN_H

#include <stddef.h>

struct err;

#define SIGN_KEY_ID_LEN		16	/* hex digits of sha256(public key) */
#define SIGN_TEXT_MAX		96	/* a signature in base64, NUL included */

struct sign_public {
	unsigned char	pk[32];
	char		id[SIGN_KEY_ID_LEN + 1];
};

struct sign_secret {
	unsigned char	sk[64];		/* wiped by sign_secret_done() */
	char		id[SIGN_KEY_ID_LEN + 1];
};

/*
 * Make a key pair: path (the secret key; must not exist) and path.pub.
 * pub gets the public key's line. Returns 0, or -1 with err.
 */
int	sign_keygen(const char *path, char *pub, size_t size, struct err *err);

/* Read a secret key file (refused if group or others may read it). */
int	sign_secret_load(const char *path, struct sign_secret *sk,
	    struct err *err);
void	sign_secret_done(struct sign_secret *sk);

/*
 * A public key: its line ("gpucost-ed25519-public-key BASE64"), the
 * base64 alone, or the path of a file holding the line.
 */
int	sign_public_load(const char *arg, struct sign_public *pk,
	    struct err *err);

/* Sign text; out (SIGN_TEXT_MAX) gets the signature in base64. */
int	sign_make(const struct sign_secret *sk, const char *text, size_t len,
	    char *out, size_t size, struct err *err);

/* 0 if sig (base64) is pk's signature of text; -1 with err if not. */
int	sign_check(const struct sign_public *pk, const char *text, size_t len,
	    const char *sig, struct err *err);

#endif
