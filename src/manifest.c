/* manifest.c: the manifest of a published cache, to and from JSON; pure. */
#include "config.h"
#include "manifest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "json.h"
#include "str.h"
#include "xalloc.h"

void
manifest_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		str_copy(buf, size, "1970-01-01T00:00:00Z");
}

/* Parse "YYYY-MM-DDTHH:MM:SSZ"; -1 if it is anything else. */
static int
parse_time(const char *s, int64_t *out)
{
	struct tm tm, want;
	const char *end;
	time_t t;

	if (strlen(s) != 20)
		return -1;
	memset(&tm, 0, sizeof tm);
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	want = tm;
	t = timegm(&tm);
	if (gmtime_r(&t, &tm) == NULL || tm.tm_mday != want.tm_mday ||
	    tm.tm_mon != want.tm_mon || tm.tm_hour != want.tm_hour)
		return -1;
	*out = (int64_t)t;
	return 0;
}

int
manifest_file_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= MANIFEST_FILE_MAX || name[0] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9') ||
		    name[i] == '.' || name[i] == '_' || name[i] == '-'))
			return 0;
	return 1;
}

static bool
provider_id_ok(const char *id)
{
	size_t i, len = strlen(id);

	if (len == 0 || len >= OFFER_PROVIDER_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') ||
		    (id[i] >= '0' && id[i] <= '9') || id[i] == '_' ||
		    id[i] == '-'))
			return false;
	return true;
}

static bool
sha256_ok(const char *s)
{
	size_t i;

	if (strlen(s) != SHA256_HEX_LEN)
		return false;
	for (i = 0; i < SHA256_HEX_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A time member: an ISO string or null. */
static void
add_time(cJSON *obj, const char *key, int64_t t)
{
	char buf[32];

	if (t <= 0) {
		cJSON_AddNullToObject(obj, key);
		return;
	}
	manifest_time(t, buf, sizeof buf);
	cJSON_AddStringToObject(obj, key, buf);
}

char *
manifest_to_json(const struct manifest *m)
{
	cJSON *root, *data, *list, *p;
	char created[32], *text, *out;
	size_t i;

	root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "format", m->format);
	cJSON_AddStringToObject(root, "generator", m->generator);
	cJSON_AddNumberToObject(root, "schema_version", m->schema_version);
	manifest_time(m->created_at, created, sizeof created);
	cJSON_AddStringToObject(root, "created_at", created);
	data = cJSON_AddObjectToObject(root, "data");
	cJSON_AddStringToObject(data, "file", m->file);
	cJSON_AddStringToObject(data, "compression", "gzip");
	cJSON_AddNumberToObject(data, "size", (double)m->size);
	cJSON_AddStringToObject(data, "sha256", m->sha256);
	cJSON_AddNumberToObject(data, "db_size", (double)m->db_size);
	list = cJSON_AddArrayToObject(root, "providers");
	for (i = 0; i < m->nproviders; i++) {
		const struct manifest_provider *mp = &m->providers[i];

		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "id", mp->id);
		cJSON_AddStringToObject(p, "source", mp->source);
		cJSON_AddNumberToObject(p, "offer_count", (double)mp->offer_count);
		add_time(p, "fetched_at", mp->newest);
		add_time(p, "oldest", mp->oldest);
		add_time(p, "last_success", mp->last_success);
		add_time(p, "last_attempt", mp->last_attempt);
		if (mp->last_error[0] != '\0')
			cJSON_AddStringToObject(p, "last_error", mp->last_error);
		else
			cJSON_AddNullToObject(p, "last_error");
		cJSON_AddItemToArray(list, p);
	}
	if (m->signature[0] != '\0') {
		p = cJSON_AddObjectToObject(root, "signature");
		cJSON_AddStringToObject(p, "algorithm", "ed25519");
		cJSON_AddStringToObject(p, "key_id", m->key_id);
		cJSON_AddStringToObject(p, "value", m->signature);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (text == NULL)	/* cJSON ran out of memory */
		return NULL;
	out = xasprintf("%s\n", text);
	cJSON_free(text);
	return out;
}

/* A string member copied raw (no sanitising): for checked values. */
static int
get_raw(const cJSON *obj, const char *key, const char *path, char *buf,
    size_t size, struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsString(item)) {
		err_set(err, "%s.%s: expected a string", path, key);
		return -1;
	}
	if (strlen(item->valuestring) >= size) {
		err_set(err, "%s.%s: longer than %zu bytes", path, key, size - 1);
		return -1;
	}
	str_copy(buf, size, item->valuestring);
	return 0;
}

