/* err.c: the error message buffer. */
#include "config.h"
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "str.h"

/*
 * One line, safe for a terminal: newlines become blanks, and control
 * characters and escape sequences go (a message may quote a path or an
 * argument the user gave, or text an API sent).
 */
static void
err_one_line(char *s)
{
	char clean[ERR_MSG_MAX];

	str_sanitize(clean, sizeof clean, s, strlen(s));
	memcpy(s, clean, strlen(clean) + 1);
}

void
err_set(struct err *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err_one_line(err->msg);
}

void
err_prefix(struct err *err, const char *fmt, ...)
{
	char old[ERR_MSG_MAX];
	va_list ap;
	size_t len;

	if (err == NULL)
		return;
	memcpy(old, err->msg, sizeof old);
	old[sizeof old - 1] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	if (len + 2 < sizeof err->msg) {
		size_t room, n;

		memcpy(err->msg + len, ": ", 2);
		len += 2;
		room = sizeof err->msg - len - 1;
		n = strlen(old);
		if (n > room)
			n = room;
		memcpy(err->msg + len, old, n);
		err->msg[len + n] = '\0';
	}
	err_one_line(err->msg);
}

void
err_clear(struct err *err)
{
	if (err != NULL)
		err->msg[0] = '\0';
}
