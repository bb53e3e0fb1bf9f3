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
	[PC_SOURCE] =	{ "source", "SOURCE", 2, false, false },
	[PC_OFFERS] =	{ "offers", "OFFERS", 1, true, false },
	[PC_OLDEST] =	{ "oldest_fetched_at", "AGE", 1, true, false },
	[PC_ATTEMPT] =	{ "last_attempt", "LAST ATTEMPT", 4, false, false },
	[PC_SUCCESS] =	{ "last_success", "LAST SUCCESS", 3, false, false },
	[PC_KEY] =	{ "key", "KEY", 2, false, false },
	[PC_ERROR] =	{ "last_error", "LAST ERROR", 2, false, true },
	[PC_CURRENCY] =	{ "currency", "CUR", 6, false, false },
	[PC_RATE] =	{ "usd_rate", "USD RATE", 6, true, false },
	[PC_RATE_FROM] = { "rate_source", "RATE SOURCE", 7, false, true },
	[PC_HEALTH] =	{ "health", "HEALTH", 2, false, false },
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
	/* The table may drop the rate columns: say it in full below. */
	if (o->format == OUTPUT_TABLE) {
		char rate[32];

		money_format(rate, sizeof rate, eur.usd_per_eur, 2);
		printf("\nEUR prices are converted at %s USD per EUR (%s).\n",
		    rate, eur.from);
		/* Where the list prices come from, for those without a feed. */
		for (i = 0; i < n; i++) {
			char line[768];

			if (providers[i]->no_feed == NULL ||
			    (providers[i]->start != NULL &&
			    strcmp(key_state(&rows, providers[i]), "set") == 0))
				continue;
			snapshot_list_note(providers[i]->id,
			    providers[i]->no_feed, line, sizeof line);
			printf("%s.\n", line);
		}
		/* The table may drop the health columns: say it in full. */
		for (i = 0; i < n; i++) {
			char why[256];

			if (health_describe(&health[i], rows.now, why,
			    sizeof why) > 0)
				printf("%s is %s: %s.\n", providers[i]->id,
				    health_name(health[i].state), why);
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
