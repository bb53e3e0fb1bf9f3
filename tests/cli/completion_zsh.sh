#!/bin/sh
# Shell completion, zsh: the script `gpucost completion zsh` prints, as
# _gpucost on the fpath of an interactive zsh run in a pseudo-terminal
# (zsh/zpty, zsh's own non-interactive way to drive its line editor):
# compinit loads it, TAB is typed, and compadd's matches are recorded.
# Skips only if zsh is absent.
. "$(dirname "$0")/../lib.sh"

command -v zsh >/dev/null 2>&1 || { echo "zsh absent: skipped"; exit 77; }

mkdir -p "$T/bin" "$T/fpath"
ln -s "$GPUCOST" "$T/bin/gpucost"
PATH=$T/bin:$PATH
export PATH

run completion zsh
check "completion zsh exits 0" status_is 0
cp "$T/out" "$T/fpath/_gpucost"
check "the script is valid zsh" zsh -n "$T/fpath/_gpucost"
check "the script starts with #compdef" [ "$(head -1 "$T/fpath/_gpucost")" = "#compdef gpucost" ]

# complete LINE: the matches zsh's completion adds for LINE<TAB>, one a
# line in $T/out (each compadd call's matches, as compadd -O returns them).
complete_line() {
	: > "$T/hits"
	ZDOTDIR=$T HITS=$T/hits FP=$T/fpath LINE=$1 zsh -f -c '
		zmodload zsh/zpty || exit 1
		zpty z zsh -f -i
		zpty -w z "PS1= PROMPT_EOL_MARK= fpath=($FP \$fpath)"
		zpty -w z "autoload -Uz compinit && compinit -u -d $FP/.zcompdump"
		zpty -w z "compadd() { local -a h; builtin compadd -O h \"\$@\"; print -rl -- \$h >> $HITS; builtin compadd \"\$@\"; }"
		zpty -w z "print -r -- READY > $HITS.ready"
		i=0
		while [[ ! -s $HITS.ready ]] && (( i++ < 200 )); do sleep 0.05; done
		zpty -w -n z "$LINE"$'"'"'\t'"'"'
		i=0
		while [[ ! -s $HITS ]] && (( i++ < 200 )); do sleep 0.05; done
		sleep 0.3
		zpty -d z' >"$T/err" 2>&1
	cp "$T/hits" "$T/out"
	rm -f "$T/hits.ready"
}
offers() { grep -qx -- "$1" "$T/out"; }
lacks() { ! grep -qx -- "$1" "$T/out"; }

complete_line 'gpucost --gpu H1'
check "--gpu H1<TAB> offers H100" offers H100
check "--gpu H1<TAB> offers H100-NVL" offers H100-NVL
check "--gpu H1<TAB> offers no H200" lacks H200
complete_line 'gpucost --gpu=H1'
check "--gpu=H1<TAB> offers H100-NVL" offers H100-NVL
complete_line 'gpucost --provider '
check "--provider <TAB> offers lambda" offers lambda
complete_line 'gpucost --sort '
check "--sort <TAB> offers gpu-price" offers gpu-price
complete_line 'gpucost gpus --'
check "gpus --<TAB> offers --gpu" offers --gpu
check "gpus --<TAB> does not offer --count" lacks --count
complete_line 'gpucost '
check "<TAB> offers the commands" offers providers

# Issue 43, item 2: a region name is data, never code. gpucost writes
# none holding ";" or "*" and refuses a copy (or a publish) holding one;
# a cache edited by hand may still, and completion must quote it. zsh's
# compadd quotes what it inserts: "zc;touch FILE" completed from "zc" and
# the line run (Enter) gives gpucost one argument, the region, and runs
# nothing. gpucost here is a wrapper that records its arguments (and
# runs the real one for __complete).
READER=$T/reader.db
check "hostile regions: not published; in the reader's own cache" hostile_regions_cached "$READER"
tab_then_enter "zsh -f -i" "gpucost --db $READER --region zc" \
    "PS1= PROMPT_EOL_MARK= fpath=($T/fpath \$fpath)" \
    "autoload -Uz compinit && compinit -u -d $T/fpath/.zcompdump"
check "zc<TAB> then Enter: gpucost ran" [ -s "$T/ran" ]
check "zc<TAB> then Enter: nothing else ran" [ ! -e "$T/pwned" ]
check "zc<TAB> then Enter: the region is one argument" \
    [ "$(sed -n 4p "$T/ran")" = "zc;touch $T/pwned" ]
check "zc<TAB> then Enter: four arguments" [ "$(wc -l < "$T/ran")" -eq 4 ]
complete_line "gpucost --db $READER --region zf"
check "--region zf<TAB> offers zf* (the match; compadd quotes it)" grep -qxF 'zf*' "$T/out"

finish
