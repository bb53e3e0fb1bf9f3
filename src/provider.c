/*
 * provider.c: the provider registry and the adapter toolkit (helpers
 * every adapter would otherwise write again). Pure: no I/O.
 */
#include "config.h"
#include "provider.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gpu.h"
#include "json.h"
#include "str.h"
#include "xalloc.h"

extern const struct provider provider_aws;
extern const struct provider provider_gcp;
extern const struct provider provider_runpod;
extern const struct provider provider_runpod_clusters;
extern const struct provider provider_vast;
extern const struct provider provider_lambda;
extern const struct provider provider_vultr;
extern const struct provider provider_azure;
extern const struct provider provider_oci;
extern const struct provider provider_scaleway;
extern const struct provider provider_linode;
extern const struct provider provider_ovh;
extern const struct provider provider_cloudrift;
extern const struct provider provider_verda;
extern const struct provider provider_akash;
extern const struct provider provider_coreweave;
extern const struct provider provider_salad;

const struct provider *const providers[] = {
	&provider_aws,
	&provider_gcp,
	&provider_runpod,
	&provider_runpod_clusters,
	&provider_vast,
	&provider_lambda,
	&provider_vultr,
	&provider_azure,
	&provider_oci,
	&provider_scaleway,
	&provider_linode,
	&provider_ovh,
	&provider_cloudrift,
	&provider_verda,
	&provider_akash,
	&provider_coreweave,
	&provider_salad,
	NULL
};

const struct provider *
provider_find(const char *id)
{
	size_t i;

	for (i = 0; providers[i] != NULL; i++)
		if (str_eq_nocase(providers[i]->id, id))
			return providers[i];
	return NULL;
}

const char *
provider_id_list(void)
{
	return "aws,gcp,runpod,runpod-clusters,vast,lambda,vultr,azure,oci,"
	    "scaleway,linode,ovh,cloudrift,verda,akash,coreweave,salad";
}

void
provider_run_init(struct provider_run *run, const struct provider *p)
{
	memset(run, 0, sizeof *run);
	run->provider = p;
	offer_list_init(&run->offers);
}

void
provider_run_done(struct provider_run *run)
{
	size_t i;

	if (run->provider != NULL && run->provider->done != NULL)
		run->provider->done(run);
	run->state = NULL;
	for (i = 0; i < run->nqueue; i++) {
		http_request_done(run->queue[i]);
		free(run->queue[i]);
	}
	free(run->queue);
	free(run->new_meta);
	free(run->keep_regions);
	offer_list_done(&run->offers);
	run->queue = NULL;
	run->new_meta = NULL;
	run->keep_regions = NULL;
	run->nqueue = run->queue_cap = run->nnew_meta = run->nkeep_regions = 0;
}

char *
provider_url(const struct provider_run *run, const char *default_origin,
    const char *path)
{
	const char *origin = default_origin;
	size_t len;

	if (run->base_url != NULL && run->base_url[0] != '\0')
		origin = run->base_url;
	len = strlen(origin);
	/* "http://127.0.0.1:8080/" + "/v2/plans" must not double the slash. */
	while (len > 0 && origin[len - 1] == '/')
		len--;
	return xasprintf("%.*s%s", (int)len, origin, path);
}

struct http_request *
provider_queue(struct provider_run *run, char *url, const char *method, int tag)
{
	struct http_request *req;

	req = xmalloc(sizeof *req);
	http_request_init(req);
	req->url = url;
	req->method = method != NULL ? method : "GET";
	req->tag = tag;
	if (run->api_key != NULL)
		req->redact = xstrdup(run->api_key);
	if (run->nqueue == run->queue_cap) {
		run->queue_cap = run->queue_cap == 0 ? 8 : run->queue_cap * 2;
		run->queue = xreallocarray(run->queue, run->queue_cap,
		    sizeof *run->queue);
	}
	run->queue[run->nqueue++] = req;
	return req;
}

void
provider_conditional(struct http_request *req)
{
	if (req->method != NULL && strcmp(req->method, "GET") == 0 &&
	    req->body == NULL)
		req->conditional = true;
}

/* The meta name of a list's page count. */
static void
pages_meta_name(char *buf, size_t size, const char *list)
{
	snprintf(buf, size, "pages:%s", list);
}

