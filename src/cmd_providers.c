/* cmd_providers.c: `gpucost providers`: data source, age, key and errors. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "columns.h"
#include "currency.h"
#include "db.h"
#include "err.h"
#include "footer.h"
#include "health.h"
#include "money.h"
#include "output.h"
#include "provider.h"
#include "settings.h"
#include "snapshot_info.h"
#include "str.h"
#include "xalloc.h"

enum {
	PC_PROVIDER, PC_NAME, PC_SOURCE, PC_OFFERS, PC_OLDEST, PC_ATTEMPT,
	PC_SUCCESS, PC_KEY, PC_ERROR, PC_CURRENCY, PC_RATE, PC_RATE_FROM,
	PC_HEALTH, PC_HEALTH_NOTE, PC_ENDPOINT,
	PC_SNAPSHOT_DATE, PC_SNAPSHOT_FROM,
	PC_COUNT
};

/* The machine names and order are the output contract (gpucost(1)). */
static const struct output_column provider_columns[PC_COUNT] = {
	[PC_PROVIDER] =	{ "provider", "PROVIDER", 1, false, false },
	[PC_NAME] =	{ "name", "NAME", 5, false, false },
	[PC_SOURCE] =	{ "source", "SOURCE", 3, false, false },
	[PC_OFFERS] =	{ "offers", "OFFERS", 1, true, false },
	[PC_OLDEST] =	{ "oldest_fetched_at", "AGE", 1, true, false },
	[PC_ATTEMPT] =	{ "last_attempt", "LAST ATTEMPT", 4, false, false },
	[PC_SUCCESS] =	{ "last_success", "LAST SUCCESS", 3, false, false },
	[PC_KEY] =	{ "key", "KEY", 3, false, false },
	/*
	 * Short for people (short_error()), and whole or not at all: the
	 * lines under the table say it too.
	 */
	[PC_ERROR] =	{ "last_error", "LAST ERROR", 2, false, false },
	[PC_CURRENCY] =	{ "currency", "CUR", 6, false, false },
	[PC_RATE] =	{ "usd_rate", "USD RATE", 6, true, false },
	[PC_RATE_FROM] = { "rate_source", "RATE SOURCE", 7, false, true },
	[PC_HEALTH] =	{ "health", "HEALTH", 1, false, false },
	[PC_HEALTH_NOTE] = { "health_note", "HEALTH NOTE", 8, false, true },
	[PC_ENDPOINT] =	{ "endpoint", "ENDPOINT", 6, false, true },
	/* The built-in snapshot's date and source (snapshot_info.h). */
	[PC_SNAPSHOT_DATE] = { "snapshot_date", "SNAPSHOT", 3, false, false },
	[PC_SNAPSHOT_FROM] = { "snapshot_source", "SNAPSHOT SOURCE", 8, false,
	    true },
};

struct provider_rows {
	const struct provider_status *status;	/* cache's rows */
	size_t	 nstatus;
	const struct settings *cfg;
	const struct currency_rate *eur;	/* USD per EUR in use */
	const struct provider_health *health;	/* per providers[] row */
	int64_t	 now;
};

/* The cache's status of provider p, or NULL if it has none. */
static const struct provider_status *
find_status(const struct provider_rows *r, const struct provider *p)
{
	size_t i;

	for (i = 0; i < r->nstatus; i++)
		if (strcmp(r->status[i].provider, p->id) == 0)
			return &r->status[i];
	return NULL;
}

/* "set", "missing", "optional" or "none": is the provider's key there? */
static const char *
key_state(const struct provider_rows *r, const struct provider *p)
{
	char name[64];

	if (p->key_env == NULL)
		return "none";
	snprintf(name, sizeof name, "%s_api_key", p->id);
	if (settings_get(r->cfg, p->key_env, name) != NULL)
		return "set";
	return p->key_required ? "missing" : "optional";
}

