/* jsonrpc.c: bounded line reading and the JSON-RPC 2.0 envelope. */
#include "config.h"
#include "jsonrpc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "str.h"
#include "xalloc.h"

void
jsonrpc_line_init(struct jsonrpc_line *l, size_t max)
{
	memset(l, 0, sizeof *l);
	l->max = max > 0 ? max : JSONRPC_LINE_MAX;
}

void
jsonrpc_line_done(struct jsonrpc_line *l)
{
	free(l->buf);
	memset(l, 0, sizeof *l);
}

int
jsonrpc_read_line(FILE *in, struct jsonrpc_line *l)
{
	bool over = false, any = false;
	int c;

	l->len = 0;
	while ((c = getc(in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (over)
			continue;
		if (l->len == l->max) {
			/* Skip to the newline: the next line is read as usual. */
			over = true;
			continue;
		}
		if (l->len + 1 >= l->cap) {
			l->cap = l->cap == 0 ? 4096 : 2 * l->cap;
			if (l->cap > l->max + 1)
				l->cap = l->max + 1;
			l->buf = xreallocarray(l->buf, l->cap, 1);
		}
		l->buf[l->len++] = (char)c;
	}
	if (!any)
		return 0;
	if (over)
		return -1;
	if (l->buf == NULL) {
		l->cap = 1;
		l->buf = xmalloc(1);
	}
	l->buf[l->len] = '\0';
	return 1;
}

bool
jsonrpc_utf8_valid(const cJSON *item)
{
	const cJSON *c;

	if (item == NULL)
		return true;
	if (item->string != NULL && !str_utf8_valid(item->string,
	    strlen(item->string)))
		return false;
	if (cJSON_IsString(item) && !str_utf8_valid(item->valuestring,
	    strlen(item->valuestring)))
		return false;
	cJSON_ArrayForEach(c, item)
		if (!jsonrpc_utf8_valid(c))
			return false;
	return true;
}

/*
 * An id we can echo: a UTF-8 string of at most JSONRPC_ID_MAX bytes
 * (another would make the answer line no JSON) or an integer that a
 * double holds exactly (MCP: never null).
 */
static bool
id_valid(const cJSON *id)
{
	double v;

	if (cJSON_IsString(id))
		return strlen(id->valuestring) <= JSONRPC_ID_MAX &&
		    str_utf8_valid(id->valuestring, strlen(id->valuestring));
	if (!cJSON_IsNumber(id))
		return false;
	v = id->valuedouble;
	return isfinite(v) && !(floor(v) < v) && fabs(v) <= 9007199254740992.0;
}

int
jsonrpc_parse(const char *line, size_t len, struct jsonrpc_msg *m,
    cJSON **reply_id, struct err *err)
{
	const char *end = NULL;
	const cJSON *v, *id;

	memset(m, 0, sizeof *m);
	*reply_id = NULL;
	/* JSON has no raw NUL; cJSON would end a string at it. */
	if (memchr(line, '\0', len) != NULL) {
		err_set(err, "parse error: a NUL byte at byte %zu",
		    (size_t)((const char *)memchr(line, '\0', len) - line));
		return JSONRPC_PARSE_ERROR;
	}
	m->doc = cJSON_ParseWithLengthOpts(line, len, &end, false);
	if (m->doc == NULL) {
		err_set(err, "parse error: not JSON (at byte %zu)", end != NULL &&
		    end >= line ? (size_t)(end - line) : (size_t)0);
		return JSONRPC_PARSE_ERROR;
	}
	/* One value per line: only blanks may follow it. */
	while (end != NULL && (size_t)(end - line) < len &&
	    (*end == ' ' || *end == '\t' || *end == '\r'))
		end++;
	if (end == NULL || (size_t)(end - line) != len) {
		err_set(err, "parse error: more than one JSON value on the line");
		return JSONRPC_PARSE_ERROR;
	}
	if (cJSON_IsArray(m->doc)) {
		err_set(err, "invalid request: batches are not supported");
		return JSONRPC_INVALID_REQUEST;
	}
	if (!cJSON_IsObject(m->doc)) {
		err_set(err, "invalid request: expected a JSON object");
		return JSONRPC_INVALID_REQUEST;
	}
	id = cJSON_GetObjectItemCaseSensitive(m->doc, "id");
	if (id != NULL && id_valid(id))
		*reply_id = cJSON_Duplicate(id, false);
	v = cJSON_GetObjectItemCaseSensitive(m->doc, "jsonrpc");
	if (!cJSON_IsString(v) || strcmp(v->valuestring, "2.0") != 0) {
		err_set(err, "invalid request: \"jsonrpc\" must be \"2.0\"");
		return JSONRPC_INVALID_REQUEST;
	}
	if (id != NULL && !id_valid(id)) {
		err_set(err, "invalid request: \"id\" must be a UTF-8 string "
		    "of at most %d bytes or an integer", JSONRPC_ID_MAX);
		return JSONRPC_INVALID_REQUEST;
	}
	v = cJSON_GetObjectItemCaseSensitive(m->doc, "method");
	if (v == NULL && id != NULL &&
	    (cJSON_GetObjectItemCaseSensitive(m->doc, "result") != NULL ||
	    cJSON_GetObjectItemCaseSensitive(m->doc, "error") != NULL)) {
		/* A response: we send no requests, so there is nothing to do. */
		cJSON_Delete(*reply_id);
		*reply_id = NULL;
		return 0;
	}
	if (!cJSON_IsString(v) || v->valuestring[0] == '\0' ||
	    !str_utf8_valid(v->valuestring, strlen(v->valuestring))) {
		err_set(err, "invalid request: \"method\" must be a UTF-8 "
		    "string");
		return JSONRPC_INVALID_REQUEST;
	}
	m->method = v->valuestring;
	m->id = id;
	v = cJSON_GetObjectItemCaseSensitive(m->doc, "params");
	if (v != NULL && !cJSON_IsObject(v)) {
		err_set(err, "invalid params: \"params\" must be an object");
		return JSONRPC_INVALID_PARAMS;
	}
	m->params = v;
	return 0;
}

void
jsonrpc_msg_done(struct jsonrpc_msg *m)
{
	cJSON_Delete(m->doc);
	memset(m, 0, sizeof *m);
}

void
jsonrpc_init(void)
{
	static cJSON_Hooks hooks = { xmalloc, free };

	cJSON_InitHooks(&hooks);
}

/* The envelope with the id (or null) and one more member, printed. */
static char *
envelope(const cJSON *id, const char *name, cJSON *item)
{
	cJSON *doc;
	char *s;

	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "jsonrpc", "2.0");
	cJSON_AddItemToObject(doc, "id", id != NULL ?
	    cJSON_Duplicate(id, false) : cJSON_CreateNull());
	cJSON_AddItemToObject(doc, name, item);
	s = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	/*
	 * Never a byte that is not UTF-8 on the wire: the line would be no
	 * JSON. Outside strings it is all ASCII, so '?' keeps it JSON.
	 */
	str_utf8_repair(s);
	return s;
}

char *
jsonrpc_result(const cJSON *id, cJSON *result)
{
	return envelope(id, "result", result);
}

char *
jsonrpc_error(const cJSON *id, int code, const char *message)
{
	cJSON *e;

	e = cJSON_CreateObject();
	cJSON_AddNumberToObject(e, "code", code);
	cJSON_AddStringToObject(e, "message", message);
	return envelope(id, "error", e);
}
