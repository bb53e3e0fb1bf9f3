/*
 * test_output.c: unit tests for the output writers (output.c,
 * output_delim.c, output_json.c, output_table.c): the machine formats'
 * fields and values, CSV/TSV quoting, well-formed JSON, and the table's
 * fit to a width.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cost.h"
#include "db.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "output.h"
#include "str.h"
#include "offer_text.h"

#define NOW		1779235200	/* 2026-05-20T00:00:00Z */
#define JAN1		1767225600	/* 2026-01-01T00:00:00Z */
#define APR29		1777420800	/* 2026-04-29T00:00:00Z */

/* The field list of gpucost(1), OUTPUT CONTRACT, in order. */
static const char *const contract_fields[] = {
	"provider", "instance_type", "region", "gpu", "gpu_raw", "gpu_count",
	"nodes", "total_gpus", "vram_gb", "interconnect", "vcpus", "ram_gb",
	"price_hour", "price_gpu_hour", "spot_hour", "spot_gpu_hour",
	"spot_savings_pct", "usd_per_pflop_hour", "availability",
	"spot_interruption", "reliability", "source", "fetched_at", "key",
	"total_cost", "total_spot_cost", "notes", "node_keys", "inter_node",
	"spot_zone", "currency", "price_original", "form", "country",
	"continent", "vcpus_per_gpu", "ram_gb_per_gpu", "launch",
	"launch_spot", "zones", "quota", "vertex_training", "launch_vertex",
	"fabric", "node_gbps", "gpudirect_rdma", "placement", "gpus_per_node",
	"plan_type", "cluster_setup",
	"committed", "term", "term_hour", "term_gpu_hour", "term_savings_pct",
	"total_term_cost", "price_from", "regions",
	"gpu_hours", "job_hours", "job_cost", "spot_job_cost", "egress_cost",
	"job_scaling", "spot_job_hours", "job_cost_per_1b_tokens", "job_term",
	"job_term_cost", "job_term_commitment",
	NULL
};
#define NFIELDS		69
#define NFIELDS_NO_TRAIN 58
#define NFIELDS_NO_TOTALS 55
/* gpu_hours ... job_term_commitment: only with --train. */
#define IS_TRAIN(i)	((i) >= NFIELDS_NO_TRAIN)
/* total_cost, total_spot_cost, total_term_cost: only with --hours. */
#define IS_TOTAL(i)	((i) == 24 || (i) == 25 || (i) == 55)

/* The i-th field shown without --hours. */
static size_t
shown_no_totals(size_t i)
{
	/* Past total_cost and total_spot_cost, then total_term_cost. */
	return i < 24 ? i : i + 2 < 55 ? i + 2 : i + 3;
}

/* The CSV launch fields of the AWS fixture (1 or 2 nodes), after key. */
#define AWS_RUN(n)	"aws ec2 run-instances --region 'us-east-1, " \
	"\"\"N. Virginia\"\"' --instance-type 'p4de.24xlarge' --image-id IMAGE " \
	"--count " #n " --key-name KEY"
#define AWS_LAUNCH_CSV(n) ",\"" AWS_RUN(n) "\",\"" AWS_RUN(n) \
	" --placement 'AvailabilityZoneId=use1-az4'" \
	" --instance-market-options 'MarketType=spot,SpotOptions={" \
	"SpotInstanceType=one-time,InstanceInterruptionBehavior=terminate}'\"" \
	",use1-az4,on-demand=L-417A185B spot=L-7212CCBC,,"
/* committed (none) and the --term fields (null without --term). */
/* No committed prices; then price_from, empty too (after --hours' total). */
#define COMMITTED_NONE	",[],,,,,"
#define VAST_LAUNCH	"vastai create instance OFFER_ID --image IMAGE --disk 50"
/* Two nodes of p4de: in one cluster placement group, joined by EFA. */
#define AWS_GROUP	"aws ec2 create-placement-group --region 'us-east-1, " \
	"\"\"N. Virginia\"\"' --group-name gpucost --strategy cluster && "
#define AWS_EFA(i, d)	" NetworkCardIndex=" #i ",DeviceIndex=" #d ",Groups=" \
	"SECURITY_GROUP,SubnetId=SUBNET,InterfaceType=efa"
#define AWS_RUN2	AWS_GROUP AWS_RUN(2) " --placement GroupName=gpucost" \
	" --network-interfaces" AWS_EFA(0, 0) AWS_EFA(1, 1) AWS_EFA(2, 1) \
	AWS_EFA(3, 1)
#define AWS_LAUNCH2_CSV ",\"" AWS_RUN2 "\",\"" AWS_GROUP AWS_RUN(2) \
	" --placement 'GroupName=gpucost,AvailabilityZoneId=use1-az4'" \
	" --network-interfaces" AWS_EFA(0, 0) AWS_EFA(1, 1) AWS_EFA(2, 1) \
	AWS_EFA(3, 1) \
	" --instance-market-options 'MarketType=spot,SpotOptions={" \
	"SpotInstanceType=one-time,InstanceInterruptionBehavior=terminate}'\"" \
	",use1-az4,on-demand=L-417A185B spot=L-7212CCBC,,"
#define AWS_FABRIC_CSV	",efa,400,true,placement-group,8"
/* regions: where the offer can be started, its own region. */
#define AWS_REGIONS_CSV	",\"us-east-1, \"\"N. Virginia\"\"\""

/* Three plans: an 8 x A100-80 offer, an unknown GPU, 2 nodes of the first. */
struct fixture {
	struct offer	o[2];
	struct plan	p[3];
};

static struct fixture fx;

