/*
 * test_gpu.c: unit tests for gpu.c (the GPU catalogue and name matching).
 *
 * Besides hand-picked examples, two tests read the data files at run time
 * ($TOP_SRCDIR/data/gpus.tsv and data/snapshot.tsv): every id and alias of
 * the catalogue, and every (gpu_raw, vram_gb) spelling of the snapshot,
 * must resolve to the GPU its row names.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpu.h"
#include "offer.h"
#include "offer_text.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

/* Read $TOP_SRCDIR/rel (or ./rel) whole, NUL-terminated; fails the test. */
static char *
read_data_file(const char *rel, size_t *len)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	char *buf;
	FILE *f;
	long size;

	snprintf(path, sizeof path, "%s/%s", top != NULL && top[0] != '\0' ?
	    top : ".", rel);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s (set TOP_SRCDIR to the source tree)",
		    path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	buf = malloc((size_t)size + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	buf[size] = '\0';
	fclose(f);
	if (len != NULL)
		*len = (size_t)size;
	return buf;
}

/*
 * Split line (modified in place) at tabs into at most max fields.
 * Returns the number of fields.
 */
static size_t
split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line, *tab;

	for (;;) {
		if (n == max)
			return n + 1;	/* too many */
		fields[n++] = p;
		if ((tab = strchr(p, '\t')) == NULL)
			return n;
		*tab = '\0';
		p = tab + 1;
	}
}

/* Doubles equal to well within the catalogue's precision. */
static int
near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

static void
norm_is(const char *name, const char *want)
{
	char out[GPU_NORM_MAX];

	memset(out, 'X', sizeof out);
	gpu_normalise(name, out, sizeof out);
	if (strcmp(out, want) != 0)
		fail_msg("gpu_normalise(\"%s\") = \"%s\", want \"%s\"", name,
		    out, want);
}

/* gpu_resolve(raw, vram) gives the model with id want (NULL: none). */
static void
resolves_to(const char *raw, int vram, const char *want)
{
	const struct gpu_model *m = gpu_resolve(raw, vram);

	if (want == NULL) {
		if (m != NULL)
			fail_msg("gpu_resolve(\"%s\", %d) = %s, want NULL", raw,
			    vram, m->id);
		return;
	}
	if (m == NULL)
		fail_msg("gpu_resolve(\"%s\", %d) = NULL, want %s", raw, vram,
		    want);
	if (strcmp(m->id, want) != 0)
		fail_msg("gpu_resolve(\"%s\", %d) = %s, want %s", raw, vram,
		    m->id, want);
}

/* gpu_query(q) gives exactly the ids in want (any order). */
static void
query_is(const char *q, const char *const *want, size_t nwant)
{
	const struct gpu_model *out[GPU_MATCH_MAX];
	size_t n, i, j;

	memset(out, 0, sizeof out);
	n = gpu_query(q, out, GPU_MATCH_MAX);
	if (n != nwant)
		fail_msg("gpu_query(\"%s\") matched %zu models, want %zu", q, n,
		    nwant);
	for (i = 0; i < nwant; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(out[j]->id, want[i]) == 0)
				break;
		if (j == n)
			fail_msg("gpu_query(\"%s\") lacks %s", q, want[i]);
	}
}

/* ------------------------------------------------------------------ */
/* gpu_normalise                                                      */
/* ------------------------------------------------------------------ */

static void
test_normalise_examples(void **state)
{
	(void)state;
	norm_is("NVIDIA A100-SXM4-80GB", "a100sxm480");
	norm_is("Tesla V100", "v100");
	norm_is("RTX 4090", "rtx4090");
	/* The header's examples are one name. */
	norm_is("a100_sxm4_80gb", "a100sxm480");
	norm_is("A100 SXM4 80 GB", "a100sxm480");
	norm_is("A100 SXM4 80", "a100sxm480");
}

static void
test_normalise_vendor_words(void **state)
{
	(void)state;
	/* Leading vendor words go, repeatedly. */
	norm_is("NVIDIA Tesla V100", "v100");
	norm_is("nvidia-tesla-t4", "t4");
	norm_is("NVIDIA GeForce RTX 4090", "rtx4090");
	norm_is("AMD Radeon Pro V520", "prov520");
	norm_is("NVIDIA Quadro RTX 6000", "rtx6000");
	norm_is("AMD Instinct MI300X", "instinctmi300x");
	/* Only leading ones. */
	norm_is("RTX NVIDIA 4090", "rtxnvidia4090");
	/* A vendor word alone is a name of its own, not emptied. */
	norm_is("NVIDIA", "nvidia");
	norm_is("Tesla", "tesla");
}

static void
test_normalise_trailing_gb(void **state)
{
	(void)state;
	norm_is("H100 80GB", "h10080");
	norm_is("A100-80GB", "a10080");
	norm_is("80GB", "80");
	/* Only after a digit, only at the end. */
	norm_is("GB", "gb");
	norm_is("A100 GB", "a100");
	norm_is("A100 xgb", "a100xgb");
	norm_is("80GB SXM", "80gbsxm");
	norm_is("H100 80GB HBM3", "h10080gbhbm3");
}

