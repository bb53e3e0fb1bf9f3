/* cmd_gpus.c: `gpucost gpus [--gpu NAME]`: the GPU catalogue. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "filter.h"
#include "gpu.h"
#include "output.h"
#include "str.h"

enum {
	GC_ID, GC_FAMILY, GC_VENDOR, GC_ARCH, GC_VRAM, GC_TFLOPS,
	GC_TFLOPS_PCIE, GC_ALIASES, GC_COUNT
};

static const struct output_column gpu_columns[GC_COUNT] = {
	[GC_ID] =		{ "id", "ID", 1, false, false },
	[GC_FAMILY] =		{ "family", "FAMILY", 3, false, false },
	[GC_VENDOR] =		{ "vendor", "VENDOR", 4, false, false },
	[GC_ARCH] =		{ "arch", "ARCH", 4, false, false },
	[GC_VRAM] =		{ "vram_gb", "VRAM", 2, true, false },
	[GC_TFLOPS] =		{ "bf16_tflops", "BF16-TF", 2, true, false },
	[GC_TFLOPS_PCIE] =	{ "bf16_tflops_pcie", "PCIE-TF", 5, true, false },
	[GC_ALIASES] =		{ "aliases", "ALIASES", 6, false, true },
};

/* The models listed: the --gpu matches, else the whole catalogue. */
struct gpu_rows {
	const struct offer_filter *filter;
};

static const struct gpu_model *
row_model(const struct gpu_rows *r, size_t row)
{
	return r->filter->ngpus > 0 ? r->filter->gpus[row] : &gpu_models[row];
}

static enum field_kind
gpu_value(const void *ctx, size_t row, size_t col, bool human, char *buf,
    size_t size)
{
	const struct gpu_model *m = row_model(ctx, row);

	switch (col) {
	case GC_ID:
		str_copy(buf, size, m->id);
		return FIELD_STRING;
	case GC_FAMILY:
		str_copy(buf, size, m->family);
		return FIELD_STRING;
	case GC_VENDOR:
		str_copy(buf, size, m->vendor);
		return FIELD_STRING;
	case GC_ARCH:
		str_copy(buf, size, m->arch);
		return FIELD_STRING;
	case GC_VRAM:
		snprintf(buf, size, human ? "%dG" : "%d", m->vram_gb);
		return FIELD_NUMBER;
	case GC_TFLOPS:
		if (m->bf16_tflops <= 0)
			return FIELD_NULL;
		snprintf(buf, size, "%g", m->bf16_tflops);
		return FIELD_NUMBER;
	case GC_TFLOPS_PCIE:
		if (m->bf16_tflops_pcie <= 0)
			return FIELD_NULL;
		snprintf(buf, size, "%g", m->bf16_tflops_pcie);
		return FIELD_NUMBER;
	case GC_ALIASES:
		str_copy(buf, size, m->aliases);
		return FIELD_STRING;
	}
	return FIELD_NULL;
}

static int
cmd_gpus_exec(const struct cli_options *o)
{
	struct gpu_rows rows = { &o->filter };
	struct output_schema schema = {
		"gpus", gpu_columns, GC_COUNT, gpu_value, &rows
	};
	size_t n = o->filter.ngpus > 0 ? o->filter.ngpus : gpu_model_count;

	if (output_records(stdout, o->format, cli_output_width(stdout),
	    &schema, n) < 0 || fflush(stdout) != 0)
		return EXIT_DATA;
	return EXIT_OK;
}

const struct cmd_entry cmd_gpus_entry = {
	CMD_GPUS, "gpus", "[--gpu NAME]", "list the GPU catalogue",
	CMD_SCOPE_GPUS, false, cmd_gpus_exec
};
