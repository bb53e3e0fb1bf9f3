/*
 * cmd_watch.c: `gpucost watch [query options] [--exec CMD]`, for cron
 * after `gpucost refresh`: the offers matching the query that are new,
 * became available, or got cheaper than this watch last reported, each
 * with why (change, and the price it had). The watch is kept under its
 * normalised query (the filter's CLI words), so the same question asked
 * again is the same watch: in the cache, or, when the cache is one the
 * user may not write (the shared cache), in their own state file
 * (paths_watch_state()). News counts as reported only once it reached
 * its reader whole: printed without a write error, or read in full by
 * --exec's command that then exited 0 within --exec-timeout. What
 * --limit cut stays news. `--list` shows the watches, `--forget` drops
 * the query's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "err.h"
#include "filter.h"
#include "footer.h"
#include "money.h"
#include "output.h"
#include "paths.h"
#include "query.h"
#include "signals.h"
#include "str.h"
#include "xalloc.h"

#define WATCH_EXEC_TIMEOUT	60	/* --exec-timeout's default, seconds */
#define WATCH_KILL_GRACE_MS	2000	/* after SIGTERM, before SIGKILL */
/*
 * An offer the query no longer finds (sold out, gone from the market)
 * is kept as unavailable, so that its return is "available-again" with
 * its old price, until this long after it was last reported.
 */
#define WATCH_KEEP_GONE		(30 * 86400)

/* The price a watch compares: spot with --spot, else on demand. */
static int64_t
watched_price(const struct cli_options *o, const struct plan *p)
{
	return o->filter.spot ? p->spot_gpu_hour : p->price_gpu_hour;
}

/*
 * The offers a watch knows by provider and key, hashed: its walk asks
 * for each offer it passes (1,000 and more a run), and a binary search
 * of the sorted array cost 650 instructions an ask, more than the
 * walk's own step. Open addressing over a power of two at least twice
 * the offers.
 */
struct known_index {
	const struct db_watch_offer *v;
	size_t	 n;
	size_t	*slot;		/* 1 + the offer's index in v; 0 empty */
	size_t	 mask;
};

/*
 * FNV-1a of provider and key as the record keeps them (cut to its
 * arrays), a byte between them that UTF-8 text never has.
 */
static size_t
known_hash(const char *provider, const char *key)
{
	uint64_t h;

	h = str_fnv1a(STR_FNV1A_BASIS, provider,
	    strnlen(provider, OFFER_PROVIDER_MAX - 1));
	h = str_fnv1a(h, "\xff", 1);
	h = str_fnv1a(h, key, strnlen(key, OFFER_KEY_MAX - 1));
	return (size_t)(h ^ (h >> 32));
}

static void
known_index_init(struct known_index *ix, const struct db_watch_offer *v,
    size_t n)
{
	size_t size = 16, i, j;

	while (size < 2 * n)
		size *= 2;
	ix->v = v;
	ix->n = n;
	ix->slot = xcalloc(size, sizeof *ix->slot);
	ix->mask = size - 1;
	for (i = 0; i < n; i++) {
		j = known_hash(v[i].provider, v[i].key) & ix->mask;
		while (ix->slot[j] != 0)
			j = (j + 1) & ix->mask;
		ix->slot[j] = i + 1;
	}
}

static void
known_index_done(struct known_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
}

/*
 * What the watch knew of an offer, or NULL: provider and key compared
 * as the record keeps them (a longer text cut to its arrays, as
 * str_copy() cuts what is stored).
 */
static const struct db_watch_offer *
known_find(const struct known_index *ix, const char *provider,
    const char *key)
{
	const struct db_watch_offer *w;
	size_t j;

	if (ix->n == 0)
		return NULL;
	j = known_hash(provider, key) & ix->mask;
	for (; ix->slot[j] != 0; j = (j + 1) & ix->mask) {
		w = &ix->v[ix->slot[j] - 1];
		if (strncmp(w->key, key, OFFER_KEY_MAX - 1) == 0 &&
		    strncmp(w->provider, provider, OFFER_PROVIDER_MAX - 1) == 0)
			return w;
	}
	return NULL;
}

/* What the watch knew of plan p's offer, or NULL. */
static const struct db_watch_offer *
known_offer(const struct known_index *ix, const struct plan *p)
{
	return known_find(ix, p->offer->provider, p->offer->key);
}

