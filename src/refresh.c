/* refresh.c: run provider adapters through one HTTP batch into the cache. */
#include "config.h"
#include "refresh.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "currency.h"
#include "db.h"
#include "err.h"
#include "health.h"
#include "http.h"
#include "lockfile.h"
#include "notes.h"
#include "provider.h"
#include "rentable.h"
#include "settings.h"
#include "signals.h"
#include "snapshot_info.h"
#include "str.h"
#include "xalloc.h"

/*
 * Every provider, as --provider may name every one: 16 once silently
 * left out the seventeenth (issue 47). test_provider checks the
 * registry fits.
 */
#define REFRESH_PROVIDERS_MAX	FILTER_PROVIDERS_MAX
#define INFLIGHT_MAX		64

/*
 * What a provider's status says while its refresh runs: if the process
 * dies (kill -9, power cut) before the result is written, it stays.
 */
#define REFRESH_UNFINISHED	"did not finish: the refresh is still " \
				"running, or it was killed"

/* One provider's part of a refresh. */
struct refresh_provider {
	struct refresh	*r;
	const struct provider *p;
	struct provider_run run;
	struct provider_meta *old_meta;	/* db_meta_list()'s, freed here */
	char		*base_url;	/* copy of GPUCOST_<ID>_URL */
	char		*api_key;	/* copy; wiped on free */
	int		 pending;	/* requests not yet done */
	bool		 finished;	/* no more requests: ready to write */
	bool		 written;	/* result is in the cache */
	double		 started;
	size_t		 bytes_done;	/* bytes of finished requests */
	/*
	 * Conditional requests. validated_at: the last success whose
	 * validators may be sent (the cached offers came from it), or 0
	 * for none. held: requests that answered 304, as copies without
	 * validators, asked again if another request brought a body.
	 */
	int64_t		 validated_at;
	char		 context[64];	/* what else the offers depend on */
	struct http_request **held;	/* owned, with their elements */
	size_t		 nheld;
	size_t		 delivered;	/* responses given to the adapter */
	size_t		 staged;	/* offers handed to the cache (.batches) */
	bool		 unchanged;	/* every request answered 304 */
	char		 endpoint[HEALTH_ENDPOINT_MAX];	/* of its first request */
	struct {
		const struct http_request *req;
		size_t	 bytes;
	} inflight[INFLIGHT_MAX];
	struct refresh_progress progress;
};

struct refresh {
	struct db	*db;
	struct http_batch *batch;
	int		 lock_fd;
	char		*lock_path;
	struct settings	 settings;
	struct err	 warning;	/* for the user; "" if none */
	struct refresh_provider prov[REFRESH_PROVIDERS_MAX];
	size_t		 nprov;
	struct refresh_progress progress[REFRESH_PROVIDERS_MAX];
	double		 deadline;	/* seconds per provider, all requests */
	bool		 catching;	/* our signal handlers are installed */
	struct signals_saved old_actions;	/* signals.h */
	int		 signal;	/* the signal that ended it, or 0 */
};

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Take the lock next to the cache, waiting up to wait_s seconds. */
static int
refresh_lock(struct refresh *r, const char *db_path, long wait_s,
    struct err *err)
{
	int rc;

	r->lock_path = xasprintf("%s.lock", db_path);
	rc = lockfile_take(r->lock_path, wait_s, "refresh", &r->lock_fd, err);
	return rc == LOCKFILE_BUSY ? REFRESH_BUSY : rc;
}

/* Mark a provider failed with a message (the first failure wins). */
static void
provider_fail(struct refresh_provider *rp, const char *msg)
{
	if (rp->progress.state != REFRESH_RUNNING)
		return;
	rp->progress.state = REFRESH_FAILED;
	str_copy(rp->progress.message, sizeof rp->progress.message, msg);
	rp->finished = true;
	if (rp->pending > 0 && rp->r->batch != NULL)
		http_batch_cancel(rp->r->batch, rp);
}

static int on_chunk(void *, const struct http_request *, const char *, size_t);
static void on_done(void *, const struct http_result *);
static void on_progress(void *, const struct http_request *, size_t);

static const struct http_callbacks refresh_callbacks = {
	.on_chunk = on_chunk,
	.on_done = on_done,
	.on_progress = on_progress,
};

