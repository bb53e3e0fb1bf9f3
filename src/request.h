/*
 * request.h: the HTTP request record and its outcome, as plain data.
 *
 * Adapters describe requests with these and read results from them; the
 * transport that runs them (libcurl, http.h) is none of their business,
 * so they include this header and never http.h. No I/O here.
 */
#ifndef GPUCOST_REQUEST_H
#define GPUCOST_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HEADERS_MAX	8
#define HTTP_ERROR_MAX		256
#define HTTP_VALIDATOR_MAX	128	/* an ETag or Last-Modified, NUL included */

/* One request. Strings are owned by the request (http_request_done). */
struct http_request {
	char	*url;			/* absolute http(s) URL */
	const char *method;		/* "GET", "POST", "PUT" (static) */
	char	*body;			/* request body or NULL */
	size_t	 body_len;
	char	*headers[HTTP_HEADERS_MAX];	/* "Name: value" */
	size_t	 nheaders;
	char	*redact;		/* secret to mask in messages, or NULL */
	bool	 stream;		/* deliver the body in chunks */
	/*
	 * The body as the server sends it: no Accept-Encoding, no
	 * Content-Encoding undone (a .gz a server labels gzip stays one).
	 */
	bool	 raw;
	size_t	 max_body;		/* cap for a buffered body; 0: 32 MiB */
	int	 tag;			/* caller's label for the request */

	/*
	 * Conditional GET. conditional: the answer is a whole document by
	 * itself, so its validators are kept and it may be asked for with
	 * them next time (provider_conditional()); refetch: not this time,
	 * ask in full (the validators of the answer are still kept). The
	 * two strings are what is sent as If-None-Match and
	 * If-Modified-Since (refresh.c fills them in), NULL for none.
	 */
	bool	 conditional;
	bool	 refetch;
	char	*if_none_match;
	char	*if_modified_since;
};

/* What happened to a request. */
struct http_result {
	const struct http_request *req;	/* the request, borrowed */
	const char *url;		/* the URL answered, redirects
					   followed (borrowed, valid in
					   on_done) */
	long	 status;		/* HTTP status; 0 when none arrived */
	bool	 ok;			/* transfer done and status 2xx or 304 */
	char	 error[HTTP_ERROR_MAX];	/* why not ok: libcurl or HTTP text */
	const char *body;		/* buffered body (NUL-terminated) or NULL */
	size_t	 body_len;		/* bytes of body (streamed: total) */
	double	 elapsed;		/* seconds, all attempts */
	int	 attempts;		/* 1 + retries */
	/* The answer's validators; "" when absent or unusable (see http_validator_ok). */
	char	 etag[HTTP_VALIDATOR_MAX];
	char	 last_modified[HTTP_VALIDATOR_MAX];
};

/* Initialise / free a request's owned strings. */
void	http_request_init(struct http_request *req);
void	http_request_done(struct http_request *req);

/*
 * A new request asking for what req asks for, headers and secret
 * included, without its validators (a 304'd request asked again in
 * full). Caller frees with http_request_done() and free().
 */
struct http_request *http_request_dup(const struct http_request *req);

/*
 * Is s usable as a validator (sent back in a header and kept in the
 * cache): 1 to HTTP_VALIDATOR_MAX - 1 bytes of printable ASCII (space
 * included)? Anything else is refused whole, never cleaned: a validator
 * with a byte changed would name another copy.
 */
bool	http_validator_ok(const char *s, size_t len);

/* Add a "Name: value" header (copied). */
void	http_request_header(struct http_request *req, const char *name,
	    const char *value);

/* Copy of text with every occurrence of secret replaced by "***". */
char	*http_redact(const char *text, const char *secret);

#endif
