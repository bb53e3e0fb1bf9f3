/*
 * aws_spot.h: the two AWS spot feeds, read while aws.c streams the price
 * lists and put on its offers in its finish.
 *
 * spot.json (or the legacy spot.js, JSONP) gives the Linux spot price of
 * every instance type per region; spot-advisor-data.json gives the
 * interruption bucket 0..4 ("r"). Only the regions the adapter searches
 * (aws_spot_region()) and the types with GPUs (the aws_gpu_type_fn it
 * passes) are kept.
 *
 * Pure, as an adapter is: aws.c queues the requests and hands over the
 * bodies, this file only reads them.
 */
#ifndef GPUCOST_AWS_SPOT_H
#define GPUCOST_AWS_SPOT_H

#include <stdbool.h>
#include <stdint.h>

#define AWS_REGION_MAX	32	/* region code, NUL included */

struct err;
struct http_result;

/* Does this instance type ("p4d.24xlarge") have GPUs? */
typedef bool aws_gpu_type_fn(const char *type);

struct aws_spot;

struct aws_spot *aws_spot_new(aws_gpu_type_fn *gpu_type);
void	aws_spot_free(struct aws_spot *sp);	/* NULL is fine */

/* Read the feeds for region code too (shorter than AWS_REGION_MAX). */
void	aws_spot_region(struct aws_spot *sp, const char *code);

/*
 * Read spot.json, or spot-advisor-data.json. -1 with err (naming the
 * feed and the path in it) for a body that cannot be read.
 */
int	aws_spot_feed(struct aws_spot *sp, const struct http_result *res,
	    struct err *err);
int	aws_spot_advisor(struct aws_spot *sp, const struct http_result *res,
	    struct err *err);

/* Both read: make ready for the lookups below. */
void	aws_spot_sort(struct aws_spot *sp);

/*
 * The cheapest spot price of type in region (micro-USD per hour), or
 * MONEY_NONE; its interruption bucket, or -1.
 */
int64_t	aws_spot_price(const struct aws_spot *sp, const char *region,
	    const char *type);
int	aws_spot_bucket(const struct aws_spot *sp, const char *region,
	    const char *type);

#endif