static void
test_normalise_chars(void **state)
{
	(void)state;
	norm_is("", "");
	norm_is(" -_/. ", "");
	/* Non-ASCII bytes are dropped, not lower-cased into something. */
	norm_is("A100\xc3\xa9-80", "a10080");
	norm_is("RTX\xe2\x84\xa2 4090", "rtx4090");
	norm_is("H100 (PCIe)", "h100pcie");
}

static void
test_normalise_bounded(void **state)
{
	char out[5];
	char big[GPU_NORM_MAX];
	char longname[200];

	(void)state;
	memset(out, 'X', sizeof out);
	gpu_normalise("A100-80GB", out, sizeof out);
	assert_string_equal(out, "a100");
	memset(out, 'X', sizeof out);
	gpu_normalise("A100", out, 1);
	assert_int_equal(out[0], '\0');
	assert_int_equal(out[1], 'X');
	/* size 0 writes nothing. */
	memset(out, 'X', sizeof out);
	gpu_normalise("A100", out, 0);
	assert_int_equal(out[0], 'X');
	/* A long name fills the buffer and stays terminated. */
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	gpu_normalise(longname, big, sizeof big);
	assert_int_equal(strlen(big), GPU_NORM_MAX - 1);
}

/* ------------------------------------------------------------------ */
/* The catalogue against data/gpus.tsv                                */
/* ------------------------------------------------------------------ */

static void
test_catalogue_matches_tsv(void **state)
{
	char *text, *line, *save = NULL, *fl[10], *alias, *asave;
	const struct gpu_model *m;
	size_t nf, rows = 0, aliases = 0;
	int header = 0;
	char *buf;

	(void)state;
	text = read_data_file("data/gpus.tsv", NULL);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		nf = split_tabs(line, fl, 9);
		if (!header) {
			assert_int_equal(nf, 9);
			assert_string_equal(fl[0], "id");
			assert_string_equal(fl[7], "aliases");
			assert_string_equal(fl[8], "form");
			header = 1;
			continue;
		}
		if (nf != 9)
			fail_msg("gpus.tsv row %s: %zu fields", fl[0], nf);
		/* The compiled table holds this row, in file order. */
		assert_true(rows < gpu_model_count);
		m = &gpu_models[rows];
		assert_string_equal(m->id, fl[0]);
		assert_string_equal(m->family, fl[1]);
		assert_string_equal(m->vendor, fl[2]);
		assert_int_equal(m->vram_gb, atoi(fl[3]));
		assert_string_equal(m->arch, fl[4]);
		assert_true(near(m->bf16_tflops, fl[5][0] != '\0' ?
		    strtod(fl[5], NULL) : 0));
		assert_true(near(m->bf16_tflops_pcie, fl[6][0] != '\0' ?
		    strtod(fl[6], NULL) : 0));
		assert_string_equal(m->aliases, fl[7]);
		assert_string_equal(m->form, fl[8]);

		/* The id resolves to itself, with or without a VRAM hint. */
		resolves_to(fl[0], 0, fl[0]);
		resolves_to(fl[0], m->vram_gb, fl[0]);
		assert_ptr_equal(gpu_find(fl[0]), m);

		/* Every alias resolves to this row's id. */
		buf = strdup(fl[7]);
		assert_non_null(buf);
		for (alias = strtok_r(buf, "|", &asave); alias != NULL;
		    alias = strtok_r(NULL, "|", &asave)) {
			resolves_to(alias, 0, fl[0]);
			resolves_to(alias, m->vram_gb, fl[0]);
			aliases++;
		}
		free(buf);
		rows++;
	}
	free(text);
	assert_true(header);
	assert_int_equal(rows, gpu_model_count);
	/* Distinct normalised spellings: at least one per model. */
	assert_true(gpu_alias_count >= gpu_model_count);
	assert_true(gpu_alias_count <= gpu_model_count + aliases);
	assert_true(aliases > 300);
}

/* The alias index is sorted (binary search) and unique, and consistent. */
static void
test_alias_index(void **state)
{
	char norm[GPU_NORM_MAX];
	size_t i;

	(void)state;
	assert_true(gpu_alias_count > 0);
	for (i = 0; i < gpu_alias_count; i++) {
		assert_true(gpu_aliases[i].model < gpu_model_count);
		/* Stored already normalised. */
		gpu_normalise(gpu_aliases[i].norm, norm, sizeof norm);
		if (strcmp(norm, gpu_aliases[i].norm) != 0)
			fail_msg("alias \"%s\" is not normalised (\"%s\")",
			    gpu_aliases[i].norm, norm);
		if (i > 0 && strcmp(gpu_aliases[i - 1].norm,
		    gpu_aliases[i].norm) >= 0)
			fail_msg("aliases not sorted/unique at %zu: \"%s\" >= "
			    "\"%s\"", i, gpu_aliases[i - 1].norm,
			    gpu_aliases[i].norm);
		/* Each entry resolves to its own model. */
		assert_ptr_equal(gpu_resolve(gpu_aliases[i].norm, 0),
		    &gpu_models[gpu_aliases[i].model]);
	}
	/* Every model's id is in the index. */
	for (i = 0; i < gpu_model_count; i++) {
		size_t k;

		gpu_normalise(gpu_models[i].id, norm, sizeof norm);
		for (k = 0; k < gpu_alias_count; k++)
			if (strcmp(gpu_aliases[k].norm, norm) == 0)
				break;
		if (k == gpu_alias_count)
			fail_msg("id %s (\"%s\") missing from the alias index",
			    gpu_models[i].id, norm);
		assert_int_equal(gpu_aliases[k].model, i);
	}
}