static void
fixture_init(void)
{
	struct offer *a = &fx.o[0], *b = &fx.o[1];

	offer_init(a);
	a->provider = tstr("aws");
	a->key = tstr("p4de.24xlarge/us-east-1");
	a->instance_type = tstr("p4de.24xlarge");
	a->region = tstr("us-east-1, \"N. Virginia\"");
	a->gpu = tstr("A100-80");
	a->gpu_raw = tstr("A100-80GB");
	a->gpu_count = 8;
	a->vram_gb = 80;
	a->interconnect = IC_NVLINK;
	a->vcpus = 96;
	a->ram_gb = 1152;
	a->price = 27447050;		/* 27.44705 */
	a->spot_price = 11500000;	/* 11.50 */
	a->availability = AV_AVAILABLE;
	a->spot_interruption = 1;	/* 5-10% */
	a->fetched_at = JAN1;
	a->source = SRC_LIVE;
	a->notes = NOTE_BIT(NOTE_SPOT_CHEAPEST_ZONE);
	a->spot_zone = tstr("use1-az4");

	offer_init(b);
	b->provider = tstr("vast");
	b->key = tstr("k2");
	b->instance_type = tstr("inst2");
	b->region = tstr("US, NA");
	b->gpu_raw = tstr("Mystery GPU");
	b->gpu_count = 1;
	b->price = 350000;		/* 0.35, no spot */
	memcpy(b->currency, "EUR", 4);	/* 0.324 EUR at 1.08 USD */
	b->price_original = 324000;
	b->reliability = 0.9876;
	b->fetched_at = APR29;
	b->source = SRC_SNAPSHOT;
	b->notes = NOTE_BIT(NOTE_SINGLE_LISTING);

	/* As the cache gives them: with data/fabric.tsv's line. */
	offer_set_fabric(a);
	offer_set_fabric(b);
	cost_plan(&fx.p[0], a, 1);
	cost_plan(&fx.p[1], b, 1);
	cost_plan(&fx.p[2], a, 2);
}

static int
setup(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof fx);
	fixture_init();
	return 0;
}

static void
opts_init(struct output_opts *o, enum output_format format, double hours)
{
	memset(o, 0, sizeof *o);
	o->format = format;
	o->hours = hours;
	o->now = NOW;
	o->matched = 3;
}

/* Run output_plans into a string (caller frees). */
static char *
render(const struct output_opts *opts, const struct plan *plans, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(output_plans(f, opts, plans, n), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

/* Line i (0-based) of text, without its end, into out. */
static void
line_of(const char *text, size_t i, const char *eol, char *out, size_t size)
{
	const char *p = text, *e;

	while (i-- > 0) {
		p = strstr(p, eol);
		assert_non_null(p);
		p += strlen(eol);
	}
	e = strstr(p, eol);
	assert_non_null(e);
	assert_true((size_t)(e - p) < size);
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = '\0';
}

static size_t
count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)) != NULL; hay += strlen(needle))
		n++;
	return n;
}

/* ------------------------------------------------------------------ */
/* Fields                                                             */
/* ------------------------------------------------------------------ */

static void
test_fields_contract(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; contract_fields[i] != NULL; i++) {
		assert_non_null(output_fields[i]);
		assert_string_equal(output_fields[i], contract_fields[i]);
	}
	assert_int_equal(i, NFIELDS);
	assert_null(output_fields[i]);
}

static void
test_field_shown(void **state)
{
	struct output_opts o;
	struct train t;
	size_t i;

	(void)state;
	opts_init(&o, OUTPUT_CSV, -1);
	for (i = 0; i < NFIELDS; i++)
		assert_int_equal(output_field_shown(i, &o),
		    !IS_TOTAL(i) && !IS_TRAIN(i));
	o.hours = 0;
	for (i = 0; i < NFIELDS; i++)
		assert_int_equal(output_field_shown(i, &o), !IS_TRAIN(i));
	o.hours = 2.5;
	for (i = 0; i < NFIELDS; i++)
		assert_int_equal(output_field_shown(i, &o), !IS_TRAIN(i));
	o.train = &t;
	for (i = 0; i < NFIELDS; i++)
		assert_true(output_field_shown(i, &o));
}

/* Issue 46: the job's fields of a plan with --train, exactly. */
static void
test_train_fields(void **state)
{
	static const struct {
		const char *field;
		enum field_kind kind;
		const char *text;
	} want[] = {
		/* 8.4e22 / (312e12 x 0.40) / 3600 */
		{ "gpu_hours", FIELD_NUMBER, "186965.811966" },
		{ "job_hours", FIELD_NUMBER, "23370.726496" },
		/* 27.44705 x 23370.726496, to the micro-USD */
		{ "job_cost", FIELD_NUMBER, "641457.498665" },
		{ "egress_cost", FIELD_NUMBER, "891.00" },
		{ "job_scaling", FIELD_NUMBER, "1.00" },
		{ "job_cost_per_1b_tokens", FIELD_NUMBER, "320.728749" },
		{ "job_term", FIELD_NULL, "" },
		{ "job_term_cost", FIELD_NULL, "" },
	};
	struct output_opts o;
	struct plan_job job;
	struct train t;
	char buf[OUTPUT_VALUE_MAX];
	size_t i, f;

	(void)state;
	train_init(&t);
	assert_int_equal(train_parse("7B:2T", &t, NULL), 0);
	t.egress_gb = 10000;
	fx.o[0].region = tstr("us-east-1");
	cost_plan_train(&fx.p[0], &t, false, &job);
	opts_init(&o, OUTPUT_CSV, -1);
	o.train = &t;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (f = 0; output_fields[f] != NULL; f++)
			if (strcmp(output_fields[f], want[i].field) == 0)
				break;
		assert_non_null(output_fields[f]);
		assert_int_equal(output_field_value(f, &fx.p[0], &o, buf,
		    sizeof buf), want[i].kind);
		if (want[i].kind != FIELD_NULL)
			assert_string_equal(buf, want[i].text);
	}
	/* Spot: more hours than on demand (5-10 %: 7.5 % a month). */
	for (f = 0; strcmp(output_fields[f], "spot_job_hours") != 0; f++)
		;
	output_field_value(f, &fx.p[0], &o, buf, sizeof buf);
	assert_true(strtod(buf, NULL) > job.hours);
	/* A plan without a job: null. */
	for (f = 0; strcmp(output_fields[f], "job_cost") != 0; f++)
		;
	assert_int_equal(output_field_value(f, &fx.p[1], &o, buf,
	    sizeof buf), FIELD_NULL);
}

