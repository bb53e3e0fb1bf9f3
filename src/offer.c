/* offer.c: offer records, lists, filters and sorting. */
#include "config.h"
#include "offer.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "err.h"
#include "gcp_catalog.h"
#include "money.h"
#include "note_info.h"
#include "region.h"
#include "rentable.h"
#include "str.h"
#include "xalloc.h"

void
offer_init(struct offer *o)
{
	memset(o, 0, sizeof *o);
	o->provider = o->key = o->instance_type = o->region = o->gpu =
	    o->gpu_raw = o->spot_zone = "";
	o->price = MONEY_NONE;
	o->spot_price = MONEY_NONE;
	o->spot_interruption = -1;
	o->reliability = -1;
	memcpy(o->currency, "USD", sizeof o->currency);
	o->price_original = MONEY_NONE;
	o->price_from = MONEY_NONE;
	o->nodes = 1;
}

void
offer_set_fabric(struct offer *o)
{
	o->fabric = fabric_find(o->provider, o->instance_type);
}

enum fabric_kind
offer_fabric_kind(const struct offer *o)
{
	return o->fabric != NULL ? o->fabric->kind : FABRIC_UNKNOWN;
}

int
offer_node_gbps(const struct offer *o)
{
	return o->fabric != NULL ? o->fabric->node_gbps : 0;
}

/*
 * An offer list's text: strings and committed prices in chunks that
 * only grow (each string is written once and never moved, so offers
 * point into them), freed together. Chunks double from TEXT_CHUNK_MIN
 * to TEXT_CHUNK_MAX, so a million offers cost a few dozen allocations.
 */
#define TEXT_CHUNK_MIN	4096
#define TEXT_CHUNK_MAX	(1024 * 1024)
#define TEXT_SLOTS	256	/* recent values, by hash: stored once */

struct text_chunk {
	struct text_chunk *prev;	/* the older chunk; owned */
	size_t	 size;
	size_t	 used;
	char	 data[];		/* starts 8-byte aligned */
};

struct offer_text {
	struct text_chunk *chunk;	/* the newest; owns the chain */
	/*
	 * Where the last added offer's text began: offer_list_pop() gives
	 * it back, unless a setter has since written for another offer
	 * (whose text would be lost with it): then mark_ok is false.
	 */
	struct text_chunk *mark_chunk;
	size_t	 mark_used;
	size_t	 mark_index;
	bool	 mark_ok;
	/* Values seen lately (regions, types, GPUs), each stored once. */
	const char *seen[TEXT_SLOTS];
};

static void
text_free(struct offer_text *t)
{
	struct text_chunk *c, *prev;

	if (t == NULL)
		return;
	for (c = t->chunk; c != NULL; c = prev) {
		prev = c->prev;
		free(c);
	}
	free(t);
}

/* n bytes (8-byte aligned) of list's text storage. */
static void *
text_alloc(struct offer_list *list, size_t n)
{
	struct offer_text *t;
	struct text_chunk *c;
	size_t size, at;

	if ((t = list->text) == NULL)
		t = list->text = xcalloc(1, sizeof *t);
	c = t->chunk;
	at = c != NULL ? (c->used + 7) & ~(size_t)7 : 0;
	if (c == NULL || n > c->size - at || at > c->size) {
		size = c == NULL ? TEXT_CHUNK_MIN : c->size * 2;
		if (size > TEXT_CHUNK_MAX)
			size = TEXT_CHUNK_MAX;
		if (size < n)
			size = n;
		c = xmalloc(sizeof *c + size);
		c->prev = t->chunk;
		c->size = size;
		at = c->used = 0;
		t->chunk = c;
	}
	c->used = at + n;
	return c->data + at;
}

/* Is p in text written since the mark (c: the mark's chunk)? */
static bool
text_after_mark(const struct offer_text *t, const char *p)
{
	const struct text_chunk *c;
	uintptr_t u = (uintptr_t)p, base;

	for (c = t->chunk; c != NULL; c = c->prev) {
		base = (uintptr_t)c->data;
		if (u >= base && u < base + c->size)
			return c != t->mark_chunk ||
			    u >= base + t->mark_used;
		if (c == t->mark_chunk)
			break;
	}
	return false;
}

/* Give back the text written since the mark (offer_list_pop()). */
static void
text_rollback(struct offer_text *t)
{
	struct text_chunk *c;
	size_t i;

	for (i = 0; i < TEXT_SLOTS; i++)
		if (t->seen[i] != NULL && text_after_mark(t, t->seen[i]))
			t->seen[i] = NULL;
	while ((c = t->chunk) != t->mark_chunk && c != NULL) {
		t->chunk = c->prev;
		free(c);
	}
	if (t->chunk != NULL)
		t->chunk->used = t->mark_used;
	t->mark_ok = false;
}

/* A new offer at index i: its text starts here. */
static void
text_mark(struct offer_list *list, size_t i)
{
	struct offer_text *t = list->text;

	if (t == NULL)
		return;		/* nothing written yet: nothing to give back */
	t->mark_chunk = t->chunk;
	t->mark_used = t->chunk != NULL ? t->chunk->used : 0;
	t->mark_index = i;
	t->mark_ok = true;
}

/*
 * *field = s in list's storage, cut at max bytes with the NUL (never
 * inside a UTF-8 character); a value seen lately is shared.
 */
