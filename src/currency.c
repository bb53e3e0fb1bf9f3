/* currency.c: the EUR to USD rate and conversion. */
#include "config.h"
#include "currency.h"

#include <stdio.h>
#include <string.h>

#include "err.h"
#include "money.h"
#include "str.h"

/* data/usd_per_eur.tsv, compiled in (src/currency_data.c). */
extern const char usd_per_eur_tsv[];
extern const size_t usd_per_eur_tsv_len;

int
currency_rate_parse(const char *text, const char *where, int64_t *rate,
    struct err *err)
{
	char shown[64];
	int64_t v;

	str_sanitize(shown, sizeof shown, text, strlen(text));
	if (money_parse(text, strlen(text), &v) < 0) {
		err_set(err, "%s: \"%s\" is not a USD per EUR rate (a positive "
		    "decimal such as 1.08)", where, shown);
		return -1;
	}
	if (v < CURRENCY_RATE_MIN || v > CURRENCY_RATE_MAX) {
		err_set(err, "%s: %s USD per EUR is out of range %.1f..%.0f",
		    where, shown, (double)CURRENCY_RATE_MIN / CURRENCY_RATE_UNIT,
		    (double)CURRENCY_RATE_MAX / CURRENCY_RATE_UNIT);
		return -1;
	}
	*rate = v;
	return 0;
}

int
currency_default(struct currency_rate *out, struct err *err)
{
	const char *p = usd_per_eur_tsv, *end = p + usd_per_eur_tsv_len, *nl;
	char line[256], *date, *source;
	int header = 1;
	size_t len;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		len = (size_t)(nl - p);
		if (len == 0 || p[0] == '#')
			continue;
		if (header) {
			header = 0;
			continue;
		}
		if (len >= sizeof line)
			break;
		memcpy(line, p, len);
		line[len] = '\0';
		if ((date = strchr(line, '\t')) == NULL ||
		    (source = strchr(date + 1, '\t')) == NULL)
			break;
		*date++ = '\0';
		*source++ = '\0';
		if (currency_rate_parse(line, "usd_per_eur.tsv",
		    &out->usd_per_eur, err) < 0)
			return -1;
		snprintf(out->from, sizeof out->from, "default: %s of %s",
		    source, date);
		return 0;
	}
	err_set(err, "usd_per_eur.tsv: no \"rate<TAB>date<TAB>source\" line");
	return -1;
}

int
currency_usd_per_eur(const char *env_value, const char *file_value,
    const char *file_path, struct currency_rate *out, struct err *err)
{
	char where[sizeof out->from];

	if (env_value != NULL && env_value[0] != '\0') {
		snprintf(out->from, sizeof out->from, "GPUCOST_USD_PER_EUR");
		return currency_rate_parse(env_value, out->from,
		    &out->usd_per_eur, err);
	}
	if (file_value != NULL) {
		snprintf(where, sizeof where, "usd_per_eur in %s",
		    file_path != NULL && file_path[0] != '\0' ? file_path :
		    "the config file");
		str_copy(out->from, sizeof out->from, where);
		return currency_rate_parse(file_value, out->from,
		    &out->usd_per_eur, err);
	}
	return currency_default(out, err);
}

int64_t
currency_to_usd(int64_t micro, int64_t usd_per_eur)
{
	int64_t product;

	if (!money_known(micro) ||
	    __builtin_mul_overflow(micro, usd_per_eur, &product))
		return MONEY_NONE;
	return money_div_round(product, CURRENCY_RATE_UNIT);
}