/*
 * The meta names under which a URL's validators are kept:
 * "etag:<h>" and "modified:<h>", h the URL's 64-bit FNV-1a hash in hex
 * (a URL can be longer than a meta name). Each value is
 * "<success time>/<context> <validator>": it may be sent only while
 * the cached offers are those of that success (validated_at) and were
 * made as this refresh would make them (context: the gpucost version,
 * and the USD per EUR rate for a provider priced in EUR), so a
 * validator from an older success, left over from a URL no longer
 * asked for, kept by an older adapter or at another rate is never
 * sent again.
 */
static void
validator_names(const char *url, char *etag, char *modified, size_t size)
{
	uint64_t h = str_fnv1a(STR_FNV1A_BASIS, url, strlen(url));

	snprintf(etag, size, "etag:%016" PRIx64, h);
	snprintf(modified, size, "modified:%016" PRIx64, h);
}

/*
 * The validator stored under name for rp's cached offers, as a copy,
 * or NULL when there is none usable.
 */
static char *
validator_old(struct refresh_provider *rp, const char *name)
{
	const char *v = provider_old_meta(&rp->run, name);
	char stamp[128];
	size_t len;

	len = (size_t)snprintf(stamp, sizeof stamp, "%lld/%s ",
	    (long long)rp->validated_at, rp->context);
	if (v == NULL || strncmp(v, stamp, len) != 0 ||
	    !http_validator_ok(v + len, strlen(v + len)))
		return NULL;
	return xstrdup(v + len);
}

/* Keep value ("" or NULL: none) as name's validator of this success. */
static void
validator_keep(struct refresh_provider *rp, const char *name,
    const char *value)
{
	char v[PROVIDER_META_VALUE_MAX];
	int len;

	len = snprintf(v, sizeof v, "%lld/%s %s", (long long)rp->run.now,
	    rp->context, value != NULL ? value : "");
	/* Too long to keep whole: none, so nothing stale is ever sent. */
	if (len < 0 || (size_t)len >= sizeof v)
		snprintf(v, sizeof v, "%lld/%s ", (long long)rp->run.now,
		    rp->context);
	provider_set_meta(&rp->run, name, v);
}

/* Keep the validators of url's answer for the next refresh. */
static void
validators_keep(struct refresh_provider *rp, const char *url,
    const char *etag, const char *modified)
{
	char ename[PROVIDER_META_NAME_MAX], mname[PROVIDER_META_NAME_MAX];

	validator_names(url, ename, mname, sizeof ename);
	validator_keep(rp, ename, etag);
	validator_keep(rp, mname, modified);
}

/* Add the last good answer's validators to a conditional request. */
static void
validators_attach(struct refresh_provider *rp, struct http_request *req)
{
	char ename[PROVIDER_META_NAME_MAX], mname[PROVIDER_META_NAME_MAX];

	if (!req->conditional || req->refetch || rp->validated_at == 0 ||
	    strcmp(req->method, "GET") != 0 || req->body != NULL)
		return;
	validator_names(req->url, ename, mname, sizeof ename);
	req->if_none_match = validator_old(rp, ename);
	req->if_modified_since = validator_old(rp, mname);
}

/* Hand the requests the adapter queued to the HTTP batch. */
static void
submit_queued(struct refresh_provider *rp)
{
	size_t i;

	for (i = 0; i < rp->run.nqueue; i++) {
		if (rp->endpoint[0] == '\0')
			health_endpoint(rp->run.queue[i]->url, rp->endpoint,
			    sizeof rp->endpoint);
		validators_attach(rp, rp->run.queue[i]);
		rp->pending++;
		http_batch_add(rp->r->batch, rp->run.queue[i],
		    &refresh_callbacks, rp);
	}
	rp->run.nqueue = 0;
}

/*
 * A conditional request answered 304: the last good copy still holds.
 * Keep its validators, and a copy of the request in case another
 * request brings a body and the adapter needs this one's too.
 */
static void
hold(struct refresh_provider *rp, const struct http_request *req)
{
	validators_keep(rp, req->url, req->if_none_match,
	    req->if_modified_since);
	rp->held = xreallocarray(rp->held, rp->nheld + 1, sizeof *rp->held);
	rp->held[rp->nheld++] = http_request_dup(req);
}