/* A time member (ISO string or null, which is 0). */
static int
get_time(const cJSON *obj, const char *key, const char *path, int64_t *out,
    struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	char clean[40];

	*out = 0;
	if (item == NULL || cJSON_IsNull(item))
		return 0;
	if (!cJSON_IsString(item) || parse_time(item->valuestring, out) < 0) {
		if (cJSON_IsString(item))
			str_sanitize(clean, sizeof clean, item->valuestring,
			    strlen(item->valuestring));
		err_set(err, "%s.%s: expected a time like 2026-11-23T10:00:00Z, "
		    "got %s", path, key, cJSON_IsString(item) ? clean :
		    json_type_name(item));
		return -1;
	}
	return 0;
}

static int
parse_provider(const cJSON *obj, size_t i, struct manifest_provider *mp,
    struct err *err)
{
	char path[48];
	long long count;
	bool found;

	snprintf(path, sizeof path, "providers[%zu]", i);
	if (!cJSON_IsObject(obj)) {
		err_set(err, "%s: expected an object", path);
		return -1;
	}
	if (get_raw(obj, "id", path, mp->id, sizeof mp->id, err) < 0)
		return -1;
	if (!provider_id_ok(mp->id)) {
		err_set(err, "%s.id: not a provider id", path);
		return -1;
	}
	if (get_raw(obj, "source", path, mp->source, sizeof mp->source,
	    err) < 0)
		return -1;
	if (strcmp(mp->source, "live") != 0 &&
	    strcmp(mp->source, "snapshot") != 0) {
		err_set(err, "%s.source: expected live or snapshot", path);
		return -1;
	}
	if (json_get_int(obj, "offer_count", path, 0, 100000000, &count, NULL,
	    err) < 0)
		return -1;
	mp->offer_count = (long)count;
	if (get_time(obj, "fetched_at", path, &mp->newest, err) < 0 ||
	    get_time(obj, "oldest", path, &mp->oldest, err) < 0 ||
	    get_time(obj, "last_success", path, &mp->last_success, err) < 0 ||
	    get_time(obj, "last_attempt", path, &mp->last_attempt, err) < 0)
		return -1;
	if (json_get_string(obj, "last_error", path, mp->last_error,
	    sizeof mp->last_error, &found, err) < 0)
		return -1;
	return 0;
}

/* The optional signature: checked in shape here, in value by pull.c. */
static int
parse_signature(const cJSON *root, struct manifest *m, struct err *err)
{
	const cJSON *sig = cJSON_GetObjectItemCaseSensitive(root, "signature");
	char alg[16];
	size_t i;

	if (sig == NULL || cJSON_IsNull(sig))
		return 0;
	if (!cJSON_IsObject(sig)) {
		err_set(err, "manifest.signature: expected an object");
		return -1;
	}
	if (get_raw(sig, "algorithm", "manifest.signature", alg, sizeof alg,
	    err) < 0 || get_raw(sig, "key_id", "manifest.signature",
	    m->key_id, sizeof m->key_id, err) < 0 || get_raw(sig, "value",
	    "manifest.signature", m->signature, sizeof m->signature, err) < 0)
		return -1;
	if (strcmp(alg, "ed25519") != 0) {
		err_set(err, "manifest.signature.algorithm: expected ed25519");
		return -1;
	}
	for (i = 0; m->key_id[i] != '\0'; i++)
		if (!isxdigit((unsigned char)m->key_id[i]))
			break;
	if (i != SIGN_KEY_ID_LEN || m->key_id[i] != '\0') {
		err_set(err, "manifest.signature.key_id: expected %d hex "
		    "digits", SIGN_KEY_ID_LEN);
		return -1;
	}
	for (i = 0; m->signature[i] != '\0'; i++)
		if (!isalnum((unsigned char)m->signature[i]) &&
		    strchr("+/=", m->signature[i]) == NULL) {
			err_set(err, "manifest.signature.value: not base64");
			return -1;
		}
	return 0;
}

int
manifest_parse(const char *text, size_t len, struct manifest *m,
    struct err *err)
{
	const cJSON *data, *list, *item;
	cJSON *root = NULL;
	long long v;
	char comp[16];
	bool found;
	size_t i;
	int rc = -1;

