/*
 * cmd_completion.c: `gpucost completion bash|zsh|fish` prints the
 * shell's completion script, generated from the command table and the
 * option table (cli.h), so no option list is kept anywhere else; and
 * the hidden `gpucost __complete KIND` the scripts call for values
 * (GPUs, providers, regions ...: complete.h), which must answer in
 * milliseconds: no libcurl, and for regions one read-only indexed query
 * on the cache (db_region_names()).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "complete.h"
#include "db.h"
#include "err.h"
#include "paths.h"
#include "region.h"
#include "str.h"

/* The shells there is a script for, in the order `completion` lists them. */
static const char *const shells[] = { "bash", "zsh", "fish" };
#define NSHELLS	(sizeof shells / sizeof shells[0])

/* A command the scripts offer: every one but the query and hidden ones. */
static bool
command_listed(const struct cmd_entry *e)
{
	return e->name[0] != '\0' && strncmp(e->name, "__", 2) != 0;
}

/*
 * What the script does for an option's value: a kind for __complete, the
 * shell's own file or directory completion, "text" (a value, nothing to
 * offer), or NULL for a flag.
 */
static const char *
value_word(const struct cli_option *opt)
{
	enum cli_values v = cli_option_values(opt);
	const char *name;

	if (v == CLI_VALUES_NONE)
		return NULL;
	if (v == CLI_VALUES_FILE)
		return "file";
	if (v == CLI_VALUES_DIR)
		return "dir";
	return (name = complete_kind_name(v)) != NULL ? name : "text";
}

/* Is kind a comma list (each item after a comma completes again)? */
static bool
list_kind(enum cli_values v)
{
	return v == CLI_VALUES_GPUS || v == CLI_VALUES_PROVIDERS ||
	    v == CLI_VALUES_GROUPS;
}

/* What a command's operand is: "shells", "dir", "keys" or NULL for none. */
static const char *
operand_word(enum cli_command id)
{
	switch (id) {
	case CMD_COMPLETION:
		return "shells";
	case CMD_PUBLISH:
		return "dir";
	case CMD_LAUNCH:
		return "keys";
	default:
		return NULL;
	}
}

/* The option words of a command's scope, blank-separated. */
static void
print_option_words(FILE *out, unsigned scope)
{
	const struct cli_option *t;
	size_t n, i;
	bool first = true;

	t = cli_option_table(&n);
	for (i = 0; i < n; i++) {
		if ((t[i].scope & scope) == 0)
			continue;
		fprintf(out, "%s--%s", first ? "" : " ", t[i].name);
		first = false;
		if (t[i].short_opt != 0)
			fprintf(out, " -%c", t[i].short_opt);
	}
}

/* "--gpu|-g" for a case pattern. */
static void
print_pattern(FILE *out, const struct cli_option *opt, const char *sep)
{
	fprintf(out, "--%s", opt->name);
	if (opt->short_opt != 0)
		fprintf(out, "%s-%c", sep, opt->short_opt);
}

/* The kinds of the comma-list values, as a case pattern "gpus|...". */
static void
print_list_kinds(FILE *out, const char *sep)
{
	enum cli_values v;
	bool first = true;

	for (v = CLI_VALUES_NONE; v <= CLI_VALUES_DIR; v++)
		if (list_kind(v) && complete_kind_name(v) != NULL) {
			fprintf(out, "%s%s", first ? "" : sep,
			    complete_kind_name(v));
			first = false;
		}
}

/* Single-quoted for sh and fish: help lines hold no single quote. */
static void
print_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

