/* snapshot_info.c: the built-in snapshot's dated source per provider. */
#include "config.h"
#include "snapshot_info.h"

#include <stdio.h>
#include <string.h>

#include "snapshot.h"
#include "str.h"

/* [s, s + n) into a buffer of size, sanitised (str.h), cut to fit. */
static void
copy_span(char *dst, size_t size, const char *s, size_t n)
{
	str_sanitize(dst, size, s, n);
}

bool
snapshot_source_in(const char *text, size_t len, const char *provider,
    struct snapshot_source *out)
{
	static const char tag[] = "# source ";
	const char *p = text, *end = text + len, *nl, *f;
	size_t plen = strlen(provider), n;

	/* The sources are in the header: stop at its first data line. */
	while (p < end && *p == '#') {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		f = p + sizeof tag - 1;
		if ((size_t)(nl - p) > sizeof tag - 1 + plen + 1 &&
		    memcmp(p, tag, sizeof tag - 1) == 0 &&
		    memcmp(f, provider, plen) == 0 && f[plen] == ' ') {
			f += plen + 1;
			n = strcspn(f, " \n");
			if (f + n > nl)
				n = (size_t)(nl - f);
			copy_span(out->date, sizeof out->date, f, n);
			f += n;
			while (f < nl && *f == ' ')
				f++;
			copy_span(out->what, sizeof out->what, f,
			    (size_t)(nl - f));
			return true;
		}
		p = nl + 1;
	}
	return false;
}

bool
snapshot_source(const char *provider, struct snapshot_source *out)
{
	return snapshot_source_in(snapshot_tsv, snapshot_tsv_len, provider,
	    out);
}

size_t
snapshot_list_note(const char *provider, const char *why, char *buf,
    size_t size)
{
	struct snapshot_source src;
	int n;

	if (size == 0)
		return 0;
	if (snapshot_source(provider, &src))
		n = snprintf(buf, size, "%s: its offers are its list prices of "
		    "%s (%s)", why, src.date, src.what);
	else
		n = snprintf(buf, size, "%s", why);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