/* Every provider spelling in data/snapshot.tsv resolves to its row's gpu. */
static void
test_snapshot_spellings(void **state)
{
	char *text, *line, *save = NULL, *fl[19];
	size_t nf, rows = 0, bad = 0;
	int header = 0;

	(void)state;
	text = read_data_file("data/snapshot.tsv", NULL);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		const struct gpu_model *m;

		if (line[0] == '#' || line[0] == '\0')
			continue;
		nf = split_tabs(line, fl, 18);
		assert_int_equal(nf, 18);
		if (!header) {
			assert_string_equal(fl[4], "gpu");
			assert_string_equal(fl[5], "gpu_raw");
			assert_string_equal(fl[7], "vram_gb");
			header = 1;
			continue;
		}
		rows++;
		m = gpu_resolve(fl[5], atoi(fl[7]));
		if (m == NULL || strcmp(m->id, fl[4]) != 0) {
			if (bad++ < 10)
				print_error("snapshot %s %s: gpu_resolve("
				    "\"%s\", %s) = %s, want %s\n", fl[0],
				    fl[1], fl[5], fl[7],
				    m != NULL ? m->id : "NULL", fl[4]);
		}
	}
	free(text);
	assert_true(rows >= 500);
	assert_int_equal(bad, 0);
}

/* ------------------------------------------------------------------ */
/* Families and VRAM                                                  */
/* ------------------------------------------------------------------ */

static void
test_query_families(void **state)
{
	static const char *const a100[] = { "A100-40", "A100-80" };
	static const char *const v100[] = { "V100-16", "V100-32" };
	static const char *const a100_80[] = { "A100-80" };
	static const char *const ti[] = { "RTX4060Ti-16", "RTX4060Ti-8" };
	static const char *const h100[] = { "H100" };
	static const char *const rtx4090[] = { "RTX4090" };

	(void)state;
	query_is("A100", a100, 2);
	query_is("a100", a100, 2);
	query_is("NVIDIA A100", a100, 2);
	query_is("V100", v100, 2);
	query_is("Tesla V100", v100, 2);
	query_is("RTX 4060 Ti", ti, 2);
	/* An id or alias names one model. */
	query_is("A100-80", a100_80, 1);
	query_is("a100-80", a100_80, 1);
	query_is("A100 80GB", a100_80, 1);
	query_is("NVIDIA A100-SXM4-80GB", a100_80, 1);
	query_is("a100_80gb", a100_80, 1);
	/* A one-model family is its one model, not also H100-NVL. */
	query_is("H100", h100, 1);
	query_is("RTX 4090", rtx4090, 1);
	query_is("geforce rtx 4090", rtx4090, 1);
	/* Nothing. */
	query_is("Z9000", NULL, 0);
	query_is("", NULL, 0);
	query_is("--", NULL, 0);
}

static void
test_query_bounded(void **state)
{
	const struct gpu_model *out[2] = { NULL, NULL };

	(void)state;
	/* max limits how many are written. */
	assert_int_equal(gpu_query("A100", out, 1), 1);
	assert_non_null(out[0]);
	assert_null(out[1]);
	assert_int_equal(gpu_query("A100", out, 0), 0);
}

/* "A100-80" never names a 40 GB card, however it is spelt. */
static void
test_a100_80_never_40(void **state)
{
	static const char *const spellings[] = {
		"A100-80", "a100-80", "A100 80GB", "NVIDIA A100-SXM4-80GB",
		"a100_80gb", "A100-80GB", "A100 80GB PCIe"
	};
	struct offer_filter f;
	struct offer o40, o80;
	size_t i;

	(void)state;
	offer_init(&o40);
	o40.provider = tstr("aws");
	o40.key = tstr("p4d.24xlarge/us-east-1");
	o40.gpu = tstr("A100-40");
	o40.gpu_count = 8;
	o40.vram_gb = 40;
	o80 = o40;
	o80.gpu = tstr("A100-80");
	o80.vram_gb = 80;
	for (i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
		resolves_to(spellings[i], 0, "A100-80");
		resolves_to(spellings[i], 40, "A100-80");
		resolves_to(spellings[i], 80, "A100-80");
		offer_filter_init(&f);
		f.ngpus = gpu_query(spellings[i], f.gpus, GPU_MATCH_MAX);
		assert_int_equal(f.ngpus, 1);
		assert_string_equal(f.gpus[0]->id, "A100-80");
		assert_false(offer_matches(&f, &o40, NULL));
		assert_true(offer_matches(&f, &o80, NULL));
	}
	/* The family query takes both. */
	offer_filter_init(&f);
	f.ngpus = gpu_query("A100", f.gpus, GPU_MATCH_MAX);
	assert_true(offer_matches(&f, &o40, NULL));
	assert_true(offer_matches(&f, &o80, NULL));
}

