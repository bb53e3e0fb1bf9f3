/*
 * manifest.h: the manifest of a published cache (manifest.json).
 *
 * `gpucost publish DIR` writes it last, next to the compressed copy it
 * names; `gpucost refresh --from` reads it first and downloads nothing
 * more when it names the copy already imported. Pure: text in, struct
 * out, and back. Every string read is checked or sanitised here, so a
 * manifest's text can be printed as it comes out.
 *
 *	{
 *	  "format": 1,
 *	  "generator": "gpucost 0.1.0",
 *	  "schema_version": 7,
 *	  "created_at": "2026-11-23T10:00:00Z",
 *	  "data": { "file": "gpucost-20261123T100000Z-1a2b3c4d.db.gz",
 *	            "compression": "gzip", "size": 812345,
 *	            "sha256": "1a2b...", "db_size": 4153344 },
 *	  "providers": [ { "id": "aws", "source": "live",
 *	                   "offer_count": 1234,
 *	                   "fetched_at": "2026-11-23T09:58:12Z",
 *	                   "oldest": "...", "last_success": "...",
 *	                   "last_attempt": "...", "last_error": null }, ... ],
 *	  "signature": { "algorithm": "ed25519", "key_id": "0123abcd...",
 *	                 "value": "base64..." }		(publish --sign only)
 *	}
 *
 * Times are UTC ISO 8601 or null (never). size and sha256 are of the
 * compressed file, db_size is the SQLite file's size once decompressed.
 */
#ifndef GPUCOST_MANIFEST_H
#define GPUCOST_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "offer.h"
#include "sha256.h"
#include "sign.h"

#define MANIFEST_NAME		"manifest.json"
#define MANIFEST_FORMAT		1	/* this gpucost's manifest format */
#define MANIFEST_FILE_MAX	128
#define MANIFEST_PROVIDERS_MAX	32
#define MANIFEST_BYTES_MAX	(1024 * 1024)	/* a longer one is refused */
#define MANIFEST_DATA_MAX	((uint64_t)16 << 30)	/* 16 GiB */

struct manifest_provider {
	char	id[OFFER_PROVIDER_MAX];	/* [a-z0-9_-], checked */
	char	source[16];		/* "live" or "snapshot" */
	long	offer_count;
	int64_t	newest;			/* newest fetched_at; 0 none */
	int64_t	oldest;
	int64_t	last_success;		/* 0: never */
	int64_t	last_attempt;
	char	last_error[DB_ERROR_MAX];	/* "" none; sanitised */
};

struct manifest {
	int	format;
	int	schema_version;
	int64_t	created_at;
	char	generator[64];			/* sanitised */
	char	file[MANIFEST_FILE_MAX];	/* [A-Za-z0-9._-], no leading . */
	uint64_t size;				/* of file */
	uint64_t db_size;			/* decompressed */
	char	sha256[SHA256_HEX_LEN + 1];	/* of file, lowercase hex */
	struct manifest_provider providers[MANIFEST_PROVIDERS_MAX];
	size_t	nproviders;
	/* publish --sign: the key's id and the signature; "" unsigned. */
	char	key_id[SIGN_KEY_ID_LEN + 1];
	char	signature[SIGN_TEXT_MAX];
};

#define MANIFEST_SIGNED_MAX	512

/*
 * The text a signature covers: what names the data (file, size,
 * sha256, db_size), when it was made and its schema, one per line.
 * The providers' summary is not covered: a reader learns it from the
 * data itself.
 */
void	manifest_signed_text(const struct manifest *m, char *buf,
	    size_t size);

/*
 * The JSON text of m (ending in a newline); the caller frees it. NULL
 * only when cJSON ran out of memory.
 */
char	*manifest_to_json(const struct manifest *m);

/*
 * Parse and check a manifest. Refuses (-1, one line in err) anything
 * that is not one: not JSON, a missing or mistyped field, a file name
 * that could leave the directory, a malformed sha256, a format newer
 * than MANIFEST_FORMAT, and a schema newer than DB_SCHEMA_VERSION
 * ("made by a newer gpucost").
 */
int	manifest_parse(const char *text, size_t len, struct manifest *m,
	    struct err *err);

/* Is name a data file name a manifest may carry (no '/', no leading '.')? */
int	manifest_file_name_ok(const char *name);

/* "2026-11-23T10:00:00Z" of t. */
void	manifest_time(int64_t t, char *buf, size_t size);

#endif
