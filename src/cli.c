/* cli.c: command-line parsing and the query, gpus and providers commands. */
#include "config.h"
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_IOCTL_H
#include <sys/ioctl.h>
#endif

#include "cache.h"
#include "columns.h"
#include "cost.h"
#include "db.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "paths.h"
#include "provider.h"
#include "query.h"
#include "refresh.h"
#include "settings.h"
#include "str.h"
#include "xalloc.h"

/* Which commands accept an option. */
#define IN_QUERY	0x01
#define IN_GPUS		0x02
#define IN_PROVIDERS	0x04
#define IN_REFRESH	0x08
#define IN_ALL		0xff

enum {
	OPT_MIN_VRAM = 256,
	OPT_INTERCONNECT,
	OPT_MAX_PRICE,
	OPT_SPOT,
	OPT_AVAILABLE,
	OPT_HOURS,
	OPT_DB,
	OPT_MULTI_NODE,
	OPT_REVERSE,
	OPT_TIMEOUT,
	OPT_WAIT
};

static const struct option long_options[] = {
	{ "gpu",		required_argument,	NULL, 'g' },
	{ "count",		required_argument,	NULL, 'n' },
	{ "min-vram",		required_argument,	NULL, OPT_MIN_VRAM },
	{ "interconnect",	required_argument,	NULL, OPT_INTERCONNECT },
	{ "provider",		required_argument,	NULL, 'p' },
	{ "region",		required_argument,	NULL, 'r' },
	{ "max-price",		required_argument,	NULL, OPT_MAX_PRICE },
	{ "spot",		no_argument,		NULL, OPT_SPOT },
	{ "available",		no_argument,		NULL, OPT_AVAILABLE },
	{ "multi-node",		no_argument,		NULL, OPT_MULTI_NODE },
	{ "sort",		required_argument,	NULL, 's' },
	{ "reverse",		no_argument,		NULL, OPT_REVERSE },
	{ "limit",		required_argument,	NULL, 'l' },
	{ "hours",		required_argument,	NULL, OPT_HOURS },
	{ "format",		required_argument,	NULL, 'f' },
	{ "db",			required_argument,	NULL, OPT_DB },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "timeout",		required_argument,	NULL, OPT_TIMEOUT },
	{ "wait",		required_argument,	NULL, OPT_WAIT },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The commands each option is valid with (indexed like long_options). */
static const unsigned char option_scope[] = {
	IN_QUERY | IN_GPUS,	/* gpu */
	IN_QUERY,		/* count */
	IN_QUERY,		/* min-vram */
	IN_QUERY,		/* interconnect */
	IN_QUERY | IN_REFRESH,	/* provider */
	IN_QUERY,		/* region */
	IN_QUERY,		/* max-price */
	IN_QUERY,		/* spot */
	IN_QUERY,		/* available */
	IN_QUERY,		/* multi-node */
	IN_QUERY,		/* sort */
	IN_QUERY,		/* reverse */
	IN_QUERY,		/* limit */
	IN_QUERY,		/* hours */
	IN_ALL,			/* format */
	IN_ALL,			/* db */
	IN_QUERY | IN_REFRESH,	/* quiet */
	IN_REFRESH,		/* timeout */
	IN_REFRESH,		/* wait */
	IN_ALL,			/* help */
	IN_ALL,			/* version */
};

static const struct {
	const char	*word;
	enum cli_command command;
	unsigned char	 scope;
} commands[] = {
	{ "gpus",	CMD_GPUS,	IN_GPUS },
	{ "providers",	CMD_PROVIDERS,	IN_PROVIDERS },
	{ "refresh",	CMD_REFRESH,	IN_REFRESH },
	{ "tui",	CMD_TUI,	IN_QUERY },
	{ "help",	CMD_HELP,	IN_ALL },
	{ "version",	CMD_VERSION,	IN_ALL },
};