static void
test_vram_snapping(void **state)
{
	(void)state;
	/* AWS reports MiB: 81559 MiB is 79 GB. */
	resolves_to("A100", 81559 / 1024, "A100-80");
	resolves_to("A100", 80, "A100-80");
	resolves_to("A100", 40, "A100-40");
	resolves_to("A100", 40960 / 1024, "A100-40");
	/* Unknown VRAM keeps a family ambiguous. */
	resolves_to("A100", 0, NULL);
	resolves_to("A100", -1, NULL);
	/* Within 7 %: 5 of 80 and 2 of 40 snap; 6 of 80 and 3 of 40 do not. */
	resolves_to("A100", 75, "A100-80");
	resolves_to("A100", 85, "A100-80");
	resolves_to("A100", 74, NULL);
	resolves_to("A100", 87, NULL);
	resolves_to("A100", 38, "A100-40");
	resolves_to("A100", 42, "A100-40");
	resolves_to("A100", 37, NULL);
	resolves_to("A100", 60, NULL);
	resolves_to("A100", 24, NULL);
	/* An absurd hint matches nothing, without overflow (fuzz_gpu). */
	resolves_to("A100", 1644178608, NULL);
	resolves_to("A100", INT_MAX, NULL);
	/* The other two-member families. */
	resolves_to("Tesla V100", 16, "V100-16");
	resolves_to("V100", 32, "V100-32");
	resolves_to("nvidia-tesla-v100", 16, "V100-16");
	resolves_to("V100", 0, NULL);
	resolves_to("RTX 4060 Ti", 16, "RTX4060Ti-16");
	resolves_to("RTX 4060 Ti", 8, "RTX4060Ti-8");
	resolves_to("RTX 4060 Ti", 12, NULL);
	/* GCP's and Vultr's bare family spellings. */
	resolves_to("nvidia-tesla-a100", 40, "A100-40");
	resolves_to("NVIDIA_A100", 80, "A100-80");
}

static void
test_form_words(void **state)
{
	(void)state;
	resolves_to("A100 SXM4", 80, "A100-80");
	resolves_to("A100 SXM4", 40, "A100-40");
	resolves_to("A100 SXM4", 0, NULL);
	resolves_to("A100 PCIE", 40, "A100-40");
	resolves_to("A100 PCIe", 80, "A100-80");
	resolves_to("A100 PCIe", 0, NULL);
	resolves_to("Tesla V100-PCIE", 32, "V100-32");
	resolves_to("V100 SXM3", 32, "V100-32");
	resolves_to("H100 PCIe", 80, "H100");
	resolves_to("H100 PCIe", 0, "H100");
	resolves_to("H100 SXM5", 0, "H100");
	resolves_to("H100 SXM6", 0, "H100");
	resolves_to("H100 NVL", 0, "H100-NVL");
	resolves_to("H100 NVL", 94, "H100-NVL");
	resolves_to("H200 HBM3", 0, "H200");
	resolves_to("L40S PCIe", 0, "L40S");
	resolves_to("B200 SXM", 0, "B200");
	/* One form word only, and only at the end. */
	resolves_to("A100 SXM4 PCIe", 80, NULL);
	resolves_to("PCIe A100", 80, NULL);
	/* A form word alone is not a GPU. */
	resolves_to("PCIe", 0, NULL);
	resolves_to("SXM4", 0, NULL);
}

/*
 * data/README.md: spellings that add only a form factor and are used for
 * both memory sizes are not aliases; they resolve through the family and
 * the VRAM hint. "V100 SXM2" (AWS p3: 16 GB, p3dn: 32 GB) and "A100 SXM"
 * (SXM4 boards come in 40 and 80 GB) are such spellings, so the hint
 * must decide, never the spelling alone.
 */
static void
test_form_only_spellings_follow_vram(void **state)
{
	(void)state;
	resolves_to("V100 SXM2", 16, "V100-16");
	resolves_to("V100 SXM2", 32, "V100-32");
	resolves_to("Tesla V100-SXM2", 32, "V100-32");
	resolves_to("A100 SXM", 80, "A100-80");
	resolves_to("A100 SXM", 40, "A100-40");
	resolves_to("A100-SXM", 40, "A100-40");
}

static void
test_unknown(void **state)
{
	(void)state;
	resolves_to("", 0, NULL);
	resolves_to("   ", 80, NULL);
	resolves_to("Z9000", 0, NULL);
	resolves_to("NVIDIA", 0, NULL);
	resolves_to("A100X", 80, NULL);
	resolves_to("PRO 6000 MIG 24GB", 24, NULL);
	resolves_to("Radeon Pro W7900", 48, NULL);
	resolves_to("H100 MIG 1g.10gb", 10, NULL);
}