static void
text_set(struct offer_list *list, struct offer *o, const char **field,
    size_t max, const char *s, bool shared)
{
	struct offer_text *t;
	uint32_t h = 2166136261u;
	size_t len, i;
	char *p;

	len = strnlen(s, max);
	if (len == max) {
		len = max - 1;
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	if (len == 0) {
		*field = "";
		return;
	}
	if ((t = list->text) == NULL)
		t = list->text = xcalloc(1, sizeof *t);
	if (t->mark_ok && (list->n == 0 || o != &list->v[t->mark_index]))
		t->mark_ok = false;
	if (shared) {
		for (i = 0; i < len; i++)
			h = (h ^ (unsigned char)s[i]) * 16777619u;
		h &= TEXT_SLOTS - 1;
		if (t->seen[h] != NULL && strncmp(t->seen[h], s, len) == 0 &&
		    t->seen[h][len] == '\0') {
			*field = t->seen[h];
			return;
		}
	}
	p = text_alloc(list, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	if (shared)
		t->seen[h] = p;
	*field = p;
}

void
offer_set_provider(struct offer_list *list, struct offer *o, const char *s)
{
	text_set(list, o, &o->provider, OFFER_PROVIDER_MAX, s, true);
}

void
offer_set_key(struct offer_list *list, struct offer *o, const char *s)
{
	text_set(list, o, &o->key, OFFER_KEY_MAX, s, false);
}

void
offer_set_keyf(struct offer_list *list, struct offer *o, const char *fmt, ...)
{
	char buf[OFFER_KEY_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	text_set(list, o, &o->key, OFFER_KEY_MAX, buf, false);
}

void
offer_set_instance_type(struct offer_list *list, struct offer *o,
    const char *s)
{
	text_set(list, o, &o->instance_type, OFFER_NAME_MAX, s, true);
}

bool
offer_region_char_ok(unsigned char c)
{
	/* Letters (UTF-8's bytes too: "Zürich, CH"), digits, and the marks
	 * providers' region names use; nothing a shell reads as syntax or a
	 * glob. */
	return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' &&
	    c <= 'Z') || (c >= '0' && c <= '9') || strchr(" -_.,()/:", c) != NULL;
}

void
offer_set_region(struct offer_list *list, struct offer *o, const char *s)
{
	char clean[OFFER_NAME_MAX + 1];
	size_t i;

	/* Any other character becomes '_' (offer_region_char_ok()); the
	 * cut at OFFER_NAME_MAX is text_set()'s, never inside a character. */
	for (i = 0; s[i] != '\0' && i + 1 < sizeof clean; i++)
		clean[i] = offer_region_char_ok((unsigned char)s[i]) ? s[i] :
		    '_';
	clean[i] = '\0';
	text_set(list, o, &o->region, OFFER_NAME_MAX, clean, true);
}

void
offer_set_gpu(struct offer_list *list, struct offer *o, const char *s)
{
	text_set(list, o, &o->gpu, OFFER_GPU_MAX, s, true);
}

void
offer_set_gpu_raw(struct offer_list *list, struct offer *o, const char *s)
{
	text_set(list, o, &o->gpu_raw, OFFER_NAME_MAX, s, true);
}

void
offer_set_spot_zone(struct offer_list *list, struct offer *o, const char *s)
{
	text_set(list, o, &o->spot_zone, OFFER_NAME_MAX, s, true);
}

size_t
offer_setter_max(offer_setter *set)
{
	if (set == offer_set_key)
		return OFFER_KEY_MAX;
	if (set == offer_set_provider)
		return OFFER_PROVIDER_MAX;
	if (set == offer_set_gpu)
		return OFFER_GPU_MAX;
	return OFFER_NAME_MAX;
}

void
offer_set_committed(struct offer_list *list, struct offer *o,
    const struct committed *c, size_t n)
{
	struct committed *v;
	struct offer_text *t;

	if (n > OFFER_COMMITTED_MAX)
		n = OFFER_COMMITTED_MAX;
	o->ncommitted = (uint8_t)n;
	if (n == 0) {
		o->committed = NULL;
		return;
	}
	if ((t = list->text) == NULL)
		t = list->text = xcalloc(1, sizeof *t);
	if (t->mark_ok && (list->n == 0 || o != &list->v[t->mark_index]))
		t->mark_ok = false;
	v = text_alloc(list, n * sizeof *v);
	memcpy(v, c, n * sizeof *v);
	o->committed = v;
}

int
offer_add_committed(struct offer_list *list, struct offer *o,
    enum committed_kind kind, int months, enum committed_upfront up,
    int64_t price_hour, int64_t upfront)
{
	struct committed c[OFFER_COMMITTED_MAX];
	uint8_t n = o->ncommitted;

	if (n > 0)
		memcpy(c, o->committed, n * sizeof *c);
	if (committed_add(c, &n, kind, months, up, price_hour, upfront) < 0)
		return -1;
	offer_set_committed(list, o, c, n);
	return 0;
}

size_t
offer_prune_committed(struct offer_list *list, struct offer *o)
{
	struct committed c[OFFER_COMMITTED_MAX];
	uint8_t n = o->ncommitted;
	size_t dropped;

	if (n == 0)
		return 0;
	memcpy(c, o->committed, n * sizeof *c);
	dropped = committed_prune(c, &n, o->price);	/* and sorts */
	offer_set_committed(list, o, c, n);
	return dropped;
}

void
offer_list_init(struct offer_list *list)
{
	list->v = NULL;
	list->n = list->cap = 0;
	list->text = NULL;
}

void
offer_list_done(struct offer_list *list)
{
	free(list->v);
	text_free(list->text);
	offer_list_init(list);
}

void
offer_list_clear(struct offer_list *list)
{
	list->n = 0;
	text_free(list->text);
	list->text = NULL;
}

struct offer *
offer_list_try_add(struct offer_list *list)
{
	struct offer *v;
	size_t cap;

	if (list->n == list->cap) {
		cap = list->cap == 0 ? 64 : list->cap * 2;
		if (cap > SIZE_MAX / sizeof *v ||
		    (v = realloc(list->v, cap * sizeof *v)) == NULL)
			return NULL;
		list->v = v;
		list->cap = cap;
	}
	offer_init(&list->v[list->n]);
	text_mark(list, list->n);
	return &list->v[list->n++];
}

struct offer *
offer_list_add(struct offer_list *list)
{
	if (list->n == list->cap) {
		list->cap = list->cap == 0 ? 64 : list->cap * 2;
		list->v = xreallocarray(list->v, list->cap, sizeof *list->v);
	}
	offer_init(&list->v[list->n]);
	text_mark(list, list->n);
	return &list->v[list->n++];
}

struct offer *
offer_list_add_copy(struct offer_list *dst, const struct offer *src)
{
	struct offer from = *src, *o;	/* src may move as dst grows */

	o = offer_list_add(dst);
	*o = from;
	offer_set_provider(dst, o, from.provider);
	offer_set_key(dst, o, from.key);
	offer_set_instance_type(dst, o, from.instance_type);
	offer_set_region(dst, o, from.region);
	offer_set_gpu(dst, o, from.gpu);
	offer_set_gpu_raw(dst, o, from.gpu_raw);
	offer_set_spot_zone(dst, o, from.spot_zone);
	offer_set_committed(dst, o, from.committed, from.ncommitted);
	return o;
}

void
offer_list_reserve(struct offer_list *list, size_t n)
{
	if (n <= list->cap)
		return;
	list->cap = n;
	list->v = xreallocarray(list->v, list->cap, sizeof *list->v);
	xalloc_large_hint(list->v, list->cap * sizeof *list->v);
}

void
offer_list_pop(struct offer_list *list)
{
	struct offer_text *t = list->text;

	if (list->n == 0)
		return;
	list->n--;
	if (t != NULL && t->mark_ok && t->mark_index == list->n)
		text_rollback(t);
}

static const char *const interconnect_names[] = { "unknown", "pcie", "nvlink" };
static const char *const availability_names[] = {
	"unknown", "available", "limited", "unavailable"
};
static const char *const source_names[] = { "snapshot", "live" };
static const char *const interruption_names[] = {
	"<5%", "5-10%", "10-15%", "15-20%", ">20%"
};

const char *
interconnect_name(enum interconnect ic)
{
	return (unsigned)ic < 3 ? interconnect_names[ic] : "unknown";
}

int
interconnect_parse(const char *s, enum interconnect *out)
{
	unsigned i;

	/* The names as written (every cache row): no case folding. */
	for (i = 0; i < 3; i++)
		if (strcmp(s, interconnect_names[i]) == 0) {
			*out = (enum interconnect)i;
			return 0;
		}
	for (i = 0; i < 3; i++)
		if (str_eq_nocase(s, interconnect_names[i])) {
			*out = (enum interconnect)i;
			return 0;
		}
	return -1;
}

const char *
availability_name(enum availability av)
{
	return (unsigned)av < 4 ? availability_names[av] : "unknown";
}

int
availability_parse(const char *s, enum availability *out)
{
	unsigned i;

	/* The names as written (every cache row): no case folding. */
	for (i = 0; i < 4; i++)
		if (strcmp(s, availability_names[i]) == 0) {
			*out = (enum availability)i;
			return 0;
		}
	for (i = 0; i < 4; i++)
		if (str_eq_nocase(s, availability_names[i])) {
			*out = (enum availability)i;
			return 0;
		}
	return -1;
}

const char *
source_name(enum offer_source src)
{
	return (unsigned)src < 2 ? source_names[src] : "snapshot";
}

const char *
spot_interruption_name(int bucket)
{
	if (bucket < 0 || bucket > 4)
		return NULL;
	return interruption_names[bucket];
}

/* Check one price field against the sanity limits. */
static int
check_price(const struct offer *o, int64_t price, const char *field,
    struct err *err)
{
	char buf[32];

	if (!money_known(price))
		return 0;
	if (price <= 0 || price > OFFER_PRICE_MAX) {
		money_format(buf, sizeof buf, price, 2);
		err_set(err, "%s: %s: %s USD/h is out of range (0, %d]",
		    o->key, field, buf, OFFER_PRICE_MAX_USD);
		return -1;
	}
	return 0;
}

/* The committed prices are in range: a term, a kind, a price. */
static int
offer_check_committed(const struct offer *o, struct err *err)
{
	const struct committed *c;
	size_t i;

	if (o->ncommitted > OFFER_COMMITTED_MAX) {
		err_set(err, "%s: %u committed prices, at most %d", o->key,
		    (unsigned)o->ncommitted, OFFER_COMMITTED_MAX);
		return -1;
	}
	for (i = 0; i < o->ncommitted; i++) {
		c = &o->committed[i];
		if (c->kind >= CK_COUNT || c->upfront_kind >= CU_COUNT ||
		    c->months < 1 || c->months > COMMITTED_MONTHS_MAX) {
			err_set(err, "%s: committed price %zu: bad kind or "
			    "term", o->key, i + 1);
			return -1;
		}
		if (c->price_hour <= 0 || c->price_hour > OFFER_PRICE_MAX ||
		    c->upfront < 0 || c->upfront > MONEY_MAX) {
			err_set(err, "%s: committed price %zu: %.2f USD/h is "
			    "out of range 0..%d", o->key, i + 1,
			    (double)c->price_hour / MONEY_UNIT,
			    OFFER_PRICE_MAX_USD);
			return -1;
		}
	}
	return 0;
}

/* Is every text within its OFFER_*_MAX (the setters' cut)? */
static int
offer_check_text(const struct offer *o, struct err *err)
{
	const struct {
		const char	*name;
		const char	*s;
		size_t		 max;
	} f[] = {
		{ "provider", o->provider, OFFER_PROVIDER_MAX },
		{ "key", o->key, OFFER_KEY_MAX },
		{ "instance_type", o->instance_type, OFFER_NAME_MAX },
		{ "region", o->region, OFFER_NAME_MAX },
		{ "gpu", o->gpu, OFFER_GPU_MAX },
		{ "gpu_raw", o->gpu_raw, OFFER_NAME_MAX },
		{ "spot_zone", o->spot_zone, OFFER_NAME_MAX },
	};
	size_t i;

	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		if (strnlen(f[i].s, f[i].max) == f[i].max) {
			err_set(err, "%.40s: %s longer than %zu bytes",
			    i == 1 ? "offer" : o->key, f[i].name,
			    f[i].max - 1);
			return -1;
		}
	/* A region name holds what providers' region names hold. */
	for (i = 0; o->region[i] != '\0'; i++)
		if (!offer_region_char_ok((unsigned char)o->region[i])) {
			err_set(err, "%.40s: region holds a '%c', which no "
			    "region name has", o->key, o->region[i]);
			return -1;
		}
	return 0;
}

int
offer_check(const struct offer *o, struct err *err)
{
	if (offer_check_text(o, err) < 0)
		return -1;
	if (o->key[0] == '\0') {
		err_set(err, "offer without a key (instance %s)",
		    o->instance_type);
		return -1;
	}
	if (o->instance_type[0] == '\0') {
		err_set(err, "%s: empty instance type", o->key);
		return -1;
	}
	if (o->region[0] == '\0') {
		err_set(err, "%s: empty region", o->key);
		return -1;
	}
	if (o->gpu[0] == '\0' && o->gpu_raw[0] == '\0') {
		err_set(err, "%s: empty GPU name", o->key);
		return -1;
	}
	if (o->gpu_count < 1 || o->gpu_count > OFFER_GPU_COUNT_MAX) {
		err_set(err, "%s: gpu_count %d is out of range 1..%d", o->key,
		    o->gpu_count, OFFER_GPU_COUNT_MAX);
		return -1;
	}
	if (o->nodes < 1 || o->nodes > OFFER_NODES_MAX) {
		err_set(err, "%s: nodes %d is out of range 1..%d", o->key,
		    o->nodes, OFFER_NODES_MAX);
		return -1;
	}
	if (o->vram_gb < 0 || o->vram_gb > OFFER_VRAM_MAX) {
		err_set(err, "%s: vram_gb %d is out of range 0..%d", o->key,
		    o->vram_gb, OFFER_VRAM_MAX);
		return -1;
	}
	if (o->vcpus < 0 || o->vcpus > OFFER_VCPUS_MAX ||
	    !isfinite(o->ram_gb) || o->ram_gb < 0 ||
	    o->ram_gb > OFFER_RAM_MAX) {
		err_set(err, "%s: vcpus/ram out of range", o->key);
		return -1;
	}
	if (check_price(o, o->price, "price", err) < 0 ||
	    check_price(o, o->spot_price, "spot price", err) < 0)
		return -1;
	if (!money_known(o->price) && !money_known(o->spot_price) &&
	    (o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND)) == 0) {
		err_set(err, "%s: neither an on-demand nor a spot price", o->key);
		return -1;
	}
	/* What a market price starts from is a price at or below it. */
	if (money_known(o->price_from) && (o->price_from <= 0 ||
	    !money_known(o->price) || o->price_from > o->price)) {
		err_set(err, "%s: price_from is not in (0, price]", o->key);
		return -1;
	}
	return offer_check_committed(o, err);
}

void
offer_filter_init(struct offer_filter *f)
{
	memset(f, 0, sizeof *f);
	f->max_price_gpu_hour = MONEY_NONE;
	train_init(&f->train);
}

/* c in lowercase if it is an ASCII capital; any other byte as it is. */
static unsigned char
fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/*
 * Does s hold word (n > 0 bytes, already folded), ASCII case ignored?
 * The TUI tests five names of every offer against the text filter at
 * each keystroke: an inline fold instead of str_find_nocase()'s two
 * tolower() calls per byte made that four times faster. Bytes of UTF-8
 * text compare as they are, as tolower() leaves them in a UTF-8 locale.
 */
static bool
has_folded(const char *s, const char *word, size_t n)
{
	size_t i;

	for (; *s != '\0'; s++) {
		if (fold((unsigned char)*s) != (unsigned char)word[0])
			continue;
		for (i = 1; i < n && fold((unsigned char)s[i]) ==
		    (unsigned char)word[i]; i++)
			;
		if (i == n)
			return true;
	}
	return false;
}

/*
 * "sxm" or "pcie" (a folded word) also matches an offer of that board form
 * whose names do not say it: AWS p5, GCP a3 and Azure ND are SXM boards.
 */
enum gpu_form
offer_form_word(const char *word)
{
	if (strncmp(word, "sxm", 3) == 0 && (word[3] == '\0' ||
	    (word[3] >= '2' && word[3] <= '6' && word[4] == '\0')))
		return GPU_FORM_SXM;
	if (strcmp(word, "pcie") == 0)
		return GPU_FORM_PCIE;
	return GPU_FORM_ANY;
}

const char *
offer_text_word(const char *p, char *word, size_t size, size_t *len)
{
	size_t n, i;

	while (*p == ' ')
		p++;
	if (*p == '\0' || size == 0)
		return NULL;
	for (n = 0; p[n] != '\0' && p[n] != ' '; n++)
		;
	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++)
		word[i] = (char)fold((unsigned char)p[i]);
	word[n] = '\0';
	*len = n;
	/* A cut word goes on after its cut, as the text does. */
	return p + n;
}