static const char bash_body[] =
"_gpucost()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} opt= cmd= db= i w REPLY words\n"
"\tCOMPREPLY=()\n"
"\t# The command word: the first that is no option and no option's\n"
"\t# value (bash splits --opt=value into --opt, = and value).\n"
"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
"\t\tw=${COMP_WORDS[i]}\n"
"\t\tcase $w in\n"
"\t\t--db=*) db=${w#--db=} ;;\n"
"\t\t--*=*|=) ;;\n"
"\t\t-*)\n"
"\t\t\t_gpucost_kind \"$w\"\n"
"\t\t\tif [[ -n $REPLY && ${COMP_WORDS[i+1]} != = ]]; then\n"
"\t\t\t\t[[ $w == --db ]] && db=${COMP_WORDS[i+1]}\n"
"\t\t\t\t((i++))\n"
"\t\t\tfi ;;\n"
"\t\t*)\n"
"\t\t\tif [[ ${COMP_WORDS[i-1]} == = ]]; then\n"
"\t\t\t\t[[ ${COMP_WORDS[i-2]} == --db ]] && db=$w\n"
"\t\t\t\tcontinue\n"
"\t\t\tfi\n"
"\t\t\tcmd=$w\n"
"\t\t\tbreak ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif [[ $cur == = ]]; then\n"
"\t\topt=${COMP_WORDS[COMP_CWORD-1]}\n"
"\t\tcur=\n"
"\telif ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD-1]} == = ]]; then\n"
"\t\topt=${COMP_WORDS[COMP_CWORD-2]}\n"
"\telif [[ $cur == --*=* ]]; then\n"
"\t\topt=${cur%%=*}\n"
"\t\tcur=${cur#*=}\n"
"\telif ((COMP_CWORD >= 1)); then\n"
"\t\topt=${COMP_WORDS[COMP_CWORD-1]}\n"
"\tfi\n"
"\t_gpucost_kind \"$opt\"\n"
"\tcase $REPLY in\n"
"\t'') ;;\n"
"\tfile) compopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
"\tdir) compopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
"\ttext) return ;;\n"
"\t*) _gpucost_values \"$REPLY\" \"$cur\" \"$db\"; return ;;\n"
"\tesac\n"
"\tif [[ $cur == -* ]]; then\n"
"\t\t_gpucost_options \"$cmd\"\n"
"\t\tCOMPREPLY=($(compgen -W \"$REPLY\" -- \"$cur\"))\n"
"\telif [[ -z $cmd ]]; then\n"
"\t\tCOMPREPLY=($(compgen -W \"$_gpucost_commands\" -- \"$cur\"))\n"
"\telse\n"
"\t\t_gpucost_operand \"$cmd\"\n"
"\t\tcase $REPLY in\n"
"\t\tdir) compopt -o filenames 2>/dev/null\n"
"\t\t\tCOMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
"\t\tkeys) _gpucost_values keys \"$cur\" \"$db\" ;;\n"
"\t\t?*) COMPREPLY=($(compgen -W \"$REPLY\" -- \"$cur\")) ;;\n"
"\t\tesac\n"
"\tfi\n"
"}\n"
"\n"
"# Candidates of a kind from the program itself; after a comma, the\n"
"# next item of a list. Case is ignored (h1 finds H100).\n"
"_gpucost_values()\n"
"{\n"
"\tlocal kind=$1 cur=$2 pre= w IFS=$'\\n' bin=${COMP_WORDS[0]}\n"
"\tlocal -a args=(__complete \"$kind\")\n"
"\t[[ -n $3 ]] && args+=(--db \"$3\")\n"
"\tcase $kind in\n"
"\t@LISTS@)\n"
"\t\tif [[ $cur == *,* ]]; then\n"
"\t\t\tpre=${cur%,*},\n"
"\t\t\tcur=${cur##*,}\n"
"\t\tfi ;;\n"
"\tesac\n"
"\tfor w in $(\"${bin/#\\~/$HOME}\" \"${args[@]}\" 2>/dev/null); do\n"
"\t\t[[ ${w,,} == \"${cur,,}\"* ]] && COMPREPLY+=(\"$pre$w\")\n"
"\tdone\n"
"}\n"
"\n"
"complete -F _gpucost gpucost\n";