/*
 * Why an offer with this availability and watched price is news, or
 * NULL when it is not: new to the watch (k NULL), available again,
 * priced where it had no price, or cheaper than last reported.
 */
static const char *
change_of(const struct cli_options *o, const struct db_watch_offer *k,
    enum availability availability, int64_t price)
{
	if (k == NULL)
		return "new";
	if (availability == AV_AVAILABLE && k->availability != AV_AVAILABLE)
		return "available-again";
	if (!money_known(price))
		return NULL;
	if (!money_known(k->price))
		return "priced";
	if (price < k->price)
		return o->filter.spot ? "spot-cheaper" : "cheaper";
	return NULL;
}

static const char *
plan_change(const struct cli_options *o, const struct db_watch_offer *k,
    const struct plan *p)
{
	return change_of(o, k, p->offer->availability, watched_price(o, p));
}

/*
 * The known offers a run's walk passed that are not news: still
 * matched, with their availability now, never read whole.
 */
struct watch_walk {
	const struct cli_options *o;
	/*
	 * The providers whose offers are the built-in snapshot's
	 * (db_status()): a starting point, never news (issue 44 item 10).
	 */
	const struct provider_status *status;
	size_t	 nstatus;
	const struct db_watch_offer *known;
	size_t	 nknown;
	struct known_index ix;		/* of known */
	bool	*passed;		/* per known offer */
	enum availability *now;		/* per passed offer */
	size_t	 npassed;
};

/* Are provider's offers the built-in snapshot's? */
static bool
snapshot_provider(const struct watch_walk *w, const char *provider)
{
	size_t i;

	for (i = 0; i < w->nstatus; i++)
		if (strcmp(w->status[i].provider, provider) == 0)
			return w->status[i].source == SRC_SNAPSHOT;
	return false;
}

/* Is some provider's data still the built-in snapshot's? */
static bool
any_snapshot(const struct watch_walk *w)
{
	size_t i;

	for (i = 0; i < w->nstatus; i++)
		if (w->status[i].source == SRC_SNAPSHOT &&
		    w->status[i].offer_count > 0)
			return true;
	return false;
}

/* db_walk_take_fn: only news counts toward --limit and is read whole. */
static bool
watch_take(void *ctx, const struct db_walk_row *r)
{
	struct watch_walk *w = ctx;
	const struct db_watch_offer *k = known_find(&w->ix, r->provider,
	    r->key);
	size_t i;

	/* The snapshot is a starting point: its rows are never news. */
	if (snapshot_provider(w, r->provider)) {
		if (k == NULL)
			return false;
	} else if (change_of(w->o, k, r->availability, w->o->filter.spot ?
	    r->spot_gpu_hour : r->price_gpu_hour) != NULL)
		return true;
	i = (size_t)(k - w->known);
	if (!w->passed[i]) {
		w->passed[i] = true;
		w->now[i] = r->availability;
		w->npassed++;
	}
	return false;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "60s", "5m", "1h" for a timeout in seconds. */
static void
duration_text(int64_t s, char *buf, size_t size)
{
	if (s % 3600 == 0)
		snprintf(buf, size, "%lldh", (long long)(s / 3600));
	else if (s % 60 == 0)
		snprintf(buf, size, "%lldm", (long long)(s / 60));
	else
		snprintf(buf, size, "%llds", (long long)s);
}

/* The child: a fresh process's signals, stdin from fd; never returns. */
static void
exec_child(const char *cmd, int fd)
{
	struct sigaction dfl;
	sigset_t none;
	int sig;

	/* Its own group, so a timeout ends whatever it started too. */
	setpgid(0, 0);
	/* Dispositions we (or our parent) ignored are inherited: reset. */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);	/* SIGKILL, SIGSTOP: EINVAL */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(fd, STDIN_FILENO) < 0)
		_exit(127);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* End the command's process group: SIGTERM, a grace, then SIGKILL. */
static int
kill_group(pid_t pid)
{
	int64_t until = now_ms() + WATCH_KILL_GRACE_MS;
	int status = 0;

	kill(-pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) == 0 && now_ms() < until)
		poll(NULL, 0, 10);
	kill(-pid, SIGKILL);		/* what is left of the group */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/*
 * Run cmd through /bin/sh with in[0..len) on its standard input. The
 * news is delivered (0) only when the command read all of it and
 * exited 0 within timeout seconds; else -1 with err saying why. We keep
 * the pipe's read end open as well, so that what the command left
 * unread can be counted (FIONREAD) once it has exited.
 */
