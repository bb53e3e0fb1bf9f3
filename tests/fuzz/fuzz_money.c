/*
 * fuzz_money.c: money_parse() and money_format() on fuzzed decimal text.
 * Properties: a parsed price is in 0..MONEY_MAX; formatting it with any
 * number of minimum decimals and parsing the text again gives the same
 * micro-USD; the formatted text fits the buffer money_format() reports.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_run.h"
#include "money.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[64], small[8];
	int64_t micro, again;
	size_t len;
	int dec;

	if (money_parse((const char *)data, size, &micro) < 0)
		return 0;
	if (micro < 0 || micro > MONEY_MAX)
		fuzz_fail("money_parse: %lld out of range", (long long)micro);
	for (dec = 0; dec <= 6; dec++) {
		len = money_format(buf, sizeof buf, micro, dec);
		if (len == 0 || len >= sizeof buf || len != strlen(buf))
			fuzz_fail("money_format(%lld, %d): length %zu",
			    (long long)micro, dec, len);
		if (money_parse(buf, len, &again) < 0 || again != micro)
			fuzz_fail("money round trip: %lld -> \"%s\" -> %lld",
			    (long long)micro, buf, (long long)again);
		/* A short buffer truncates, always terminated. */
		money_format(small, sizeof small, micro, dec);
		if (memchr(small, '\0', sizeof small) == NULL)
			fuzz_fail("money_format: not terminated");
	}
	return 0;
}
