/*
 * xalloc.h: allocators that never return NULL.
 *
 * Running out of memory is not recoverable in gpucost: these call the
 * fatal hook (the TUI uses it to restore the terminal), print one line
 * ("gpucost: out of memory ...") and exit with XALLOC_EXIT_STATUS, the
 * status of a data error (EXIT_DATA). Nothing else in the program writes
 * OOM-recovery branches.
 */
#ifndef GPUCOST_XALLOC_H
#define GPUCOST_XALLOC_H

#include <stddef.h>

#define XALLOC_EXIT_STATUS	3	/* EXIT_DATA */

void	*xmalloc(size_t size) __attribute__((malloc));
void	*xcalloc(size_t nmemb, size_t size) __attribute__((malloc));
/* realloc of nmemb * size bytes, checking the multiplication. */
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);
char	*xstrdup(const char *s) __attribute__((malloc));
char	*xstrndup(const char *s, size_t n) __attribute__((malloc));
/* Allocated, formatted string; the caller frees it. */
char	*xasprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), malloc));

/*
 * A hint that [p, p + size) is one large, densely used array (100k
 * offers: 51 MB): ask the kernel to back it with huge pages where it
 * allows that on request (Linux THP "madvise" mode). Filling such an
 * array otherwise takes one page fault per 4 kB, which on a virtual
 * machine was half the TUI's load time (0.80 -> 0.40 s at 100k). Below
 * XALLOC_LARGE bytes, and where the call does not exist, nothing.
 */
#define XALLOC_LARGE	((size_t)8 << 20)
void	xalloc_large_hint(void *p, size_t size);

/* Called before aborting on out-of-memory (NULL for none). */
void	xalloc_set_fatal_hook(void (*hook)(void));

#endif