/*
 * Every request of rp is done. If some answered 304 and none brought a
 * body, the provider is unchanged. If others brought bodies, the
 * adapter must see the whole answer: ask for the held ones again,
 * without validators (so they cannot answer 304 again).
 */
static void
provider_settle(struct refresh_provider *rp)
{
	size_t i;

	if (rp->nheld > 0 && rp->delivered == 0) {
		rp->unchanged = true;
	} else if (rp->nheld > 0) {
		for (i = 0; i < rp->nheld; i++) {
			rp->pending++;
			http_batch_add(rp->r->batch, rp->held[i],
			    &refresh_callbacks, rp);
		}
		rp->nheld = 0;
		return;
	}
	rp->finished = true;
}

/* The path of a request's URL, for messages (never the query string). */
static void
request_label(const struct http_request *req, char *buf, size_t size)
{
	const char *p = strstr(req->url, "://"), *q;
	size_t len;

	p = p != NULL ? strchr(p + 3, '/') : NULL;
	if (p == NULL)
		p = "/";
	q = strchr(p, '?');
	len = q != NULL ? (size_t)(q - p) : strlen(p);
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
}

/* Which inflight slot tracks req (allocating one). */
static size_t *
inflight_bytes(struct refresh_provider *rp, const struct http_request *req)
{
	size_t i, free_slot = INFLIGHT_MAX;

	for (i = 0; i < INFLIGHT_MAX; i++) {
		if (rp->inflight[i].req == req)
			return &rp->inflight[i].bytes;
		if (rp->inflight[i].req == NULL && free_slot == INFLIGHT_MAX)
			free_slot = i;
	}
	if (free_slot == INFLIGHT_MAX)
		return NULL;
	rp->inflight[free_slot].req = req;
	rp->inflight[free_slot].bytes = 0;
	return &rp->inflight[free_slot].bytes;
}

/* Sum the bytes received so far into the progress record. */
static void
update_bytes(struct refresh_provider *rp)
{
	size_t i, total = rp->bytes_done;

	for (i = 0; i < INFLIGHT_MAX; i++)
		if (rp->inflight[i].req != NULL)
			total += rp->inflight[i].bytes;
	rp->progress.bytes = total;
	rp->progress.offers = rp->staged + rp->run.offers.n;
}

static void
on_progress(void *udata, const struct http_request *req, size_t bytes)
{
	struct refresh_provider *rp = udata;
	size_t *slot = inflight_bytes(rp, req);

	if (slot != NULL)
		*slot = bytes;
	update_bytes(rp);
}

/*
 * A provider with .batches: once its list holds at least min offers,
 * check them, mark their notes and stage them in the cache, and empty
 * the list (its storage is kept for the next batch). -1 after failing
 * the provider.
 */
static int
stage_batch(struct refresh_provider *rp, size_t min)
{
	struct offer_list *list = &rp->run.offers;
	struct err err;

	if (!rp->p->batches || list->n == 0 || list->n < min ||
	    rp->progress.state != REFRESH_RUNNING)
		return 0;
	err_clear(&err);
	if (provider_check_unique(&rp->run, &err) < 0) {
		provider_fail(rp, err.msg);
		return -1;
	}
	notes_mark(list->v, list->n);
	if (db_stage_offers(rp->r->db, rp->p->id, list->v, list->n,
	    &err) < 0) {
		provider_fail(rp, err.msg);
		return -1;
	}
	rp->staged += list->n;
	offer_list_clear(list);		/* and their text: memory stays flat */
	return 0;
}

static int
on_chunk(void *udata, const struct http_request *req, const char *data,
    size_t len)
{
	struct refresh_provider *rp = udata;
	struct err err;
	char label[128], msg[ERR_MSG_MAX + 160];

	if (rp->progress.state != REFRESH_RUNNING)
		return 1;
	if (rp->p->chunk == NULL) {
		provider_fail(rp, "adapter cannot stream a body");
		return 1;
	}
	err_clear(&err);
	if (rp->p->chunk(&rp->run, req, data, len, &err) < 0) {
		request_label(req, label, sizeof label);
		snprintf(msg, sizeof msg, "%s: %s", label, err.msg);
		provider_fail(rp, msg);
		return 1;
	}
	return stage_batch(rp, PROVIDER_BATCH) < 0 ? 1 : 0;
}

