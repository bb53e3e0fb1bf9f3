/*
 * footer.h: the lines under an answer (issue 45).
 *
 * What a person reads on stderr after the rows: how old the data is,
 * what was left out (market references, providers with no data yet),
 * the health of the providers shown, how many offers in how many rows,
 * and the notes legend. Each is one entry, given a rank; footer_text()
 * puts them most important first (the order of enum footer_rank) and
 * wraps each at words to the terminal's width, every entry starting
 * with "gpucost: " and its continuation lines indented under its text.
 *
 * The query (cmd_query.c), --group-by, history and watch build their
 * footers here, so every answer ends the same way. No stream: the
 * caller prints the text (cli_footer_print()).
 */
#ifndef GPUCOST_FOOTER_H
#define GPUCOST_FOOTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct db;
struct provider_status;

/* Most important first: footer_text()'s order. */
enum footer_rank {
	FOOTER_AGE,		/* how old the prices are */
	FOOTER_LEFT_OUT,	/* what the answer could not or did not use */
	FOOTER_HEALTH,		/* providers whose refreshes fail */
	FOOTER_COUNT,		/* offers and rows */
	FOOTER_NOTES,		/* the legend of the NOTE column */
	FOOTER_OTHER
};

#define FOOTER_MAX	24	/* entries; more are dropped */
#define FOOTER_PREFIX	"gpucost: "
/* In an entry: a space the wrap never breaks at (printed as a space). */
#define FOOTER_NBSP	'\x1f'


struct footer {
	char		*text[FOOTER_MAX];	/* owned */
	enum footer_rank rank[FOOTER_MAX];
	size_t		 n;
};

void	footer_init(struct footer *f);
void	footer_done(struct footer *f);

/* An entry of rank, without the "gpucost: " prefix. */
void	footer_add(struct footer *f, enum footer_rank rank, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/*
 * The data age of plans[0..n), oldest price per provider in the order
 * they first appear: "data age: aws 72d (snapshot), vast 2h; 'gpucost
 * refresh' fetches live prices". When every one is the snapshot's,
 * "(snapshot)" is said once. Into buf; returns its length (0: no plan).
 */
size_t	footer_age_text(const struct plan *plans, size_t n, int64_t now,
	    char *buf, size_t size);
/* That text as an entry (FOOTER_AGE); nothing for no plan. */
void	footer_data_age(struct footer *f, const struct plan *plans, size_t n,
	    int64_t now);

/*
 * Market references (rentable.h): left_out listings left out and how to
 * see them, and how many of plans[0..n) are ones ("of them" when summary:
 * --group-by's groups).
 */
void	footer_market(struct footer *f, const struct plan *plans, size_t n,
	    size_t left_out, bool summary, int64_t now);

/*
 * Providers the filter allows that have no offer in the cache (not in
 * the built-in snapshot, never refreshed): one entry naming them and
 * what fetches them (issue 44). status[0..nstatus) are the cache's rows.
 */
void	footer_no_data(struct footer *f, const struct offer_filter *filter,
	    const struct provider_status *status, size_t nstatus);

/*
 * The providers of plans[0..n) whose refreshes fail or whose last one
 * shrank (health.h): an entry each. Health is advice: a cache that
 * cannot say stays quiet.
 */
void	footer_health(struct footer *f, struct db *db,
	    const struct plan *plans, size_t n, int64_t now);

/*
 * The count: "12 offers", "19 of 97 offers in 6 rows (+N: ...)";
 * matched is every match, left from the rows' +N.
 */
void	footer_count(struct footer *f, const struct plan *plans, size_t n,
	    size_t matched);

/* The notes the rows show, in words ("notes: ! price-outlier, ..."). */
void	footer_notes(struct footer *f, const struct plan *plans, size_t n,
	    int64_t now);

/*
 * The footer as text: the entries by rank (in the order added within a
 * rank), each "gpucost: " and its words wrapped to width (0: one line
 * each), a newline after every line. A word longer than a line is never
 * cut. Returns a string the caller frees ("" for no entry).
 */
char	*footer_text(const struct footer *f, size_t width);

/*
 * Text wrapped at words to width (0: not wrapped): the first line after
 * first (written first), the others after an indent of first's width;
 * a newline after each. Returns a string the caller frees.
 */
char	*footer_wrap(const char *first, const char *text, size_t width);

#endif