/* Every field of the three plans, exactly. */
static void
test_field_values(void **state)
{
	static const struct {
		size_t plan;
		const char *field;
		enum field_kind kind;
		const char *text;
	} want[] = {
		{ 0, "provider", FIELD_STRING, "aws" },
		{ 0, "instance_type", FIELD_STRING, "p4de.24xlarge" },
		{ 0, "region", FIELD_STRING, "us-east-1, \"N. Virginia\"" },
		{ 0, "gpu", FIELD_STRING, "A100-80" },
		{ 0, "gpu_raw", FIELD_STRING, "A100-80GB" },
		{ 0, "gpu_count", FIELD_NUMBER, "8" },
		{ 0, "nodes", FIELD_NUMBER, "1" },
		{ 0, "total_gpus", FIELD_NUMBER, "8" },
		{ 0, "vram_gb", FIELD_NUMBER, "80" },
		{ 0, "interconnect", FIELD_STRING, "nvlink" },
		{ 0, "vcpus", FIELD_NUMBER, "96" },
		{ 0, "ram_gb", FIELD_NUMBER, "1152" },
		{ 0, "price_hour", FIELD_NUMBER, "27.44705" },
		/* 27.44705 / 8 = 3.43088125, rounded to the micro-USD. */
		{ 0, "price_gpu_hour", FIELD_NUMBER, "3.430881" },
		{ 0, "spot_hour", FIELD_NUMBER, "11.50" },
		{ 0, "spot_gpu_hour", FIELD_NUMBER, "1.4375" },
		/* 100 * (1 - 11.5 / 27.44705) = 58.1011... */
		{ 0, "spot_savings_pct", FIELD_NUMBER, "58.1" },
		/* 3.430881 / (312 / 1000) = 10.99641... */
		{ 0, "usd_per_pflop_hour", FIELD_NUMBER, "10.9964" },
		{ 0, "availability", FIELD_STRING, "available" },
		{ 0, "spot_interruption", FIELD_STRING, "5-10%" },
		{ 0, "reliability", FIELD_NULL, "" },
		{ 0, "source", FIELD_STRING, "live" },
		{ 0, "fetched_at", FIELD_STRING, "2026-01-01T00:00:00Z" },
		{ 0, "key", FIELD_STRING, "p4de.24xlarge/us-east-1" },
		{ 0, "total_cost", FIELD_NUMBER, "274.4705" },
		{ 0, "total_spot_cost", FIELD_NUMBER, "115.00" },

		{ 1, "gpu", FIELD_NULL, "" },
		{ 1, "gpu_raw", FIELD_STRING, "Mystery GPU" },
		{ 1, "vram_gb", FIELD_NULL, "" },
		{ 1, "interconnect", FIELD_STRING, "unknown" },
		{ 1, "vcpus", FIELD_NULL, "" },
		{ 1, "ram_gb", FIELD_NULL, "" },
		{ 1, "price_hour", FIELD_NUMBER, "0.35" },
		{ 1, "price_gpu_hour", FIELD_NUMBER, "0.35" },
		{ 1, "spot_hour", FIELD_NULL, "" },
		{ 1, "spot_gpu_hour", FIELD_NULL, "" },
		{ 1, "spot_savings_pct", FIELD_NULL, "" },
		{ 1, "usd_per_pflop_hour", FIELD_NULL, "" },
		{ 1, "availability", FIELD_STRING, "unknown" },
		{ 1, "spot_interruption", FIELD_NULL, "" },
		{ 1, "reliability", FIELD_NUMBER, "0.9876" },
		{ 1, "source", FIELD_STRING, "snapshot" },
		{ 1, "fetched_at", FIELD_STRING, "2026-04-29T00:00:00Z" },
		{ 1, "total_cost", FIELD_NUMBER, "3.50" },
		{ 1, "total_spot_cost", FIELD_NULL, "" },

		{ 2, "nodes", FIELD_NUMBER, "2" },
		{ 2, "total_gpus", FIELD_NUMBER, "16" },
		{ 2, "gpu_count", FIELD_NUMBER, "8" },
		{ 2, "price_hour", FIELD_NUMBER, "54.8941" },
		{ 2, "price_gpu_hour", FIELD_NUMBER, "3.430881" },
		{ 2, "spot_hour", FIELD_NUMBER, "23.00" },
		{ 2, "spot_gpu_hour", FIELD_NUMBER, "1.4375" },
		{ 2, "total_cost", FIELD_NUMBER, "548.941" },
		{ 2, "total_spot_cost", FIELD_NUMBER, "230.00" },
	};
	struct output_opts o;
	char buf[256];
	size_t i, f;
	enum field_kind kind;

	(void)state;
	opts_init(&o, OUTPUT_JSON, 10);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (f = 0; output_fields[f] != NULL; f++)
			if (strcmp(output_fields[f], want[i].field) == 0)
				break;
		assert_non_null(output_fields[f]);
		memset(buf, 'X', sizeof buf);
		kind = output_field_value(f, &fx.p[want[i].plan], &o, buf,
		    sizeof buf);
		if (kind != want[i].kind || strcmp(buf, want[i].text) != 0)
			fail_msg("plan %zu %s: kind %d \"%s\", want %d \"%s\"",
			    want[i].plan, want[i].field, (int)kind, buf,
			    (int)want[i].kind, want[i].text);
	}
}

static void
test_iso8601_and_format_parse(void **state)
{
	enum output_format f;
	char buf[32];

	(void)state;
	assert_int_equal(output_iso8601(NOW, buf, sizeof buf), 20);
	assert_string_equal(buf, "2026-05-20T00:00:00Z");
	output_iso8601(0, buf, sizeof buf);
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
	output_iso8601(JAN1 + 3661, buf, sizeof buf);
	assert_string_equal(buf, "2026-01-01T01:01:01Z");

	assert_int_equal(output_format_parse("table", &f), 0);
	assert_int_equal(f, OUTPUT_TABLE);
	assert_int_equal(output_format_parse("csv", &f), 0);
	assert_int_equal(f, OUTPUT_CSV);
	assert_int_equal(output_format_parse("tsv", &f), 0);
	assert_int_equal(f, OUTPUT_TSV);
	assert_int_equal(output_format_parse("JSON", &f), 0);
	assert_int_equal(f, OUTPUT_JSON);
	assert_int_equal(output_format_parse("xml", &f), -1);
	assert_int_equal(output_format_parse("", &f), -1);
	assert_int_equal(output_format_parse("csvx", &f), -1);
}