static void
print_bash(FILE *out)
{
	const struct cli_option *t;
	size_t n, i;
	const char *w;

	t = cli_option_table(&n);
	fputs("# bash completion for gpucost(1), generated by `gpucost "
	    "completion bash`\n# from its option table: regenerate, do not "
	    "edit. Values come from\n# `gpucost __complete KIND`.\n\n", out);
	fputs("_gpucost_commands='", out);
	for (i = 0; cmd_table[i] != NULL; i++)
		if (command_listed(cmd_table[i]))
			fprintf(out, "%s%s", i <= 1 ? "" : " ",
			    cmd_table[i]->name);
	fputs("'\n\n", out);

	fputs("# What an option's value is (REPLY empty: a flag).\n"
	    "_gpucost_kind()\n{\n\tcase $1 in\n", out);
	for (i = 0; i < n; i++) {
		if ((w = value_word(&t[i])) == NULL)
			continue;
		fputc('\t', out);
		print_pattern(out, &t[i], "|");
		fprintf(out, ") REPLY=%s ;;\n", w);
	}
	fputs("\t*) REPLY= ;;\n\tesac\n}\n\n", out);

	fputs("# The options a command takes ('' the query).\n"
	    "_gpucost_options()\n{\n\tcase $1 in\n", out);
	for (i = 0; cmd_table[i] != NULL; i++) {
		if (!command_listed(cmd_table[i]) && i != 0)
			continue;
		fprintf(out, "\t%s) REPLY='", i == 0 ? "''" :
		    cmd_table[i]->name);
		print_option_words(out, cmd_table[i]->scope);
		fputs("' ;;\n", out);
	}
	fputs("\t*) REPLY= ;;\n\tesac\n}\n\n", out);

	fputs("# What follows a command's word.\n"
	    "_gpucost_operand()\n{\n\tcase $1 in\n", out);
	for (i = 0; cmd_table[i] != NULL; i++) {
		if ((w = operand_word(cmd_table[i]->id)) == NULL)
			continue;
		if (strcmp(w, "shells") == 0)
			fprintf(out, "\t%s) REPLY='bash zsh fish' ;;\n",
			    cmd_table[i]->name);
		else
			fprintf(out, "\t%s) REPLY=%s ;;\n", cmd_table[i]->name,
			    w);
	}
	fputs("\t*) REPLY= ;;\n\tesac\n}\n\n", out);

	for (w = bash_body; *w != '\0'; w++) {
		if (strncmp(w, "@LISTS@", 7) == 0) {
			print_list_kinds(out, "|");
			w += 6;
		} else
			fputc(*w, out);
	}
}

static const char zsh_body[] =
"_gpucost() {\n"
"\tlocal cmd= db= opt= w REPLY\n"
"\tlocal -i i\n"
"\tlocal -a vals args\n"
"\tfor ((i = 2; i < CURRENT; i++)); do\n"
"\t\tw=$words[i]\n"
"\t\tcase $w in\n"
"\t\t(--db=*) db=${w#--db=} ;;\n"
"\t\t(--*=*) ;;\n"
"\t\t(-*)\n"
"\t\t\t_gpucost_kind $w\n"
"\t\t\tif [[ -n $REPLY ]]; then\n"
"\t\t\t\t[[ $w == --db ]] && db=$words[i+1]\n"
"\t\t\t\t((i++))\n"
"\t\t\tfi ;;\n"
"\t\t(*) cmd=$w; break ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif [[ $PREFIX == --*=* ]]; then\n"
"\t\topt=${PREFIX%%=*}\n"
"\t\tcompset -P '*='\n"
"\telif (( CURRENT > 2 )); then\n"
"\t\topt=$words[CURRENT-1]\n"
"\tfi\n"
"\t_gpucost_kind $opt\n"
"\tcase $REPLY in\n"
"\t('') ;;\n"
"\t(file) _files; return ;;\n"
"\t(dir) _files -/; return ;;\n"
"\t(text) _message -e value \"${opt} value\"; return 1 ;;\n"
"\t(*)\n"
"\t\t[[ $REPLY == (@LISTS@) ]] && compset -P '*,'\n"
"\t\targs=(__complete $REPLY)\n"
"\t\t[[ -n $db ]] && args+=(--db ${(Q)db})\n"
"\t\tvals=(${(f)\"$(${~words[1]} $args 2>/dev/null)\"})\n"
"\t\tcompadd -M 'm:{a-zA-Z}={A-Za-z}' -a vals\n"
"\t\treturn ;;\n"
"\tesac\n"
"\tif [[ $PREFIX == -* ]]; then\n"
"\t\t_gpucost_options $cmd\n"
"\t\tvals=(${=REPLY})\n"
"\t\tcompadd -a vals\n"
"\telif [[ -z $cmd ]]; then\n"
"\t\tvals=(${=_gpucost_commands})\n"
"\t\tcompadd -a vals\n"
"\telse\n"
"\t\t_gpucost_operand $cmd\n"
"\t\tcase $REPLY in\n"
"\t\t(dir) _files -/ ;;\n"
"\t\t(keys)\n"
"\t\t\targs=(__complete keys)\n"
"\t\t\t[[ -n $db ]] && args+=(--db ${(Q)db})\n"
"\t\t\tvals=(${(f)\"$(${~words[1]} $args 2>/dev/null)\"})\n"
"\t\t\tcompadd -a vals ;;\n"
"\t\t(?*) vals=(${=REPLY}); compadd -a vals ;;\n"
"\t\tesac\n"
"\tfi\n"
"}\n"
"\n"
"if [[ $funcstack[1] == _gpucost ]]; then\n"
"\t_gpucost \"$@\"\n"
"else\n"
"\tcompdef _gpucost gpucost\n"
"fi\n";

