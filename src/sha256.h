/*
 * sha256.h: SHA-256 (FIPS 180-4), for checking a published cache copy.
 *
 * One function's worth of cryptography does not justify linking
 * libcrypto; tests/unit/test_sha256.c checks the NIST vectors.
 *
 *	struct sha256 h;
 *	sha256_init(&h);
 *	sha256_update(&h, data, len);	(any number of times)
 *	sha256_final(&h, digest);	or sha256_hex(&h, hex)
 */
#ifndef GPUCOST_SHA256_H
#define GPUCOST_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32
#define SHA256_HEX_LEN	64	/* without the NUL */

struct sha256 {
	uint32_t	state[8];
	uint64_t	bytes;		/* hashed so far */
	unsigned char	block[64];	/* bytes % 64 of them are pending */
};

void	sha256_init(struct sha256 *h);
void	sha256_update(struct sha256 *h, const void *data, size_t len);
/* The digest; h must be initialised again before further use. */
void	sha256_final(struct sha256 *h, unsigned char digest[SHA256_LEN]);
/* The digest as 64 lowercase hex digits and a NUL. */
void	sha256_hex(struct sha256 *h, char hex[SHA256_HEX_LEN + 1]);

#endif
