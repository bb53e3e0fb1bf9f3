/*
 * signals.c: catching the signals that end a long run early. Its one
 * job: the handler, installing it and putting back what was there.
 */
#include "config.h"
#include "signals.h"

#include <string.h>

volatile sig_atomic_t signals_caught;

static const int signals_ended[SIGNALS_COUNT] = { SIGINT, SIGTERM, SIGHUP };

static void
on_signal(int signo)
{
	signals_caught = signo;
}

void
signals_catch(struct signals_saved *saved)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signals_caught = 0;
	for (i = 0; i < SIGNALS_COUNT; i++) {
		sigaction(signals_ended[i], NULL, &saved->old[i]);
		/* Ignored on purpose (nohup, a background job): keep it so. */
		if (saved->old[i].sa_handler != SIG_IGN)
			sigaction(signals_ended[i], &sa, NULL);
	}
}

void
signals_restore(const struct signals_saved *saved)
{
	size_t i;

	for (i = 0; i < SIGNALS_COUNT; i++)
		sigaction(signals_ended[i], &saved->old[i], NULL);
}

const char *
signals_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
	    sig == SIGHUP ? "SIGHUP" : "a signal";
}