void
cli_usage(FILE *out)
{
	fprintf(out,
"usage: gpucost [query options]            find GPU offers (TUI on a terminal\n"
"                                          when no option is given)\n"
"       gpucost gpus [--gpu NAME]          list the GPU catalogue\n"
"       gpucost providers                  data source, age and errors per provider\n"
"       gpucost refresh [--provider LIST] [--timeout S] [--quiet]\n"
"                                          fetch live prices into the cache\n"
"       gpucost tui [query options]        the interactive browser, pre-filtered\n"
"\n"
"query options:\n"
"  -g, --gpu NAME          GPU model or family (A100-80, A100, \"RTX 4090\" ...)\n"
"  -n, --count N           GPUs in one instance\n"
"      --multi-node        also k instances of N/k GPUs (no NVLink between them)\n"
"      --min-vram GB       memory per GPU at least GB\n"
"      --interconnect TYPE nvlink or pcie\n"
"  -p, --provider LIST     comma list of %s\n"
"  -r, --region PATTERN    region substring, or glob with * ? [ ]\n"
"      --max-price USD     at most USD per GPU-hour (spot price with --spot)\n"
"      --spot              rank by spot price; only offers with one\n"
"      --available         only offers known to be available now\n"
"  -s, --sort KEY          gpu-price (default), price, spot, spot-gpu-price,\n"
"                          savings, vram, pflop, provider, region, gpu, count, age\n"
"      --reverse           reverse the sort order\n"
"  -l, --limit N           print at most N offers\n"
"      --hours H           add the total cost of an H-hour job\n"
"  -f, --format FORMAT     table (default), csv, tsv or json\n"
"  -q, --quiet             no data-age line (refresh: only errors)\n"
"\n"
"refresh options:\n"
"  -p, --provider LIST     only these providers\n"
"      --timeout SECONDS   per transfer (default 600)\n"
"      --wait SECONDS      wait for another refresh to finish (default 60)\n"
"\n"
"common options:\n"
"      --db PATH           cache file (default $XDG_DATA_HOME/gpucost/gpucost.db)\n"
"  -h, --help              this help\n"
"  -V, --version           print the version\n"
"\n"
"exit status: 0 offers found, 1 no offer matched, 2 usage error, 3 cache or\n"
"data error, 4 refresh failed. See gpucost(1).\n", provider_id_list());
}

/* Quote a user-supplied value for a message, safely. */
static const char *
quoted(const char *value, char *buf, size_t size)
{
	char clean[64];

	str_sanitize(clean, sizeof clean, value, strlen(value));
	snprintf(buf, size, "\"%s\"", clean);
	return buf;
}

static int
parse_int(const char *opt, const char *value, long min, long max,
    const char *what, long *out, struct err *err)
{
	char *end, q[80];
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (value[0] == '\0' || *end != '\0' || errno != 0 || v < min ||
	    v > max || value[0] == '+' || value[0] == ' ') {
		err_set(err, "%s: expected %s, got %s", opt, what,
		    quoted(value, q, sizeof q));
		return -1;
	}
	*out = v;
	return 0;
}

