/* xalloc.c: allocators that abort on out-of-memory. */
#include "config.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void (*fatal_hook)(void);

void
xalloc_set_fatal_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

/*
 * Restore what needs restoring, say why, and stop with the exit status
 * of a data error: running out of memory is a condition to report (a
 * ulimit, a huge answer), not a bug to dump core for.
 */
static void __attribute__((noreturn))
xalloc_fail(size_t size)
{
	if (fatal_hook != NULL)
		fatal_hook();
	fprintf(stderr, "gpucost: out of memory (allocating %zu bytes)\n",
	    size);
	fflush(stdout);
	_Exit(XALLOC_EXIT_STATUS);
}

void *
xmalloc(size_t size)
{
	void *p;

	p = malloc(size == 0 ? 1 : size);
	if (p == NULL)
		xalloc_fail(size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	p = calloc(nmemb, size);
	if (p == NULL)
		xalloc_fail(nmemb * size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		xalloc_fail(SIZE_MAX);
	if (nmemb * size == 0)
		nmemb = size = 1;
	p = realloc(ptr, nmemb * size);
	if (p == NULL)
		xalloc_fail(nmemb * size);
	return p;
}

void
xalloc_large_hint(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t lo, hi;

	if (p == NULL || size < XALLOC_LARGE)
		return;
	/* Only the whole huge pages inside the array; a refusal is fine. */
	lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	hi = ((uintptr_t)p + size) & ~(huge - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p;
	size_t len;

	len = strnlen(s, n);
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	char probe[1];
	va_list ap;
	char *p;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(probe, sizeof probe, fmt, ap);
	va_end(ap);
	if (len < 0)
		xalloc_fail(0);
	p = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return p;
}