static int
run_command(const char *cmd, const char *in, size_t len, int64_t timeout,
    struct err *err)
{
	char when[32];
	int64_t deadline = now_ms() + timeout * 1000, left;
	struct pollfd pfd;
	size_t off = 0;
	ssize_t n;
	int fds[2], status = 0, unread = 0;
	bool exited = false, timed_out = false;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		err_set(err, "--exec: cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		err_set(err, "--exec: cannot run the command: %s",
		    strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0)
		exec_child(cmd, fds[0]);
	setpgid(pid, pid);	/* as the child does: whichever runs first */
	fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
	while (off < len && !timed_out && signals_caught == 0) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			break;
		}
		if ((left = deadline - now_ms()) <= 0) {
			timed_out = true;
			break;
		}
		pfd.fd = fds[1];
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, left < 50 ? (int)left : 50) <= 0)
			continue;
		n = write(fds[1], in + off, len - off);
		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			break;
	}
	close(fds[1]);		/* end of the news: the command sees EOF */
	while (!exited && !timed_out && signals_caught == 0) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			exited = true;
		else if (now_ms() >= deadline)
			timed_out = true;
		else
			poll(NULL, 0, 10);
	}
	if (timed_out || (!exited && signals_caught != 0))
		status = kill_group(pid);
	if (ioctl(fds[0], FIONREAD, &unread) < 0)
		unread = 0;
	close(fds[0]);
	if (!exited && !timed_out) {
		err_set(err, "--exec: interrupted by %s; the command's process "
		    "group was ended (SIGTERM, then SIGKILL) and the news stays "
		    "unreported", signals_name(signals_caught));
		return -1;
	}
	if (timed_out) {
		duration_text(timeout, when, sizeof when);
		err_set(err, "--exec: the command did not finish within %s "
		    "(--exec-timeout); it was killed and the news stays "
		    "unreported", when);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			err_set(err, "--exec: the command exited with status "
			    "%d; the news stays unreported", WEXITSTATUS(status));
		else
			err_set(err, "--exec: the command was killed by signal "
			    "%d; the news stays unreported", WTERMSIG(status));
		return -1;
	}
	if (off < len || unread > 0) {
		err_set(err, "--exec: the command exited without reading all "
		    "of the news (%zu of %zu bytes); it stays unreported",
		    off - (size_t)unread, len);
		return -1;
	}
	return 0;
}

/* The news as --exec's command reads it: JSON, rendered whole first. */
static int
deliver(const struct cli_options *o, const struct output_opts *oo,
    const struct plan *news, size_t n, struct err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if ((mem = open_memstream(&buf, &len)) == NULL) {
		err_set(err, "--exec: %s", strerror(errno));
		return -1;
	}
	rc = output_plans(mem, oo, news, n);
	if (fclose(mem) != 0 || rc < 0) {
		free(buf);
		err_set(err, "--exec: cannot render the news");
		return -1;
	}
	rc = run_command(o->exec, buf, len, o->exec_timeout > 0 ?
	    o->exec_timeout : WATCH_EXEC_TIMEOUT, err);
	free(buf);
	return rc;
}

/*
 * deliver() with SIGINT, SIGTERM and SIGHUP caught while the command
 * runs (no signal to our process group reaches the command's, so
 * run_command() ends it as --exec-timeout does); *sig is the one that
 * came (0: none). News the command took before it stays delivered.
 */
static int
deliver_catching(const struct cli_options *o, const struct output_opts *oo,
    const struct plan *news, size_t n, int *sig, struct err *err)
{
	struct signals_saved old;
	int rc;

	signals_catch(&old);
	rc = deliver(o, oo, news, n, err);
	*sig = signals_caught;
	signals_restore(&old);
	return rc;
}

/*
 * Where this user's watches live: the cache, or for a cache they may
 * not write their own state file. *state is db or a new handle.
 */
static int
watch_store(struct db *db, struct db **state, struct err *err)
{
	char path[4096];

	*state = db;
	if (!db_read_only(db))
		return 0;
	if (paths_watch_state(path, sizeof path, err) < 0)
		return -1;
	return db_open_watch_state(path, state, err);
}

