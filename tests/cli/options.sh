#!/bin/sh
# Every option value is validated: a clear one-line message and exit 2.
. "$(dirname "$0")/../lib.sh"

# bad VALUES... EXPECTED-MESSAGE
bad() {
	msg=$1
	shift
	run --db "$DB" "$@"
	check "gpucost $* exits 2" status_is 2
	check "gpucost $* says: $msg" err_has "$msg"
	check "gpucost $* writes nothing to stdout" [ ! -s "$T/out" ]
}

bad '--count: expected a positive integer, got "abc"' --count abc
bad '--count: expected a positive integer, got "0"' --count 0
bad '--count: expected a positive integer, got "-2"' --count -2
bad '--min-vram: expected a whole number of GB from 1 to 1024, got "-5"' --min-vram -5
bad '--min-vram: expected a whole number of GB' --min-vram 1.5
bad '--format: expected table, csv, tsv or json, got "xml"' --format xml
bad '--hours: expected a number of hours greater than 0' --hours nan
bad '--hours: expected a number of hours greater than 0' --hours inf
bad '--hours: expected a number of hours greater than 0' --hours 0
bad '--max-price: expected a price in USD per GPU-hour greater than 0, got "-1"' --max-price -1
bad '--max-price: expected a price' --max-price cheap
bad '--interconnect: infiniband is a fabric between nodes: use --fabric' --interconnect infiniband
bad '--interconnect: efa is a fabric between nodes: use --fabric' --interconnect efa
bad '--interconnect: expected nvlink or pcie, got "token-ring"' --interconnect token-ring
bad '--fabric: unknown fabric "nvlink"' --fabric nvlink
bad '--nodes: expected a whole number of nodes from 1 to 1024, got "0"' --nodes 0
bad '--min-node-gbps: expected a whole number of Gb/s from 1 to 100000, got "fast"' --min-node-gbps fast
bad '--provider: unknown provider "ibmcloud"' --provider aws,ibmcloud
bad '--provider: expected a comma list' --provider aws,,gcp
bad '--sort: expected gpu-price' --sort cheapest
bad '--limit: expected a positive integer, got "0"' --limit 0
bad "unknown option \"--frobnicate\"" --frobnicate
bad "unknown option '-z'" -z
bad '--count: expected a value' --count
bad 'unknown command "fly"' fly
bad 'providers: unexpected argument "extra"' providers extra
bad '--count: not valid with the .providers. command' providers --count 2
bad '--gpu: unknown GPU "A1000"; did you mean A100' --gpu A1000
bad '--gpu: unknown GPU "qqqqqqqq"' --gpu qqqqqqqq

# The error is one line (plus the --help hint), never a crash.
run --db "$DB" --count abc
check "usage error is two short lines" err_lines_are 2
check "usage error points at --help" err_has "Try 'gpucost --help'"

# Nothing was created for a usage error.
check "no cache created for usage errors" [ ! -e "$DB" ]

run --help
check "--help exits 0" status_is 0
check "--help lists --multi-node" out_has "--multi-node"
check "--help lists the exit codes" out_has "exit status"
run --version
check "--version exits 0" status_is 0
check "--version prints the name and version" out_has "^gpucost [0-9]"
run help
check "help command exits 0" status_is 0

# Every provider --help names can be asked for in one --provider list.
# The list may fold over several lines at 80 columns.
ids=$(sed -n '/^providers:/,/\.$/p' "$T/out" | tr -d '\n ' | sed 's/^providers://; s/\.$//')
check "--help names the providers ($ids)" [ -n "$ids" ]
run --db "$T/all.db" --provider "$ids" --quiet --format csv
check "--provider with every provider: not a usage error ($status)" [ "$status" -le 1 ]

# The interactive mode with no terminal: a usage error (cmd_tui.c turns
# the TUI's result into the exit status), the cache left alone.
run tui --db "$T/tui.db" </dev/null
check "tui with no terminal exits 2" status_is 2
check "tui with no terminal says why" err_has "needs a terminal"
check "tui with no terminal creates no cache" [ ! -e "$T/tui.db" ]

finish
