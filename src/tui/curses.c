/*
 * tui/curses.c: libncursesw, loaded with dlopen() when the TUI starts
 * (why: curses.h). Fills struct tui_curses, through which every curses
 * call of the TUI goes.
 */
#define TUI_CURSES_LOADER	/* the real names here, not the table's */
#include "tui/curses.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The library file loaded at run time; configure may name another. */
#ifndef GPUCOST_NCURSES_SONAME
#ifdef __APPLE__
#define GPUCOST_NCURSES_SONAME	"libncursesw.6.dylib"
#else
#define GPUCOST_NCURSES_SONAME	"libncursesw.so.6"
#endif
#endif

struct tui_curses tui_curses;

static void	*nc_lib;	/* the dlopen() handle; NULL: not loaded */

/*
 * Each entry's type against curses.h's declaration of the name: an
 * assignment the compiler checks and sizeof never evaluates, so the real
 * symbol is never referenced (gpucost does not link ncurses).
 */
static void
nc_check_types(void)
{
#define X(ret, name, args) (void)sizeof(tui_curses.name = name);
	TUI_CURSES_FUNCTIONS(X)
#undef X
#define X(type, name, array) (void)sizeof(tui_curses.name = &name);
	TUI_CURSES_VARIABLES(X)
#undef X
}

int
tui_curses_load(struct err *err)
{
	/* Tests (tests/tui/tui.sh): a library that cannot be loaded. */
	const char *soname = getenv("GPUCOST_DEBUG_NCURSES"), *missing;
	void *sym;

	if (nc_lib != NULL)
		return 0;
	nc_check_types();
	if (soname == NULL)
		soname = GPUCOST_NCURSES_SONAME;
	/* Its libtinfo comes with it: dlsym() searches both. */
	if ((nc_lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		err_set(err, "cannot load %s", dlerror());
		return -1;
	}
	/* memcpy: ISO C has no cast from void * to a function pointer. */
#define X(ret, name, args)						\
	if ((sym = dlsym(nc_lib, #name)) == NULL) {			\
		missing = #name;					\
		goto missing;						\
	}								\
	memcpy(&tui_curses.name, &sym, sizeof sym);
	TUI_CURSES_FUNCTIONS(X)
#undef X
#define X(type, name, array)					\
	if ((tui_curses.name = dlsym(nc_lib, #name)) == NULL) {		\
		missing = #name;					\
		goto missing;						\
	}
	TUI_CURSES_VARIABLES(X)
#undef X
	return 0;
missing:
	err_set(err, "%s has no %s", soname, missing);
	dlclose(nc_lib);
	nc_lib = NULL;
	memset(&tui_curses, 0, sizeof tui_curses);
	return -1;
}
