/*
 * offer_text.h: text for the offers a unit test fills by hand. An
 * offer's text is pointers (offer.h); a test's offers point into one
 * list that lives as long as the test program, so a string formatted
 * in a loop is not shared by every offer that used the same buffer.
 */
#ifndef GPUCOST_TEST_OFFER_TEXT_H
#define GPUCOST_TEST_OFFER_TEXT_H

#include <stdarg.h>
#include <stdio.h>

#include "offer.h"

static struct offer_list test_text;	/* never freed: reachable */

/* s stored for the rest of the test (at most OFFER_KEY_MAX - 1 bytes). */
static inline const char *
tstr(const char *s)
{
	struct offer o;

	offer_init(&o);
	offer_set_key(&test_text, &o, s);
	return o.key;
}

static inline const char *tstrf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static inline const char *
tstrf(const char *fmt, ...)
{
	char buf[OFFER_KEY_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tstr(buf);
}

/* committed_add() on a test's offer (its prices in test_text). */
static inline int
tcommitted_add(struct offer *o, enum committed_kind kind, int months,
    enum committed_upfront up, int64_t price_hour, int64_t upfront)
{
	return offer_add_committed(&test_text, o, kind, months, up,
	    price_hour, upfront);
}

#endif