/* Append s folded to buf (size bytes, length *len), then a space. */
static void
search_add(char *buf, size_t size, size_t *len, const char *s)
{
	for (; *s != '\0' && *len + 2 < size; s++)
		buf[(*len)++] = (char)fold((unsigned char)*s);
	if (*len + 1 < size)
		buf[(*len)++] = ' ';
	buf[*len] = '\0';
}

size_t
offer_search_text(const struct offer *o, char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	search_add(buf, size, &len, o->gpu);
	search_add(buf, size, &len, o->gpu_raw);
	search_add(buf, size, &len, o->provider);
	search_add(buf, size, &len, o->instance_type);
	search_add(buf, size, &len, o->region);
	return len;
}

/*
 * Every whitespace-separated word of text is in one of the offer's names.
 * tui/model.c keeps these five names folded for its keystrokes: a name
 * added here goes into its names_build() too (test_tui_logic checks).
 */
static bool
text_matches(const char *text, const struct offer *o)
{
	char word[OFFER_NAME_MAX];
	enum gpu_form form;
	const char *p = text;
	size_t n;

	while ((p = offer_text_word(p, word, sizeof word, &n)) != NULL) {
		if (has_folded(o->gpu, word, n) ||
		    has_folded(o->gpu_raw, word, n) ||
		    has_folded(o->provider, word, n) ||
		    has_folded(o->instance_type, word, n) ||
		    has_folded(o->region, word, n))
			continue;
		form = offer_form_word(word);
		if (form == GPU_FORM_ANY || offer_form(o) != form)
			return false;
	}
	return true;
}

