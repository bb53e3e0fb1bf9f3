/* note_info.c: the note table: tokens, markers, texts; parsing, printing. */
#include "config.h"
#include "note_info.h"

#include <string.h>

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