/* ------------------------------------------------------------------ */
/* Suggestions, lookup, TFLOPS                                        */
/* ------------------------------------------------------------------ */

static void
test_suggest(void **state)
{
	const struct gpu_model *out[GPU_MATCH_MAX];
	size_t n, i;
	int has40 = 0, has80 = 0;

	(void)state;
	n = gpu_suggest("A1000", out, 4);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		has40 |= strcmp(out[i]->id, "A100-40") == 0;
		has80 |= strcmp(out[i]->id, "A100-80") == 0;
	}
	assert_true(has40);
	assert_true(has80);
	/* At distance 1 both come first, in catalogue order. */
	assert_string_equal(out[0]->id, "A100-80");
	assert_string_equal(out[1]->id, "A100-40");
	/* No duplicates. */
	for (i = 1; i < n; i++)
		assert_ptr_not_equal(out[i], out[i - 1]);

	assert_int_equal(gpu_suggest("zzzzzz", out, GPU_MATCH_MAX), 0);
	assert_int_equal(gpu_suggest("A1000", out, 0), 0);

	/* A part of a name is close: "4090" finds RTX4090 first. */
	n = gpu_suggest("4090", out, 4);
	assert_true(n >= 1);
	assert_string_equal(out[0]->id, "RTX4090");
	/* "RTX 4090 Ti": 1 edit from RTX4070Ti/RTX3090Ti, 2 from RTX4090. */
	n = gpu_suggest("RTX 4090 Ti", out, 4);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		if (strcmp(out[i]->id, "RTX4090") == 0)
			break;
	assert_true(i < n);
	assert_true(i >= 2);

	/* A max beyond GPU_MATCH_MAX is capped. */
	n = gpu_suggest("RTX", out, 1000);
	assert_true(n <= GPU_MATCH_MAX);
}

static void
test_find(void **state)
{
	const struct gpu_model *m;
	size_t i;

	(void)state;
	m = gpu_find("A100-80");
	assert_non_null(m);
	assert_string_equal(m->id, "A100-80");
	assert_ptr_equal(gpu_find("a100-80"), m);
	assert_ptr_equal(gpu_find("A100-80"), m);
	assert_non_null(gpu_find("rtx6000-ada"));
	assert_string_equal(gpu_find("rtx6000-ada")->id, "RTX6000-Ada");
	assert_string_equal(gpu_find("mi300x")->id, "MI300X");
	/* Ids only: not families, aliases or spellings. */
	assert_null(gpu_find("A100"));
	assert_null(gpu_find("A100 80GB"));
	assert_null(gpu_find("A10080"));
	assert_null(gpu_find("H100 "));
	assert_null(gpu_find(""));
	assert_null(gpu_find("Z9000"));
	/* Every id, whatever its case; its normalised form is no id. */
	for (i = 0; i < gpu_model_count; i++) {
		char lower[GPU_NORM_MAX], norm[GPU_NORM_MAX];
		const char *id = gpu_models[i].id;
		size_t k;

		for (k = 0; id[k] != '\0' && k + 1 < sizeof lower; k++)
			lower[k] = (char)tolower((unsigned char)id[k]);
		lower[k] = '\0';
		assert_ptr_equal(gpu_find(id), &gpu_models[i]);
		assert_ptr_equal(gpu_find(lower), &gpu_models[i]);
		gpu_normalise(id, norm, sizeof norm);
		if (strcmp(norm, lower) != 0)
			assert_null(gpu_find(norm));
	}
}

static void
test_bf16(void **state)
{
	const struct gpu_model *h100 = gpu_find("H100");
	const struct gpu_model *a100 = gpu_find("A100-80");
	double v;

	(void)state;
	assert_non_null(h100);
	assert_non_null(a100);
	v = gpu_bf16_tflops(h100, 0);
	assert_true(near(v, 989.4));
	v = gpu_bf16_tflops(h100, 1);
	assert_true(near(v, 756.5));
	/* Same figure in both forms where the PCIe one is not given. */
	v = gpu_bf16_tflops(a100, 1);
	assert_true(near(v, 312));
	v = gpu_bf16_tflops(a100, 0);
	assert_true(near(v, 312));
	/* No BF16, and no model. */
	v = gpu_bf16_tflops(gpu_find("V100-16"), 0);
	assert_true(near(v, 0));
	v = gpu_bf16_tflops(gpu_find("V100-16"), 1);
	assert_true(near(v, 0));
	v = gpu_bf16_tflops(NULL, 1);
	assert_true(near(v, 0));
}

/*
 * Catalogue corrections (issue 11): datasheet figures, memory variants
 * that must resolve, and a bare "RTX 6000" that names two cards.
 */