void
provider_first_page(const struct provider_run *run, struct http_request *req,
    const char *list)
{
	char name[PROVIDER_META_NAME_MAX];
	const char *pages;

	pages_meta_name(name, sizeof name, list);
	pages = provider_old_meta(run, name);
	provider_conditional(req);
	req->refetch = pages == NULL || strcmp(pages, "1") != 0;
}

void
provider_list_pages(struct provider_run *run, const char *list, int pages)
{
	char name[PROVIDER_META_NAME_MAX], value[16];

	pages_meta_name(name, sizeof name, list);
	snprintf(value, sizeof value, "%d", pages);
	provider_set_meta(run, name, value);
}

const char *
provider_old_meta(const struct provider_run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->nold_meta; i++)
		if (strcmp(run->old_meta[i].name, name) == 0)
			return run->old_meta[i].value;
	return NULL;
}

void
provider_set_meta(struct provider_run *run, const char *name,
    const char *value)
{
	size_t i;

	for (i = 0; i < run->nnew_meta; i++)
		if (strcmp(run->new_meta[i].name, name) == 0)
			break;
	if (i == run->nnew_meta) {
		run->new_meta = xreallocarray(run->new_meta, run->nnew_meta + 1,
		    sizeof *run->new_meta);
		run->nnew_meta++;
		str_copy(run->new_meta[i].name, sizeof run->new_meta[i].name,
		    name);
	}
	str_copy(run->new_meta[i].value, sizeof run->new_meta[i].value, value);
}

void
provider_keep_region(struct provider_run *run, const char *region)
{
	run->keep_regions = xreallocarray(run->keep_regions,
	    run->nkeep_regions + 1, sizeof *run->keep_regions);
	str_copy(run->keep_regions[run->nkeep_regions++], OFFER_NAME_MAX,
	    region);
}

enum interconnect
provider_interconnect(const char *text, const char *gpu_id, int count)
{
	const struct gpu_model *m;

	if (text != NULL) {
		if (str_find_nocase(text, "nvlink") != NULL ||
		    str_find_nocase(text, "sxm") != NULL ||
		    str_find_nocase(text, "hbm3") != NULL)
			return IC_NVLINK;
		/* NVL cards pair over bridges but sit on PCIe. */
		if (str_find_nocase(text, "pcie") != NULL ||
		    str_find_nocase(text, "nvl") != NULL)
			return IC_PCIE;
	}
	if (gpu_id == NULL || gpu_id[0] == '\0' ||
	    (m = gpu_find(gpu_id)) == NULL)
		return IC_UNKNOWN;
	if (strcmp(m->form, "sxm") == 0)
		return IC_NVLINK;
	if (strcmp(m->form, "pcie") == 0 ||
	    (strcmp(m->form, "bridge") == 0 && count == 1))
		return IC_PCIE;
	return IC_UNKNOWN;
}

/* qsort() order of two key pointers. */
static int
compare_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
provider_check_unique(const struct provider_run *run, struct err *err)
{
	const struct offer_list *offers = &run->offers;
	const char **keys;
	size_t i;
	int rc = 0;

	if (offers->n < 2)
		return 0;
	keys = xreallocarray(NULL, offers->n, sizeof *keys);
	for (i = 0; i < offers->n; i++)
		keys[i] = offers->v[i].key;
	qsort(keys, offers->n, sizeof *keys, compare_keys);
	for (i = 1; i < offers->n; i++) {
		if (strcmp(keys[i - 1], keys[i]) == 0) {
			err_set(err, "offer %s is listed twice", keys[i]);
			rc = -1;
			break;
		}
	}
	free(keys);
	return rc;
}

void
provider_copy(char *dst, size_t size, const char *src)
{
	str_sanitize(dst, size, src, strlen(src));
}

void
provider_text(struct provider_run *run, struct offer *o, offer_setter *set,
    const char *src)
{
	char buf[OFFER_KEY_MAX];	/* the longest field's */

	provider_copy(buf, offer_setter_max(set), src);
	set(&run->offers, o, buf);
}

void
provider_set_gpu(struct provider_run *run, struct offer *o, const char *raw,
    int vram_gb)
{
	const struct gpu_model *m;

	provider_text(run, o, offer_set_gpu_raw, raw);
	m = gpu_resolve(o->gpu_raw, vram_gb);
	if (m == NULL) {
		o->gpu = "";
		run->unknown_gpu++;
		return;
	}
	o->gpu = m->id;		/* the catalogue's: static */
	if (o->vram_gb <= 0)
		o->vram_gb = m->vram_gb;
}