bool
offer_retired(const struct offer *o)
{
	return retired_size(o->provider, o->instance_type) != NULL;
}

bool
offer_spot_current(const struct offer_filter *f, const struct offer *o)
{
	return money_known(o->spot_price) && (f->include_stale ||
	    !rentable_spot_stale(o->fetched_at, f->now));
}

void
plan_spot_rule(struct plan *p, const struct offer_filter *f)
{
	if (!money_known(p->offer->spot_price) || offer_spot_current(f,
	    p->offer))
		return;
	p->spot_hour = p->spot_gpu_hour = MONEY_NONE;
	p->spot_savings_pct = NAN;
}

bool
offer_market_reference(const struct offer *o, int64_t now)
{
	return rentable_market_reference(o->notes, o->fetched_at, now);
}

int
offer_host_bounds(struct offer *o)
{
	int dropped = 0;

	if (o->gpu_count <= 0)
		return 0;
	if (o->vcpus > (double)RENTABLE_VCPUS_PER_GPU_MAX * o->gpu_count) {
		o->vcpus = 0;
		dropped |= 1;
	}
	if (o->ram_gb > (double)RENTABLE_RAM_GB_PER_GPU_MAX * o->gpu_count) {
		o->ram_gb = 0;
		dropped |= 2;
	}
	return dropped;
}

