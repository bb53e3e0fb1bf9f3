/*
 * db_sort_keys.c: what is computed from an offer when its row is
 * written: its stored sort keys and filter values (offer_sort_keys(),
 * migration 13), the version of the catalogues they come from
 * (db_sort_keys_version()), the row's hash (db_offer_row_hash()) and
 * the binding of the whole row (db_bind_offer()). No statement of its
 * own: the writers (db_offers.c, db_share.c) and db_summary.c's
 * db_sort_keys_update() run them.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "db_internal.h"
#include "fabric.h"
#include "gcp_catalog.h"
#include "money.h"
#include "region.h"
#include "rentable.h"
#include "str.h"

void
offer_sort_keys(const char *provider, const struct offer *o,
    struct sort_keys *k)
{
	const struct fabric *fab;
	struct plan p;

	/*
	 * The provider the row is written under (db_row_to_offer() looks
	 * the fabric up by the row's): assembled_ok()'s placement rule as
	 * a number of nodes.
	 */
	fab = fabric_find(provider, o->instance_type);
	k->fabric = fab != NULL ? (int)fab->kind : FABRIC_UNKNOWN;
	k->node_gbps = fab != NULL ? fab->node_gbps : 0;
	k->fabric_nodes = fab == NULL ? 0 : fab->placement == PLACE_NONE ? 1 :
	    fab->max_nodes > 0 ? fab->max_nodes : 0;
	region_locate(o->provider, o->region, &k->country, &k->continent);
	k->form = (int)offer_form(o);
	k->vertex = gcp_vertex_training(gcp_gpu_find(o->provider,
	    o->instance_type, o->gpu), o->region) == VERTEX_YES;
	k->search_len = offer_search_text(o, k->search, sizeof k->search);

	cost_plan(&p, o, 1);
	k->gpu_price = money_known(p.price_gpu_hour) ? p.price_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->spot_gpu = money_known(p.spot_gpu_hour) ? p.spot_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->pflop = p.usd_per_pflop_hour < SK_UNKNOWN_REAL ?
	    p.usd_per_pflop_hour : SK_UNKNOWN_REAL;
}

/* FNV-1a of len bytes of p into *h. */
static void
fnv(uint64_t *h, const char *p, size_t len)
{
	*h = str_fnv1a(*h, p, len);
}

static void
fnv_text(uint64_t *h, const char *s)
{
	fnv(h, s != NULL ? s : "", (s != NULL ? strlen(s) : 0) + 1);
}

static void
fnv_int(uint64_t *h, int64_t v)
{
	fnv(h, (const char *)&v, sizeof v);
}

static void
fnv_real(uint64_t *h, double v)
{
	fnv(h, (const char *)&v, sizeof v);
}

/*
 * What the stored sort keys and derived filter values were computed
 * with: the formula's version, the catalogue's BF16 figures ($/PFLOP-h
 * depends on them) and forms, the region tables, where Vertex AI
 * trains and the fabric table (what of it the stored fabric holds). A provider whose status row names another version has them
 * recomputed before a query relies on them (db_sort_keys_update()).
 */
const char *
db_sort_keys_version(void)
{
	static char version[32];
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	const struct region_place *pl;
	const struct fabric *fab;
	const char *p;
	size_t i, len;

	/*
	 * Each field whole, text with its NUL and numbers as their bytes:
	 * no printf (it was 1.3 million instructions of every query, 15 %
	 * of a `history`), and no buffer to cut a long field.
	 */
	if (version[0] != '\0')
		return version;
	for (i = 0; i < gpu_model_count; i++) {
		fnv_text(&h, gpu_models[i].id);
		fnv_real(&h, gpu_models[i].bf16_tflops);
		fnv_real(&h, gpu_models[i].bf16_tflops_pcie);
		fnv_text(&h, gpu_models[i].form);
		fnv_text(&h, gpu_models[i].vendor);
	}
	for (i = 0; i < region_place_count; i++) {
		pl = &region_places[i];
		fnv_text(&h, pl->provider);
		fnv_text(&h, pl->region);
		fnv_text(&h, pl->country);
		fnv_text(&h, pl->continent);
	}
	for (i = 0; i < region_country_count; i++) {
		fnv_text(&h, region_countries[i].code);
		fnv_text(&h, region_countries[i].continent);
		fnv_text(&h, region_countries[i].names);
	}
	p = gcp_vertex_table(&len);
	fnv(&h, p, len);
	for (i = 0; i < fabric_row_count; i++) {
		fab = &fabric_rows[i];
		fnv_text(&h, fab->provider);
		fnv_text(&h, fab->pattern);
		fnv_int(&h, (int64_t)fab->kind);
		fnv_int(&h, fab->node_gbps);
		fnv_int(&h, (int64_t)fab->placement);
		fnv_int(&h, fab->max_nodes);
	}
	/* Which providers keep a spot price (db_row_to_offer()). */
	for (i = 0; spot_launch_providers[i] != NULL; i++)
		fnv_text(&h, spot_launch_providers[i]);
	snprintf(version, sizeof version, "4-%016llx", (unsigned long long)h);
	return version;
}