static void
on_done(void *udata, const struct http_result *res)
{
	struct refresh_provider *rp = udata;
	char label[128], msg[ERR_MSG_MAX + 160], *clean;
	struct err err;
	size_t *slot, i;

	rp->pending--;
	slot = inflight_bytes(rp, res->req);
	if (slot != NULL) {
		for (i = 0; i < INFLIGHT_MAX; i++)
			if (rp->inflight[i].req == res->req)
				rp->inflight[i].req = NULL;
	}
	rp->bytes_done += res->body_len;
	update_bytes(rp);
	if (rp->progress.state != REFRESH_RUNNING)
		return;
	request_label(res->req, label, sizeof label);
	if (!res->ok) {
		char detail[160] = "";

		/* An API's error body often says why (bad key, bad query). */
		if (res->status >= 400 && res->body != NULL && res->body_len > 0) {
			char snippet[120], *body;
			size_t len;

			/* Mask the key before cutting: a cut key escapes it. */
			body = http_redact(res->body, rp->api_key);
			len = strlen(body);
			str_sanitize(snippet, sizeof snippet, body,
			    len < 200 ? len : 200);
			free(body);
			if (snippet[0] != '\0' && snippet[0] != '<')
				snprintf(detail, sizeof detail, ": %s", snippet);
		}
		snprintf(msg, sizeof msg, "%s: %s%s", label, res->error, detail);
		clean = http_redact(msg, rp->api_key);
		provider_fail(rp, clean);
		free(clean);
		return;
	}
	if (res->status == 304) {
		/* Only a copy we named can be "not modified". */
		if (res->req->if_none_match == NULL &&
		    res->req->if_modified_since == NULL) {
			snprintf(msg, sizeof msg, "%s: HTTP 304 Not Modified "
			    "to a request that named no cached copy", label);
			provider_fail(rp, msg);
			return;
		}
		hold(rp, res->req);
	} else {
		if (res->req->conditional)
			validators_keep(rp, res->req->url, res->etag,
			    res->last_modified);
		rp->delivered++;
		err_clear(&err);
		if (rp->p->response(&rp->run, res, &err) < 0) {
			clean = http_redact(err.msg, rp->api_key);
			snprintf(msg, sizeof msg, "%s: %s", label, clean);
			free(clean);
			provider_fail(rp, msg);
			return;
		}
		if (stage_batch(rp, PROVIDER_BATCH) < 0)
			return;
		submit_queued(rp);
	}
	update_bytes(rp);
	if (rp->pending == 0)
		provider_settle(rp);
}

/* GPUCOST_<ID>_URL for a provider id. */
static const char *
url_override(const struct provider *p)
{
	char name[64];
	size_t i;

	snprintf(name, sizeof name, "GPUCOST_%s_URL", p->id);
	/* runpod-clusters: GPUCOST_RUNPOD_CLUSTERS_URL. */
	for (i = 0; name[i] != '\0'; i++)
		name[i] = name[i] == '-' ? '_' :
		    (char)toupper((unsigned char)name[i]);
	return getenv(name);
}

/* provider_setting_fn over the refresh's settings (ctx). */
static const char *
setting_get(void *ctx, const char *env, const char *name)
{
	struct refresh *r = ctx;

	return settings_get(&r->settings, env, name);
}

