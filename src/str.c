/* str.c: string helpers and the provider-text sanitiser. */
#include "config.h"
#include "str.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "xalloc.h"

/* Length of the UTF-8 sequence starting at s (max len bytes), 0 if invalid. */
static size_t
utf8_seq_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

size_t
str_copy(char *dst, size_t size, const char *src)
{
	size_t len, n;

	len = strlen(src);
	if (size == 0)
		return len;
	n = len < size - 1 ? len : size - 1;
	/* Do not cut a multi-byte character in half. */
	while (n > 0 && n < len && ((unsigned char)src[n] & 0xc0) == 0x80)
		n--;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return len;
}

size_t
str_cut(char *dst, size_t size, const char *src)
{
	size_t n;

	if (size == 0)
		return 0;
	if (str_copy(dst, size, src) < size)
		return strlen(dst);
	/* Room for the mark; a buffer too small for it takes what fits. */
	if (size < 4)
		return strlen(dst);
	n = strlen(dst);
	if (n > size - 4)
		n = size - 4;
	while (n > 0 && ((unsigned char)dst[n] & 0xc0) == 0x80)
		n--;
	memcpy(dst + n, "...", 4);
	return n + 3;
}

/* Skip an escape sequence starting at s[0] == ESC; returns bytes used. */
static size_t
skip_escape(const unsigned char *s, size_t len)
{
	size_t i;

	if (len < 2)
		return len;
	if (s[1] == '[') {
		/* CSI: parameters and intermediates, then a final byte. */
		for (i = 2; i < len; i++)
			if (s[i] >= 0x40 && s[i] <= 0x7e)
				return i + 1;
		return len;
	}
	if (s[1] == ']' || s[1] == 'P' || s[1] == '_' || s[1] == '^' ||
	    s[1] == 'X') {
		/* OSC/DCS/APC/PM/SOS: up to BEL or ST (ESC \). */
		for (i = 2; i < len; i++) {
			if (s[i] == 0x07)
				return i + 1;
			if (s[i] == 0x1b && i + 1 < len && s[i + 1] == '\\')
				return i + 2;
		}
		return len;
	}
	/* Others: intermediates (ESC ( B, ESC # 8), then a final byte. */
	for (i = 1; i < len && s[i] >= 0x20 && s[i] <= 0x2f; i++)
		continue;
	return i < len ? i + 1 : len;
}

size_t
str_sanitize(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, n;

	if (size == 0)
		return 0;
	while (i < len && s[i] != '\0') {
		if (s[i] == 0x1b) {
			i += skip_escape(s + i, len - i);
			continue;
		}
		if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
		    s[i] == ' ') {
			/* No leading space, and runs of blanks become one. */
			if (o > 0 && dst[o - 1] != ' ' && o + 1 < size)
				dst[o++] = ' ';
			i++;
			continue;
		}
		if (s[i] < 0x20 || s[i] == 0x7f) {
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (n == 0) {
			if (o + 1 < size)
				dst[o++] = '?';
			i++;
			continue;
		}
		/* C1 controls U+0080..U+009F, encoded C2 80..C2 9F. */
		if (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0) {
			i += 2;
			continue;
		}
		if (o + n >= size)
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
	}
	while (o > 0 && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
	return o;
}

bool
str_is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, n;

	if (len > 0 && (p[0] == ' ' || p[len - 1] == ' '))
		return false;
	if (strstr(s, "  ") != NULL)
		return false;
	while (i < len) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return false;
		n = utf8_seq_len(p + i, len - i);
		if (n == 0 || (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0))
			return false;
		i += n;
	}
	return true;
}

bool
str_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if ((n = utf8_seq_len(p + i, len - i)) == 0)
			return false;
		i += n;
	}
	return true;
}

void
str_utf8_repair(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t len = strlen(s), i = 0, n;

	while (i < len) {
		if ((n = utf8_seq_len(p + i, len - i)) == 0) {
			p[i++] = '?';
			continue;
		}
		i += n;
	}
}

bool
str_eq_nocase(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

const char *
str_find_nocase(const char *haystack, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n == 0)
		return haystack;
	for (; *haystack != '\0'; haystack++) {
		for (i = 0; i < n; i++)
			if (haystack[i] == '\0' ||
			    tolower((unsigned char)haystack[i]) !=
			    tolower((unsigned char)needle[i]))
				break;
		if (i == n)
			return haystack;
	}
	return NULL;
}

size_t
str_width(const char *s)
{
	size_t w = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

size_t
str_prefix_for_width(const char *s, size_t width)
{
	size_t i = 0, w = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (w == width)
				break;
			w++;
		}
		i++;
	}
	return i;
}

const char *
str_quoted(const char *value, char *buf, size_t size)
{
	char clean[64];

	str_sanitize(clean, sizeof clean, value, strlen(value));
	snprintf(buf, size, "\"%s\"", clean);
	return buf;
}

/* Copy src to dst (size bytes) without " (http...)" asides: a URL
 * repeats what the message says and hides its end. */
