/* snapshot.c: parse the embedded price snapshot. */
#include "config.h"
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "committed.h"
#include "err.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "rentable.h"
#include "str.h"

/*
 * The header before issue 44 ended at spot_zone; a snapshot in that form
 * (17 fields, no committed prices) still loads.
 */
#define SNAPSHOT_HEADER_17						\
	"provider\tkey\tinstance_type\tregion\tgpu\tgpu_raw\tgpu_count\t" \
	"vram_gb\tinterconnect\tvcpus\tram_gb\tprice\tspot_price\t"	\
	"availability\tas_of\tnotes\tspot_zone"
#define SNAPSHOT_HEADER	SNAPSHOT_HEADER_17 "\tcommitted"
#define SNAPSHOT_FIELDS 18

/* A field of the current line: start and length (not NUL-terminated). */
struct field {
	const char	*p;
	size_t		 len;
};

/* Copy a field into a fixed buffer, sanitised. */
static void
field_copy(char *dst, size_t size, const struct field *f)
{
	str_sanitize(dst, size, f->p, f->len);
}

/* Parse a non-negative integer field; empty gives 0. */
static int
field_int(const struct field *f, int max, int *out)
{
	long v = 0;
	size_t i;

	for (i = 0; i < f->len; i++) {
		if (f->p[i] < '0' || f->p[i] > '9')
			return -1;
		v = v * 10 + (f->p[i] - '0');
		if (v > max)
			return -1;
	}
	*out = (int)v;
	return 0;
}

static int
field_double(const struct field *f, double *out)
{
	char buf[32], *end;

	if (f->len == 0) {
		*out = 0;
		return 0;
	}
	if (f->len >= sizeof buf)
		return -1;
	memcpy(buf, f->p, f->len);
	buf[f->len] = '\0';
	*out = strtod(buf, &end);
	return *end == '\0' && *out >= 0 ? 0 : -1;
}

static int
field_money(const struct field *f, int64_t *out)
{
	if (f->len == 0) {
		*out = MONEY_NONE;
		return 0;
	}
	return money_parse(f->p, f->len, out);
}