/* Prepare and start one provider. */
static void
provider_begin(struct refresh *r, struct refresh_provider *rp,
    const struct provider *p, const struct provider_status *status,
    int64_t now)
{
	const char *key = NULL, *v;
	char setting[64], msg[ERR_MSG_MAX + 32];
	struct err err;
	size_t nmeta = 0;

	rp->r = r;
	rp->p = p;
	rp->started = now_seconds();
	str_copy(rp->context, sizeof rp->context, PACKAGE_VERSION);
	rp->progress.provider = p->id;
	rp->progress.state = REFRESH_RUNNING;
	provider_run_init(&rp->run, p);
	if (p->key_env != NULL) {
		snprintf(setting, sizeof setting, "%s_api_key", p->id);
		if (settings_key(&r->settings, p->key_env, setting, &key,
		    &err) < 0) {
			provider_fail(rp, err.msg);
			return;
		}
	}
	/* Nothing to fetch: the list prices built in are all there is. */
	if (p->no_feed != NULL && (p->start == NULL || key == NULL)) {
		char line[sizeof rp->progress.message];

		snapshot_list_note(p->id, p->no_feed, line, sizeof line);
		rp->progress.state = REFRESH_SKIPPED;
		rp->progress.listed = true;
		snprintf(rp->progress.message, sizeof rp->progress.message,
		    "%.*s; nothing fetched", (int)sizeof line - 20, line);
		rp->finished = rp->written = true;
		return;
	}
	if (p->key_required && key == NULL) {
		rp->progress.state = REFRESH_SKIPPED;
		snprintf(rp->progress.message, sizeof rp->progress.message,
		    "skipped: set %s", p->key_env);
		rp->finished = rp->written = true;
		return;
	}
	if (key != NULL)
		rp->api_key = xstrdup(key);
	if ((v = url_override(p)) != NULL && v[0] != '\0')
		rp->base_url = xstrdup(v);
	if (p->currency != NULL && strcmp(p->currency, "EUR") == 0) {
		struct currency_rate rate;

		if (currency_usd_per_eur(getenv("GPUCOST_USD_PER_EUR"),
		    settings_get(&r->settings, NULL, "usd_per_eur"),
		    r->settings.path, &rate, &err) < 0) {
			provider_fail(rp, err.msg);
			return;
		}
		rp->run.usd_per_eur = rate.usd_per_eur;
		snprintf(rp->context, sizeof rp->context, "%s/eur=%lld",
		    PACKAGE_VERSION, (long long)rate.usd_per_eur);
	}
	if (db_meta_list(r->db, p->id, &rp->old_meta, &nmeta, &err) < 0) {
		provider_fail(rp, err.msg);
		return;
	}
	rp->run.base_url = rp->base_url;
	rp->run.api_key = rp->api_key;
	rp->run.now = now;
	rp->run.old_meta = rp->old_meta;
	rp->run.nold_meta = nmeta;
	/* Validators describe the offers of a live success, if still cached. */
	if (status != NULL && status->source == SRC_LIVE &&
	    status->offer_count > 0 && status->last_success > 0)
		rp->validated_at = status->last_success;
	if (p->configure != NULL)
		p->configure(&rp->run, setting_get, r);
	if (p->start == NULL || p->response == NULL) {
		provider_fail(rp, "no live price adapter");
		return;
	}
	err_clear(&err);
	if (p->start(&rp->run, &err) < 0) {
		char *clean = http_redact(err.msg, rp->api_key);

		snprintf(msg, sizeof msg, "%s", clean);
		free(clean);
		provider_fail(rp, msg);
		return;
	}
	submit_queued(rp);
	if (rp->pending == 0)
		rp->finished = true;
}

/* Append the cached offers of the regions the adapter kept unchanged. */
static int
add_kept_offers(struct refresh *r, struct refresh_provider *rp,
    struct err *err)
{
	struct offer_filter f;
	struct offer_list old;
	size_t i, j;

	if (rp->run.nkeep_regions == 0)
		return 0;
	offer_filter_init(&f);
	str_copy(f.providers[0], sizeof f.providers[0], rp->p->id);
	f.nproviders = 1;
	offer_list_init(&old);
	if (db_query(r->db, &f, &old, err) < 0) {
		offer_list_done(&old);
		return -1;
	}
	/*
	 * The adapter found the region's published data unchanged: its
	 * offers are confirmed current now, not only when first fetched
	 * (else they would turn `stale` while checked every day).
	 */
	for (i = 0; i < old.n; i++)
		for (j = 0; j < rp->run.nkeep_regions; j++)
			if (strcmp(old.v[i].region, rp->run.keep_regions[j]) == 0) {
				old.v[i].fetched_at = rp->run.now;
				/* Its text into the run's list: old is freed. */
				offer_list_add_copy(&rp->run.offers,
				    &old.v[i]);
				break;
			}
	offer_list_done(&old);
	return 0;
}

/*
 * Record the outcome of the attempt for the provider's health
 * (health.h); a record that cannot be written is said in the message,
 * the refresh's own result stands.
 */
static void
record_outcome(struct refresh *r, struct refresh_provider *rp, bool ok,
    size_t offers)
{
	struct err err;
	size_t len = strlen(rp->progress.message);

	if (db_log_outcome(r->db, rp->p->id, rp->run.now, ok, (long)offers,
	    rp->endpoint, &err) < 0)
		snprintf(rp->progress.message + len,
		    sizeof rp->progress.message - len, "%s(health record "
		    "not written: %s)", len > 0 ? " " : "", err.msg);
}