bool
offer_spot_vet(struct offer *o)
{
	if (!money_known(o->spot_price) || rentable_spot_launch(o->provider))
		return false;
	/* Sold only at that price: what it is sold as is no offer at all
	 * (offers_vet() drops it), but an older cache's row keeps it. */
	if (!money_known(o->price))
		return false;
	o->spot_price = MONEY_NONE;
	o->spot_zone = "";
	o->spot_interruption = -1;
	o->notes &= ~(NOTE_BIT(NOTE_SPOT_CHEAPEST_ZONE) |
	    NOTE_BIT(NOTE_SPOT_NOT_CHEAPER));
	return true;
}

size_t
offers_vet(struct offer *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (offer_retired(&v[i]))
			continue;
		/* A spot price with no command, and no on-demand price. */
		if (!money_known(v[i].price) && money_known(v[i].spot_price) &&
		    !rentable_spot_launch(v[i].provider))
			continue;
		offer_host_bounds(&v[i]);
		offer_spot_vet(&v[i]);
		if (k != i)
			v[k] = v[i];
		k++;
	}
	return k;
}

/*
 * The rentable.h rules as a filter: retired sizes never; a market
 * reference only when asked for (include_stale), and only it with
 * only_stale.
 */
static bool
offer_rentable_matches(const struct offer_filter *f, const struct offer *o)
{
	bool ref = f->now > 0 && offer_market_reference(o, f->now);

	if (offer_retired(o))
		return false;
	if (f->only_stale)
		return ref;
	return !ref || f->include_stale;
}

/*
 * Can k instances of o (one type, one region) be one job's nodes? They
 * must be rentable more than once, be placed together on a fabric a
 * trainer would accept and, unless asked for, not be a swarm of small
 * nodes (16 one-GPU VMs): see offer_matches().
 */