	memset(m, 0, sizeof *m);
	if (len > MANIFEST_BYTES_MAX) {
		err_set(err, "manifest: larger than %d bytes", MANIFEST_BYTES_MAX);
		return -1;
	}
	if (json_parse(text, len, &root, err) < 0) {
		err_prefix(err, "manifest");
		return -1;
	}
	if (!cJSON_IsObject(root)) {
		err_set(err, "manifest: expected a JSON object");
		goto done;
	}
	/* The format first: a newer one may have changed anything else. */
	if (json_get_int(root, "format", "manifest", 1, 1000000, &v, NULL,
	    err) < 0)
		goto done;
	m->format = (int)v;
	if (m->format > MANIFEST_FORMAT) {
		err_set(err, "manifest format %d is newer than this gpucost "
		    "reads (%d); upgrade gpucost", m->format, MANIFEST_FORMAT);
		goto done;
	}
	if (json_get_int(root, "schema_version", "manifest", 1, 1000000, &v,
	    NULL, err) < 0)
		goto done;
	m->schema_version = (int)v;
	if (m->schema_version > DB_SCHEMA_VERSION) {
		err_set(err, "made by a newer gpucost (cache schema %d; this "
		    "one knows up to %d); upgrade gpucost", m->schema_version,
		    DB_SCHEMA_VERSION);
		goto done;
	}
	if (json_get_string(root, "generator", "manifest", m->generator,
	    sizeof m->generator, &found, err) < 0)
		goto done;
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "created_at")) ==
	    NULL || cJSON_IsNull(item)) {
		err_set(err, "manifest.created_at: missing");
		goto done;
	}
	if (get_time(root, "created_at", "manifest", &m->created_at, err) < 0)
		goto done;
	if ((data = json_get_object(root, "data", "manifest", err)) == NULL)
		goto done;
	if (get_raw(data, "file", "manifest.data", m->file, sizeof m->file,
	    err) < 0)
		goto done;
	if (!manifest_file_name_ok(m->file)) {
		err_set(err, "manifest.data.file: not a plain file name");
		goto done;
	}
	if (get_raw(data, "compression", "manifest.data", comp, sizeof comp,
	    err) < 0)
		goto done;
	if (strcmp(comp, "gzip") != 0) {
		err_set(err, "manifest.data.compression: expected gzip");
		goto done;
	}
	if (json_get_int(data, "size", "manifest.data", 1,
	    (long long)MANIFEST_DATA_MAX, &v, NULL, err) < 0)
		goto done;
	m->size = (uint64_t)v;
	if (json_get_int(data, "db_size", "manifest.data", 1,
	    (long long)MANIFEST_DATA_MAX, &v, NULL, err) < 0)
		goto done;
	m->db_size = (uint64_t)v;
	if (get_raw(data, "sha256", "manifest.data", m->sha256,
	    sizeof m->sha256, err) < 0)
		goto done;
	if (!sha256_ok(m->sha256)) {
		err_set(err, "manifest.data.sha256: expected 64 lowercase hex "
		    "digits");
		goto done;
	}
	if ((list = json_get_array(root, "providers", "manifest", err)) == NULL)
		goto done;
	if ((size_t)cJSON_GetArraySize(list) > MANIFEST_PROVIDERS_MAX) {
		err_set(err, "manifest.providers: more than %d",
		    MANIFEST_PROVIDERS_MAX);
		goto done;
	}
	i = 0;
	cJSON_ArrayForEach(item, list) {
		if (parse_provider(item, i, &m->providers[i], err) < 0) {
			err_prefix(err, "manifest");
			goto done;
		}
		i++;
	}
	m->nproviders = i;
	if (parse_signature(root, m, err) < 0)
		goto done;
	rc = 0;
done:
	cJSON_Delete(root);
	return rc;
}

void
manifest_signed_text(const struct manifest *m, char *buf, size_t size)
{
	char created[32];

	manifest_time(m->created_at, created, sizeof created);
	snprintf(buf, size, "gpucost signed manifest 1\nfile %s\nsize %llu\n"
	    "sha256 %s\ndb_size %llu\ncreated_at %s\nschema_version %d\n",
	    m->file, (unsigned long long)m->size, m->sha256,
	    (unsigned long long)m->db_size, created, m->schema_version);
}