/* Record a failed provider's status (its offers stay). */
static void
record_failure(struct refresh *r, struct refresh_provider *rp)
{
	struct err err;

	record_outcome(r, rp, false, 0);
	if (db_record_failure(r->db, rp->p->id, rp->run.now,
	    rp->progress.message, &err) < 0) {
		/* The failure stands; only its record could not be kept. */
		snprintf(rp->progress.message + strlen(rp->progress.message),
		    sizeof rp->progress.message - strlen(rp->progress.message),
		    " (and recording it failed)");
	}
}

/*
 * Every request answered 304: the cached offers stand as they are,
 * confirmed at this check (no rewrite, no history rows), and the
 * validators sent are kept for the next one.
 */
static void
provider_confirm(struct refresh *r, struct refresh_provider *rp)
{
	struct err err;
	size_t n;

	if (db_confirm_offers(r->db, rp->p->id, rp->run.new_meta,
	    rp->run.nnew_meta, rp->run.now, &n, &err) < 0) {
		provider_fail(rp, err.msg);
		record_failure(r, rp);
		return;
	}
	rp->progress.state = REFRESH_OK;
	rp->progress.offers = n;
	rp->progress.history = 0;
	str_copy(rp->progress.message, sizeof rp->progress.message,
	    "unchanged (304)");
	record_outcome(r, rp, true, n);
}

/* Finish a provider whose requests are all done and write its result. */
static void
provider_write(struct refresh *r, struct refresh_provider *rp)
{
	struct db_replace_stats stats;
	char *clean;
	struct err err;
	int rc;
	int64_t now = rp->run.now;

	rp->written = true;
	rp->progress.seconds = now_seconds() - rp->started;
	if (rp->progress.state == REFRESH_RUNNING && rp->unchanged) {
		provider_confirm(r, rp);
		return;
	}
	/* Kept regions first, so finish() sees (and re-prices) them too. */
	if (rp->progress.state == REFRESH_RUNNING &&
	    add_kept_offers(r, rp, &err) < 0)
		provider_fail(rp, err.msg);
	if (rp->progress.state == REFRESH_RUNNING && rp->p->finish != NULL) {
		err_clear(&err);
		if (rp->p->finish(&rp->run, &err) < 0) {
			clean = http_redact(err.msg, rp->api_key);
			provider_fail(rp, clean);
			free(clean);
		}
	}
	/* A batching provider's last batch goes where the others went. */
	if (rp->progress.state == REFRESH_RUNNING && rp->staged > 0)
		stage_batch(rp, 0);
	if (rp->progress.state == REFRESH_RUNNING &&
	    provider_check_unique(&rp->run, &err) < 0)
		provider_fail(rp, err.msg);
	rp->progress.skipped = rp->run.skipped;
	rp->progress.unknown_gpu = rp->run.unknown_gpu;
	if (rp->progress.state == REFRESH_RUNNING && rp->run.offers.n == 0 &&
	    rp->staged == 0)
		provider_fail(rp, "no GPU offers in the response; keeping the "
		    "cached offers");
	if (rp->progress.state == REFRESH_RUNNING) {
		/* Outliers are judged over the provider's whole set. */
		rp->run.offers.n = offers_vet(rp->run.offers.v,
		    rp->run.offers.n);
		notes_mark(rp->run.offers.v, rp->run.offers.n);
		if (rp->staged > 0)
			rc = db_replace_staged(r->db, rp->p->id, NULL, 0,
			    rp->run.new_meta, rp->run.nnew_meta, now, &stats,
			    &err);
		else
			rc = db_replace_offers_meta(r->db, rp->p->id,
			    rp->run.offers.v, rp->run.offers.n, SRC_LIVE,
			    rp->run.new_meta, rp->run.nnew_meta, now, &stats,
			    &err);
		if (rc < 0) {
			/* The message goes under the provider's name already. */
			size_t idlen = strlen(rp->p->id);

			provider_fail(rp, strncmp(err.msg, rp->p->id, idlen) == 0 &&
			    strncmp(err.msg + idlen, ": ", 2) == 0 ?
			    err.msg + idlen + 2 : err.msg);
		} else {
			rp->progress.state = REFRESH_OK;
			rp->progress.offers = stats.offers;
			rp->progress.history = stats.history_rows;
			str_copy(rp->progress.message,
			    sizeof rp->progress.message, rp->run.note);
			record_outcome(r, rp, true, stats.offers);
		}
	}
	/* What a failed provider staged is dropped: its offers stay. */
	if (rp->staged > 0 && rp->progress.state == REFRESH_FAILED)
		db_stage_drop(r->db, rp->p->id);
	if (rp->progress.state == REFRESH_FAILED)
		record_failure(r, rp);
}

