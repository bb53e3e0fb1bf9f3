/* cmd_tui.c: `gpucost tui [query options]`: the interactive browser. */
#include "config.h"

#include "cli.h"
#include "tui/tui.h"

/* It loads libcurl itself, only when the user asks for a refresh. */
static int
cmd_tui_exec(const struct cli_options *o)
{
	return tui_run(o);
}

const struct cmd_entry cmd_tui_entry = {
	CMD_TUI, "tui", "[query options]",
	"the interactive browser, pre-filtered", CMD_SCOPE_QUERY, false,
	cmd_tui_exec
};
