/*
 * fuzz_snapshot.c: snapshot_parse() on fuzzed snapshot text, for every
 * provider and for one. Properties: every offer it returns passes
 * offer_check() and holds sanitised text; a failure has a message with
 * no terminal control characters.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fuzz_run.h"
#include "offer.h"
#include "snapshot.h"
#include "str.h"
#include "xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Check what one snapshot_parse() call returned. */
static void
check(const struct offer_list *list, int rc, const struct err *err)
{
	const struct offer *o;
	struct err check;
	size_t i;

	for (i = 0; i < list->n; i++) {
		o = &list->v[i];
		if (!str_is_clean(o->provider) || !str_is_clean(o->key) ||
		    !str_is_clean(o->instance_type) ||
		    !str_is_clean(o->region) || !str_is_clean(o->gpu) ||
		    !str_is_clean(o->gpu_raw))
			fuzz_fail("snapshot: offer %zu: text not sanitised", i);
		if (offer_check(o, &check) < 0)
			fuzz_fail("snapshot: offer %zu fails offer_check: %s",
			    i, check.msg);
	}
	if (rc < 0 && (err->msg[0] == '\0' || !fuzz_text_is_safe(err->msg)))
		fuzz_fail("snapshot: bad message: %s", err->msg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const which[] = { NULL, "aws" };
	struct offer_list list;
	struct err err;
	size_t i;
	int rc;

	for (i = 0; i < sizeof which / sizeof which[0]; i++) {
		offer_list_init(&list);
		err_clear(&err);
		rc = snapshot_parse((const char *)data, size, "fuzz.tsv",
		    which[i], &list, &err);
		check(&list, rc, &err);
		offer_list_done(&list);
	}
	return 0;
}