int
provider_offer_done(struct provider_run *run, struct err *err)
{
	struct offer *o;

	if (run->offers.n == 0)
		return 0;
	o = &run->offers.v[run->offers.n - 1];
	o->provider = run->provider->id;	/* static */
	o->fetched_at = run->now;
	o->source = SRC_LIVE;
	if (offer_check(o, err) < 0) {
		offer_list_pop(&run->offers);
		return -1;
	}
	return 0;
}

char *
provider_url_escape(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	char *out, *o;

	out = xmalloc(strlen(s) * 3 + 1);
	for (o = out, p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' ||
		    *p == '_' || *p == '~')
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

void
provider_bearer(const struct provider_run *run, struct http_request *req)
{
	char *auth;

	if (run->api_key == NULL || run->api_key[0] == '\0')
		return;
	auth = xasprintf("Bearer %s", run->api_key);
	http_request_header(req, "Authorization", auth);
	/* Do not leave a key lying in freed memory. */
	memset(auth, 0, strlen(auth));
	free(auth);
}

struct offer *
provider_offer_find(struct provider_run *run, const char *key)
{
	size_t i;

	for (i = 0; i < run->offers.n; i++)
		if (strcmp(run->offers.v[i].key, key) == 0)
			return &run->offers.v[i];
	return NULL;
}

int
provider_parse_json(struct provider_run *run, const struct http_result *res,
    provider_parse_fn *parse, struct err *err)
{
	cJSON *root;
	int rc;

	if (json_parse(res->body, res->body != NULL ? res->body_len : 0, &root,
	    err) < 0)
		return -1;
	if (!cJSON_IsObject(root)) {
		err_set(err, "expected a JSON object, got %s",
		    json_type_name(root));
		rc = -1;
	} else
		rc = parse(run, root, err);
	cJSON_Delete(root);
	return rc;
}

/* An optional ranged number; at: the range error names path too. */
static int
get_number(const struct cJSON *obj, const char *key, const char *path,
    double max, bool at, double *out, struct err *err)
{
	bool found;

	*out = -1;
	if (json_get_number(obj, key, path, out, &found, err) < 0)
		return -1;
	if (!found)
		*out = -1;
	else if (*out < 0 || *out > max) {
		if (at)
			err_set(err, "%s.%s %g is out of range 0..%g", path,
			    key, *out, max);
		else
			err_set(err, "%s %g is out of range 0..%g", key, *out,
			    max);
		return -1;
	}
	return 0;
}

int
provider_get_number(const struct cJSON *obj, const char *key,
    const char *path, double max, double *out, struct err *err)
{
	return get_number(obj, key, path, max, false, out, err);
}

int
provider_get_number_at(const struct cJSON *obj, const char *key,
    const char *path, double max, double *out, struct err *err)
{
	return get_number(obj, key, path, max, true, out, err);
}

void
provider_note_skips(struct provider_run *run, const size_t *counts,
    const char *const (*what)[2], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (counts[i] > 0)
			provider_note(run, "%zu %s skipped", counts[i],
			    what[i][counts[i] == 1 ? 0 : 1]);
}

void
provider_note(struct provider_run *run, const char *fmt, ...)
{
	size_t len = strlen(run->note);
	va_list ap;

	if (len + 1 >= sizeof run->note)
		return;
	if (len > 0) {
		snprintf(run->note + len, sizeof run->note - len, "; ");
		len = strlen(run->note);
	}
	va_start(ap, fmt);
	vsnprintf(run->note + len, sizeof run->note - len, fmt, ap);
	va_end(ap);
}

void
provider_skip(struct provider_run *run, size_t *tally)
{
	run->skipped++;
	if (tally != NULL)
		(*tally)++;
}

void
provider_redact(const struct provider_run *run, struct err *err)
{
	char *clean;

	if (err == NULL || run->api_key == NULL || run->api_key[0] == '\0')
		return;
	clean = http_redact(err->msg, run->api_key);
	str_copy(err->msg, sizeof err->msg, clean);
	free(clean);
}