static const struct output_column watch_columns[] = {
	{ "query", "QUERY", 1, false, true },
	{ "offers", "OFFERS", 2, true, false },
	{ "last_run", "LAST RUN", 3, false, false },
	{ "created_at", "CREATED", 4, false, false },
};

static enum field_kind
watch_value(const void *ctx, size_t row, size_t col, bool human, char *buf,
    size_t size)
{
	const struct db_watch *w = (const struct db_watch *)ctx + row;

	switch (col) {
	case 0:
		str_copy(buf, size, w->query[0] != '\0' ? w->query :
		    human ? "(every offer)" : "");
		return FIELD_STRING;
	case 1:
		snprintf(buf, size, "%zu", w->offers);
		return FIELD_NUMBER;
	case 2:
	case 3:
		output_iso8601(col == 2 ? w->last_run : w->created_at, buf,
		    size);
		return FIELD_STRING;
	}
	return FIELD_NULL;
}

static int
watch_list(const struct cli_options *o, struct db *db)
{
	struct output_schema schema;
	struct db_watch *w;
	struct err err;
	size_t n;
	int rc;

	if (db_watch_list(db, &w, &n, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_DATA;
	}
	memset(&schema, 0, sizeof schema);
	schema.json_key = "watches";
	schema.columns = watch_columns;
	schema.ncolumns = sizeof watch_columns / sizeof watch_columns[0];
	schema.value = watch_value;
	schema.ctx = w;
	if (n == 0 && o->format == OUTPUT_TABLE) {
		if (!o->quiet)
			cli_error("no watch is stored");
		free(w);
		return EXIT_NO_MATCH;
	}
	rc = output_records(stdout, o->format, cli_output_width(stdout),
	    &schema, n);
	free(w);
	if (rc < 0 || fflush(stdout) != 0) {
		cli_error("writing the output: %s", strerror(errno));
		return EXIT_DATA;
	}
	return n > 0 ? EXIT_OK : EXIT_NO_MATCH;
}

/* On a terminal, a run with no news says so (cron mail stays empty). */
static void
say_nothing_new(const struct cli_options *o, int64_t last_run)
{
	char when[32];

	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	if (last_run > 0) {
		output_iso8601(last_run, when, sizeof when);
		cli_error("nothing new since %s", when);
	} else
		cli_error("nothing matches this watch yet");
}

/*
 * With --limit N and a filter SQL tests whole, the offers a run needs
 * (issue 29) instead of every match: the first N news in the query's
 * order, the walk judging each known offer it passes on the values it
 * walks (watch_take(): one that is not news is noted in walk, not
 * read), and the known offers the walk neither read nor passed, read
 * whole by key (they carry what the watch stores next). Where the walk
 * cannot judge (db_query_top_taking() says 0), the first N + K matches
 * (K the offers the watch knows: only they can be a match that is not
 * news, so the first N news are among them) and the known ones they
 * did not hold. walk->known is sorted by db_watch_offer_cmp(). *matched
 * is the number of all matches. Returns 1 when it read them, 0 when the
 * full path must (into out then), -1 on error.
 */
static int
watch_read(struct db *db, const struct cli_options *o,
    const struct offer_filter *f, struct watch_walk *walk,
    struct offer_list *out, size_t *matched, struct err *err)
{
	const struct db_watch_offer *known = walk->known;
	size_t nknown = walk->nknown;
	const char **provs, **keys;
	bool *held;
	size_t i, from = out->n, nget = 0, *count;
	int rc;

	/* GPUCOST_DEBUG_FULL_READ: the full path, for tests to compare;
	 * GPUCOST_DEBUG_KNOWN_READ: the N + K walk. A provider still on
	 * the snapshot: every match, so its rows new to the watch are
	 * recorded as the baseline (the walks read only news whole). */
	if (o->limit <= 0 || !db_filter_in_sql(f) || !db_sort_in_sql(o->sort) ||
	    getenv("GPUCOST_DEBUG_FULL_READ") != NULL || any_snapshot(walk))
		return db_query(db, f, out, err) < 0 ? -1 : 0;
	/* Only JSON (and so --exec) shows the count of every match: it is
	 * a count of every matching row, which the walk itself is not. */
	count = o->exec != NULL || o->format == OUTPUT_JSON ? matched : NULL;
	rc = getenv("GPUCOST_DEBUG_KNOWN_READ") != NULL ? 0 :
	    db_query_top_taking(db, f, o->sort, o->reverse, (size_t)o->limit,
	    watch_take, walk, out, count, err);
	if (rc < 0)
		return -1;
	if (rc == 0 && db_query_top(db, f, o->sort, o->reverse,
	    (size_t)o->limit + nknown, out, count, err) < 0)
		return -1;
	held = xcalloc(nknown > 0 ? nknown : 1, sizeof *held);
	for (i = from; i < out->n && nknown > 0; i++) {
		const struct db_watch_offer *w = known_find(&walk->ix,
		    out->v[i].provider, out->v[i].key);

		if (w != NULL)
			held[w - known] = true;
	}
	provs = xcalloc(nknown > 0 ? nknown : 1, sizeof *provs);
	keys = xcalloc(nknown > 0 ? nknown : 1, sizeof *keys);
	for (i = 0; i < nknown; i++)
		if (!held[i] && !walk->passed[i]) {
			provs[nget] = known[i].provider;
			keys[nget++] = known[i].key;
		}
	rc = db_offers_get(db, provs, keys, nget, out, err) < 0 ? -1 : 1;
	free(held);
	free(provs);
	free(keys);
	return rc;
}

/* Drop the second of plans of one offer (adjacent once sorted). */
static size_t
plans_unique(struct plan *plans, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (k > 0 && strcmp(plans[k - 1].offer->provider,
		    plans[i].offer->provider) == 0 &&
		    strcmp(plans[k - 1].offer->key, plans[i].offer->key) == 0)
			continue;
		plans[k++] = plans[i];
	}
	return k;
}

