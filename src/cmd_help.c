/* cmd_help.c: `gpucost help` (--help) and `gpucost version` (--version). */
#include "config.h"

#include <stdio.h>

#include "cli.h"

static int
cmd_help_exec(const struct cli_options *o)
{
	(void)o;
	cli_usage(stdout);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

static int
cmd_version_exec(const struct cli_options *o)
{
	(void)o;
	printf("gpucost %s\n", PACKAGE_VERSION);
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
