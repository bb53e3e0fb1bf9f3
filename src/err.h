/*
 * err.h: the error message buffer every fallible function fills.
 *
 * A function that can fail returns 0 on success and -1 on failure, and
 * on failure writes one line into the caller's struct err naming what
 * went wrong and where ("vast: offers[3].dph_total: expected a number").
 * Only main() turns failures into exit codes.
 */
#ifndef GPUCOST_ERR_H
#define GPUCOST_ERR_H

#include <stddef.h>

#define ERR_MSG_MAX 512

struct err {
	char	msg[ERR_MSG_MAX];	/* one line, no trailing newline */
};

/* Set the message (replacing any previous one). err may be NULL. */
void	err_set(struct err *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Put "context: " in front of the current message. err may be NULL. */
void	err_prefix(struct err *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Clear the message. */
void	err_clear(struct err *err);

#endif