static void
test_catalogue_corrections(void **state)
{
	static const struct {
		const char *spelling, *id;
	} variants[] = {
		{ "GH200 144GB", "GH200" },
		{ "B200 192GB", "B200" },
		{ "A16 64GB", "A16" },
		{ "RTX A2000 12GB", "A2000" },
	};
	const struct gpu_model *out[GPU_MATCH_MAX], *m;
	size_t i, n;

	(void)state;
	/* RTX 4000 Ada: 327.6 FP8 sparse TFLOPS / 4; RTX PRO 5000: 2,142
	 * AI TOPS / 8. */
	assert_true(near(gpu_bf16_tflops(gpu_find("RTX4000-Ada"), 1), 81.9));
	assert_true(near(gpu_bf16_tflops(gpu_find("RTXPRO5000"), 1), 267.8));
	for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		m = gpu_resolve(variants[i].spelling, 0);
		if (m == NULL || strcmp(m->id, variants[i].id) != 0)
			fail_msg("%s resolves to %s, want %s",
			    variants[i].spelling, m != NULL ? m->id : "NULL",
			    variants[i].id);
	}
	/* A bare "RTX 6000": the VRAM picks the card, or nothing does. */
	assert_string_equal(gpu_resolve("RTX 6000", 24)->id, "QRTX6000");
	assert_string_equal(gpu_resolve("Quadro RTX 6000", 24)->id,
	    "QRTX6000");
	assert_string_equal(gpu_resolve("RTX 6000", 48)->id, "RTX6000-Ada");
	assert_null(gpu_resolve("RTX 6000", 0));
	assert_string_equal(gpu_resolve("RTX 6000 Ada", 0)->id, "RTX6000-Ada");
	assert_string_equal(gpu_resolve("Q RTX 6000", 0)->id, "QRTX6000");
	/* ... and a query for it shows both. */
	n = gpu_query("RTX 6000", out, GPU_MATCH_MAX);
	assert_int_equal(n, 2);
	assert_true((strcmp(out[0]->id, "QRTX6000") == 0 &&
	    strcmp(out[1]->id, "RTX6000-Ada") == 0) ||
	    (strcmp(out[1]->id, "QRTX6000") == 0 &&
	    strcmp(out[0]->id, "RTX6000-Ada") == 0));
}

/* The model of id, whose vendor, arch and VRAM are as given. */
static const struct gpu_model *
model_with(const char *id, const char *vendor, const char *arch, int vram)
{
	const struct gpu_model *m = gpu_find(id);

	if (m == NULL)
		fail_msg("catalogue lacks %s", id);
	assert_string_equal(m->id, id);
	assert_string_equal(m->vendor, vendor);
	assert_string_equal(m->arch, arch);
	assert_int_equal(m->vram_gb, vram);
	return m;
}

/* Every id the issue requires, with its facts. */
static void
test_required_ids(void **state)
{
	static const struct {
		const char *id, *vendor, *arch;
		int vram;
		int has_bf16;
	} want[] = {
		{ "H200", "nvidia", "Hopper", 141, 1 },
		{ "H100", "nvidia", "Hopper", 80, 1 },
		{ "H100-NVL", "nvidia", "Hopper", 94, 1 },
		{ "GH200", "nvidia", "Hopper", 96, 1 },
		{ "B200", "nvidia", "Blackwell", 180, 1 },
		{ "A100-80", "nvidia", "Ampere", 80, 1 },
		{ "A100-40", "nvidia", "Ampere", 40, 1 },
		{ "A10", "nvidia", "Ampere", 24, 1 },
		{ "A10G", "nvidia", "Ampere", 24, 1 },
		{ "L40S", "nvidia", "Ada", 48, 1 },
		{ "L40", "nvidia", "Ada", 48, 1 },
		{ "L4", "nvidia", "Ada", 24, 1 },
		{ "T4", "nvidia", "Turing", 16, 0 },
		{ "V100-16", "nvidia", "Volta", 16, 0 },
		{ "V100-32", "nvidia", "Volta", 32, 0 },
		{ "A40", "nvidia", "Ampere", 48, 1 },
		{ "A16", "nvidia", "Ampere", 16, 1 },
		{ "A6000", "nvidia", "Ampere", 48, 1 },
		{ "RTX6000-Ada", "nvidia", "Ada", 48, 1 },
		{ "RTX4090", "nvidia", "Ada", 24, 1 },
		{ "RTX5090", "nvidia", "Blackwell", 32, 1 },
		{ "RTX3090", "nvidia", "Ampere", 24, 1 },
		{ "MI300X", "amd", "CDNA3", 192, 1 },
		{ "MI325X", "amd", "CDNA3", 256, 1 },
	};
	const struct gpu_model *m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		m = model_with(want[i].id, want[i].vendor, want[i].arch,
		    want[i].vram);
		if (want[i].has_bf16) {
			if (!(m->bf16_tflops > 0))
				fail_msg("%s has no BF16 TFLOPS", m->id);
		} else
			assert_true(near(m->bf16_tflops, 0));
	}
	/* Families of the multi-member groups. */
	assert_string_equal(gpu_find("A100-40")->family, "A100");
	assert_string_equal(gpu_find("A100-80")->family, "A100");
	assert_string_equal(gpu_find("V100-16")->family, "V100");
	assert_string_equal(gpu_find("V100-32")->family, "V100");
	assert_string_equal(gpu_find("H100-NVL")->family, "H100-NVL");
	assert_string_equal(gpu_find("H100")->family, "H100");
}

