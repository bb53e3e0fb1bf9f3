/* main.c: pick the command and turn its result into the exit status. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "err.h"
#include "http.h"
#include "tui/tui.h"

int
main(int argc, char **argv)
{
	struct cli_options opts;
	struct err err;
	int status;

	if (cli_parse(argc, argv, &opts, &err) < 0) {
		fprintf(stderr, "gpucost: %s\nTry 'gpucost --help'.\n", err.msg);
		return EXIT_USAGE;
	}
	/* A person at a terminal who asked for nothing gets the browser. */
	if (opts.command == CMD_QUERY && !opts.command_given &&
	    !opts.query_given && !opts.format_given && tui_available())
		opts.command = CMD_TUI;
	if (opts.command == CMD_TUI)
		return tui_run(&opts);	/* it loads libcurl only for a refresh */
	if (opts.command == CMD_REFRESH) {
		if (http_global_init() < 0) {
			fprintf(stderr, "gpucost: cannot initialise libcurl: %s\n",
			    http_global_error());
			return EXIT_DATA;
		}
		status = cli_run_refresh(&opts);
		http_global_cleanup();
		return status;
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
	case CMD_REFRESH:
	case CMD_TUI:
		break;
	case CMD_QUERY:
		break;
	}
	return cli_run_query(&opts);
}
