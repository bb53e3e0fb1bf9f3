/*
 * signals.h: the signals that end a long run early (SIGINT, SIGTERM,
 * SIGHUP: a refresh, a pull, a watch's --exec command, the TUI), caught
 * so that the run ends cleanly, records why, and then ends by the
 * signal. One run catches them at a time.
 */
#ifndef GPUCOST_SIGNALS_H
#define GPUCOST_SIGNALS_H

#include <signal.h>

#define SIGNALS_COUNT	3

/* The signal caught since signals_catch(), or 0. */
extern volatile sig_atomic_t signals_caught;

/* What signals_catch() replaced, for signals_restore(). */
struct signals_saved {
	struct sigaction old[SIGNALS_COUNT];
};

/*
 * Catch them (signals_caught set to 0 first); one ignored on purpose
 * (nohup, a background job) stays ignored. signals_restore() puts back
 * what was there.
 */
void	signals_catch(struct signals_saved *saved);
void	signals_restore(const struct signals_saved *saved);

/* "SIGTERM", ... for a message. */
const char *signals_name(int sig);

#endif