/* ------------------------------------------------------------------ */
/* CSV and TSV                                                        */
/* ------------------------------------------------------------------ */

static void
test_csv(void **state)
{
	struct output_opts o;
	char *out, want[1024];
	size_t i, len = 0;

	(void)state;
	opts_init(&o, OUTPUT_CSV, -1);
	out = render(&o, fx.p, 3);
	/* Header: the contract's fields without the totals, CRLF. */
	for (i = 0; i < NFIELDS_NO_TOTALS; i++)
		len += (size_t)snprintf(want + len, sizeof want - len, "%s%s",
		    i == 0 ? "" : ",", contract_fields[shown_no_totals(i)]);
	snprintf(want + len, sizeof want - len, "\r\n");
	assert_int_equal(strncmp(out, want, strlen(want)), 0);
	/* The rows, RFC 4180: quotes doubled inside a quoted field. */
	assert_string_equal(out + strlen(want),
	    "aws,p4de.24xlarge,\"us-east-1, \"\"N. Virginia\"\"\",A100-80,"
	    "A100-80GB,8,1,8,80,nvlink,96,1152,27.44705,3.430881,11.50,"
	    "1.4375,58.1,10.9964,available,5-10%,,live,2026-01-01T00:00:00Z,"
	    "p4de.24xlarge/us-east-1,spot-cheapest-zone;stale;spot-history,"
	    "p4de.24xlarge/us-east-1,,use1-az4,USD,27.44705,sxm,,,12,144"
	    AWS_LAUNCH_CSV(1) AWS_FABRIC_CSV ",single-node," COMMITTED_NONE
	    AWS_REGIONS_CSV "\r\n"
	    "vast,inst2,\"US, NA\",,Mystery GPU,1,1,1,,unknown,,,0.35,0.35,,,,,"
	    "unknown,,0.9876,snapshot,2026-04-29T00:00:00Z,k2,single-listing,"
	    "k2,,,EUR,0.324,,US,NA,,," VAST_LAUNCH ",,,,,,,,,,1,single-node,"
	    COMMITTED_NONE ",\"US, NA\"\r\n"
	    "aws,p4de.24xlarge,\"us-east-1, \"\"N. Virginia\"\"\",A100-80,"
	    "A100-80GB,8,2,16,80,nvlink,96,1152,54.8941,3.430881,23.00,"
	    "1.4375,58.1,10.9964,available,5-10%,,live,2026-01-01T00:00:00Z,"
	    "p4de.24xlarge/us-east-1,spot-cheapest-zone;stale;spot-history,"
	    "p4de.24xlarge/us-east-1;p4de.24xlarge/us-east-1,efa,use1-az4,"
	    "USD,27.44705,sxm,,,12,144" AWS_LAUNCH2_CSV AWS_FABRIC_CSV
	    ",multi-node,\"start the 2 nodes in one cluster placement group "
	    "(aws ec2 create-placement-group --group-name gpucost --strategy "
	    "cluster; run-instances --placement GroupName=gpucost) or a "
	    "Capacity Block; attach all 4 EFA interfaces (one per network "
	    "card; private IPs only: AWS gives no public IPv4 to an instance "
	    "with several); a security group that allows all traffic to and "
	    "from itself; NCCL needs the aws-ofi-nccl plugin and libfabric, "
	    "else it falls back to TCP\"" COMMITTED_NONE AWS_REGIONS_CSV "\r\n");
	/* Every line ends CRLF: no bare LF. */
	assert_int_equal(count_str(out, "\n"), 4);
	assert_int_equal(count_str(out, "\r\n"), 4);
	free(out);
}

static void
test_csv_totals_and_quoting(void **state)
{
	struct output_opts o;
	char *out, line[1024];

	(void)state;
	/* A quote alone, a line break and a CR each force quoting. */
	fx.o[1].gpu_raw = tstr("say \"hi\"");
	fx.o[1].instance_type = tstr("two\nlines");
	fx.o[1].key = tstr("cr\rkey");
	fx.o[1].region = tstr("plain");
	opts_init(&o, OUTPUT_CSV, 10);
	out = render(&o, &fx.p[1], 1);
	line_of(out, 0, "\r\n", line, sizeof line);
	assert_non_null(strstr(line,
	    ",key,total_cost,total_spot_cost,notes,"));
	assert_string_equal(out + strlen(line) + 2,
	    "vast,\"two\nlines\",plain,,\"say \"\"hi\"\"\",1,1,1,,unknown,,,"
	    "0.35,0.35,,,,,unknown,,0.9876,snapshot,2026-04-29T00:00:00Z,"
	    "\"cr\rkey\",3.50,,single-listing,\"cr\rkey\",,,EUR,0.324,,,,,,"
	    VAST_LAUNCH ",,,,,,,,,,1,single-node," COMMITTED_NONE ",,plain\r\n");
	free(out);

	/* No plans: the header alone. */
	opts_init(&o, OUTPUT_CSV, -1);
	out = render(&o, fx.p, 0);
	assert_int_equal(count_str(out, "\r\n"), 1);
	assert_int_equal(strncmp(out, "provider,instance_type,", 23), 0);
	free(out);
}

static void
test_tsv(void **state)
{
	struct output_opts o;
	char *out, want[1024];
	size_t i, len = 0;

	(void)state;
	fx.o[1].region = tstr("tab\there");
	fx.o[1].gpu_raw = tstr("nl\nand\rcr \"q\"");
	opts_init(&o, OUTPUT_TSV, 2);
	out = render(&o, &fx.p[1], 1);
	for (i = 0; i < NFIELDS_NO_TRAIN; i++)
		len += (size_t)snprintf(want + len, sizeof want - len, "%s%s",
		    i == 0 ? "" : "\t", contract_fields[i]);
	snprintf(want + len, sizeof want - len, "\n");
	assert_int_equal(strncmp(out, want, strlen(want)), 0);
	/* No quoting: tabs and line breaks become spaces, quotes stay. */
	assert_string_equal(out + strlen(want),
	    "vast\tinst2\ttab here\t\tnl and cr \"q\"\t1\t1\t1\t\tunknown\t\t\t"
	    "0.35\t0.35\t\t\t\t\tunknown\t\t0.9876\tsnapshot\t"
	    "2026-04-29T00:00:00Z\tk2\t0.70\t\tsingle-listing\tk2\t\t\tEUR\t"
	    "0.324\t\t\t\t\t\t" VAST_LAUNCH "\t\t\t\t\t\t\t\t\t\t1\t"
	    "single-node\t\t[]\t\t\t\t\t\t\ttab here\n");
	assert_null(strchr(out, '\r'));
	free(out);
}