/*
 * The row_hash of offer o of provider: every value db_bind_offer()
 * writes from it but fetched_at (a refresh moves every offer's; a
 * write sets it apart, replace_offers()), and the sort-keys version, of
 * which every other column is a function (a new version changes every
 * hash: each row is written again with its values derived anew). Text
 * with its NUL, so that fields cannot run into each other.
 */
int64_t
db_offer_row_hash(const char *provider, const struct offer *o)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	fnv_text(&h, db_sort_keys_version());
	fnv_text(&h, provider);
	fnv_text(&h, o->key);
	fnv_text(&h, o->instance_type);
	fnv_text(&h, o->region);
	fnv_text(&h, o->gpu);
	fnv_text(&h, o->gpu_raw);
	fnv_int(&h, o->gpu_count);
	fnv_int(&h, o->vram_gb);
	fnv_int(&h, (int64_t)o->interconnect);
	fnv_int(&h, o->vcpus);
	fnv_real(&h, o->ram_gb);
	fnv_int(&h, money_known(o->price) ? o->price : MONEY_NONE);
	fnv_int(&h, money_known(o->spot_price) ? o->spot_price : MONEY_NONE);
	fnv_int(&h, (int64_t)o->availability);
	fnv_int(&h, o->spot_interruption >= 0 ? o->spot_interruption : -1);
	fnv_real(&h, o->reliability >= 0 ? o->reliability : -1.0);
	fnv_int(&h, (int64_t)o->source);
	fnv_int(&h, (int64_t)o->notes);
	fnv_text(&h, o->spot_zone);
	fnv_text(&h, o->currency);
	fnv_int(&h, money_known(o->price_original) ? o->price_original :
	    MONEY_NONE);
	fnv_int(&h, o->nodes > 1 ? o->nodes : 1);
	fnv_int(&h, money_known(o->price_from) ? o->price_from : MONEY_NONE);
	return (int64_t)h;
}

/*
 * Bind one offer to the 36 placeholders of a WRITE_COLUMNS insert. A
 * value added here from the offer is added to db_offer_row_hash() too.
 */
void
db_bind_offer(sqlite3_stmt *st, const char *provider, const struct offer *in)
{
	struct sort_keys k;
	struct offer vetted = *in;
	const struct offer *o = &vetted;

	/*
	 * A spot price with no spot command is never stored (rentable.h),
	 * whoever writes: offers_vet() drops it before a refresh's write,
	 * this for every other writer, so SQL and db_row_to_offer() agree.
	 */
	vetted.provider = provider;
	offer_spot_vet(&vetted);

	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, o->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, o->instance_type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, o->region, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, o->gpu, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, o->gpu_raw, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, o->gpu_count);
	sqlite3_bind_int(st, 8, o->vram_gb);
	sqlite3_bind_text(st, 9, interconnect_name(o->interconnect), -1,
	    SQLITE_STATIC);
	sqlite3_bind_int(st, 10, o->vcpus);
	sqlite3_bind_double(st, 11, o->ram_gb);
	db_bind_money(st, 12, o->price);
	db_bind_money(st, 13, o->spot_price);
	sqlite3_bind_text(st, 14, availability_name(o->availability), -1,
	    SQLITE_STATIC);
	if (o->spot_interruption >= 0)
		sqlite3_bind_int(st, 15, o->spot_interruption);
	else
		sqlite3_bind_null(st, 15);
	if (o->reliability >= 0)
		sqlite3_bind_double(st, 16, o->reliability);
	else
		sqlite3_bind_null(st, 16);
	sqlite3_bind_int64(st, 17, o->fetched_at);
	sqlite3_bind_text(st, 18, source_name(o->source), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 19, (sqlite3_int64)o->notes);
	sqlite3_bind_text(st, 20, o->spot_zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 21, o->currency, -1, SQLITE_STATIC);
	db_bind_money(st, 22, o->price_original);
	sqlite3_bind_int(st, 23, o->nodes > 1 ? o->nodes : 1);
	db_bind_money(st, 24, o->price_from);
	offer_sort_keys(provider, o, &k);
	db_bind_sort_keys(st, 25, &k);
	sqlite3_bind_int64(st, 36, db_offer_row_hash(provider, o));
}

void
db_bind_sort_keys(sqlite3_stmt *st, int first, const struct sort_keys *k)
{
	sqlite3_bind_int64(st, first, k->gpu_price);
	sqlite3_bind_int64(st, first + 1, k->spot_gpu);
	sqlite3_bind_double(st, first + 2, k->pflop);
	sqlite3_bind_text(st, first + 3, k->continent, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, first + 4, k->country, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, first + 5, k->form);
	sqlite3_bind_int(st, first + 6, k->vertex);
	sqlite3_bind_blob(st, first + 7, k->search, (int)k->search_len,
	    SQLITE_TRANSIENT);
	sqlite3_bind_int(st, first + 8, k->fabric);
	sqlite3_bind_int(st, first + 9, k->node_gbps);
	sqlite3_bind_int(st, first + 10, k->fabric_nodes);
}
