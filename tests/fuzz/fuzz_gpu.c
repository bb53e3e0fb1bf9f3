/*
 * fuzz_gpu.c: GPU name matching on fuzzed names. The input up to its
 * first NUL is the name; up to four bytes after the NUL are the VRAM
 * hint (little-endian, signed), so text seeds keep a hint of 0.
 * Properties: gpu_normalise() keeps to [a-z0-9] and to its buffer, at
 * any buffer size; gpu_resolve(), gpu_query() and gpu_suggest() return
 * catalogue models only, within their limits.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_run.h"
#include "gpu.h"
#include "xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is m one of the catalogue's models? */
static void
check_model(const char *what, const struct gpu_model *m)
{
	if (m < gpu_models || m >= gpu_models + gpu_model_count)
		fuzz_fail("%s: not a catalogue model", what);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct gpu_model *out[GPU_MATCH_MAX], *m;
	char norm[GPU_NORM_MAX], *name, *small;
	size_t nlen, n, i, sz;
	uint32_t u = 0;
	int vram;

	nlen = strnlen((const char *)data, size);
	name = xstrndup((const char *)data, nlen);
	for (i = nlen + 1; i < size && i < nlen + 5; i++)
		u |= (uint32_t)data[i] << (8 * (i - nlen - 1));
	vram = (int)u;

	gpu_normalise(name, norm, sizeof norm);
	for (i = 0; norm[i] != '\0'; i++)
		if (!((norm[i] >= 'a' && norm[i] <= 'z') ||
		    (norm[i] >= '0' && norm[i] <= '9')))
			fuzz_fail("gpu_normalise: byte 0x%02x kept",
			    (unsigned char)norm[i]);
	/* Every buffer size, in an exactly-sized buffer. */
	for (sz = 1; sz <= GPU_NORM_MAX; sz += sz < 8 ? 1 : 13) {
		small = xmalloc(sz);
		gpu_normalise(name, small, sz);
		if (strnlen(small, sz) == sz)
			fuzz_fail("gpu_normalise: size %zu not terminated", sz);
		free(small);
	}

	if ((m = gpu_resolve(name, vram)) != NULL)
		check_model("gpu_resolve", m);
	if ((m = gpu_resolve(name, 0)) != NULL)
		check_model("gpu_resolve", m);
	n = gpu_query(name, out, GPU_MATCH_MAX);
	if (n > GPU_MATCH_MAX)
		fuzz_fail("gpu_query: %zu matches", n);
	for (i = 0; i < n; i++)
		check_model("gpu_query", out[i]);
	n = gpu_query(name, out, 1);
	if (n > 1)
		fuzz_fail("gpu_query: %zu matches for max 1", n);
	n = gpu_suggest(name, out, 4);
	if (n > 4)
		fuzz_fail("gpu_suggest: %zu suggestions for max 4", n);
	for (i = 0; i < n; i++)
		check_model("gpu_suggest", out[i]);
	free(name);
	return 0;
}