/*
 * What the watch knows after a run, into *n entries in key order (what
 * db_watch_store() would otherwise sort): a news that reached its
 * reader (shown) as reported now; a known offer the run matched, with
 * its price last reported and its availability now; one the walk
 * passed, likewise; one no longer matched as unavailable, until
 * WATCH_KEEP_GONE after it was last reported. Of two plans of one
 * offer, the later stands. The known offers are in key order already,
 * so only the news new to the watch (at most --limit) are sorted.
 */
static struct db_watch_offer *
watch_next(const struct cli_options *o, const struct plan *plans,
    size_t nplans, const bool *shown, const struct watch_walk *walk,
    int64_t now, size_t *n)
{
	const struct db_watch_offer *known = walk->known;
	size_t nknown = walk->nknown, nfresh = 0, nnext = 0, i, j, m;
	struct db_watch_offer *slot, *next, *fresh;
	bool *kept;

	slot = xcalloc(nknown > 0 ? nknown : 1, sizeof *slot);
	kept = xcalloc(nknown > 0 ? nknown : 1, sizeof *kept);
	fresh = xcalloc(nplans > 0 ? nplans : 1, sizeof *fresh);
	for (i = 0; i < nplans; i++) {
		const struct db_watch_offer *k = known_offer(&walk->ix,
		    &plans[i]);
		struct db_watch_offer w;

		if (shown[i]) {
			/* Names of the run's offers: they outlive the store. */
			memset(&w, 0, sizeof w);
			w.provider = plans[i].offer->provider;
			w.key = plans[i].offer->key;
			w.availability = plans[i].offer->availability;
			w.price = watched_price(o, &plans[i]);
			w.reported_at = now;
		} else if (k == NULL)
			continue;
		else {
			w = *k;
			if (plan_change(o, k, &plans[i]) == NULL)
				w.availability = plans[i].offer->availability;
		}
		if (k != NULL) {
			slot[k - known] = w;
			kept[k - known] = true;
		} else
			fresh[nfresh++] = w;
	}
	for (i = 0; i < nknown; i++) {
		if (kept[i])
			continue;
		if (walk->passed[i]) {
			/* Passed by the walk, not news: its availability now. */
			slot[i] = known[i];
			slot[i].availability = walk->now[i];
			kept[i] = true;
		} else if (known[i].reported_at > now - WATCH_KEEP_GONE) {
			slot[i] = known[i];
			slot[i].availability = AV_UNAVAILABLE;
			kept[i] = true;
		}
	}
	/* The news new to the watch by key, the last of one key standing. */
	m = db_watch_offers_unique(fresh, nfresh);
	next = xcalloc(nknown + m > 0 ? nknown + m : 1, sizeof *next);
	for (i = j = 0; i < nknown || j < m;) {
		if (i < nknown && !kept[i]) {
			i++;
			continue;
		}
		if (j == m || (i < nknown &&
		    db_watch_offer_cmp(&slot[i], &fresh[j]) < 0))
			next[nnext++] = slot[i++];
		else
			next[nnext++] = fresh[j++];
	}
	free(slot);
	free(kept);
	free(fresh);
	*n = nnext;
	return next;
}