static void
print_zsh(FILE *out)
{
	const struct cli_option *t;
	size_t n, i;
	const char *w;

	t = cli_option_table(&n);
	fputs("#compdef gpucost\n# zsh completion for gpucost(1), generated "
	    "by `gpucost completion zsh`\n# from its option table: "
	    "regenerate, do not edit. Values come from\n# `gpucost __complete "
	    "KIND`.\n\n", out);
	fputs("_gpucost_commands='", out);
	for (i = 0; cmd_table[i] != NULL; i++)
		if (command_listed(cmd_table[i]))
			fprintf(out, "%s%s", i <= 1 ? "" : " ",
			    cmd_table[i]->name);
	fputs("'\n\n", out);
	fputs("_gpucost_kind() {\n\tcase $1 in\n", out);
	for (i = 0; i < n; i++) {
		if ((w = value_word(&t[i])) == NULL)
			continue;
		fputs("\t(", out);
		print_pattern(out, &t[i], "|");
		fprintf(out, ") REPLY=%s ;;\n", w);
	}
	fputs("\t(*) REPLY= ;;\n\tesac\n}\n\n", out);
	fputs("_gpucost_options() {\n\tcase $1 in\n", out);
	for (i = 0; cmd_table[i] != NULL; i++) {
		if (!command_listed(cmd_table[i]) && i != 0)
			continue;
		fprintf(out, "\t(%s) REPLY='", i == 0 ? "''" :
		    cmd_table[i]->name);
		print_option_words(out, cmd_table[i]->scope);
		fputs("' ;;\n", out);
	}
	fputs("\t(*) REPLY= ;;\n\tesac\n}\n\n", out);
	fputs("_gpucost_operand() {\n\tcase $1 in\n", out);
	for (i = 0; cmd_table[i] != NULL; i++) {
		if ((w = operand_word(cmd_table[i]->id)) == NULL)
			continue;
		fprintf(out, "\t(%s) REPLY='%s' ;;\n", cmd_table[i]->name,
		    strcmp(w, "shells") == 0 ? "bash zsh fish" : w);
	}
	fputs("\t(*) REPLY= ;;\n\tesac\n}\n\n", out);
	for (w = zsh_body; *w != '\0'; w++) {
		if (strncmp(w, "@LISTS@", 7) == 0) {
			print_list_kinds(out, "|");
			w += 6;
		} else
			fputc(*w, out);
	}
}