static int
parse_hours(const char *value, double *out, struct err *err)
{
	char *end, q[80];
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (value[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v <= 0 || v > 1e6) {
		err_set(err, "--hours: expected a number of hours greater than "
		    "0 and at most 1000000, got %s", quoted(value, q, sizeof q));
		return -1;
	}
	*out = v;
	return 0;
}

static int
parse_providers(const char *value, struct offer_filter *f, struct err *err)
{
	const struct provider *p;
	char item[OFFER_PROVIDER_MAX + 8], q[80];
	const char *s = value;
	size_t len, i;

	f->nproviders = 0;
	for (;;) {
		len = strcspn(s, ",");
		if (len == 0 || len >= sizeof item) {
			err_set(err, "--provider: expected a comma list of %s, "
			    "got %s", provider_id_list(), quoted(value, q,
			    sizeof q));
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if ((p = provider_find(item)) == NULL) {
			err_set(err, "--provider: unknown provider %s (known: "
			    "%s)", quoted(item, q, sizeof q),
			    provider_id_list());
			return -1;
		}
		for (i = 0; i < f->nproviders; i++)
			if (strcmp(f->providers[i], p->id) == 0)
				break;
		if (i == f->nproviders && f->nproviders < FILTER_PROVIDERS_MAX)
			str_copy(f->providers[f->nproviders++],
			    OFFER_PROVIDER_MAX, p->id);
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	return 0;
}

/* Resolve --gpu against the catalogue, suggesting close names. */
static int
parse_gpu(const char *value, struct offer_filter *f, struct err *err)
{
	const struct gpu_model *near[4];
	char list[256] = "", q[80], norm[GPU_NORM_MAX];
	size_t n, i;

	gpu_normalise(value, norm, sizeof norm);
	if (norm[0] == '\0') {
		err_set(err, "--gpu: expected a GPU name ('gpucost gpus' lists "
		    "them)");
		return -1;
	}
	f->ngpus = gpu_query(value, f->gpus, GPU_MATCH_MAX);
	if (f->ngpus > 0)
		return 0;
	n = gpu_suggest(value, near, 4);
	for (i = 0; i < n; i++) {
		strncat(list, i == 0 ? "" : ", ", sizeof list - strlen(list) - 1);
		strncat(list, near[i]->id, sizeof list - strlen(list) - 1);
	}
	if (n > 0)
		err_set(err, "--gpu: unknown GPU %s; did you mean %s? "
		    "('gpucost gpus' lists them all)", quoted(value, q,
		    sizeof q), list);
	else
		err_set(err, "--gpu: unknown GPU %s ('gpucost gpus' lists "
		    "them all)", quoted(value, q, sizeof q));
	return -1;
}

/* Apply one option's value. */
static int
cli_option(int c, const char *arg, struct cli_options *o, struct err *err)
{
	char q[80];
	long v;

	switch (c) {
	case 'g':
		o->gpu_query = arg;
		return parse_gpu(arg, &o->filter, err);
	case 'n':
		if (parse_int("--count", arg, 1, 1024, "a positive integer",
		    &v, err) < 0)
			return -1;
		o->filter.count = (int)v;
		return 0;
	case OPT_MIN_VRAM:
		if (parse_int("--min-vram", arg, 1, 1024,
		    "a whole number of GB from 1 to 1024", &v, err) < 0)
			return -1;
		o->filter.min_vram_gb = (int)v;
		return 0;
	case OPT_INTERCONNECT:
		if (interconnect_parse(arg, &o->filter.interconnect) < 0 ||
		    o->filter.interconnect == IC_UNKNOWN) {
			err_set(err, "--interconnect: expected nvlink or pcie, "
			    "got %s", quoted(arg, q, sizeof q));
			return -1;
		}
		return 0;
	case 'p':
		return parse_providers(arg, &o->filter, err);
	case 'r':
		if (arg[0] == '\0' || strlen(arg) >= sizeof o->filter.region) {
			err_set(err, "--region: expected a region pattern of 1 "
			    "to %zu characters", sizeof o->filter.region - 1);
			return -1;
		}
		str_copy(o->filter.region, sizeof o->filter.region, arg);
		return 0;
	case OPT_MAX_PRICE:
		if (money_parse(arg, strlen(arg), &o->filter.max_price_gpu_hour)
		    < 0 || o->filter.max_price_gpu_hour <= 0) {
			err_set(err, "--max-price: expected a price in USD per "
			    "GPU-hour greater than 0, got %s", quoted(arg, q,
			    sizeof q));
			return -1;
		}
		return 0;
	case OPT_SPOT:
		o->filter.spot = true;
		return 0;
	case OPT_AVAILABLE:
		o->filter.available = true;
		return 0;
	case OPT_MULTI_NODE:
		o->filter.multi_node = true;
		return 0;
	case 's':
		if (sort_key_parse(arg, &o->sort) < 0) {
			err_set(err, "--sort: expected gpu-price, price, spot, "
			    "spot-gpu-price, savings, vram, pflop, provider, "
			    "instance, region, gpu, count, interconnect, "
			    "availability or age, got %s", quoted(arg, q,
			    sizeof q));
			return -1;
		}
		o->sort_given = true;
		return 0;
	case OPT_REVERSE:
		o->reverse = true;
		return 0;
	case 'l':
		return parse_int("--limit", arg, 1, LONG_MAX,
		    "a positive integer", &o->limit, err);
	case OPT_HOURS:
		return parse_hours(arg, &o->hours, err);
	case 'f':
		o->format_given = true;
		if (output_format_parse(arg, &o->format) < 0) {
			err_set(err, "--format: expected table, csv, tsv or "
			    "json, got %s", quoted(arg, q, sizeof q));
			return -1;
		}
		return 0;
	case OPT_DB:
		if (arg[0] == '\0') {
			err_set(err, "--db: expected a file path");
			return -1;
		}
		o->db = arg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_TIMEOUT:
		return parse_int("--timeout", arg, 1, 86400,
		    "a number of seconds from 1 to 86400", &o->timeout, err);
	case OPT_WAIT:
		return parse_int("--wait", arg, 0, 86400,
		    "a number of seconds from 0 to 86400", &o->lock_wait, err);
	case 'h':
		o->command = CMD_HELP;
		return 0;
	case 'V':
		o->command = CMD_VERSION;
		return 0;
	}
	return 0;
}

/* The first command word an option of this scope belongs to. */
static const char *
scope_command(unsigned char opt_scope)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if ((commands[i].scope & opt_scope) != 0)
			return commands[i].word;
	return "?";
}

/* Index in long_options of option code c. */
static int
option_index(int c)
{
	int i;

	for (i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].val == c)
			return i;
	return -1;
}

int
cli_parse(int argc, char **argv, struct cli_options *o, struct err *err)
{
	unsigned char seen[sizeof option_scope] = { 0 };
	unsigned char scope = IN_QUERY;
	char q[80];
	size_t i;
	int c, idx;

	memset(o, 0, sizeof *o);
	offer_filter_init(&o->filter);
	o->command = CMD_QUERY;
	o->sort = SORT_GPU_PRICE;
	o->hours = -1;
	o->format = OUTPUT_TABLE;
	o->lock_wait = 60;

	optind = 0;	/* GNU: start a fresh scan (tests parse many times) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:n:p:r:s:l:f:qhV", long_options,
	    NULL)) != -1) {
		if (c == '?') {
			const char *arg = argv[optind - 1];

			/* glibc sets optopt to a long flag's code if given a value. */
			if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL &&
			    optopt != 0)
				err_set(err, "%.*s: takes no value",
				    (int)(strchr(arg, '=') - arg), arg);
			else if (strncmp(arg, "--", 2) == 0 || optopt == 0 ||
			    optopt > 127)
				err_set(err, "unknown option %s",
				    quoted(arg, q, sizeof q));
			else if (!isgraph(optopt))	/* no control byte out */
				err_set(err, "unknown option '-\\x%02x'", optopt);
			else
				err_set(err, "unknown option '-%c'", optopt);
			return -1;
		}
		if (c == ':') {
			const char *name = argv[optind - 1];

			err_set(err, "%s: expected a value", name);
			return -1;
		}
		if ((idx = option_index(c)) >= 0)
			seen[idx] = 1;
		if (cli_option(c, optarg, o, err) < 0)
			return -1;
	}
	if (o->command == CMD_HELP || o->command == CMD_VERSION)
		return 0;
	if (optind < argc) {
		for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (strcmp(argv[optind], commands[i].word) == 0)
				break;
		if (i == sizeof commands / sizeof commands[0]) {
			err_set(err, "unknown command %s (commands: gpus, "
			    "providers, refresh, tui, help)", quoted(argv[optind], q,
			    sizeof q));
			return -1;
		}
		o->command = commands[i].command;
		o->command_given = true;
		scope = commands[i].scope;
		if (optind + 1 < argc) {
			err_set(err, "%s: unexpected argument %s",
			    commands[i].word, quoted(argv[optind + 1], q,
			    sizeof q));
			return -1;
		}
	}
	for (i = 0; i < sizeof option_scope; i++) {
		if (!seen[i])
			continue;
		if ((option_scope[i] & scope) == 0) {
			if (o->command_given)
				err_set(err, "--%s: not valid with the '%s' "
				    "command", long_options[i].name,
				    argv[optind]);
			else
				err_set(err, "--%s: only valid with the '%s' "
				    "command", long_options[i].name,
				    scope_command(option_scope[i]));
			return -1;
		}
		if ((option_scope[i] & IN_QUERY) != 0 &&
		    option_scope[i] != IN_ALL && long_options[i].val != 'q')
			o->query_given = true;
	}
	if (o->command == CMD_QUERY && o->filter.spot && !o->sort_given)
		o->sort = SORT_SPOT_GPU;
	return 0;
}

