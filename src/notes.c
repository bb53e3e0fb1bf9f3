/* notes.c: offer notes: the token table, parsing, printing, marking. */
#include "config.h"
#include "notes.h"

#include <stdlib.h>
#include <string.h>

#include "money.h"
#include "offer.h"
#include "xalloc.h"

struct note_info {
	const char	*token;
	const char	*marker;
	const char	*text;
};

static const struct note_info note_info[NOTE_COUNT] = {
#define X(id, tok, mark, txt) [id] = { tok, mark, txt },
	NOTE_INFO(X)
#undef X
};

const char *
note_token(enum note n)
{
	return (unsigned)n < NOTE_COUNT ? note_info[n].token : "?";
}

const char *
note_marker(enum note n)
{
	return (unsigned)n < NOTE_COUNT ? note_info[n].marker : "?";
}

const char *
note_text(enum note n)
{
	return (unsigned)n < NOTE_COUNT ? note_info[n].text : "";
}

int
note_parse(const char *token, size_t len)
{
	int i;

	for (i = 0; i < NOTE_COUNT; i++)
		if (strlen(note_info[i].token) == len &&
		    memcmp(note_info[i].token, token, len) == 0)
			return i;
	return -1;
}

int
notes_parse(const char *s, size_t len, char sep, unsigned *out,
    const char **bad, size_t *bad_len)
{
	const char *end = s + len, *p = s, *q;
	unsigned mask = 0;
	int n;

	while (p < end) {
		q = memchr(p, sep, (size_t)(end - p));
		if (q == NULL)
			q = end;
		if (q > p) {
			if ((n = note_parse(p, (size_t)(q - p))) < 0) {
				*bad = p;
				*bad_len = (size_t)(q - p);
				return -1;
			}
			mask |= NOTE_BIT(n);
		}
		p = q + 1;
	}
	*out = mask;
	return 0;
}

/* Append s to buf (len so far), never past size; the new length. */
static size_t
append(char *buf, size_t size, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len + n < size) {
		memcpy(buf + len, s, n + 1);
		return len + n;
	}
	return len;
}

size_t
notes_format(unsigned mask, char sep, char *buf, size_t size)
{
	char sepstr[2] = { sep, '\0' };
	size_t len = 0;
	int i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < NOTE_COUNT; i++) {
		if ((mask & NOTE_BIT(i)) == 0)
			continue;
		/* Whole tokens only: the separator goes with its token. */
		if (len > 0 && len + 1 + strlen(note_info[i].token) >= size)
			break;
		if (len > 0)
			len = append(buf, size, len, sepstr);
		len = append(buf, size, len, note_info[i].token);
	}
	return len;
}

size_t
notes_markers(unsigned mask, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < NOTE_COUNT; i++)
		if ((mask & NOTE_BIT(i)) != 0)
			len = append(buf, size, len, note_info[i].marker);
	return len;
}

size_t
notes_legend(unsigned mask, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < NOTE_COUNT; i++) {
		if ((mask & NOTE_BIT(i)) == 0)
			continue;
		len = append(buf, size, len, len == 0 ? "notes: " : ", ");
		len = append(buf, size, len, note_info[i].marker);
		len = append(buf, size, len, " ");
		len = append(buf, size, len, note_info[i].token);
	}
	return len;
}

unsigned
notes_at(const struct offer *o, int64_t now)
{
	unsigned mask = o->notes;

	if (now - o->fetched_at > NOTE_STALE_SECONDS)
		mask |= NOTE_BIT(NOTE_STALE);
	if (offer_host_light(o))
		mask |= NOTE_BIT(NOTE_HOST_LIGHT);
	return mask;
}

/* qsort() order of offer pointers: provider, instance type, price. */
static int
cmp_group(const void *a, const void *b)
{
	const struct offer *x = *(const struct offer *const *)a;
	const struct offer *y = *(const struct offer *const *)b;
	int c;

	if ((c = strcmp(x->provider, y->provider)) != 0 ||
	    (c = strcmp(x->instance_type, y->instance_type)) != 0)
		return c;
	return (x->price > y->price) - (x->price < y->price);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct regions among the n offers of a group. */
static size_t
count_regions(struct offer **g, size_t n, const char **scratch)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		scratch[i] = g[i]->region;
	qsort(scratch, n, sizeof *scratch, cmp_str);
	for (i = 0; i < n; i++)
		if (i == 0 || strcmp(scratch[i], scratch[i - 1]) != 0)
			k++;
	return k;
}

/* Mark the outliers of one group, sorted by price, all priced. */
static void
mark_group(struct offer **g, size_t n, const char **scratch)
{
	int64_t median;
	size_t i;

	if (n < NOTE_OUTLIER_REGIONS ||
	    count_regions(g, n, scratch) < NOTE_OUTLIER_REGIONS)
		return;
	median = n % 2 == 1 ? g[n / 2]->price :
	    g[n / 2 - 1]->price / 2 + g[n / 2]->price / 2;
	for (i = 0; i < n; i++)
		/* Prices are at most 5000 USD: no overflow in x 167. */
		if (g[i]->price * 100 < median * NOTE_OUTLIER_LOW ||
		    g[i]->price * 100 > median * NOTE_OUTLIER_HIGH)
			g[i]->notes |= NOTE_BIT(NOTE_PRICE_OUTLIER);
}

void
notes_mark(struct offer *v, size_t n)
{
	struct offer **priced;
	const char **scratch;
	size_t i, k = 0, start;

	priced = xreallocarray(NULL, n > 0 ? n : 1, sizeof *priced);
	scratch = xreallocarray(NULL, n > 0 ? n : 1, sizeof *scratch);
	for (i = 0; i < n; i++) {
		v[i].notes &= ~(NOTE_BIT(NOTE_PRICE_OUTLIER) |
		    NOTE_BIT(NOTE_SPOT_NOT_CHEAPER));
		if (money_known(v[i].price) && money_known(v[i].spot_price) &&
		    v[i].spot_price >= v[i].price)
			v[i].notes |= NOTE_BIT(NOTE_SPOT_NOT_CHEAPER);
		if (money_known(v[i].price) && v[i].price > 0)
			priced[k++] = &v[i];
	}
	qsort(priced, k, sizeof *priced, cmp_group);
	for (start = 0, i = 1; i <= k; i++)
		if (i == k || strcmp(priced[start]->provider,
		    priced[i]->provider) != 0 ||
		    strcmp(priced[start]->instance_type,
		    priced[i]->instance_type) != 0) {
			mark_group(priced + start, i - start, scratch);
			start = i;
		}
	free(scratch);
	free(priced);
}
