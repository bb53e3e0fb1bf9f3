/* train.c: the training run asked about (--train): parse, compute, memory. */
#include "config.h"
#include "train.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "str.h"

void
train_init(struct train *t)
{
	memset(t, 0, sizeof *t);
	t->mfu = TRAIN_MFU_DEFAULT;
	t->checkpoint_s = TRAIN_CHECKPOINT_DEFAULT;
}

bool
train_given(const struct train *t)
{
	return t->params > 0;
}

/* A decimal number at the start of s, no sign, no space; NULL if none. */
static const char *
number(const char *s, double *out)
{
	char *end;

	if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '.'))
		return NULL;
	errno = 0;
	*out = strtod(s, &end);
	/* Decimal only: strtod() would read "0x10" too. */
	if (end == s || errno != 0 || !isfinite(*out) ||
	    (size_t)(end - s) > strspn(s, "0123456789.eE+-"))
		return NULL;
	return end;
}

int
train_parse_count(const char *s, double *out)
{
	static const struct {
		char	 c;
		double	 scale;
	} suffixes[] = {
		{ 'k', 1e3 }, { 'm', 1e6 }, { 'b', 1e9 }, { 't', 1e12 }
	};
	const char *end;
	double v, scale = 1;
	size_t i;

	if ((end = number(s, &v)) == NULL)
		return -1;
	for (i = 0; *end != '\0' && i < sizeof suffixes / sizeof suffixes[0];
	    i++)
		if ((*end | 0x20) == suffixes[i].c) {
			scale = suffixes[i].scale;
			end++;
			break;
		}
	if (*end != '\0' || !(v > 0))
		return -1;
	*out = v * scale;
	return 0;
}

int
train_parse(const char *s, struct train *t, struct err *err)
{
	char head[64], q[80];
	const char *colon = strchr(s, ':');
	double params, tokens;
	size_t n;

	if (colon == NULL || (n = (size_t)(colon - s)) >= sizeof head)
		goto bad;
	memcpy(head, s, n);
	head[n] = '\0';
	if (train_parse_count(head, &params) < 0 ||
	    train_parse_count(colon + 1, &tokens) < 0)
		goto bad;
	if (params < TRAIN_PARAMS_MIN || params > TRAIN_PARAMS_MAX ||
	    tokens < TRAIN_TOKENS_MIN || tokens > TRAIN_TOKENS_MAX) {
		err_set(err, "--train: parameters from 1K to 100T and tokens "
		    "from 1K to 100,000T, got %s", str_quoted(s, q, sizeof q));
		return -1;
	}
	t->params = params;
	t->tokens = tokens;
	return 0;
bad:
	err_set(err, "--train: expected PARAMS:TOKENS such as 7B:2T or "
	    "405M:10B (suffixes K, M, B, T), got %s",
	    str_quoted(s, q, sizeof q));
	return -1;
}

int
train_parse_mfu(const char *s, double *out, struct err *err)
{
	const char *end;
	char q[80];
	double v;

	if ((end = number(s, &v)) == NULL || *end != '\0' || !(v > 0) ||
	    v > 1) {
		err_set(err, "--mfu: expected a fraction greater than 0 and at "
		    "most 1 (0.40: 40 %% of the GPU's peak), got %s",
		    str_quoted(s, q, sizeof q));
		return -1;
	}
	*out = v;
	return 0;
}

int
train_parse_size(const char *s, double *gb, struct err *err)
{
	static const struct {
		const char	*unit;
		double		 gb;
	} units[] = {
		{ "", 1 }, { "gb", 1 }, { "tb", 1e3 }, { "pb", 1e6 },
		{ "gib", 1.073741824 }, { "tib", 1099.511627776 },
		{ "pib", 1125899.906842624 }
	};
	const char *end;
	char q[80];
	double v;
	size_t i;

	if ((end = number(s, &v)) != NULL && v >= 0)
		for (i = 0; i < sizeof units / sizeof units[0]; i++)
			if (str_eq_nocase(end, units[i].unit) &&
			    v * units[i].gb <= TRAIN_EGRESS_MAX_GB) {
				*gb = v * units[i].gb;
				return 0;
			}
	err_set(err, "--egress: expected a size such as 10TB, 500GB or 2TiB "
	    "(GB, TB, PB, GiB, TiB, PiB), got %s", str_quoted(s, q, sizeof q));
	return -1;
}

size_t
train_count_text(double v, char *buf, size_t size)
{
	static const struct {
		char	 c;
		double	 scale;
	} suffixes[] = {
		{ 'T', 1e12 }, { 'B', 1e9 }, { 'M', 1e6 }, { 'K', 1e3 }
	};
	size_t i;
	int k;

	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
		if (v >= suffixes[i].scale)
			break;
	if (i == sizeof suffixes / sizeof suffixes[0])
		k = snprintf(buf, size, "%.4g", v);
	else
		k = snprintf(buf, size, "%.4g%c", v / suffixes[i].scale,
		    suffixes[i].c);
	return k > 0 ? (size_t)k : 0;
}

size_t
train_text(const struct train *t, char *buf, size_t size)
{
	char p[32], tok[32];
	int k;

	train_count_text(t->params, p, sizeof p);
	train_count_text(t->tokens, tok, sizeof tok);
	k = snprintf(buf, size, "%s:%s", p, tok);
	return k > 0 ? (size_t)k : 0;
}

double
train_flops(const struct train *t)
{
	return 6.0 * t->params * t->tokens;
}

double
train_gpu_hours(const struct train *t, double tflops)
{
	if (!(tflops > 0) || !(t->mfu > 0))
		return NAN;
	return train_flops(t) / (tflops * 1e12 * t->mfu) / 3600.0;
}

double
train_memory_gb(const struct train *t)
{
	return t->params * TRAIN_BYTES_PER_PARAM * TRAIN_HEADROOM / 1e9;
}

bool
train_fits(const struct train *t, double vram_gb)
{
	return vram_gb > 0 && vram_gb >= train_memory_gb(t);
}