/* End the refresh on SIGINT, SIGTERM and SIGHUP, recording why. */
static void
catch_signals(struct refresh *r)
{
	signals_catch(&r->old_actions);
	r->catching = true;
}

/*
 * Mark each provider about to fetch as unfinished, in the cache: this
 * proves, before any download, that the cache takes a write, and leaves
 * a trace if the process is killed before the result is written.
 */
static int
mark_unfinished(struct refresh *r, int64_t now, struct err *err)
{
	size_t i;

	for (i = 0; i < r->nprov; i++) {
		if (r->prov[i].progress.state != REFRESH_RUNNING)
			continue;
		if (db_record_failure(r->db, r->prov[i].p->id, now,
		    REFRESH_UNFINISHED, err) < 0)
			return -1;
	}
	return 0;
}

int
refresh_begin(const struct refresh_options *opts, struct refresh **out,
    struct err *err)
{
	struct http_options hopts;
	struct refresh *r;
	const struct provider *sel[REFRESH_PROVIDERS_MAX];
	struct provider_status *status = NULL;
	size_t nsel = 0, nstatus = 0, i, j;
	int64_t now = (int64_t)time(NULL);
	int rc;

	*out = NULL;
	r = xcalloc(1, sizeof *r);
	r->lock_fd = -1;
	if (settings_load(&r->settings, err) < 0) {
		rc = -1;
		goto fail;
	}
	if (r->settings.world_readable)
		err_set(&r->warning, "%s holds API keys and other users may "
		    "read it; run: chmod 600 %s", r->settings.path,
		    r->settings.path);
	if ((rc = refresh_lock(r, opts->db_path, opts->lock_wait, err)) < 0)
		goto fail;
	rc = -1;	/* from here on every failure is the cache's */
	if (cache_open_writer(opts->db_path, &r->db, err) < 0)
		goto fail;
	http_options_default(&hopts);
	if (opts->timeout > 0) {
		hopts.timeout = opts->timeout;
		if (hopts.connect_timeout > opts->timeout)
			hopts.connect_timeout = opts->timeout;
	}
	/* A longer transfer limit asked for stretches the default deadline. */
	r->deadline = opts->deadline > 0 ? (double)opts->deadline :
	    (double)(hopts.timeout > REFRESH_DEADLINE_DEFAULT ?
	    hopts.timeout : REFRESH_DEADLINE_DEFAULT);
	r->batch = http_batch_new(&hopts);
	if (opts->nproviders == 0) {
		for (i = 0; providers[i] != NULL && nsel < REFRESH_PROVIDERS_MAX; i++)
			sel[nsel++] = providers[i];
	} else {
		/* Keep registry order whatever order the user typed. */
		for (i = 0; providers[i] != NULL; i++) {
			for (j = 0; j < opts->nproviders; j++)
				if (strcmp(opts->providers[j], providers[i]->id) == 0)
					break;
			if (j < opts->nproviders && nsel < REFRESH_PROVIDERS_MAX)
				sel[nsel++] = providers[i];
		}
	}
	if (opts->catch_signals)
		catch_signals(r);
	/* What is cached now decides which validators may be sent. */
	if (db_status(r->db, &status, &nstatus, err) < 0)
		goto fail;
	r->nprov = nsel;
	for (i = 0; i < nsel; i++) {
		for (j = 0; j < nstatus; j++)
			if (strcmp(status[j].provider, sel[i]->id) == 0)
				break;
		provider_begin(r, &r->prov[i], sel[i],
		    j < nstatus ? &status[j] : NULL, now);
	}
	free(status);
	status = NULL;
	/* Nothing is fetched before the first refresh_poll(). */
	if (mark_unfinished(r, now, err) < 0)
		goto fail;
	*out = r;
	return 0;
fail:
	free(status);
	refresh_end(r);
	return rc;
}