/* YYYY-MM-DD as midnight UTC. */
static int
field_date(const struct field *f, int64_t *out)
{
	struct tm tm, want;
	char buf[16], *end;
	time_t t;

	if (f->len != 10)
		return -1;
	memcpy(buf, f->p, 10);
	buf[10] = '\0';
	memset(&tm, 0, sizeof tm);
	end = strptime(buf, "%Y-%m-%d", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	want = tm;
	t = timegm(&tm);
	/* timegm() normalises 2026-02-30 to March 2: refuse such dates. */
	if (gmtime_r(&t, &tm) == NULL || tm.tm_year != want.tm_year ||
	    tm.tm_mon != want.tm_mon || tm.tm_mday != want.tm_mday)
		return -1;
	*out = (int64_t)t;
	return 0;
}

/* Set a text of o from a field (cut at the setter's limit). */
static void
field_set(struct offer_list *list, struct offer *o, offer_setter *set,
    const struct field *f)
{
	char buf[OFFER_KEY_MAX];	/* the longest field's */

	field_copy(buf, offer_setter_max(set), f);
	set(list, o, buf);
}

/*
 * The committed column: entries "kind:term:upfront:price_hour" or
 * "...:price_hour:upfront_usd" joined with ';' ("commitment:1y:none:
 * 61.384"), prices in USD, price_hour the effective price per instance-
 * hour (committed.h). -1 on anything else or more than the offer holds.
 */
static int
field_committed(struct offer_list *list, struct offer *o,
    const struct field *f)
{
	char entry[128], *part[6], *save = NULL, *tok;
	const char *p = f->p, *end = f->p + f->len, *semi;
	enum committed_kind kind;
	enum committed_upfront up;
	int64_t hour, upfront;
	size_t n, len;
	int months;

	while (p < end) {
		semi = memchr(p, ';', (size_t)(end - p));
		len = (size_t)((semi != NULL ? semi : end) - p);
		/* No empty entry, and no ';' ending the column. */
		if (len == 0 || len >= sizeof entry ||
		    (semi != NULL && semi + 1 == end))
			return -1;
		memcpy(entry, p, len);
		entry[len] = '\0';
		n = 0;
		for (tok = strtok_r(entry, ":", &save); tok != NULL && n < 6;
		    tok = strtok_r(NULL, ":", &save))
			part[n++] = tok;
		upfront = 0;
		if ((n != 4 && n != 5) ||
		    committed_kind_parse(part[0], &kind) < 0 ||
		    committed_term_parse(part[1], &months) < 0 ||
		    months == TERM_ANY ||
		    committed_upfront_parse(part[2], &up) < 0 ||
		    money_parse(part[3], strlen(part[3]), &hour) < 0 ||
		    (n == 5 && money_parse(part[4], strlen(part[4]),
		    &upfront) < 0) ||
		    offer_add_committed(list, o, kind, months, up, hour,
		    upfront) < 0)
			return -1;
		p += len + (semi != NULL);
	}
	(void)offer_prune_committed(list, o);
	return 0;
}

/* Fill the offer from one line's fields; -1 with the column in err. */
static int
parse_row(const struct field *fl, size_t nf, struct offer_list *list,
    struct offer *o, struct err *err)
{
	static const char *const names[SNAPSHOT_FIELDS] = {
		"provider", "key", "instance_type", "region", "gpu", "gpu_raw",
		"gpu_count", "vram_gb", "interconnect", "vcpus", "ram_gb",
		"price", "spot_price", "availability", "as_of", "notes",
		"spot_zone", "committed"
	};
	char buf[16], shown[48];
	const char *badp;
	size_t badlen;
	int bad = -1;

	field_set(list, o, offer_set_provider, &fl[0]);
	field_set(list, o, offer_set_key, &fl[1]);
	field_set(list, o, offer_set_instance_type, &fl[2]);
	field_set(list, o, offer_set_region, &fl[3]);
	field_set(list, o, offer_set_gpu, &fl[4]);
	field_set(list, o, offer_set_gpu_raw, &fl[5]);
	field_set(list, o, offer_set_spot_zone, &fl[16]);
	if (field_int(&fl[6], 1000000, &o->gpu_count) < 0)
		bad = 6;
	else if (field_int(&fl[7], 100000, &o->vram_gb) < 0)
		bad = 7;
	else if (field_copy(buf, sizeof buf, &fl[8]),
	    interconnect_parse(buf, &o->interconnect) < 0)
		bad = 8;
	else if (field_int(&fl[9], 1000000, &o->vcpus) < 0)
		bad = 9;
	else if (field_double(&fl[10], &o->ram_gb) < 0)
		bad = 10;
	else if (field_money(&fl[11], &o->price) < 0)
		bad = 11;
	else if (field_money(&fl[12], &o->spot_price) < 0)
		bad = 12;
	else if (field_copy(buf, sizeof buf, &fl[13]),
	    availability_parse(buf, &o->availability) < 0)
		bad = 13;
	else if (field_date(&fl[14], &o->fetched_at) < 0)
		bad = 14;
	else if (notes_parse(fl[15].p, fl[15].len, ';', &o->notes, &badp,
	    &badlen) < 0)
		bad = 15;
	else if (nf > 17 && field_committed(list, o, &fl[17]) < 0)
		bad = 17;
	if (bad >= 0) {
		/* Sanitised: the message may reach a terminal. */
		str_sanitize(shown, sizeof shown, fl[bad].p,
		    fl[bad].len > 40 ? 40 : fl[bad].len);
		err_set(err, "%s: bad value \"%s\"", names[bad], shown);
		return -1;
	}
	if (o->gpu[0] != '\0' && gpu_find(o->gpu) == NULL) {
		err_set(err, "gpu: \"%s\" is not in the GPU catalogue", o->gpu);
		return -1;
	}
	o->source = SRC_SNAPSHOT;
	return offer_check(o, err);
}

int
snapshot_parse(const char *text, size_t len, const char *name,
    const char *provider, struct offer_list *out, struct err *err)
{
	struct field fl[SNAPSHOT_FIELDS];
	const char *line = text, *end = text + len, *eol, *p;
	size_t nf, lineno = 0, plen = provider != NULL ? strlen(provider) : 0;
	size_t want = 0;	/* fields per row, from the header */
	struct offer *o;

	while (line < end) {
		lineno++;
		eol = memchr(line, '\n', (size_t)(end - line));
		if (eol == NULL)
			eol = end;
		if (line == eol || line[0] == '#') {
			line = eol + 1;
			continue;
		}
		if (want == 0) {
			if ((size_t)(eol - line) == strlen(SNAPSHOT_HEADER) &&
			    memcmp(line, SNAPSHOT_HEADER, (size_t)(eol - line)) == 0)
				want = SNAPSHOT_FIELDS;
			else if ((size_t)(eol - line) ==
			    strlen(SNAPSHOT_HEADER_17) && memcmp(line,
			    SNAPSHOT_HEADER_17, (size_t)(eol - line)) == 0)
				want = SNAPSHOT_FIELDS - 1;
			else {
				err_set(err, "%s:%zu: not a gpucost snapshot header",
				    name, lineno);
				return -1;
			}
			line = eol + 1;
			continue;
		}
		/* Skip other providers' rows before splitting them. */
		if (provider != NULL && ((size_t)(eol - line) <= plen ||
		    memcmp(line, provider, plen) != 0 || line[plen] != '\t')) {
			line = eol + 1;
			continue;
		}
		nf = 0;
		for (p = line; nf < want; ) {
			const char *tab = memchr(p, '\t', (size_t)(eol - p));

			fl[nf].p = p;
			fl[nf].len = (size_t)((tab != NULL ? tab : eol) - p);
			nf++;
			if (tab == NULL)
				break;
			p = tab + 1;
			if (nf == want) {
				nf++;	/* too many fields */
				break;
			}
		}
		if (nf != want) {
			err_set(err, "%s:%zu: expected %zu tab-separated fields",
			    name, lineno, want);
			return -1;
		}
		o = offer_list_add(out);
		if (parse_row(fl, nf, out, o, err) < 0) {
			offer_list_pop(out);
			err_prefix(err, "%s:%zu", name, lineno);
			return -1;
		}
		line = eol + 1;
	}
	if (want == 0) {
		err_set(err, "%s: empty snapshot", name);
		return -1;
	}
	return 0;
}

int
snapshot_load(const char *provider, struct offer_list *out, struct err *err)
{
	if (snapshot_parse(snapshot_tsv, snapshot_tsv_len, "snapshot.tsv",
	    provider, out, err) < 0)
		return -1;
	/* As a refresh does: what can be rented, then outliers over each
	 * provider's whole set. */
	out->n = offers_vet(out->v, out->n);
	notes_mark(out->v, out->n);
	return 0;
}