/* Terminal width for tables: the tty's, else $COLUMNS, else unlimited. */
static size_t
output_width(FILE *out)
{
	const char *env;
	long v;

#ifdef TIOCGWINSZ
	struct winsize ws;

	if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
#endif
	env = getenv("COLUMNS");
	if (env != NULL && (v = strtol(env, NULL, 10)) > 0 && v < 10000)
		return (size_t)v;
	return 0;
}

/* Open the cache, printing any error; returns NULL on failure. */
static struct db *
open_cache(const struct cli_options *o)
{
	char path[4096];
	struct err err;
	struct db *db;

	if (paths_db(o->db, path, sizeof path, &err) < 0 ||
	    cache_open(path, &db, &err) < 0) {
		fprintf(stderr, "gpucost: %s\n", err.msg);
		return NULL;
	}
	return db;
}

/*
 * One line on stderr saying how old the shown prices are, per provider:
 * "gpucost: 12 offers; data age: aws 72d (snapshot), vast 2h".
 */
static void
print_data_age(const struct plan *plans, size_t n, size_t matched,
    int64_t now)
{
	struct {
		const char *provider;
		int64_t oldest;
		enum offer_source source;
	} seen[16];
	size_t nseen = 0, i, j;
	char age[16];
	bool snapshot = false;

	for (i = 0; i < n; i++) {
		const struct offer *o = plans[i].offer;

		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j].provider, o->provider) == 0)
				break;
		if (j == nseen) {
			if (nseen == 16)
				continue;
			seen[nseen].provider = o->provider;
			seen[nseen].oldest = o->fetched_at;
			seen[nseen].source = o->source;
			nseen++;
		} else if (o->fetched_at < seen[j].oldest) {
			seen[j].oldest = o->fetched_at;
			if (o->source == SRC_SNAPSHOT)
				seen[j].source = SRC_SNAPSHOT;
		}
	}
	if (n < matched)
		fprintf(stderr, "gpucost: %zu of %zu offers", n, matched);
	else
		fprintf(stderr, "gpucost: %zu offer%s", n, n == 1 ? "" : "s");
	for (i = 0; i < nseen; i++) {
		column_age(now - seen[i].oldest, age, sizeof age);
		fprintf(stderr, "%s%s %s%s", i == 0 ? "; data age: " : ", ",
		    seen[i].provider, age,
		    seen[i].source == SRC_SNAPSHOT ? " (snapshot)" : "");
		if (seen[i].source == SRC_SNAPSHOT)
			snapshot = true;
	}
	if (snapshot)
		fputs("; 'gpucost refresh' fetches live prices", stderr);
	fputc('\n', stderr);
}