static const char fish_head[] =
"# fish completion for gpucost(1), generated by `gpucost completion fish`\n"
"# from its option table: regenerate, do not edit. Values come from\n"
"# `gpucost __complete KIND`.\n"
"\n"
"# The command word on the line so far ('' for the query).\n"
"function __gpucost_command\n"
"\tset -l toks (commandline -opc)\n"
"\tset -l skip 0\n"
"\tfor t in $toks[2..-1]\n"
"\t\tif test $skip = 1\n"
"\t\t\tset skip 0\n"
"\t\t\tcontinue\n"
"\t\tend\n"
"\t\tswitch $t\n"
"\t\t\tcase '--*=*'\n"
"\t\t\tcase '-*'\n"
"\t\t\t\tif test -n \"(__gpucost_kind $t)\"\n"
"\t\t\t\t\tset skip 1\n"
"\t\t\t\tend\n"
"\t\t\tcase '*'\n"
"\t\t\t\techo $t\n"
"\t\t\t\treturn\n"
"\t\tend\n"
"\tend\n"
"\techo ''\n"
"end\n"
"\n"
"# Is the command word one of the arguments ('' the query)?\n"
"function __gpucost_in\n"
"\tcontains -- (__gpucost_command) $argv\n"
"end\n"
"\n"
"# The --db given on the line, if any.\n"
"function __gpucost_db\n"
"\tset -l toks (commandline -opc)\n"
"\tfor i in (seq (count $toks))\n"
"\t\tswitch $toks[$i]\n"
"\t\t\tcase '--db=*'\n"
"\t\t\t\tstring replace -- '--db=' '' $toks[$i]\n"
"\t\t\tcase --db\n"
"\t\t\t\tset -l j (math $i + 1)\n"
"\t\t\t\ttest $j -le (count $toks); and echo $toks[$j]\n"
"\t\tend\n"
"\tend\n"
"end\n"
"\n"
"# Candidates of a kind from the program itself; in a comma list, each\n"
"# after the items typed so far.\n"
"function __gpucost_values\n"
"\tset -l bin (commandline -opc)[1]\n"
"\tset -l tok (commandline -ct)\n"
"\tset -l pre ''\n"
"\tset -l db (__gpucost_db)\n"
"\tset -l args __complete $argv[1]\n"
"\ttest -n \"$db\"; and set args $args --db $db\n"
"\tstring match -q -- '-*=*' $tok; and set tok (string replace -r -- '^[^=]*=' '' $tok)\n"
"\tif contains -- $argv[1] @LISTS@; and string match -q -- '*,*' $tok\n"
"\t\tset pre (string replace -r -- '[^,]*$' '' $tok)\n"
"\tend\n"
"\tfor w in ($bin $args 2>/dev/null)\n"
"\t\tprintf '%s\\t%s\\n' $pre$w $argv[1]\n"
"\tend\n"
"end\n"
"\n";

static void
print_fish(FILE *out)
{
	const struct cli_option *t;
	size_t n, i, k;
	const char *w;

	t = cli_option_table(&n);
	for (w = fish_head; *w != '\0'; w++) {
		if (strncmp(w, "@LISTS@", 7) == 0) {
			print_list_kinds(out, " ");
			w += 6;
		} else
			fputc(*w, out);
	}
	fputs("function __gpucost_kind\n\tswitch $argv[1]\n", out);
	for (i = 0; i < n; i++) {
		if ((w = value_word(&t[i])) == NULL)
			continue;
		fputs("\t\tcase ", out);
		print_pattern(out, &t[i], " ");
		fprintf(out, " '--%s=*'\n\t\t\techo %s\n", t[i].name, w);
	}
	fputs("\tend\nend\n\n", out);

	fputs("complete -c gpucost -f\n", out);
	for (i = 0; cmd_table[i] != NULL; i++) {
		if (!command_listed(cmd_table[i]))
			continue;
		fprintf(out, "complete -c gpucost -n '__gpucost_in \"\"' -a %s "
		    "-d ", cmd_table[i]->name);
		print_quoted(out, cmd_table[i]->summary);
		fputc('\n', out);
	}
	for (i = 0; cmd_table[i] != NULL; i++) {
		if ((w = operand_word(cmd_table[i]->id)) == NULL)
			continue;
		if (strcmp(w, "dir") == 0)
			fprintf(out, "complete -c gpucost -n '__gpucost_in %s' "
			    "-F -a '(__fish_complete_directories)'\n",
			    cmd_table[i]->name);
		else if (strcmp(w, "keys") == 0)
			fprintf(out, "complete -c gpucost -n '__gpucost_in %s' "
			    "-x -a '(__gpucost_values keys)'\n",
			    cmd_table[i]->name);
		else
			fprintf(out, "complete -c gpucost -n '__gpucost_in %s' "
			    "-a 'bash zsh fish'\n", cmd_table[i]->name);
	}
	for (i = 0; i < n; i++) {
		fputs("complete -c gpucost -n '__gpucost_in", out);
		for (k = 0; cmd_table[k] != NULL; k++)
			if ((k == 0 || command_listed(cmd_table[k])) &&
			    (cmd_table[k]->scope & t[i].scope) != 0)
				fprintf(out, " %s", k == 0 ? "\"\"" :
				    cmd_table[k]->name);
		fprintf(out, "' -l %s", t[i].name);
		if (t[i].short_opt != 0)
			fprintf(out, " -s %c", t[i].short_opt);
		if ((w = value_word(&t[i])) != NULL) {
			if (strcmp(w, "file") == 0)
				fputs(" -r -F", out);
			else if (strcmp(w, "dir") == 0)
				fputs(" -r -a '(__fish_complete_directories)'",
				    out);
			else if (strcmp(w, "text") == 0)
				fputs(" -x", out);
			else
				fprintf(out, " -x -a '(__gpucost_values %s)'",
				    w);
		}
		fputs(" -d ", out);
		print_quoted(out, t[i].help);
		fputc('\n', out);
	}
}