/*
 * The GPUs of current feeds (issue 44): each in the catalogue with its
 * published facts, and each feed's spelling resolves to it.
 */
static void
test_feed_gpus_2026(void **state)
{
	static const struct {
		const char *id, *family, *vendor, *arch;
		int vram;
		double bf16;
	} want[] = {
		{ "MI350X", "MI350X", "amd", "CDNA4", 288, 2306.9 },
		{ "V710", "V710", "amd", "RDNA3", 28, 0 },
		{ "QRTX5000", "RTX5000", "nvidia", "Turing", 16, 0 },
		{ "RTX5000-Ada", "RTX5000", "nvidia", "Ada", 32, 261.1 },
		{ "RTX4070SUPER", "RTX4070SUPER", "nvidia", "Ada", 12, 71.0 },
		{ "RTX5060", "RTX5060", "nvidia", "Blackwell", 8, 38.4 },
		{ "RTX5060Ti-16", "RTX5060Ti", "nvidia", "Blackwell", 16, 47.4 },
		{ "RTX5060Ti-8", "RTX5060Ti", "nvidia", "Blackwell", 8, 47.4 },
		{ "P40", "P40", "nvidia", "Pascal", 24, 0 },
		{ "RTXPRO4500", "RTXPRO4500", "nvidia", "Blackwell", 32, 219.7 },
	};
	static const struct {
		const char *spelling;
		int vram;
		const char *id;		/* NULL: stays unknown */
	} feeds[] = {
		{ "MI350X", 0, "MI350X" },			/* CloudRift */
		{ "AMD Instinct MI350X", 288, "MI350X" },
		{ "Radeon Pro V710", 0, "V710" },		/* Azure */
		{ "amd-radeonpro-v710", 0, "V710" },
		{ "Quadro-RTX5000", 16, "QRTX5000" },		/* OVH */
		{ "Quadro RTX 5000", 16, "QRTX5000" },
		{ "RTX 5000", 32, "RTX5000-Ada" },
		{ "RTX 5000", 0, NULL },			/* either card */
		{ "RTX 5000 Ada", 0, "RTX5000-Ada" },
		{ "RTX 4070 SUPER", 0, "RTX4070SUPER" },
		{ "rtx4070super", 0, "RTX4070SUPER" },		/* Akash */
		{ "RTX 4070S", 0, "RTX4070SUPER" },
		{ "RTX 4070S Ti", 0, "RTX4070TiSUPER" },	/* Vast */
		{ "RTX 5060", 8, "RTX5060" },			/* Vast */
		{ "RTX 5060 Ti", 16, "RTX5060Ti-16" },	/* Vast */
		{ "RTX 5060 Ti", 8, "RTX5060Ti-8" },
		{ "RTX 5060 Ti", 0, NULL },
		{ "rtx5060ti", 16, "RTX5060Ti-16" },		/* Akash */
		{ "p40", 24, "P40" },				/* Akash */
		{ "Tesla P40", 0, "P40" },
		{ "NVIDIA RTX PRO Server 4500", 32, "RTXPRO4500" }, /* AWS g7 */
	};
	const struct gpu_model *m, *out[GPU_MATCH_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		m = model_with(want[i].id, want[i].vendor, want[i].arch,
		    want[i].vram);
		assert_string_equal(m->family, want[i].family);
		if (!near(m->bf16_tflops, want[i].bf16))
			fail_msg("%s: %g BF16 TFLOPS, want %g", m->id,
			    m->bf16_tflops, want[i].bf16);
	}
	for (i = 0; i < sizeof feeds / sizeof feeds[0]; i++) {
		m = gpu_resolve(feeds[i].spelling, feeds[i].vram);
		if (feeds[i].id == NULL ? m != NULL :
		    m == NULL || strcmp(m->id, feeds[i].id) != 0)
			fail_msg("%s (%d GB) resolves to %s, want %s",
			    feeds[i].spelling, feeds[i].vram,
			    m != NULL ? m->id : "NULL",
			    feeds[i].id != NULL ? feeds[i].id : "NULL");
	}
	/* A query for the bare name shows both cards of the family. */
	assert_int_equal(gpu_query("RTX 5000", out, GPU_MATCH_MAX), 2);
	assert_int_equal(gpu_query("RTX 5060 Ti", out, GPU_MATCH_MAX), 2);
	assert_int_equal(gpu_query("RTX5000-Ada", out, GPU_MATCH_MAX), 1);
	assert_string_equal(out[0]->id, "RTX5000-Ada");
}

