/* main.c: pick the command and turn its result into the exit status. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "err.h"

int
main(int argc, char **argv)
{
	struct cli_options opts;
	struct err err;

	if (cli_parse(argc, argv, &opts, &err) < 0) {
		fprintf(stderr, "gpucost: %s\nTry 'gpucost --help'.\n", err.msg);
		return EXIT_USAGE;
	}
	switch (opts.command) {
	case CMD_HELP:
		cli_usage(stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
	case CMD_VERSION:
		printf("gpucost %s\n", PACKAGE_VERSION);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
	case CMD_GPUS:
		return cli_run_gpus(&opts);
	case CMD_PROVIDERS:
		return cli_run_providers(&opts);
	case CMD_QUERY:
		break;
	}
	return cli_run_query(&opts);
}