/*
 * Can SQL pick the offers to show (db_query_top())? With --limit, a
 * price sort and no test that only query_plans() makes (region, maximum
 * price, spot, multi-node), the first N plans are the first N offers in
 * its order, and the rest of the cache need not be read.
 */
static bool
query_top_n(const struct cli_options *o)
{
	const struct offer_filter *f = &o->filter;

	return o->limit > 0 && (o->sort == SORT_GPU_PRICE ||
	    o->sort == SORT_PRICE) && !f->multi_node && !f->spot &&
	    f->region[0] == '\0' && f->text[0] == '\0' &&
	    !money_known(f->max_price_gpu_hour);
}

int
cli_run_query(const struct cli_options *o)
{
	struct output_opts out_opts;
	struct provider_status *status = NULL;
	struct offer_list offers;
	struct plan *plans = NULL;
	size_t nplans = 0, shown, nstatus = 0, matched = 0;
	bool top_n = query_top_n(o);
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	if ((db = open_cache(o)) == NULL)
		return EXIT_DATA;
	offer_list_init(&offers);
	if ((top_n ? db_query_top(db, &o->filter, o->sort, o->reverse,
	    (size_t)o->limit, &offers, &matched, &err) :
	    db_query(db, &o->filter, &offers, &err)) < 0 ||
	    /* Only JSON shows the status; the full path keeps reading it. */
	    ((!top_n || o->format == OUTPUT_JSON) &&
	    db_status(db, &status, &nstatus, &err) < 0)) {
		fprintf(stderr, "gpucost: %s\n", err.msg);
		goto done;
	}
	query_plans(offers.v, offers.n, &o->filter, o->sort, o->reverse,
	    &plans, &nplans);
	if (!top_n)
		matched = nplans;
	shown = o->limit > 0 && (size_t)o->limit < nplans ?
	    (size_t)o->limit : nplans;

	memset(&out_opts, 0, sizeof out_opts);
	out_opts.format = o->format;
	out_opts.width = output_width(stdout);
	out_opts.hours = o->hours;
	out_opts.now = (int64_t)time(NULL);
	out_opts.status = status;
	out_opts.nstatus = nstatus;
	out_opts.matched = matched;
	if (nplans > 0 || o->format != OUTPUT_TABLE) {
		if (output_plans(stdout, &out_opts, plans, shown) < 0 ||
		    fflush(stdout) != 0) {
			fprintf(stderr, "gpucost: writing the output: %s\n",
			    strerror(errno));
			goto done;
		}
	}
	if (nplans == 0) {
		if (!o->quiet)
			fprintf(stderr, "gpucost: no offer matched%s\n",
			    o->query_given ? " the query" : "");
		rc = EXIT_NO_MATCH;
	} else {
		if (!o->quiet)
			print_data_age(plans, shown, matched, out_opts.now);
		rc = EXIT_OK;
	}
done:
	free(plans);
	free(status);
	offer_list_done(&offers);
	db_close(db);
	return rc;
}