/* Every model is complete: id, family, vendor, arch, VRAM. */
static void
test_models_complete(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(gpu_model_count >= 24);
	for (i = 0; i < gpu_model_count; i++) {
		const struct gpu_model *m = &gpu_models[i];

		assert_true(m->id[0] != '\0');
		assert_true(strlen(m->id) < OFFER_GPU_MAX);
		assert_true(m->family[0] != '\0');
		assert_true(strcmp(m->vendor, "nvidia") == 0 ||
		    strcmp(m->vendor, "amd") == 0);
		assert_true(m->arch[0] != '\0');
		assert_true(m->vram_gb > 0 && m->vram_gb <= 1024);
		assert_true(m->bf16_tflops >= 0);
		assert_true(m->bf16_tflops_pcie >= 0);
		for (j = 0; j < i; j++)
			if (strcasecmp(gpu_models[j].id, m->id) == 0)
				fail_msg("duplicate id %s", m->id);
	}
}

/* A form word narrows --gpu to that form; the family is kept. */
static void
test_query_form(void **state)
{
	const struct gpu_model *m[GPU_MATCH_MAX];
	enum gpu_form form;
	size_t n;

	(void)state;
	n = gpu_query_form("H100 SXM", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "H100");
	assert_int_equal(form, GPU_FORM_SXM);
	n = gpu_query_form("H100-PCIe", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "H100");
	assert_int_equal(form, GPU_FORM_PCIE);
	n = gpu_query_form("A100 80GB SXM4", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "A100-80");
	assert_int_equal(form, GPU_FORM_SXM);
	n = gpu_query_form("A100-SXM4-80GB", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "A100-80");
	assert_int_equal(form, GPU_FORM_SXM);
	n = gpu_query_form("a100 pcie", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 2);		/* both sizes */
	assert_int_equal(form, GPU_FORM_PCIE);
	/* A family or a model: any form. */
	n = gpu_query_form("H100", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_int_equal(form, GPU_FORM_ANY);
	n = gpu_query_form("A100", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 2);
	assert_int_equal(form, GPU_FORM_ANY);
	/* NVL is its own model, not a form. */
	n = gpu_query_form("H100 NVL", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_string_equal(m[0]->id, "H100-NVL");
	assert_int_equal(form, GPU_FORM_ANY);
	/* A form word alone names nothing. */
	assert_int_equal(gpu_query_form("SXM", m, GPU_MATCH_MAX, &form), 0);
	assert_int_equal(gpu_query_form("zzz SXM", m, GPU_MATCH_MAX, &form),
	    0);
	assert_string_equal(gpu_form_name(GPU_FORM_SXM), "sxm");
	assert_string_equal(gpu_form_name(GPU_FORM_PCIE), "pcie");
	assert_null(gpu_form_name(GPU_FORM_ANY));
}

/* Fragments that can mean one model; names two cards share. */
static void
test_fragment_and_ambiguous(void **state)
{
	const struct gpu_model *m[GPU_MATCH_MAX];
	enum gpu_form form;
	size_t n;

	(void)state;
	assert_int_equal(gpu_fragment("4090", m, GPU_MATCH_MAX), 1);
	assert_string_equal(m[0]->id, "RTX4090");
	assert_int_equal(gpu_fragment("5090", m, GPU_MATCH_MAX), 1);
	assert_string_equal(m[0]->id, "RTX5090");
	assert_true(gpu_fragment("40", m, GPU_MATCH_MAX) == 0);
	assert_true(gpu_fragment("100", m, GPU_MATCH_MAX) > 1);
	n = gpu_query_form("RTX6000", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 2);
	assert_true(gpu_ambiguous(m, n));
	n = gpu_query_form("A100", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 2);
	assert_false(gpu_ambiguous(m, n));
	n = gpu_query_form("h100sxm", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_int_equal(form, GPU_FORM_SXM);
	n = gpu_query_form("H100PCIe", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 1);
	assert_int_equal(form, GPU_FORM_PCIE);
	n = gpu_query_form("a100sxm4", m, GPU_MATCH_MAX, &form);
	assert_int_equal(n, 2);
	assert_int_equal(form, GPU_FORM_SXM);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragment_and_ambiguous),
		cmocka_unit_test(test_normalise_examples),
		cmocka_unit_test(test_normalise_vendor_words),
		cmocka_unit_test(test_normalise_trailing_gb),
		cmocka_unit_test(test_normalise_chars),
		cmocka_unit_test(test_normalise_bounded),
		cmocka_unit_test(test_catalogue_matches_tsv),
		cmocka_unit_test(test_alias_index),
		cmocka_unit_test(test_snapshot_spellings),
		cmocka_unit_test(test_query_families),
		cmocka_unit_test(test_query_bounded),
		cmocka_unit_test(test_a100_80_never_40),
		cmocka_unit_test(test_vram_snapping),
		cmocka_unit_test(test_form_words),
		cmocka_unit_test(test_form_only_spellings_follow_vram),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_query_form),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_catalogue_corrections),
		cmocka_unit_test(test_required_ids),
		cmocka_unit_test(test_feed_gpus_2026),
		cmocka_unit_test(test_models_complete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
