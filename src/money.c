/* money.c: exact decimal parsing and printing of micro-USD. */
#include "config.h"
#include "money.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int64_t pow10_table[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000,
	10000000000000, 100000000000000, 1000000000000000,
	10000000000000000, 100000000000000000, 1000000000000000000
};

int
money_parse(const char *s, size_t len, int64_t *micro)
{
	int64_t digits = 0;
	int ndigits = 0, exp10 = 0, seen_digit = 0, seen_dot = 0;
	int exp_sign = 1, exp_val = 0, shift;
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (len > i && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (i < len && s[i] == '+')
		i++;
	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			seen_digit = 1;
			/* Keep 18 significant digits; later ones only scale. */
			if (ndigits < 18) {
				if (digits != 0 || s[i] != '0')
					ndigits++;
				digits = digits * 10 + (s[i] - '0');
				if (seen_dot)
					exp10--;
			} else if (!seen_dot)
				exp10++;
		} else if (s[i] == '.' && !seen_dot)
			seen_dot = 1;
		else
			break;
	}
	if (!seen_digit)
		return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			exp_sign = s[i++] == '-' ? -1 : 1;
		if (i >= len || s[i] < '0' || s[i] > '9')
			return -1;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (exp_val < 1000)
				exp_val = exp_val * 10 + (s[i] - '0');
	}
	if (i != len)
		return -1;
	shift = exp10 + exp_sign * exp_val + 6;
	if (digits == 0) {
		*micro = 0;
		return 0;
	}
	if (shift >= 0) {
		if (shift > 18 || digits > MONEY_MAX / pow10_table[shift])
			return -1;
		*micro = digits * pow10_table[shift];
	} else if (shift < -18)
		*micro = 0;
	else {
		int64_t d = pow10_table[-shift];

		*micro = digits / d + ((digits % d) * 2 >= d ? 1 : 0);
	}
	if (*micro > MONEY_MAX)
		return -1;
	return 0;
}

int
money_from_double(double usd, int64_t *micro)
{
	if (!isfinite(usd) || usd < 0 || usd > (double)MONEY_MAX / MONEY_UNIT)
		return -1;
	*micro = llround(usd * MONEY_UNIT);
	return 0;
}

size_t
money_format(char *buf, size_t size, int64_t micro, int min_decimals)
{
	/* sign, 19 digits, point, 6 decimals */
	char text[32], *p = text + sizeof text;
	uint64_t abs_micro, whole;
	unsigned frac;
	int last, i;
	size_t n;

	if (size == 0)
		return 0;
	if (!money_known(micro)) {
		buf[0] = '\0';
		return 0;
	}
	abs_micro = micro < 0 ? (uint64_t)(-(micro + 1)) + 1 : (uint64_t)micro;
	if (min_decimals < 0)
		min_decimals = 0;
	if (min_decimals > 6)
		min_decimals = 6;
	/*
	 * By hand, from the right: every price an answer prints comes
	 * through here (two formatted prints were 3 % of its instructions).
	 * The decimals past min_decimals that are 0 are dropped.
	 */
	frac = (unsigned)(abs_micro % MONEY_UNIT);
	for (last = 6; last > min_decimals && frac % 10 == 0; last--)
		frac /= 10;
	for (i = 0; i < last; i++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	if (last > 0)
		*--p = '.';
	whole = abs_micro / MONEY_UNIT;
	do {
		*--p = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole > 0);
	if (micro < 0)
		*--p = '-';
	/* Cut to size, always terminated; the full length returned. */
	n = (size_t)(text + sizeof text - p);
	memcpy(buf, p, n < size ? n : size - 1);
	buf[n < size ? n : size - 1] = '\0';
	return n;
}

size_t
money_format_fixed(char *buf, size_t size, int64_t micro, int decimals)
{
	int64_t step = 1;
	int i;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	for (i = decimals; i < 6; i++)
		step *= 10;
	if (money_known(micro))
		micro = money_div_round(micro, step) * step;
	return money_format(buf, size, micro, decimals);
}

int64_t
money_div_round(int64_t a, int64_t b)
{
	int64_t q = a / b, r = a % b;

	/* Compare |r| with b - |r| so nothing can overflow near INT64_MAX. */
	if (r > 0 && r >= b - r)
		q++;
	else if (r < 0 && -r >= b + r)
		q--;
	return q;
}

int64_t
money_mul(int64_t micro, int64_t factor)
{
	int64_t product;

	if (!money_known(micro))
		return MONEY_NONE;
	if (__builtin_mul_overflow(micro, factor, &product) ||
	    product == MONEY_NONE)
		return MONEY_NONE;
	return product;
}

int64_t
money_for_hours(int64_t micro_per_hour, double hours)
{
	double v;

	if (!money_known(micro_per_hour) || !isfinite(hours) || hours < 0)
		return MONEY_NONE;
	v = (double)micro_per_hour * hours;
	if (v > (double)INT64_MAX / 2)
		return MONEY_NONE;
	return llround(v);
}