/* Fail a running provider: "WHY after N s; kept the cached offers". */
static void
fail_running_one(struct refresh_provider *rp, const char *why)
{
	char msg[256];

	if (rp->progress.state != REFRESH_RUNNING)
		return;
	snprintf(msg, sizeof msg, "%s after %.1f s; kept the cached offers",
	    why, now_seconds() - rp->started);
	provider_fail(rp, msg);
}

/* Fail every provider still running (they are written by the poll). */
static void
fail_running(struct refresh *r, const char *why)
{
	size_t i;

	for (i = 0; i < r->nprov; i++)
		fail_running_one(&r->prov[i], why);
}

void
refresh_interrupt(struct refresh *r, const char *why)
{
	size_t i;

	fail_running(r, why);
	for (i = 0; i < r->nprov; i++)
		if (!r->prov[i].written && r->prov[i].pending == 0)
			provider_write(r, &r->prov[i]);
}

int
refresh_signal(const struct refresh *r)
{
	return r->signal;
}

int
refresh_poll(struct refresh *r, int extra_fd, int timeout_ms)
{
	size_t i;
	int running = 0;
	char why[64];

	for (i = 0; i < r->nprov; i++)
		if (!r->prov[i].finished)
			running++;
	if (running > 0 && signals_caught == 0)
		http_batch_poll(r->batch, extra_fd, timeout_ms);
	if (r->catching && signals_caught != 0 && r->signal == 0) {
		r->signal = signals_caught;
		snprintf(why, sizeof why, "interrupted by %s",
		    signals_name(r->signal));
		fail_running(r, why);
	}
	for (i = 0; i < r->nprov; i++) {
		struct refresh_provider *rp = &r->prov[i];

		if (rp->progress.state == REFRESH_RUNNING &&
		    now_seconds() - rp->started > r->deadline) {
			snprintf(why, sizeof why, "took longer than its "
			    "%.0f s deadline", r->deadline);
			fail_running_one(rp, why);
		}
	}
	running = 0;
	for (i = 0; i < r->nprov; i++) {
		struct refresh_provider *rp = &r->prov[i];

		if (rp->finished && rp->pending == 0 && !rp->written)
			provider_write(r, rp);
		if (!rp->written)
			running++;
		else if (rp->progress.seconds <= 0)
			rp->progress.seconds = now_seconds() - rp->started;
	}
	return running;
}

size_t
refresh_progress(struct refresh *r, const struct refresh_progress **out)
{
	size_t i;

	for (i = 0; i < r->nprov; i++) {
		r->progress[i] = r->prov[i].progress;
		if (r->prov[i].progress.state == REFRESH_RUNNING)
			r->progress[i].seconds = now_seconds() -
			    r->prov[i].started;
	}
	*out = r->progress;
	return r->nprov;
}

const char *
refresh_warning(const struct refresh *r)
{
	return r->warning.msg[0] != '\0' ? r->warning.msg : NULL;
}

size_t
refresh_failures(const struct refresh *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nprov; i++)
		if (r->prov[i].progress.state == REFRESH_FAILED)
			n++;
	return n;
}

void
refresh_end(struct refresh *r)
{
	size_t i, j;

	if (r == NULL)
		return;
	/* Free the batch first: it may still call back into providers. */
	http_batch_free(r->batch);
	for (i = 0; i < r->nprov; i++) {
		struct refresh_provider *rp = &r->prov[i];

		provider_run_done(&rp->run);
		for (j = 0; j < rp->nheld; j++) {
			http_request_done(rp->held[j]);
			free(rp->held[j]);
		}
		free(rp->held);
		free(rp->old_meta);
		free(rp->base_url);
		if (rp->api_key != NULL) {
			memset(rp->api_key, 0, strlen(rp->api_key));
			free(rp->api_key);
		}
	}
	db_close(r->db);
	if (r->catching)
		signals_restore(&r->old_actions);
	if (r->lock_fd >= 0)
		close(r->lock_fd);	/* releases the flock */
	free(r->lock_path);
	memset(&r->settings, 0, sizeof r->settings);
	free(r);
}
