#!/bin/sh
# Shell completion, fish: the script `gpucost completion fish` prints,
# loaded into fish and asked with fish's own non-interactive
# `complete -C LINE`. Skips only if fish is absent.
. "$(dirname "$0")/../lib.sh"

command -v fish >/dev/null 2>&1 || { echo "fish absent: skipped"; exit 77; }

mkdir -p "$T/bin"
ln -s "$GPUCOST" "$T/bin/gpucost"
PATH=$T/bin:$PATH
XDG_CONFIG_HOME=$T/config
XDG_DATA_HOME=$T/data
export PATH XDG_CONFIG_HOME XDG_DATA_HOME

run completion fish
check "completion fish exits 0" status_is 0
cp "$T/out" "$T/gpucost.fish"
check "the script is valid fish" fish --no-execute "$T/gpucost.fish"

# complete LINE: the candidates fish offers, one a line, without their
# descriptions.
complete_line() {
	fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
	    "$T/gpucost.fish" "$1" 2>"$T/err" | cut -f1 >"$T/out"
}
offers() { grep -qx -- "$1" "$T/out"; }
lacks() { ! grep -qx -- "$1" "$T/out"; }

complete_line 'gpucost --gpu H1'
check "--gpu H1<TAB> offers H100" offers H100
check "--gpu H1<TAB> offers H100-NVL" offers H100-NVL
check "--gpu H1<TAB> offers no H200" lacks H200
check "--gpu H1<TAB> prints no error" [ ! -s "$T/err" ]
complete_line 'gpucost --gpu=A100-80,H1'
check "--gpu=A100-80,H1<TAB>: the next list item" offers --gpu=A100-80,H100-NVL
complete_line 'gpucost -p '
check "-p <TAB> offers vast" offers vast
complete_line 'gpucost --format '
check "--format <TAB> offers csv" offers csv
complete_line 'gpucost gpus --'
check "gpus --<TAB> offers --gpu" offers --gpu
check "gpus --<TAB> does not offer --count" lacks --count
complete_line 'gpucost '
check "<TAB> offers the commands" offers providers
check "<TAB> hides __complete" lacks __complete
complete_line 'gpucost completion '
check "completion <TAB> offers fish" offers fish

# Issue 43, item 2: a region name is data, never code. gpucost writes
# none holding ";" or "*" and refuses a copy (or a publish) holding one;
# a cache edited by hand may still, and completion must quote it. fish
# escapes what it inserts: "zc;touch FILE" completed from "zc" in an
# interactive fish (driven through zsh's zpty, when zsh is there) and the
# line run gives gpucost one argument, the region, and runs nothing.
# gpucost here is a wrapper that records its arguments (and runs the
# real one for __complete).
READER=$T/reader.db
check "hostile regions: not published; in the reader's own cache" hostile_regions_cached "$READER"
complete_line "gpucost --db $READER --region z"
check "--region z<TAB> offers \"zc;touch ...\" (fish escapes it when inserting)" \
    grep -qxF "zc;touch $T/pwned" "$T/out"
check "--region z<TAB> offers zf*, not globbed" grep -qxF 'zf*' "$T/out"
if command -v zsh >/dev/null 2>&1; then
	tab_then_enter "fish --no-config -i" "gpucost --db $READER --region zc" \
	    "source $T/gpucost.fish"
	check "zc<TAB> then Enter: gpucost ran" [ -s "$T/ran" ]
	check "zc<TAB> then Enter: nothing else ran" [ ! -e "$T/pwned" ]
	check "zc<TAB> then Enter: the region is one argument" \
	    [ "$(sed -n 4p "$T/ran" 2>/dev/null)" = "zc;touch $T/pwned" ]
fi

finish