int
cli_run_gpus(const struct cli_options *o)
{
	size_t n = o->gpu_query != NULL ? o->filter.ngpus : gpu_model_count;
	size_t i;
	char tf[16], tfp[16];

	if (o->format == OUTPUT_JSON)
		fputs("{\n  \"gpus\": [", stdout);
	else if (o->format == OUTPUT_CSV || o->format == OUTPUT_TSV) {
		const char *s = o->format == OUTPUT_CSV ? "," : "\t";

		printf("id%sfamily%svendor%sarch%svram_gb%sbf16_tflops%s"
		    "bf16_tflops_pcie%saliases%s", s, s, s, s, s, s, s,
		    o->format == OUTPUT_CSV ? "\r\n" : "\n");
	} else
		printf("%-12s  %-8s  %-6s  %-9s  %5s  %9s  %s\n", "ID", "FAMILY",
		    "VENDOR", "ARCH", "VRAM", "BF16-TF", "ALIASES");
	for (i = 0; i < n; i++) {
		const struct gpu_model *m = o->gpu_query != NULL ?
		    o->filter.gpus[i] : &gpu_models[i];

		if (m->bf16_tflops > 0)
			snprintf(tf, sizeof tf, "%g", m->bf16_tflops);
		else
			tf[0] = '\0';
		if (m->bf16_tflops_pcie > 0)
			snprintf(tfp, sizeof tfp, "%g", m->bf16_tflops_pcie);
		else
			tfp[0] = '\0';
		if (o->format == OUTPUT_JSON) {
			printf("%s\n    {\"id\": \"%s\", \"family\": \"%s\", "
			    "\"vendor\": \"%s\", \"arch\": \"%s\", "
			    "\"vram_gb\": %d, \"bf16_tflops\": %s, "
			    "\"bf16_tflops_pcie\": %s, \"aliases\": ",
			    i == 0 ? "" : ",", m->id, m->family, m->vendor,
			    m->arch, m->vram_gb, tf[0] != '\0' ? tf : "null",
			    tfp[0] != '\0' ? tfp : "null");
			output_json_string(stdout, m->aliases);
			fputc('}', stdout);
		} else if (o->format == OUTPUT_CSV) {
			printf("%s,%s,%s,%s,%d,%s,%s,\"%s\"\r\n", m->id,
			    m->family, m->vendor, m->arch, m->vram_gb, tf, tfp,
			    m->aliases);
		} else if (o->format == OUTPUT_TSV) {
			printf("%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", m->id,
			    m->family, m->vendor, m->arch, m->vram_gb, tf, tfp,
			    m->aliases);
		} else {
			char vram[16];

			snprintf(vram, sizeof vram, "%dG", m->vram_gb);
			if (tfp[0] != '\0') {
				strncat(tf, "/", sizeof tf - strlen(tf) - 1);
				strncat(tf, tfp, sizeof tf - strlen(tf) - 1);
			}
			printf("%-12s  %-8s  %-6s  %-9s  %5s  %9s  %.60s\n",
			    m->id, m->family, m->vendor, m->arch, vram,
			    tf[0] != '\0' ? tf : "-", m->aliases);
		}
	}
	if (o->format == OUTPUT_JSON)
		fputs(n > 0 ? "\n  ]\n}\n" : "]\n}\n", stdout);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

int
cli_run_providers(const struct cli_options *o)
{
	struct provider_status *status = NULL, *s;
	size_t nstatus = 0, i, j;
	int64_t now = (int64_t)time(NULL);
	char age[16], attempt[32], success[32], name[64];
	struct settings cfg;
	struct err err;
	struct db *db;

	if ((db = open_cache(o)) == NULL)
		return EXIT_DATA;
	/* Keys come from the environment or the config file (unreadable: none). */
	if (settings_load(&cfg, &err) < 0)
		cfg.n = 0;
	if (db_status(db, &status, &nstatus, &err) < 0) {
		fprintf(stderr, "gpucost: %s\n", err.msg);
		db_close(db);
		return EXIT_DATA;
	}
	if (o->format == OUTPUT_JSON)
		fputs("{\n  \"providers\": [", stdout);
	else if (o->format == OUTPUT_CSV || o->format == OUTPUT_TSV) {
		const char *sep = o->format == OUTPUT_CSV ? "," : "\t";

		printf("provider%sname%ssource%soffers%soldest_fetched_at%s"
		    "last_attempt%slast_success%skey%slast_error%s", sep, sep,
		    sep, sep, sep, sep, sep, sep,
		    o->format == OUTPUT_CSV ? "\r\n" : "\n");
	} else
		printf("%-8s  %-12s  %-8s  %6s  %5s  %-20s  %-20s  %s\n",
		    "PROVIDER", "NAME", "SOURCE", "OFFERS", "AGE",
		    "LAST SUCCESS", "LAST ATTEMPT", "LAST ERROR");
	for (i = 0; providers[i] != NULL; i++) {
		const struct provider *p = providers[i];
		const char *key;

		snprintf(name, sizeof name, "%s_api_key", p->id);
		key = p->key_env == NULL ? "none" :
		    settings_get(&cfg, p->key_env, name) != NULL ? "set" :
		    p->key_required ? "missing" : "optional";

		s = NULL;
		for (j = 0; j < nstatus; j++)
			if (strcmp(status[j].provider, p->id) == 0)
				s = &status[j];
		attempt[0] = success[0] = age[0] = '\0';
		if (s != NULL && s->last_attempt > 0)
			output_iso8601(s->last_attempt, attempt, sizeof attempt);
		if (s != NULL && s->last_success > 0)
			output_iso8601(s->last_success, success, sizeof success);
		if (s != NULL && s->offer_count > 0)
			column_age(now - s->oldest, age, sizeof age);
		if (o->format == OUTPUT_JSON) {
			char oldest[32] = "";

			if (s != NULL && s->offer_count > 0)
				output_iso8601(s->oldest, oldest, sizeof oldest);
			printf("%s\n    {\"provider\": \"%s\", \"name\": \"%s\", "
			    "\"source\": \"%s\", \"offers\": %ld, ",
			    i == 0 ? "" : ",", p->id, p->name,
			    s != NULL ? source_name(s->source) : "none",
			    s != NULL ? s->offer_count : 0L);
			printf("\"oldest_fetched_at\": %s%s%s, ",
			    oldest[0] ? "\"" : "", oldest[0] ? oldest : "null",
			    oldest[0] ? "\"" : "");
			printf("\"last_attempt\": %s%s%s, ",
			    attempt[0] ? "\"" : "", attempt[0] ? attempt : "null",
			    attempt[0] ? "\"" : "");
			printf("\"last_success\": %s%s%s, \"key\": \"%s\", "
			    "\"last_error\": ", success[0] ? "\"" : "",
			    success[0] ? success : "null", success[0] ? "\"" : "",
			    key);
			if (s != NULL && s->last_error[0] != '\0')
				output_json_string(stdout, s->last_error);
			else
				fputs("null", stdout);
			fputc('}', stdout);
		} else if (o->format == OUTPUT_CSV || o->format == OUTPUT_TSV) {
			const char *sep = o->format == OUTPUT_CSV ? "," : "\t";
			char oldest[32] = "";

			if (s != NULL && s->offer_count > 0)
				output_iso8601(s->oldest, oldest, sizeof oldest);
			printf("%s%s%s%s%s%s%ld%s%s%s%s%s%s%s%s%s", p->id, sep,
			    p->name, sep, s != NULL ? source_name(s->source) :
			    "none", sep, s != NULL ? s->offer_count : 0L, sep,
			    oldest, sep, attempt, sep, success, sep, key, sep);
			if (s != NULL && s->last_error[0] != '\0') {
				if (o->format == OUTPUT_CSV) {
					const char *c;

					putchar('"');
					for (c = s->last_error; *c; c++) {
						if (*c == '"')
							putchar('"');
						putchar(*c);
					}
					putchar('"');
				} else
					fputs(s->last_error, stdout);
			}
			fputs(o->format == OUTPUT_CSV ? "\r\n" : "\n", stdout);
		} else
			printf("%-8s  %-12s  %-8s  %6ld  %5s  %-20s  %-20s  %s\n",
			    p->id, p->name, s != NULL ? source_name(s->source) :
			    "none", s != NULL ? s->offer_count : 0L,
			    age[0] ? age : "-", success[0] ? success : "never",
			    attempt[0] ? attempt : "never",
			    s != NULL && s->last_error[0] ? s->last_error : "-");
	}
	if (o->format == OUTPUT_JSON)
		fputs("\n  ]\n}\n", stdout);
	free(status);
	db_close(db);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

/* "12.3 MB" */
static void
human_bytes(size_t bytes, char *buf, size_t size)
{
	if (bytes >= 1000 * 1000)
		snprintf(buf, size, "%.1f MB", (double)bytes / 1e6);
	else if (bytes >= 1000)
		snprintf(buf, size, "%.0f kB", (double)bytes / 1e3);
	else
		snprintf(buf, size, "%zu B", bytes);
}

/* One live status line on a terminal: every provider's progress. */
static void
draw_progress(const struct refresh_progress *pr, size_t n)
{
	char line[512], bytes[32];
	size_t i, len = 0;

	for (i = 0; i < n && len < sizeof line; i++) {
		const char *state = "";

		switch (pr[i].state) {
		case REFRESH_RUNNING:
			human_bytes(pr[i].bytes, bytes, sizeof bytes);
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s%s %s, %zu offers", i == 0 ? "" : " | ",
			    pr[i].provider, bytes, pr[i].offers);
			continue;
		case REFRESH_OK:
			state = "done";
			break;
		case REFRESH_FAILED:
			state = "FAILED";
			break;
		case REFRESH_SKIPPED:
			state = "skipped";
			break;
		}
		len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %s",
		    i == 0 ? "" : " | ", pr[i].provider, state);
	}
	fprintf(stderr, "\r\033[K%.*s", 200, line);
	fflush(stderr);
}

