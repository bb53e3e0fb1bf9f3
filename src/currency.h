/*
 * currency.h: converting a provider's non-USD prices to USD.
 *
 * gpucost compares prices in USD. A provider that bills in EUR
 * (Scaleway) is converted with one rate, "USD per EUR", in millionths
 * (1.0389 is 1038900): the user's (GPUCOST_USD_PER_EUR, which wins, or
 * the config key usd_per_eur) or the dated default shipped in
 * data/usd_per_eur.tsv. Pure: the caller passes the values it read.
 */
#ifndef GPUCOST_CURRENCY_H
#define GPUCOST_CURRENCY_H

#include <stddef.h>
#include <stdint.h>

struct err;

#define CURRENCY_RATE_UNIT	1000000		/* a rate of 1.0 */
/* A believable USD/EUR rate lies well inside [0.1, 10]. */
#define CURRENCY_RATE_MIN	(CURRENCY_RATE_UNIT / 10)
#define CURRENCY_RATE_MAX	((int64_t)CURRENCY_RATE_UNIT * 10)

struct currency_rate {
	int64_t	usd_per_eur;	/* millionths of a USD per EUR */
	char	from[256];	/* "GPUCOST_USD_PER_EUR", "usd_per_eur in FILE",
				   "default: ECB ... of 2024-12-31" */
};

/*
 * Parse a rate ("1.0389"); where names its origin in the message of a
 * value that is empty, not a plain decimal (text, a sign, NaN), zero or
 * outside [CURRENCY_RATE_MIN, CURRENCY_RATE_MAX].
 */
int	currency_rate_parse(const char *text, const char *where, int64_t *rate,
	    struct err *err);

/* The rate shipped in data/usd_per_eur.tsv. */
int	currency_default(struct currency_rate *out, struct err *err);

/*
 * The rate to use: env_value (GPUCOST_USD_PER_EUR; NULL or "" when
 * unset) wins over file_value (usd_per_eur in the config file
 * file_path), else the default. A bad value is an error, never a
 * silent fall back to the default.
 */
int	currency_usd_per_eur(const char *env_value, const char *file_value,
	    const char *file_path, struct currency_rate *out, struct err *err);

/*
 * micro (millionths of a EUR) in micro-USD at usd_per_eur, rounded half
 * away from zero; MONEY_NONE when micro is, or on overflow.
 */
int64_t	currency_to_usd(int64_t micro, int64_t usd_per_eur);

#endif
