/* main.c: find the command's entry and turn its result into the exit status. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "db.h"
#include "err.h"
#include "http.h"
#include "tui/tui.h"

int
main(int argc, char **argv)
{
	const struct cmd_entry *cmd;
	struct cli_options opts;
	struct err err;
	int status;

	db_global_init();
	if (cli_parse(argc, argv, &opts, &err) < 0) {
		fprintf(stderr, "gpucost: %s\nTry 'gpucost --help'.\n", err.msg);
		return EXIT_USAGE;
	}
	/* A person at a terminal who asked for nothing gets the browser. */
	if (opts.command == CMD_QUERY && !opts.command_given &&
	    !opts.query_given && !opts.format_given && tui_available())
		opts.command = CMD_TUI;
	cmd = cli_command_entry(opts.command);
	if (!cmd->needs_http)
		return cmd->exec(&opts);
	if (http_global_init() < 0) {
		fprintf(stderr, "gpucost: cannot initialise libcurl: %s\n",
		    http_global_error());
		return EXIT_DATA;
	}
	status = cmd->exec(&opts);
	http_global_cleanup();
	return status;
}