static int
cmd_completion_exec(const struct cli_options *o)
{
	char q[80];
	size_t i;

	for (i = 0; i < NSHELLS; i++)
		if (strcmp(o->operand, shells[i]) == 0)
			break;
	if (i == NSHELLS) {
		cli_error("completion: expected bash, zsh or fish, got %s",
		    str_quoted(o->operand, q, sizeof q));
		return EXIT_USAGE;
	}
	if (i == 0)
		print_bash(stdout);
	else if (i == 1)
		print_zsh(stdout);
	else
		print_fish(stdout);
	return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_DATA;
}

/* __complete: one candidate a line. */
static void
emit_line(const char *word, void *ctx)
{
	fprintf(ctx, "%s\n", word);
}

/* One candidate a line, if a shell takes it as one word. */
static void
emit_word(const char *word, void *ctx)
{
	if (str_is_clean(word) && strpbrk(word, " \t'\"\\$`") == NULL)
		emit_line(word, ctx);
}

/* Region names of the compiled-in table (no cache yet): no patterns. */
static void
table_region_names(FILE *out)
{
	size_t i;

	for (i = 0; i < region_place_count; i++)
		if (strchr(region_places[i].region, '*') == NULL &&
		    str_is_clean(region_places[i].region) &&
		    strchr(region_places[i].region, ' ') == NULL)
			fprintf(out, "%s\n", region_places[i].region);
}

static int
cmd_complete_exec(const struct cli_options *o)
{
	char path[4096];
	enum cli_values v;
	struct err err;

	/* Completion must never print an error into a command line. */
	if (complete_kind_parse(o->operand, &v) < 0)
		return EXIT_USAGE;
	complete_values(v, emit_line, stdout);
	if (v == CLI_VALUES_REGIONS) {
		if (paths_db(o->db, path, sizeof path, &err) < 0 ||
		    access(path, F_OK) != 0)
			table_region_names(stdout);
		else if (db_region_names(path, emit_line, stdout, &err) < 0)
			return EXIT_DATA;
	}
	/* launch's operand: the instance types a shell can take whole. */
	if (v == CLI_VALUES_KEYS && paths_db(o->db, path, sizeof path,
	    &err) == 0 && access(path, F_OK) == 0 &&
	    db_instance_types(path, emit_word, stdout, &err) < 0)
		return EXIT_DATA;
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

const struct cmd_entry cmd_completion_entry = {
	CMD_COMPLETION, "completion", "bash|zsh|fish",
	"print the shell's completion script", CMD_SCOPE_OTHER, false,
	cmd_completion_exec
};

/* Hidden (its word starts "__"): what the completion scripts call. */
const struct cmd_entry cmd_complete_entry = {
	CMD_COMPLETE, "__complete", "KIND", "values for the completion scripts",
	CMD_SCOPE_OTHER, false, cmd_complete_exec
};