/* ------------------------------------------------------------------ */
/* JSON                                                               */
/* ------------------------------------------------------------------ */

static double
num(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsNumber(v))
		fail_msg("\"%s\" is not a number", name);
	return v->valuedouble;
}

static const char *
str(const cJSON *obj, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsString(v))
		fail_msg("\"%s\" is not a string", name);
	return v->valuestring;
}

static int
is_null(const cJSON *obj, const char *name)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(obj, name));
}

/* A JSON array of strings as "a,b"; fails on anything else. */
static const char *
list(const cJSON *obj, const char *name)
{
	static char buf[1024];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name), *e;
	size_t len = 0;

	if (!cJSON_IsArray(v))
		fail_msg("\"%s\" is not an array", name);
	buf[0] = '\0';
	cJSON_ArrayForEach(e, v) {
		if (!cJSON_IsString(e))
			fail_msg("\"%s\" has a non-string item", name);
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
		    len > 0 ? "," : "", e->valuestring);
	}
	return buf;
}

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void
test_json(void **state)
{
	struct provider_status st[2];
	struct output_opts o;
	const cJSON *offers, *a, *b, *c, *provs, *f;
	cJSON *root;
	char *out;
	size_t i;

	(void)state;
	memset(st, 0, sizeof st);
	str_copy(st[0].provider, sizeof st[0].provider, "aws");
	st[0].source = SRC_LIVE;
	st[0].offer_count = 5;
	st[0].oldest = JAN1;
	st[0].newest = JAN1 + 3600;
	st[0].last_success = JAN1 + 7200;
	str_copy(st[1].provider, sizeof st[1].provider, "gcp");
	st[1].source = SRC_SNAPSHOT;
	strcpy(st[1].last_error, "HTTP 503: \"busy\"\tbye");

	opts_init(&o, OUTPUT_JSON, -1);
	o.status = st;
	o.nstatus = 2;
	o.matched = 7;
	out = render(&o, fx.p, 3);
	root = cJSON_Parse(out);
	if (root == NULL)
		fail_msg("not JSON: %s", out);
	assert_true(cJSON_IsObject(root));
	assert_string_equal(str(root, "generated_at"), "2026-05-20T00:00:00Z");
	assert_true(near(num(root, "matched"), 7));
	assert_true(near(num(root, "count"), 3));
	/* No --hours: no "hours", no totals. */
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "hours"));

	provs = cJSON_GetObjectItemCaseSensitive(root, "providers");
	assert_true(cJSON_IsArray(provs));
	assert_int_equal(cJSON_GetArraySize(provs), 2);
	a = cJSON_GetArrayItem(provs, 0);
	assert_string_equal(str(a, "provider"), "aws");
	assert_string_equal(str(a, "source"), "live");
	assert_true(near(num(a, "offers"), 5));
	assert_string_equal(str(a, "oldest_fetched_at"),
	    "2026-01-01T00:00:00Z");
	assert_string_equal(str(a, "newest_fetched_at"),
	    "2026-01-01T01:00:00Z");
	assert_true(near(num(a, "age_seconds"), NOW - JAN1));
	assert_string_equal(str(a, "last_success"), "2026-01-01T02:00:00Z");
	assert_true(is_null(a, "last_error"));
	b = cJSON_GetArrayItem(provs, 1);
	assert_string_equal(str(b, "provider"), "gcp");
	assert_string_equal(str(b, "source"), "snapshot");
	assert_true(near(num(b, "offers"), 0));
	assert_true(is_null(b, "oldest_fetched_at"));
	assert_true(is_null(b, "newest_fetched_at"));
	assert_true(is_null(b, "age_seconds"));
	assert_true(is_null(b, "last_success"));
	assert_string_equal(str(b, "last_error"), "HTTP 503: \"busy\"\tbye");

	offers = cJSON_GetObjectItemCaseSensitive(root, "offers");
	assert_true(cJSON_IsArray(offers));
	assert_int_equal(cJSON_GetArraySize(offers), 3);
	/* Each offer has exactly the contract's fields, in order. */
	for (i = 0; i < 3; i++) {
		size_t k = 0;

		cJSON_ArrayForEach(f, cJSON_GetArrayItem(offers, (int)i)) {
			assert_true(k < NFIELDS_NO_TOTALS);
			assert_string_equal(f->string,
			    contract_fields[shown_no_totals(k)]);
			k++;
		}
		assert_int_equal(k, NFIELDS_NO_TOTALS);
	}
	a = cJSON_GetArrayItem(offers, 0);
	assert_string_equal(str(a, "provider"), "aws");
	assert_string_equal(str(a, "region"), "us-east-1, \"N. Virginia\"");
	assert_string_equal(str(a, "gpu"), "A100-80");
	assert_true(near(num(a, "gpu_count"), 8));
	assert_true(near(num(a, "nodes"), 1));
	assert_true(near(num(a, "price_hour"), 27.44705));
	assert_true(near(num(a, "price_gpu_hour"), 3.430881));
	assert_true(near(num(a, "spot_hour"), 11.5));
	assert_true(near(num(a, "spot_savings_pct"), 58.1));
	assert_true(near(num(a, "usd_per_pflop_hour"), 10.9964));
	assert_true(near(num(a, "ram_gb"), 1152));
	assert_string_equal(str(a, "spot_interruption"), "5-10%");
	assert_true(is_null(a, "reliability"));
	assert_string_equal(str(a, "fetched_at"), "2026-01-01T00:00:00Z");
	/* Exact decimal text, not a rounded double. */
	assert_non_null(strstr(out, "\"price_hour\": 27.44705,"));
	assert_non_null(strstr(out, "\"price_gpu_hour\": 3.430881,"));

	b = cJSON_GetArrayItem(offers, 1);
	assert_true(is_null(b, "gpu"));
	assert_string_equal(str(b, "gpu_raw"), "Mystery GPU");
	assert_true(is_null(b, "vram_gb"));
	assert_true(is_null(b, "spot_hour"));
	assert_true(is_null(b, "spot_gpu_hour"));
	assert_true(is_null(b, "spot_savings_pct"));
	assert_true(is_null(b, "usd_per_pflop_hour"));
	assert_true(is_null(b, "spot_interruption"));
	assert_true(near(num(b, "reliability"), 0.9876));
	assert_true(near(num(b, "price_hour"), 0.35));
	/* Form, place and host per GPU; null when unknown. */
	assert_string_equal(str(a, "form"), "sxm");
	assert_true(near(num(a, "vcpus_per_gpu"), 12));
	assert_true(near(num(a, "ram_gb_per_gpu"), 144));
	assert_true(is_null(a, "country"));
	assert_true(is_null(b, "form"));
	assert_string_equal(str(b, "country"), "US");
	assert_string_equal(str(b, "continent"), "NA");
	assert_true(is_null(b, "vcpus_per_gpu"));
	assert_true(is_null(b, "ram_gb_per_gpu"));

	c = cJSON_GetArrayItem(offers, 2);
	assert_true(near(num(c, "nodes"), 2));
	assert_true(near(num(c, "total_gpus"), 16));
	assert_true(near(num(c, "price_hour"), 54.8941));

	/* Notes: an array, always; stale and spot-history (a spot price
	 * of data more than 7 days old) added at query time. */
	assert_string_equal(list(a, "notes"),
	    "spot-cheapest-zone,stale,spot-history");
	assert_string_equal(list(b, "notes"), "single-listing");
	assert_string_equal(str(a, "spot_zone"), "use1-az4");
	assert_true(is_null(b, "spot_zone"));
	/* A plan lists the offer of each node; nodes joined by EFA. */
	assert_string_equal(list(a, "node_keys"), "p4de.24xlarge/us-east-1");
	assert_string_equal(list(c, "node_keys"),
	    "p4de.24xlarge/us-east-1,p4de.24xlarge/us-east-1");
	assert_true(is_null(a, "inter_node"));
	assert_string_equal(str(c, "inter_node"), "efa");
	fx.o[1].notes = 0;
	fx.o[1].fetched_at = NOW;
	cJSON_Delete(root);
	free(out);
	out = render(&o, &fx.p[1], 1);
	assert_non_null(strstr(out, "\"notes\": [],"));
	free(out);
}