static int
cmd_watch_exec(const struct cli_options *o)
{
	struct db_watch_known known = { NULL, 0, NULL };
	struct db_watch_offer *next = NULL;
	struct plan *plans = NULL, *news = NULL;
	struct output_change *why = NULL;
	bool *shown = NULL;		/* per plan: reported this run */
	size_t *from = NULL;		/* per news: its plan */
	struct offer_list offers;
	struct output_opts oo;
	struct watch_walk walk;
	struct offer_filter f = o->filter;
	char query[512];
	int64_t now = (int64_t)time(NULL), last_run = 0;
	size_t nplans = 0, nnews = 0, nshown, nnext = 0, i;
	struct err err;
	struct db *db, *state = NULL;
	struct provider_status *status = NULL;
	size_t nstatus = 0, nbaseline = 0;
	bool found;
	size_t matched = 0;
	int rc = EXIT_DATA, part = 0, sig = 0;

	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	if (!cli_region_known(db, &o->filter)) {
		db_close(db);
		return EXIT_USAGE;
	}
	if (watch_store(db, &state, &err) < 0) {
		cli_error("%s", err.msg);
		db_close(db);
		return EXIT_DATA;
	}
	if (o->watch_list) {
		rc = watch_list(o, state);
		goto close;
	}
	filter_describe(&o->filter, query, sizeof query);
	if (o->watch_forget) {
		if (db_watch_forget(state, query, &found, &err) < 0)
			cli_error("%s", err.msg);
		else if (!found)
			rc = EXIT_NO_MATCH;
		else
			rc = EXIT_OK;
		if (rc == EXIT_NO_MATCH && !o->quiet)
			cli_error("no watch of \"%s\"", query);
		else if (rc == EXIT_OK && !o->quiet)
			cli_error("forgot the watch of \"%s\": its next run "
			    "records a new baseline", query);
		goto close;
	}
	/* Market references are judged now (rentable.h). */
	f.now = now;
	offer_list_init(&offers);
	memset(&walk, 0, sizeof walk);
	if (db_status(db, &status, &nstatus, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	walk.status = status;
	walk.nstatus = nstatus;
	if (db_watch_load(state, query, &known, &last_run, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	/* Loaded in key order; sorted here only if it is not. */
	for (i = 1; i < known.n; i++)
		if (db_watch_offer_cmp(&known.v[i - 1], &known.v[i]) > 0) {
			qsort(known.v, known.n, sizeof *known.v,
			    db_watch_offer_cmp);
			break;
		}
	walk.o = o;
	walk.known = known.v;
	walk.nknown = known.n;
	known_index_init(&walk.ix, known.v, known.n);
	walk.passed = xcalloc(known.n > 0 ? known.n : 1, sizeof *walk.passed);
	walk.now = xcalloc(known.n > 0 ? known.n : 1, sizeof *walk.now);
	if ((part = watch_read(db, o, &f, &walk, &offers, &matched,
	    &err)) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	query_plans(offers.v, offers.n, &f, o->sort, o->reverse,
	    &plans, &nplans);
	if (part)
		nplans = plans_unique(plans, nplans);
	news = xcalloc(nplans > 0 ? nplans : 1, sizeof *news);
	why = xcalloc(nplans > 0 ? nplans : 1, sizeof *why);
	from = xcalloc(nplans > 0 ? nplans : 1, sizeof *from);
	shown = xcalloc(nplans > 0 ? nplans : 1, sizeof *shown);
	for (i = 0; i < nplans; i++) {
		const struct db_watch_offer *k = known_offer(&walk.ix,
		    &plans[i]);
		const char *change = plan_change(o, k, &plans[i]);

		if (change == NULL)
			continue;
		/*
		 * The snapshot's rows are a starting point, not price
		 * changes: one new to the watch is its baseline (recorded
		 * as reported, not shown), and no change of one is news.
		 */
		if (plans[i].offer->source == SRC_SNAPSHOT) {
			if (k == NULL) {
				shown[i] = true;
				nbaseline++;
			}
			continue;
		}
		why[nnews].change = change;
		why[nnews].spot = o->filter.spot;
		why[nnews].price = watched_price(o, &plans[i]);
		why[nnews].previous = k != NULL ? k->price : MONEY_NONE;
		why[nnews].previous_availability = k != NULL ?
		    k->availability : AV_UNKNOWN;
		why[nnews].previous_at = k != NULL ? k->reported_at : 0;
		from[nnews] = i;
		news[nnews++] = plans[i];
	}
	nshown = o->limit > 0 && (size_t)o->limit < nnews ? (size_t)o->limit :
	    nnews;
	memset(&oo, 0, sizeof oo);
	oo.format = o->exec != NULL ? OUTPUT_JSON : o->format;
	oo.width = cli_output_width(stdout);
	oo.hours = o->hours;
	oo.now = now;
	/* Read in part: every match neither read nor passed is new (never
	 * known). */
	oo.matched = part && matched >= nplans + walk.npassed ?
	    nnews + (matched - nplans - walk.npassed) : nnews;
	oo.changes = why;
	if (nshown > 0) {
		if (o->exec != NULL) {
			if (deliver_catching(o, &oo, news, nshown, &sig,
			    &err) < 0) {
				cli_error("%s", err.msg);
				goto done;
			}
		} else if (output_plans(stdout, &oo, news, nshown) < 0 ||
		    fflush(stdout) != 0) {
			cli_error("writing the output: %s; the news stays "
			    "unreported", strerror(errno));
			goto done;
		}
	}
	/*
	 * Only news that reached its reader counts as reported: what
	 * --limit cut keeps what the watch knew (an offer new to it stays
	 * unknown), so the next run shows it. Others keep the price last
	 * reported and note their availability now.
	 */
	for (i = 0; i < nshown; i++)
		shown[from[i]] = true;	/* baseline rows are already */
	next = watch_next(o, plans, nplans, shown, &walk, now, &nnext);
	if (db_watch_store(state, query, next, nnext, now, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	if (nbaseline > 0 && !o->quiet)
		cli_error("%zu offer%s of the built-in snapshot recorded as "
		    "this watch's baseline, not news: its prices are where "
		    "history starts (the first 'gpucost refresh'); a later run "
		    "reports what is new, available again or cheaper",
		    nbaseline, nbaseline == 1 ? "" : "s");
	else if (nshown == 0)
		say_nothing_new(o, last_run);
	/*
	 * Every query ends with its data's age: so does a watch that said
	 * something (cron mails what a run writes: a run with nothing new
	 * on a pipe stays silent).
	 */
	if (!o->quiet && nplans > 0 && (nshown > 0 || nbaseline > 0 ||
	    isatty(STDERR_FILENO))) {
		struct footer foot;

		footer_init(&foot);
		footer_data_age(&foot, plans, nplans, now);
		footer_add(&foot, FOOTER_COUNT, "%zu offer%s watched", nplans,
		    nplans == 1 ? "" : "s");
		cli_footer_print(&foot);
		footer_done(&foot);
	}
	rc = nshown > 0 ? EXIT_OK : EXIT_NO_MATCH;
	if (sig != 0) {
		/* The command had ended: delivered, and recorded so above. */
		cli_error("watch: interrupted by %s after the command took "
		    "the news", signals_name(sig));
		rc = EXIT_DATA;
	}
done:
	/* Tests (tests/cli/plans_paths.sh): what this run read whole. */
	if (getenv("GPUCOST_DEBUG_READS") != NULL)
		fprintf(stderr, "gpucost: debug: %zu offers read whole\n",
		    db_offers_read());
	known_index_done(&walk.ix);
	free(walk.passed);
	free(walk.now);
	free(shown);
	free(from);
	free(next);
	free(why);
	free(news);
	db_watch_known_free(&known);
	free(plans);
	free(status);
	offer_list_done(&offers);
close:
	if (state != db)
		db_close(state);
	db_close(db);
	if (sig != 0)
		raise(sig);	/* ended as it asked, now that all is closed */
	return rc;
}

const struct cmd_entry cmd_watch_entry = {
	CMD_WATCH, "watch", "[query options] [--exec CMD] [--list | --forget]",
	"only what is new, available again or cheaper since the last run",
	CMD_SCOPE_QUERY | CMD_SCOPE_WATCH, false, cmd_watch_exec
};