static bool
assembled_ok(const struct offer_filter *f, const struct offer *o, int k)
{
	const struct fabric *fab = o->fabric;
	bool any = (f->fabrics & FABRIC_ANY) != 0;

	/* One marketplace machine cannot be rented k times. */
	if ((o->notes & NOTE_BIT(NOTE_SINGLE_LISTING)) != 0)
		return false;
	if (any)
		return true;
	if (f->fabrics == 0 && !fabric_set_has(FABRIC_TRAINING,
	    offer_fabric_kind(o)))
		return false;
	/* At most 4 nodes per 8 GPUs asked (or taken to hold --train's
	 * run), unless --nodes says. */
	if (f->nodes == 0 && 2 * k > (f->count > 0 ? f->count :
	    k * o->gpu_count))
		return false;
	if (fab != NULL && (fab->placement == PLACE_NONE ||
	    (fab->max_nodes > 0 && k > fab->max_nodes)))
		return false;
	return true;
}

double
plan_vram_gb(const struct offer *o, int nodes)
{
	const struct gpu_model *m;
	int per_gpu = o->vram_gb;

	if (per_gpu <= 0 && o->gpu[0] != '\0' && (m = gpu_find(o->gpu)) != NULL)
		per_gpu = m->vram_gb;
	return (double)per_gpu * o->gpu_count * nodes;
}

/*
 * --train: can k nodes of o hold the run's training state? Without
 * --count and --nodes, *k becomes the fewest nodes that can (one
 * machine first; several only where they may be assembled).
 */
static bool
plan_holds(const struct offer_filter *f, const struct offer *o, int *k)
{
	double need, node = plan_vram_gb(o, 1);

	if (!train_given(&f->train))
		return true;
	if (f->count <= 0 && f->nodes <= 0 && o->nodes <= 1 && node > 0) {
		need = train_memory_gb(&f->train);
		if (need > node * OFFER_NODES_MAX)
			return false;
		*k = (int)ceil(need / node);
		if (*k < 1)
			*k = 1;
		if (*k > 1 && !assembled_ok(f, o, *k))
			return false;
	}
	return train_fits(&f->train, node * *k);
}

/* The nodes of o's plan for f into *k; false when o gives none. */
static bool
plan_nodes(const struct offer_filter *f, const struct offer *o, int *k)
{
	*k = 1;
	if (o->nodes > 1) {
		/* A cluster product: its node count is its own. */
		if (!f->multi_node && f->nodes != o->nodes)
			return false;
		*k = o->nodes;
		return (f->count <= 0 || o->gpu_count * o->nodes == f->count) &&
		    plan_holds(f, o, k);
	}
	if (f->nodes > 0)
		*k = f->nodes;
	else if (f->count > 0 && o->gpu_count != f->count) {
		if (!f->multi_node || o->gpu_count <= 0 ||
		    o->gpu_count > f->count || f->count % o->gpu_count != 0)
			return false;
		*k = f->count / o->gpu_count;
	}
	if (f->count > 0 && o->gpu_count * *k != f->count)
		return false;
	return (*k == 1 || assembled_ok(f, o, *k)) && plan_holds(f, o, k);
}

bool
offer_filter_multi_node(const struct offer_filter *f)
{
	return f->nodes > 1 || f->multi_node;
}

bool
offer_matches(const struct offer_filter *f, const struct offer *o, int *nodes)
{
	size_t i;
	int k = 1;

	if (f->ngpus > 0) {
		for (i = 0; i < f->ngpus; i++)
			if (strcmp(f->gpus[i]->id, o->gpu) == 0)
				break;
		if (i == f->ngpus)
			return false;
	}
	if (!plan_nodes(f, o, &k))
		return false;
	if (f->fabrics != 0 && !fabric_set_has(f->fabrics, offer_fabric_kind(o)))
		return false;
	if (f->min_node_gbps > 0 && offer_node_gbps(o) < f->min_node_gbps)
		return false;
	if (f->min_vram_gb > 0 && o->vram_gb < f->min_vram_gb)
		return false;
	/* Nodes of one GPU have no GPU link inside the node. */
	if (f->interconnect != IC_UNKNOWN && (o->interconnect !=
	    f->interconnect || (k > 1 && o->gpu_count == 1)))
		return false;
	if (f->no_outliers && (o->notes & NOTE_BIT(NOTE_PRICE_OUTLIER)) != 0)
		return false;
	if (!offer_rentable_matches(f, o))
		return false;
	if (f->nproviders > 0) {
		for (i = 0; i < f->nproviders; i++)
			if (strcmp(f->providers[i], o->provider) == 0)
				break;
		if (i == f->nproviders)
			return false;
	}
	if (f->region[0] != '\0' &&
	    !region_matches(f->region, o->provider, o->region))
		return false;
	if (f->form != GPU_FORM_ANY && offer_form(o) != f->form)
		return false;
	if (f->min_vcpus_per_gpu > 0 &&
	    offer_vcpus_per_gpu(o) < f->min_vcpus_per_gpu)
		return false;
	if (f->min_ram_gb_per_gpu > 0 &&
	    offer_ram_gb_per_gpu(o) < f->min_ram_gb_per_gpu)
		return false;
	if (f->available && o->availability != AV_AVAILABLE)
		return false;
	if (f->spot && !offer_spot_current(f, o))
		return false;
	if (f->text[0] != '\0' && !text_matches(f->text, o))
		return false;
	if (f->vertex && gcp_vertex_training(gcp_gpu_find(o->provider,
	    o->instance_type, o->gpu), o->region) != VERTEX_YES)
		return false;
	if (nodes != NULL)
		*nodes = k;
	return true;
}

