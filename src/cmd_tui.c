/* cmd_tui.c: `gpucost tui [query options]`: the interactive browser. */
#include "config.h"

#include "cli.h"
#include "db.h"
#include "tui/tui.h"

/*
 * The TUI takes what is asked, not the command line: the filter, the
 * order, the job length and the cache. It loads libcurl itself, only
 * when the user asks for a refresh.
 */
static int
cmd_tui_exec(const struct cli_options *o)
{
	struct tui_options to = {
		.filter = o->filter,
		.sort = o->sort,
		.reverse = o->reverse,
		.all_regions = o->all_regions,
		.hours = o->hours,
		.db_path = o->db,
	};
	struct db *db;

	/* A --region no place answers is refused before the screen opens. */
	if (o->filter.region[0] != '\0') {
		if ((db = cli_open_cache(o)) == NULL)
			return EXIT_DATA;
		if (!cli_region_known(db, &o->filter)) {
			db_close(db);
			return EXIT_USAGE;
		}
		db_close(db);
	}

	switch (tui_run(&to)) {
	case TUI_DONE:
		return EXIT_OK;
	case TUI_CACHE_ERROR:
		return EXIT_DATA;
	case TUI_NO_TERMINAL:
		break;
	}
	return EXIT_USAGE;
}

const struct cmd_entry cmd_tui_entry = {
	CMD_TUI, "tui", "[query options]",
	"the interactive browser, pre-filtered", CMD_SCOPE_QUERY, false,
	cmd_tui_exec
};