int
cli_run_refresh(const struct cli_options *o)
{
	const struct refresh_progress *pr;
	struct refresh_options ropts;
	struct refresh *r;
	char path[4096], bytes[32];
	bool tty = !o->quiet && isatty(fileno(stderr));
	struct err err;
	size_t n, i, failed;
	int rc;

	memset(&ropts, 0, sizeof ropts);
	if (paths_db(o->db, path, sizeof path, &err) < 0) {
		fprintf(stderr, "gpucost: %s\n", err.msg);
		return EXIT_DATA;
	}
	ropts.db_path = path;
	ropts.timeout = o->timeout;
	ropts.lock_wait = o->lock_wait;
	for (i = 0; i < o->filter.nproviders; i++)
		str_copy(ropts.providers[i], sizeof ropts.providers[i],
		    o->filter.providers[i]);
	ropts.nproviders = o->filter.nproviders;
	rc = refresh_begin(&ropts, &r, &err);
	if (rc < 0) {
		fprintf(stderr, "gpucost: refresh: %s\n", err.msg);
		return rc == REFRESH_BUSY ? EXIT_REFRESH : EXIT_DATA;
	}
	/* Even with --quiet: a key others can read is worth a cron mail. */
	if (refresh_warning(r) != NULL)
		fprintf(stderr, "gpucost: warning: %s\n", refresh_warning(r));
	while (refresh_poll(r, -1, 200) > 0) {
		if (tty) {
			n = refresh_progress(r, &pr);
			draw_progress(pr, n);
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	n = refresh_progress(r, &pr);
	for (i = 0; i < n; i++) {
		switch (pr[i].state) {
		case REFRESH_OK:
			if (!tty)
				break;
			human_bytes(pr[i].bytes, bytes, sizeof bytes);
			fprintf(stderr, "%s: %zu offers, %zu price changes, %s "
			    "in %.1f s", pr[i].provider, pr[i].offers,
			    pr[i].history, bytes, pr[i].seconds);
			if (pr[i].unknown_gpu > 0)
				fprintf(stderr, ", %zu with a GPU not in the "
				    "catalogue", pr[i].unknown_gpu);
			if (pr[i].message[0] != '\0')
				fprintf(stderr, "; %s", pr[i].message);
			fputc('\n', stderr);
			break;
		case REFRESH_SKIPPED:
			if (!o->quiet)
				fprintf(stderr, "%s: %s\n", pr[i].provider,
				    pr[i].message);
			break;
		case REFRESH_FAILED:
			fprintf(stderr, "gpucost: %s: %s\n", pr[i].provider,
			    pr[i].message);
			break;
		case REFRESH_RUNNING:
			break;
		}
	}
	failed = refresh_failures(r);
	refresh_end(r);
	return failed > 0 ? EXIT_REFRESH : EXIT_OK;
}
