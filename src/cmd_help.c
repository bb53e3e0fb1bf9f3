/* cmd_help.c: `gpucost help` (--help) and `gpucost version` (--version). */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "provider.h"
#include "snapshot_info.h"

static int
cmd_help_exec(const struct cli_options *o)
{
	if (o->help_for != NULL)
		cli_command_usage(stdout, o->help_for);
	else
		cli_usage(stdout);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

/*
 * The version and how old the built-in prices are: the snapshot's date
 * and source per provider (those without snapshot rows say so), so a
 * packaged binary tells what its first answers are worth.
 */
static int
cmd_version_exec(const struct cli_options *o)
{
	struct snapshot_source src;
	size_t i;

	(void)o;
	printf("gpucost %s\n", PACKAGE_VERSION);
	printf("price snapshot built in, per provider ('gpucost refresh' "
	    "fetches live ones):\n");
	for (i = 0; providers[i] != NULL; i++) {
		if (snapshot_source(providers[i]->id, &src))
			printf("  %-9s %-10s  %s\n", providers[i]->id,
			    src.date, src.what);
		else
			printf("  %-9s %-10s  no snapshot rows: live prices "
			    "only\n", providers[i]->id, "-");
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

const struct cmd_entry cmd_help_entry = {
	CMD_HELP, "help", "", "this help", CMD_SCOPE_ALL, false,
	cmd_help_exec
};

const struct cmd_entry cmd_version_entry = {
	CMD_VERSION, "version", "", "print the version", CMD_SCOPE_ALL, false,
	cmd_version_exec
};
