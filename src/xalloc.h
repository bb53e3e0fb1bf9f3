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

/* Called before aborting on out-of-memory (NULL for none). */
void	xalloc_set_fatal_hook(void (*hook)(void));

#endif
