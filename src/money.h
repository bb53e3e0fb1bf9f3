/*
 * money.h: prices as integer micro-USD.
 *
 * A price is parsed once from the provider's decimal text (or JSON
 * number) into an int64_t count of millionths of a US dollar, and stays
 * that way through sums, sorts and the cache; it becomes text again only
 * when printed. MONEY_NONE marks a price that is not known: never 0.
 */
#ifndef GPUCOST_MONEY_H
#define GPUCOST_MONEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MONEY_NONE	INT64_MIN	/* price not published / not known */
#define MONEY_UNIT	1000000		/* micro-USD in one USD */
/*
 * Decimals of a price per hour wherever people read one (tables, the
 * TUI, messages): the same in every answer (issue 48).
 */
#define MONEY_HOUR_DECIMALS	4
/* Largest price accepted anywhere: 10 million USD (an absurd value). */
#define MONEY_MAX	((int64_t)10000000 * MONEY_UNIT)

static inline bool
money_known(int64_t micro)
{
	return micro != MONEY_NONE;
}

/*
 * Parse a non-negative decimal ("32.7726", "0.5", "9.0E-4", "12") of
 * len bytes into micro-USD, rounding half up at the seventh decimal.
 * Spaces and tabs around the number are ignored.
 * Returns 0, or -1 for anything else (empty, sign, NaN, garbage,
 * more than MONEY_MAX).
 */
int	money_parse(const char *s, size_t len, int64_t *micro);

/* Convert a JSON number; -1 if negative, not finite or > MONEY_MAX. */
int	money_from_double(double usd, int64_t *micro);

/*
 * Format micro-USD exactly, trimming trailing zeros but keeping at least
 * min_decimals (0..6) decimals: 32772600 -> "32.7726", 2000000 with 2 ->
 * "2.00". MONEY_NONE formats as "". Returns the length.
 */
size_t	money_format(char *buf, size_t size, int64_t micro, int min_decimals);

/*
 * Format micro-USD rounded half away from zero to exactly `decimals`
 * (0..6) decimals: 1171525 with 4 -> "1.1715", 2890000 with 4 ->
 * "2.8900". What people read (tables, messages) comes through here, so
 * a price prints the same way wherever it is quoted. MONEY_NONE formats
 * as "". Returns the length.
 */
size_t	money_format_fixed(char *buf, size_t size, int64_t micro,
	    int decimals);

/* a / b rounded half away from zero; b > 0. */
int64_t	money_div_round(int64_t a, int64_t b);

/*
 * micro * factor with overflow and NONE propagation: MONEY_NONE in gives
 * MONEY_NONE out; an overflow gives MONEY_NONE too.
 */
int64_t	money_mul(int64_t micro, int64_t factor);

/* Price for a number of hours (>= 0), rounded to the micro-USD. */
int64_t	money_for_hours(int64_t micro_per_hour, double hours);

#endif