static void
test_json_hours(void **state)
{
	struct output_opts o;
	const cJSON *offers, *a, *b, *c;
	cJSON *root;
	char *out;

	(void)state;
	opts_init(&o, OUTPUT_JSON, 10);
	out = render(&o, fx.p, 3);
	root = cJSON_Parse(out);
	assert_non_null(root);
	assert_true(near(num(root, "hours"), 10));
	offers = cJSON_GetObjectItemCaseSensitive(root, "offers");
	a = cJSON_GetArrayItem(offers, 0);
	b = cJSON_GetArrayItem(offers, 1);
	c = cJSON_GetArrayItem(offers, 2);
	/* price x hours, exactly. */
	assert_true(near(num(a, "total_cost"), 274.4705));
	assert_true(near(num(a, "total_spot_cost"), 115.0));
	assert_true(near(num(b, "total_cost"), 3.5));
	assert_true(is_null(b, "total_spot_cost"));
	assert_true(near(num(c, "total_cost"), 548.941));
	assert_true(near(num(c, "total_spot_cost"), 230.0));
	assert_non_null(strstr(out, "\"total_cost\": 274.4705,"));
	assert_non_null(strstr(out, "\"total_cost\": 548.941,"));
	/* total_spot_cost comes before the appended fields. */
	assert_string_equal(cJSON_GetArrayItem(a, 25)->string,
	    "total_spot_cost");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    27)->string, "price_original");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    16)->string, "launch_vertex");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    9)->string, "cluster_setup");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    3)->string, "total_term_cost");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    2)->string, "price_from");
	assert_string_equal(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN -
	    1)->string, "regions");
	/* Without --train, the last: no job's fields. */
	assert_null(cJSON_GetArrayItem(a, NFIELDS_NO_TRAIN));
	cJSON_Delete(root);
	free(out);

	/* hours = 0 counts as given: totals of 0. */
	opts_init(&o, OUTPUT_JSON, 0);
	out = render(&o, fx.p, 1);
	root = cJSON_Parse(out);
	assert_non_null(root);
	assert_true(near(num(root, "hours"), 0));
	a = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "offers"),
	    0);
	assert_true(near(num(a, "total_cost"), 0));
	cJSON_Delete(root);
	free(out);

	/* Fractional hours round to the micro-USD: 0.35 x 1.5 = 0.525. */
	opts_init(&o, OUTPUT_JSON, 1.5);
	out = render(&o, &fx.p[1], 1);
	assert_non_null(strstr(out, "\"total_cost\": 0.525,"));
	free(out);
}

static void
test_json_empty(void **state)
{
	struct output_opts o;
	cJSON *root;
	char *out;

	(void)state;
	opts_init(&o, OUTPUT_JSON, -1);
	o.matched = 0;
	out = render(&o, fx.p, 0);
	root = cJSON_Parse(out);
	if (root == NULL)
		fail_msg("not JSON: %s", out);
	assert_true(near(num(root, "matched"), 0));
	assert_true(near(num(root, "count"), 0));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    root, "offers")), 0);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    root, "providers")), 0);
	cJSON_Delete(root);
	free(out);
}

/* --limit: count is what is printed, matched what matched. */
static void
test_json_matched_count(void **state)
{
	struct output_opts o;
	cJSON *root;
	char *out;

	(void)state;
	opts_init(&o, OUTPUT_JSON, -1);
	o.matched = 42;
	out = render(&o, fx.p, 2);
	root = cJSON_Parse(out);
	assert_non_null(root);
	assert_true(near(num(root, "matched"), 42));
	assert_true(near(num(root, "count"), 2));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    root, "offers")), 2);
	cJSON_Delete(root);
	free(out);
}