/* Is s[0..n) a URL's start ("https://")? */
static bool
url_at(const char *s)
{
	return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/*
 * The last error for people (issue 45): the host and the reason, as
 * "127.0.0.1:9: Couldn't connect to server" or "api.linode.com: HTTP
 * 503 Service Unavailable", not the whole URLs (the machine formats
 * keep the whole text). Each URL (and its parentheses) goes; when there
 * was one, its host replaces the request's label before the first ": ",
 * and of what is left the HTTP status if there is one, else the last
 * part (curl's words) is the reason.
 */
static void
short_error(const char *error, char *buf, size_t size)
{
	char text[DB_ERROR_MAX], host[128] = "", *part[16], *p, *q;
	const char *u, *h, *end, *e, *at;
	size_t n = 0, len = 0, i;

	/* The host (and port) of the first URL, no user or password. */
	for (u = error; *u != '\0' && !url_at(u); u++)
		;
	if (*u != '\0') {
		h = strstr(u, "://") + 3;
		end = h + strcspn(h, "/?#) ");
		for (at = h; at < end; at++)
			if (*at == '@')
				h = at + 1;
		snprintf(host, sizeof host, "%.*s", (int)(end - h), h);
	}
	/* The text without its URLs and the parentheses around them. */
	for (e = error; *e != '\0' && len + 1 < sizeof text; e++) {
		if (url_at(e) || (*e == '(' && url_at(e + 1))) {
			e += strcspn(e, " )");
			if (*e == ')')
				e++;
			while (len > 0 && text[len - 1] == ' ')
				len--;
			if (*e == '\0')
				break;
			continue;
		}
		text[len++] = *e;
	}
	text[len] = '\0';
	/* No URL: the request's label and its reason, already short. */
	if (host[0] == '\0') {
		str_copy(buf, size, text);
		return;
	}
	for (p = text; n < 16 && p != NULL; n++) {
		part[n] = p;
		if ((q = strstr(p, ": ")) != NULL) {
			*q = '\0';
			q += 2;
		}
		p = q;
	}
	/* The request's label (one word: a path or a name) goes. */
	i = n > 1 && strchr(part[0], ' ') == NULL ? 1 : 0;
	p = part[n - 1];
	for (; i < n; i++)
		if (strncmp(part[i], "HTTP ", 5) == 0) {
			p = part[i];
			break;
		}
	snprintf(buf, size, "%s: %s", host, p);
}

/* A time: ISO 8601, or for people "never" when there is none. */
static enum field_kind
time_value(int64_t t, bool human, char *buf, size_t size)
{
	if (t <= 0) {
		if (!human)
			return FIELD_NULL;
		str_copy(buf, size, "never");
		return FIELD_STRING;
	}
	output_iso8601(t, buf, size);
	return FIELD_STRING;
}

/* The snapshot's date or source for p: "none" for people if it has none. */
static enum field_kind
snapshot_value(const struct provider *p, bool date, bool human, char *buf,
    size_t size)
{
	struct snapshot_source src;

	if (!snapshot_source(p->id, &src)) {
		if (!human)
			return FIELD_NULL;
		str_copy(buf, size, date ? "none" : "");
		return FIELD_STRING;
	}
	str_copy(buf, size, date ? src.date : src.what);
	return FIELD_STRING;
}

static enum field_kind
provider_value(const void *ctx, size_t row, size_t col, bool human,
    char *buf, size_t size)
{
	const struct provider_rows *r = ctx;
	const struct provider *p = providers[row];
	const struct provider_status *s = find_status(r, p);

	switch (col) {
	case PC_PROVIDER:
		str_copy(buf, size, p->id);
		return FIELD_STRING;
	case PC_NAME:
		str_copy(buf, size, p->name);
		return FIELD_STRING;
	case PC_SOURCE:
		str_copy(buf, size, s != NULL ? source_name(s->source) : "none");
		return FIELD_STRING;
	case PC_OFFERS:
		snprintf(buf, size, "%ld", s != NULL ? s->offer_count : 0L);
		return FIELD_NUMBER;
	case PC_OLDEST:
		if (s == NULL || s->offer_count == 0)
			return FIELD_NULL;
		if (human) {
			column_age(r->now - s->oldest, buf, size);
			return FIELD_STRING;
		}
		output_iso8601(s->oldest, buf, size);
		return FIELD_STRING;
	case PC_ATTEMPT:
		return time_value(s != NULL ? s->last_attempt : 0, human, buf,
		    size);
	case PC_SUCCESS:
		return time_value(s != NULL ? s->last_success : 0, human, buf,
		    size);
	case PC_KEY:
		str_copy(buf, size, key_state(r, p));
		return FIELD_STRING;
	case PC_CURRENCY:
		str_copy(buf, size, p->currency != NULL ? p->currency : "USD");
		return FIELD_STRING;
	case PC_RATE:
		/* Only a EUR source is converted (currency.h). */
		if (p->currency == NULL || strcmp(p->currency, "EUR") != 0)
			return FIELD_NULL;
		money_format(buf, size, r->eur->usd_per_eur, 2);
		return FIELD_NUMBER;
	case PC_RATE_FROM:
		if (p->currency == NULL || strcmp(p->currency, "EUR") != 0)
			return FIELD_NULL;
		str_copy(buf, size, r->eur->from);
		return FIELD_STRING;
	case PC_ERROR:
		if (s == NULL || s->last_error[0] == '\0')
			return FIELD_NULL;
		if (human)
			short_error(s->last_error, buf, size);
		else
			str_copy(buf, size, s->last_error);
		return FIELD_STRING;
	case PC_HEALTH:
		if (health_name(r->health[row].state) == NULL)
			return FIELD_NULL;
		str_copy(buf, size, health_name(r->health[row].state));
		return FIELD_STRING;
	case PC_HEALTH_NOTE:
		if (health_describe(&r->health[row], r->now, buf, size) == 0)
			return FIELD_NULL;
		return FIELD_STRING;
	case PC_ENDPOINT:
		/* Where its last success came from. */
		if (r->health[row].endpoint[0] == '\0')
			return FIELD_NULL;
		str_copy(buf, size, r->health[row].endpoint);
		return FIELD_STRING;
	case PC_SNAPSHOT_DATE:
	case PC_SNAPSHOT_FROM:
		return snapshot_value(p, col == PC_SNAPSHOT_DATE, human, buf,
		    size);
	}
	return FIELD_NULL;
}

/* A sentence under the table, wrapped at words to width (0: not). */
static void
print_wrapped(const char *text, size_t width)
{
	char *wrapped = footer_wrap("", text, width);

	fputs(wrapped, stdout);
	free(wrapped);
}

/*
 * Each provider's health from its recorded refreshes (health.h); *out
 * is one per providers[] row, freed with free().
 */
static int
providers_health(struct db *db, size_t n, int64_t now,
    struct provider_health **out, struct err *err)
{
	struct refresh_outcome *rows;
	size_t i, nrows;

	*out = xcalloc(n + 1, sizeof **out);
	for (i = 0; i < n; i++) {
		if (db_outcomes(db, providers[i]->id, &rows, &nrows, err) < 0)
			return -1;
		health_judge(rows, nrows, now, &(*out)[i]);
		free(rows);
	}
	return 0;
}

static int
cmd_providers_exec(const struct cli_options *o)
{
	struct provider_status *status = NULL;
	struct provider_health *health = NULL;
	struct provider_rows rows;
	struct output_schema schema = {
		"providers", provider_columns, PC_COUNT, provider_value, &rows
	};
	struct currency_rate eur;
	struct settings cfg;
	struct err err;
	struct db *db;
	size_t nstatus = 0, n, i;
	int rc = EXIT_OK;

	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	/*
	 * Keys come from the environment or the config file; one that
	 * cannot be read is said (the KEY column would read "missing"),
	 * and the listing goes on without it.
	 */
	if (settings_load(&cfg, &err) < 0) {
		cli_error("warning: %s; the file is ignored", err.msg);
		cfg.n = 0;
	}
	if (currency_usd_per_eur(getenv("GPUCOST_USD_PER_EUR"),
	    settings_get(&cfg, NULL, "usd_per_eur"), cfg.path, &eur,
	    &err) < 0) {
		cli_error("%s", err.msg);
		db_close(db);
		return EXIT_USAGE;
	}
	if (db_status(db, &status, &nstatus, &err) < 0) {
		cli_error("%s", err.msg);
		db_close(db);
		return EXIT_DATA;
	}
	for (n = 0; providers[n] != NULL; n++)
		;
	rows.now = (int64_t)time(NULL);
	if (providers_health(db, n, rows.now, &health, &err) < 0) {
		cli_error("%s", err.msg);
		free(health);
		free(status);
		db_close(db);
		return EXIT_DATA;
	}
	rows.health = health;
	rows.status = status;
	rows.nstatus = nstatus;
	rows.cfg = &cfg;
	rows.eur = &eur;
	if (output_records(stdout, o->format, cli_output_width(stdout),
	    &schema, n) < 0)
		rc = EXIT_DATA;
	/*
	 * The table may drop the rate and health columns: say them in full
	 * below, each wrapped at words to the width.
	 */
	if (o->format == OUTPUT_TABLE) {
		size_t width = cli_output_width(stdout);
		char rate[32], line[768], why[256], error[DB_ERROR_MAX];
		const struct provider_status *s;

		money_format(rate, sizeof rate, eur.usd_per_eur, 2);
		snprintf(line, sizeof line, "EUR prices are converted at %s USD "
		    "per EUR (%s).", rate, eur.from);
		putchar('\n');
		print_wrapped(line, width);
		/* Where the list prices come from, for those without a feed. */
		for (i = 0; i < n; i++) {
			char note[768];

			if (providers[i]->no_feed == NULL ||
			    (providers[i]->start != NULL &&
			    strcmp(key_state(&rows, providers[i]), "set") == 0))
				continue;
			snapshot_list_note(providers[i]->id,
			    providers[i]->no_feed, note, sizeof note);
			snprintf(line, sizeof line, "%s.", note);
			print_wrapped(line, width);
		}
		for (i = 0; i < n; i++) {
			if (health_describe(&health[i], rows.now, why,
			    sizeof why) == 0)
				continue;
			s = find_status(&rows, providers[i]);
			error[0] = '\0';
			if (s != NULL && s->last_error[0] != '\0')
				short_error(s->last_error, error, sizeof error);
			if (health[i].state == HEALTH_FAILED)
				snprintf(line, sizeof line, "%s: %s%s%s.",
				    providers[i]->id, why, error[0] != '\0' ?
				    "; last error: " : "", error);
			else
				snprintf(line, sizeof line, "%s is %s: %s%s%s.",
				    providers[i]->id,
				    health_name(health[i].state), why,
				    error[0] != '\0' ? "; last error: " : "",
				    error);
			print_wrapped(line, width);
		}
	}
	if (fflush(stdout) != 0)
		rc = EXIT_DATA;
	free(health);
	free(status);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_providers_entry = {
	CMD_PROVIDERS, "providers", "",
	"data source, age, key and errors per provider",
	CMD_SCOPE_PROVIDERS, false, cmd_providers_exec
};