static void
drop_url_asides(char *dst, size_t size, const char *src)
{
	size_t n = 0;
	const char *end;

	while (*src != '\0' && n + 1 < size) {
		if (strncmp(src, " (http", 6) == 0 &&
		    (end = strchr(src, ')')) != NULL) {
			src = end + 1;
			continue;
		}
		dst[n++] = *src++;
	}
	dst[n] = '\0';
}

size_t
str_shorten(char *dst, size_t size, const char *src, size_t width)
{
	char text[1024];
	const char *tail, *p;
	size_t tw, head, n;

	if (size == 0)
		return 0;
	if (str_width(src) <= width)
		return str_copy(dst, size, src);
	drop_url_asides(text, sizeof text, src);
	src = text;
	if (str_width(src) <= width)
		return str_copy(dst, size, src);
	if (width < 8) {
		n = str_prefix_for_width(src, width);
		n = n < size - 1 ? n : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
		return n;
	}
	/* The cause: after the last ": ", at most two thirds of the room. */
	tail = src;
	for (p = src; (p = strstr(p, ": ")) != NULL; p += 2)
		tail = p + 2;
	tw = str_width(tail);
	if (tail == src || tw > width * 2 / 3) {
		tail = src + strlen(src);
		while (tail > src && str_width(tail) < width / 3)
			tail--;
		while (tail > src && ((unsigned char)*tail & 0xc0) == 0x80)
			tail--;
		tw = str_width(tail);
	}
	head = str_prefix_for_width(src, width - tw - 3);
	n = head < size - 1 ? head : size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	strncat(dst, "...", size - strlen(dst) - 1);
	strncat(dst, tail, size - strlen(dst) - 1);
	return strlen(dst);
}

bool
str_glob_valid(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			continue;
		}
		if (*s != '[')
			continue;
		s++;
		if (*s == '!' || *s == '^')
			s++;
		if (*s == ']')		/* a leading ']' is a member */
			s++;
		while (*s != '\0' && *s != ']')
			s++;
		if (*s == '\0')
			return false;
	}
	return true;
}

char *
str_url_redact(const char *url, const char **password, size_t *len)
{
	const char *scheme, *auth, *end, *at, *colon;

	if (password != NULL)
		*password = NULL;
	if (len != NULL)
		*len = 0;
	if ((scheme = strstr(url, "://")) == NULL)
		return xstrdup(url);
	auth = scheme + 3;
	end = auth + strcspn(auth, "/?#");
	/* The last '@' of the authority ends the user information. */
	for (at = NULL, colon = auth; colon < end; colon++)
		if (*colon == '@')
			at = colon;
	if (at == NULL)
		return xstrdup(url);
	colon = memchr(auth, ':', (size_t)(at - auth));
	if (colon == NULL || colon + 1 == at)
		return xstrdup(url);
	if (password != NULL)
		*password = colon + 1;
	if (len != NULL)
		*len = (size_t)(at - colon - 1);
	return xasprintf("%.*s***%s", (int)(colon + 1 - url), url, at);
}

void
str_run_find(struct str_run *memo, const void *rows, size_t n, size_t stride,
    size_t field, const char *s, size_t *from, size_t *to)
{
	const char *base = rows;
	size_t lo, hi, len;

#define RUN_FIELD(i) (*(const char *const *)(base + (i) * stride + field))
	if (memo->last[0] == '\0' || strcmp(memo->last, s) != 0) {
		for (lo = 0; lo < n && strcmp(RUN_FIELD(lo), s) != 0; lo++)
			;
		for (hi = lo; hi < n && strcmp(RUN_FIELD(hi), s) == 0; hi++)
			;
#undef RUN_FIELD
		memo->from = lo;
		memo->to = hi;
		len = strlen(s);
		if (len < sizeof memo->last)
			memcpy(memo->last, s, len + 1);
		else
			memo->last[0] = '\0';
	}
	*from = memo->from;
	*to = memo->to;
}

size_t
str_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp, best, extra;
	size_t row[STR_DISTANCE_MAX + 1];

	extra = 0;
	if (la > STR_DISTANCE_MAX) {
		extra += la - STR_DISTANCE_MAX;
		la = STR_DISTANCE_MAX;
	}
	if (lb > STR_DISTANCE_MAX) {
		extra += lb - STR_DISTANCE_MAX;
		lb = STR_DISTANCE_MAX;
	}
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] == b[j - 1] ? 0 : 1);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb] + extra;
}

const char *
str_nearest(const char *s, const char *const *words, size_t n)
{
	const char *best = NULL;
	size_t i, d, best_d = 0, len;

	for (i = 0; i < n; i++) {
		if (words[i] == NULL || words[i][0] == '\0')
			continue;
		d = str_distance(s, words[i]);
		len = strlen(words[i]);
		if (d > (len >= 6 ? 2 : len / 3 > 0 ? len / 3 : 1))
			continue;
		if (best == NULL || d < best_d) {
			best = words[i];
			best_d = d;
		}
	}
	return best;
}

uint64_t
str_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(1099511628211);
	return h;
}