static void
test_json_string_escaping(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	cJSON *v;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	output_json_string(f, "a\"b\\c\001d\te\nf\rg\037h\177i/\xc3\xa9");
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\u0001d\\te\\nf\\rg\\u001fh"
	    "\\u007fi/\xc3\xa9\"");
	v = cJSON_Parse(buf);
	assert_non_null(v);
	assert_true(cJSON_IsString(v));
	assert_string_equal(v->valuestring,
	    "a\"b\\c\001d\te\nf\rg\037h\177i/\xc3\xa9");
	cJSON_Delete(v);
	free(buf);

	f = open_memstream(&buf, &len);
	output_json_string(f, "");
	fclose(f);
	assert_string_equal(buf, "\"\"");
	free(buf);
}

/* Escaping inside a whole document: it stays parseable. */
static void
test_json_escaping_document(void **state)
{
	struct output_opts o;
	const cJSON *a;
	cJSON *root;
	char *out;

	(void)state;
	fx.o[1].gpu_raw = tstr("q\"b\\s\001c\x1b[31m");
	fx.o[1].region = tstr("line\nbreak\ttab");
	fx.o[1].key = tstr("k\"ey");
	opts_init(&o, OUTPUT_JSON, -1);
	out = render(&o, &fx.p[1], 1);
	root = cJSON_Parse(out);
	if (root == NULL)
		fail_msg("not JSON: %s", out);
	a = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "offers"),
	    0);
	assert_string_equal(str(a, "gpu_raw"), "q\"b\\s\001c\x1b[31m");
	assert_string_equal(str(a, "region"), "line\nbreak\ttab");
	assert_string_equal(str(a, "key"), "k\"ey");
	/* No raw control byte in the document besides its own newlines. */
	assert_null(strchr(out, '\001'));
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\t'));
	cJSON_Delete(root);
	free(out);
}

/* ------------------------------------------------------------------ */
/* Table                                                              */
/* ------------------------------------------------------------------ */

/* Split a table line into cells at runs of two or more spaces. */
static size_t
cells_of(const char *line, char cells[][64], size_t max)
{
	size_t n = 0, len;
	const char *p = line, *e;

	while (*p == ' ')
		p++;
	while (*p != '\0' && n < max) {
		e = strstr(p, "  ");
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		assert_true(len < 64);
		memcpy(cells[n], p, len);
		cells[n][len] = '\0';
		n++;
		if (e == NULL)
			break;
		p = e;
		while (*p == ' ')
			p++;
	}
	return n;
}