enum interconnect
plan_link(const struct plan *p)
{
	if (p->nodes > 1 && p->offer->gpu_count == 1)
		return IC_UNKNOWN;
	return p->offer->interconnect;
}

const char *
plan_type_name(const struct plan *p)
{
	if (p->offer->nodes > 1)
		return "cluster-product";
	return p->nodes > 1 ? "multi-node" : "single-node";
}

enum gpu_form
offer_form(const struct offer *o)
{
	const struct gpu_model *m;

	if (str_find_nocase(o->gpu_raw, "sxm") != NULL ||
	    str_find_nocase(o->instance_type, "sxm") != NULL)
		return GPU_FORM_SXM;
	if (str_find_nocase(o->gpu_raw, "pcie") != NULL ||
	    str_find_nocase(o->instance_type, "pcie") != NULL)
		return GPU_FORM_PCIE;
	if ((m = gpu_find(o->gpu)) == NULL)
		return GPU_FORM_ANY;
	if (strcmp(m->form, "sxm") == 0)
		return GPU_FORM_SXM;
	/* A bridge card is a PCIe card, NVLink-bridged or not. */
	if (strcmp(m->form, "pcie") == 0 || strcmp(m->form, "bridge") == 0)
		return GPU_FORM_PCIE;
	/* Both forms exist (A100, H100, V100): only NVLink tells, and the
	 * adapters give it to SXM boards (p4d, a2, "SXM" in the name). */
	if (m->form[0] == '\0' && m->vendor[0] == 'n' &&
	    o->interconnect == IC_NVLINK)
		return GPU_FORM_SXM;
	if (m->form[0] == '\0' && o->interconnect == IC_PCIE)
		return GPU_FORM_PCIE;
	return GPU_FORM_ANY;
}

double
offer_vcpus_per_gpu(const struct offer *o)
{
	if (o->vcpus <= 0 || o->gpu_count <= 0)
		return 0;
	return (double)o->vcpus / o->gpu_count;
}

double
offer_ram_gb_per_gpu(const struct offer *o)
{
	if (!(o->ram_gb > 0) || o->gpu_count <= 0)
		return 0;
	return o->ram_gb / o->gpu_count;
}

bool
offer_host_light(const struct offer *o)
{
	double v = offer_vcpus_per_gpu(o), r = offer_ram_gb_per_gpu(o);

	return (v > 0 && v < HOST_LIGHT_VCPUS_PER_GPU) ||
	    (r > 0 && r < HOST_LIGHT_RAM_GB_PER_GPU);
}

bool
plan_matches_price(const struct offer_filter *f, const struct plan *p)
{
	int64_t price;

	if (f->term != TERM_NONE && p->term == NULL)
		return false;
	if (!money_known(f->max_price_gpu_hour))
		return true;
	price = f->spot ? p->spot_gpu_hour : f->term != TERM_NONE ?
	    p->term_gpu_hour : p->price_gpu_hour;
	return money_known(price) && price <= f->max_price_gpu_hour;
}

static const char *const sort_key_names[] = {
#define X(id, name) name,
	SORT_KEY_INFO(X)
#undef X
};

const char *
sort_key_name(enum sort_key key)
{
	return (unsigned)key < SORT_KEY_COUNT ? sort_key_names[key] : "?";
}

int
sort_key_parse(const char *s, enum sort_key *out)
{
	unsigned i;

	for (i = 0; i < SORT_KEY_COUNT; i++)
		if (str_eq_nocase(s, sort_key_names[i])) {
			*out = (enum sort_key)i;
			return 0;
		}
	return -1;
}

/* Compare known-first: returns the sign for unknowns, 2 if both known. */
static int
cmp_unknown(bool a_known, bool b_known)
{
	if (a_known && b_known)
		return 2;
	if (a_known)
		return -1;
	if (b_known)
		return 1;
	return 0;
}

static int
cmp_money(int64_t a, int64_t b, bool reverse)
{
	int c = cmp_unknown(money_known(a), money_known(b));

	if (c != 2)
		return c;
	c = (a > b) - (a < b);
	return reverse ? -c : c;
}

static int
cmp_double(double a, double b, bool reverse)
{
	int c = cmp_unknown(!isnan(a), !isnan(b));

	if (c != 2)
		return c;
	c = (a > b) - (a < b);
	return reverse ? -c : c;
}

static int
cmp_int(long long a, long long b, bool reverse)
{
	int c = (a > b) - (a < b);

	return reverse ? -c : c;
}

static int
cmp_str(const char *a, const char *b, bool reverse)
{
	int c = cmp_unknown(a[0] != '\0', b[0] != '\0');

	if (c != 2)
		return c;
	c = strcmp(a, b);
	c = (c > 0) - (c < 0);
	return reverse ? -c : c;
}

