/*
 * jsonrpc.h: JSON-RPC 2.0 messages as MCP's stdio transport carries
 * them: one JSON object per line, no batches. The reader is bounded (a
 * line longer than JSONRPC_LINE_MAX is skipped whole and reported, the
 * next line is read as usual); parsing checks the envelope and says
 * which JSON-RPC error code a bad message earns. Pure apart from
 * reading the FILE it is given.
 */
#ifndef GPUCOST_JSONRPC_H
#define GPUCOST_JSONRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cJSON.h>

struct err;

/* The longest request line read (a tool call is a few hundred bytes). */
#define JSONRPC_LINE_MAX	(1024 * 1024)
/* The longest string id echoed back; longer ones are invalid requests. */
#define JSONRPC_ID_MAX		256

enum jsonrpc_code {
	JSONRPC_PARSE_ERROR = -32700,
	JSONRPC_INVALID_REQUEST = -32600,
	JSONRPC_METHOD_NOT_FOUND = -32601,
	JSONRPC_INVALID_PARAMS = -32602,
	JSONRPC_INTERNAL_ERROR = -32603
};

/*
 * Make cJSON allocate with xmalloc(): out of memory ends the program
 * cleanly (xalloc.h), so no cJSON call below returns NULL for it.
 */
void	jsonrpc_init(void);

/* A line buffer that grows up to max (JSONRPC_LINE_MAX when 0). */
struct jsonrpc_line {
	char	*buf;		/* owned; NUL-terminated line, no newline */
	size_t	 len, cap, max;
};

void	jsonrpc_line_init(struct jsonrpc_line *l, size_t max);
void	jsonrpc_line_done(struct jsonrpc_line *l);

/*
 * Read the next line of in. Returns 1 with the line in l, 0 at the end
 * of the input (a last line without a newline is still returned first),
 * -1 for a line longer than l->max: it was read to its end and dropped.
 */
int	jsonrpc_read_line(FILE *in, struct jsonrpc_line *l);

/* One message, its parts borrowed from doc. */
struct jsonrpc_msg {
	cJSON		*doc;		/* owned */
	const cJSON	*id;		/* NULL: a notification (or a response) */
	const char	*method;	/* NULL: a response to us, ignored */
	const cJSON	*params;	/* NULL when absent; else an object */
};

/*
 * Parse one line into m. Returns 0, or a jsonrpc_code with a one-line
 * message in err; *reply_id is then the id to answer with (a copy the
 * caller deletes) or NULL when the id could not be read (reply with
 * null). m needs jsonrpc_msg_done() either way.
 */
int	jsonrpc_parse(const char *line, size_t len, struct jsonrpc_msg *m,
	    cJSON **reply_id, struct err *err);
void	jsonrpc_msg_done(struct jsonrpc_msg *m);

/* Is every string and member name in item (and below it) UTF-8? */
bool	jsonrpc_utf8_valid(const cJSON *item);

/*
 * A response line (without the newline), malloc'd: the result (which it
 * takes) or an error. id NULL answers with a null id. The line is UTF-8
 * whatever its parts held (a byte of a bad sequence becomes '?').
 */
char	*jsonrpc_result(const cJSON *id, cJSON *result);
char	*jsonrpc_error(const cJSON *id, int code, const char *message);

#endif