static void
test_table_full(void **state)
{
	static const char *const headers[] = {
		"PROVIDER", "INSTANCE", "REGION", "GPUS", "VRAM", "LINK", "$/H",
		"$/GPU-H", "NOTE", "SPOT $/H", "SPOT/GPU-H", "SAVE",
		"$/PFLOP-H", "CPU/GPU", "RAM/GPU", "AVAIL", "AGE", "FABRIC",
		"NODE GB/S"
	};
	/* Each number column has one number of decimals. */
	static const char *const row0[] = {
		"aws", "p4de.24xlarge", "us-east-1, \"N. Virginia\"",
		"8x A100-80", "80G", "nvlink", "27.4471", "3.4309", "zoH",
		"11.5000", "1.4375", "58%", "11.00", "12.0", "144G", "yes", "139d",
		"efa", "400"
	};
	static const char *const row1[] = {
		"vast", "inst2", "US, NA", "1x Mystery GPU?", "-", "-", "0.3500",
		"0.3500", "1", "-", "-", "-", "-", "-", "-", "?", "21d", "-", "-"
	};
	char cells[20][64], line[512];
	struct output_opts o;
	size_t n, i;
	char *out;

	(void)state;
	opts_init(&o, OUTPUT_TABLE, -1);
	o.width = 0;	/* no limit */
	out = render(&o, fx.p, 3);
	assert_int_equal(count_str(out, "\n"), 4);
	line_of(out, 0, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_int_equal(n, 19);
	for (i = 0; i < n; i++)
		assert_string_equal(cells[i], headers[i]);
	line_of(out, 1, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_int_equal(n, 19);
	for (i = 0; i < n; i++)
		assert_string_equal(cells[i], row0[i]);
	/* Unknown values are "-" (and an unknown GPU is marked "?"). */
	line_of(out, 2, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_int_equal(n, 19);
	for (i = 0; i < n; i++)
		assert_string_equal(cells[i], row1[i]);
	line_of(out, 3, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_string_equal(cells[3], "2 nodes x 8 A100-80");
	assert_string_equal(cells[6], "54.8941");
	free(out);
}

/* Columns line up: every row's cells start where the header's do. */
static void
test_table_aligned(void **state)
{
	struct output_opts o;
	char *out, l0[512], l1[512], l2[512];

	(void)state;
	opts_init(&o, OUTPUT_TABLE, -1);
	out = render(&o, fx.p, 2);
	line_of(out, 0, "\n", l0, sizeof l0);
	line_of(out, 1, "\n", l1, sizeof l1);
	line_of(out, 2, "\n", l2, sizeof l2);
	/* Left-aligned GPUS column: same start offset in all lines. */
	assert_true(strstr(l0, "GPUS") - l0 == strstr(l1, "8x A100-80") - l1);
	assert_true(strstr(l0, "GPUS") - l0 ==
	    strstr(l2, "1x Mystery GPU?") - l2);
	/* Right-aligned $/GPU-H: same end offset. */
	assert_true(strstr(l0, "$/GPU-H") - l0 + 7 ==
	    strstr(l1, "3.4309") - l1 + 6);
	free(out);
}

static void
test_table_totals(void **state)
{
	struct output_opts o;
	char cells[20][64], line[512];
	char *out;
	size_t n;

	(void)state;
	opts_init(&o, OUTPUT_TABLE, 10);
	out = render(&o, fx.p, 2);
	line_of(out, 0, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_int_equal(n, 19);
	assert_string_equal(cells[17], "TOTAL $");
	assert_string_equal(cells[18], "SPOT TOTAL $");
	line_of(out, 1, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_int_equal(n, 19);
	assert_string_equal(cells[17], "274.47");
	assert_string_equal(cells[18], "115.00");
	line_of(out, 2, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	assert_string_equal(cells[17], "3.50");
	assert_string_equal(cells[18], "-");
	free(out);
}

/* At width 60 the least important columns go first (issue 45's order). */
static void
test_table_width_60(void **state)
{
	static const char *const kept[] = {
		"PROVIDER", "INSTANCE", "REGION", "GPUS", "LINK", "$/H",
		"$/GPU-H", "NOTE", "SPOT/GPU-H", "SAVE", "AGE"
	};
	char cells[20][64], line[512];
	struct output_opts o;
	size_t n, i, j;
	char *out;

	(void)state;
	opts_init(&o, OUTPUT_TABLE, -1);
	o.width = 60;
	out = render(&o, fx.p, 3);
	for (i = 0; i < 4; i++) {
		line_of(out, i, "\n", line, sizeof line);
		if (str_width(line) > 60)
			fail_msg("line %zu is %zu wide: \"%s\"", i,
			    str_width(line), line);
	}
	line_of(out, 0, "\n", line, sizeof line);
	n = cells_of(line, cells, 20);
	/*
	 * What stays is an in-order subset of the important columns, and
	 * always includes the provider, the instance, the GPUs, the
	 * interconnect and the per-GPU price (issue 12).
	 */
	j = 0;
	for (i = 0; i < n; i++) {
		while (j < sizeof kept / sizeof kept[0] &&
		    strcmp(cells[i], kept[j]) != 0)
			j++;
		if (j == sizeof kept / sizeof kept[0])
			fail_msg("unexpected column %s in \"%s\"", cells[i],
			    line);
	}
	if (n < 5 || strcmp(cells[0], "PROVIDER") != 0 ||
	    strstr(line, "INSTANCE") == NULL || strstr(line, "GPUS") == NULL ||
	    strstr(line, "$/GPU-H") == NULL || strstr(line, "NOTE") == NULL)
		fail_msg("kept columns: \"%s\"", line);
	/* Dropped: the least important ones. */
	assert_null(strstr(line, "PFLOP"));
	assert_null(strstr(line, "AVAIL"));
	assert_null(strstr(line, "SPOT $/H"));
	assert_null(strstr(line, "VRAM"));
	assert_null(strstr(line, "CPU/GPU"));
	/* Prices and the GPUs keep their full text. */
	line_of(out, 1, "\n", line, sizeof line);
	assert_non_null(strstr(line, "3.4309"));
	assert_null(strstr(line, "x A100~"));
	free(out);
}

/* No line is ever wider than the width asked for. */
static void
test_table_fits_every_width(void **state)
{
	struct output_opts o;
	char line[1024];
	size_t w, i, shown;
	char *out;

	(void)state;
	for (w = 1; w <= 200; w++) {
		opts_init(&o, OUTPUT_TABLE, w % 2 == 0 ? 10 : -1);
		o.width = w;
		out = render(&o, fx.p, 3);
		assert_int_equal(count_str(out, "\n"), 4);
		for (i = 0; i < 4; i++) {
			line_of(out, i, "\n", line, sizeof line);
			if (str_width(line) > w)
				fail_msg("width %zu, line %zu is %zu wide: "
				    "\"%s\"", w, i, str_width(line), line);
		}
		/* Something is always shown. */
		line_of(out, 0, "\n", line, sizeof line);
		shown = strlen(line);
		assert_true(shown > 0);
		free(out);
	}
}

/* Is s well-formed UTF-8 (no sequence cut short)? */
static int
utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, k;

	while (*p != '\0') {
		if (*p < 0x80)
			n = 0;
		else if ((*p & 0xe0) == 0xc0)
			n = 1;
		else if ((*p & 0xf0) == 0xe0)
			n = 2;
		else if ((*p & 0xf8) == 0xf0)
			n = 3;
		else
			return 0;
		p++;
		for (k = 0; k < n; k++, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* UTF-8 text counts by code points, and is cut between them. */
static void
test_table_utf8(void **state)
{
	struct output_opts o;
	char line[1024];
	size_t i, w;
	char *out;

	(void)state;
	/* Every character of the region is two or three bytes. */
	fx.o[0].region = tstr("\xc3\xa3\xc3\xa9\xe2\x80\x94\xc3\xa3\xc3\xa9\xe2\x80\x94"
	    "\xc3\xa3\xc3\xa9\xe2\x80\x94\xc3\xa3\xc3\xa9\xe2\x80\x94");
	for (w = 20; w <= 140; w++) {
		opts_init(&o, OUTPUT_TABLE, -1);
		o.width = w;
		out = render(&o, fx.p, 2);
		for (i = 0; i < 3; i++) {
			line_of(out, i, "\n", line, sizeof line);
			if (str_width(line) > w)
				fail_msg("width %zu: line %zu is %zu wide", w,
				    i, str_width(line));
			/* Valid UTF-8 after cutting: no sequence split. */
			if (!utf8_valid(line))
				fail_msg("width %zu: broken UTF-8 in \"%s\"", w,
				    line);
		}
		free(out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fields_contract, setup),
		cmocka_unit_test_setup(test_field_shown, setup),
		cmocka_unit_test_setup(test_train_fields, setup),
		cmocka_unit_test_setup(test_field_values, setup),
		cmocka_unit_test_setup(test_iso8601_and_format_parse, setup),
		cmocka_unit_test_setup(test_csv, setup),
		cmocka_unit_test_setup(test_csv_totals_and_quoting, setup),
		cmocka_unit_test_setup(test_tsv, setup),
		cmocka_unit_test_setup(test_json, setup),
		cmocka_unit_test_setup(test_json_hours, setup),
		cmocka_unit_test_setup(test_json_empty, setup),
		cmocka_unit_test_setup(test_json_matched_count, setup),
		cmocka_unit_test_setup(test_json_string_escaping, setup),
		cmocka_unit_test_setup(test_json_escaping_document, setup),
		cmocka_unit_test_setup(test_table_full, setup),
		cmocka_unit_test_setup(test_table_aligned, setup),
		cmocka_unit_test_setup(test_table_totals, setup),
		cmocka_unit_test_setup(test_table_width_60, setup),
		cmocka_unit_test_setup(test_table_fits_every_width, setup),
		cmocka_unit_test_setup(test_table_utf8, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