/* Order of two plans under key, up to the tie on their offers' keys. */
static int
plan_cmp_rank(const struct plan *a, const struct plan *b, enum sort_key key,
    bool rev)
{
	const struct offer *oa = a->offer, *ob = b->offer;
	int c = 0;

	switch (key) {
	case SORT_GPU_PRICE:
		c = cmp_money(a->price_gpu_hour, b->price_gpu_hour, rev);
		break;
	case SORT_PRICE:
		c = cmp_money(a->price_hour, b->price_hour, rev);
		break;
	case SORT_SPOT:
		c = cmp_money(a->spot_hour, b->spot_hour, rev);
		break;
	case SORT_SPOT_GPU:
		c = cmp_money(a->spot_gpu_hour, b->spot_gpu_hour, rev);
		break;
	case SORT_SAVINGS:
		c = cmp_double(a->spot_savings_pct, b->spot_savings_pct, !rev);
		break;
	case SORT_VRAM:
		c = cmp_unknown(oa->vram_gb > 0, ob->vram_gb > 0);
		c = c != 2 ? c : cmp_int(oa->vram_gb, ob->vram_gb, !rev);
		break;
	case SORT_PFLOP:
		c = cmp_double(a->usd_per_pflop_hour, b->usd_per_pflop_hour, rev);
		break;
	case SORT_PROVIDER:
		c = cmp_str(oa->provider, ob->provider, rev);
		break;
	case SORT_INSTANCE:
		c = cmp_str(oa->instance_type, ob->instance_type, rev);
		break;
	case SORT_REGION:
		c = cmp_str(oa->region, ob->region, rev);
		break;
	case SORT_GPU:
		/*
		 * Unknown GPUs last, among themselves by their raw names;
		 * then the count as a number: 1x, 2x ... 10x (issue 45).
		 */
		c = cmp_str(oa->gpu, ob->gpu, rev);
		if (c == 0 && oa->gpu[0] == '\0')
			c = cmp_str(oa->gpu_raw, ob->gpu_raw, rev);
		if (c == 0)
			c = cmp_int(oa->gpu_count, ob->gpu_count, rev);
		break;
	case SORT_COUNT:
		c = cmp_int(a->total_gpus, b->total_gpus, !rev);
		break;
	case SORT_INTERCONNECT:
		/* nvlink before pcie; unknown last either way. */
		c = cmp_unknown(plan_link(a) != IC_UNKNOWN,
		    plan_link(b) != IC_UNKNOWN);
		c = c != 2 ? c : cmp_int(plan_link(a) == IC_NVLINK ? 1 : 2,
		    plan_link(b) == IC_NVLINK ? 1 : 2, rev);
		break;
	case SORT_AVAILABILITY:
		/* available, limited, unavailable; unknown last either way. */
		c = cmp_unknown(oa->availability != AV_UNKNOWN,
		    ob->availability != AV_UNKNOWN);
		c = c != 2 ? c : cmp_int(oa->availability == AV_AVAILABLE ? 0 :
		    oa->availability == AV_LIMITED ? 1 : 2,
		    ob->availability == AV_AVAILABLE ? 0 :
		    ob->availability == AV_LIMITED ? 1 : 2, rev);
		break;
	case SORT_AGE:
		c = cmp_int(oa->fetched_at, ob->fetched_at, !rev);
		break;
	case SORT_VCPUS_GPU:
		c = cmp_unknown(oa->vcpus > 0, ob->vcpus > 0);
		c = c != 2 ? c : cmp_double(offer_vcpus_per_gpu(oa),
		    offer_vcpus_per_gpu(ob), !rev);
		break;
	case SORT_RAM_GPU:
		c = cmp_unknown(oa->ram_gb > 0, ob->ram_gb > 0);
		c = c != 2 ? c : cmp_double(offer_ram_gb_per_gpu(oa),
		    offer_ram_gb_per_gpu(ob), !rev);
		break;
	case SORT_TERM_GPU:
		c = cmp_money(a->term_gpu_hour, b->term_gpu_hour, rev);
		break;
	case SORT_JOB:
		/* --train's job total; a plan without one (no --train) last. */
		c = cmp_money(a->job != NULL ? a->job->total : MONEY_NONE,
		    b->job != NULL ? b->job->total : MONEY_NONE, rev);
		break;
	case SORT_KEY_COUNT:
		break;
	}
	if (c != 0)
		return c;
	if ((c = cmp_money(a->price_gpu_hour, b->price_gpu_hour, false)) != 0)
		return c;
	return strcmp(oa->provider, ob->provider);
}

/* Order of two plans under key; see plan_sort(). */
static int
plan_cmp(const struct plan *a, const struct plan *b, enum sort_key key,
    bool rev)
{
	int c;

	if ((c = plan_cmp_rank(a, b, key, rev)) != 0)
		return c;
	if ((c = strcmp(a->offer->key, b->offer->key)) != 0)
		return c;
	return cmp_int(a->nodes, b->nodes, false);
}

int
plan_compare(const struct plan *a, const struct plan *b, enum sort_key key,
    bool reverse)
{
	return plan_cmp(a, b, key, reverse);
}

void
plan_sort(struct plan *plans, size_t n, enum sort_key key, bool reverse)
{
	struct plan *tmp;
	size_t width, lo, mid, hi, i, j, k;

	if (n < 2)
		return;
	/* Bottom-up merge sort: stable, and the comparator gets the key. */
	tmp = xreallocarray(NULL, n, sizeof *tmp);
	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			mid = lo + width < n ? lo + width : n;
			hi = lo + 2 * width < n ? lo + 2 * width : n;
			i = lo;
			j = mid;
			k = lo;
			while (i < mid && j < hi)
				tmp[k++] = plan_cmp(&plans[j], &plans[i], key,
				    reverse) < 0 ? plans[j++] : plans[i++];
			while (i < mid)
				tmp[k++] = plans[i++];
			while (j < hi)
				tmp[k++] = plans[j++];
		}
		memcpy(plans, tmp, n * sizeof *plans);
	}
	free(tmp);
}
