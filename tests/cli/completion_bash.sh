#!/bin/sh
# Shell completion, bash: the script `gpucost completion bash` prints,
# sourced into a non-interactive bash whose completion function is
# called as bash would (COMP_WORDS, COMP_CWORD); its values come from
# the real binary's `__complete`. Also the helper itself and the script
# following the option table. Skips only if bash is absent.
. "$(dirname "$0")/../lib.sh"

command -v bash >/dev/null 2>&1 || { echo "bash absent: skipped"; exit 77; }

# "gpucost" on the PATH is the binary under test, as a user types it.
mkdir -p "$T/bin"
ln -s "$GPUCOST" "$T/bin/gpucost"
PATH=$T/bin:$PATH
export PATH

run completion bash
check "completion bash exits 0" status_is 0
cp "$T/out" "$T/gpucost.bash"
check "the script is valid bash" bash -n "$T/gpucost.bash"

# complete WORD...: what the function offers for the last word.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=(); _gpucost
		printf "%s\n" "${COMPREPLY[@]}"' sh "$T/gpucost.bash" "$@" \
	    >"$T/out" 2>"$T/err"
}
offers() { grep -qx -- "$1" "$T/out"; }
lacks() { ! grep -qx -- "$1" "$T/out"; }

complete_words gpucost --gpu H1
check "--gpu H1<TAB> offers H100" offers H100
check "--gpu H1<TAB> offers H100-NVL" offers H100-NVL
check "--gpu H1<TAB> offers no H200" lacks H200
check "--gpu H1<TAB> prints no error" [ ! -s "$T/err" ]
complete_words gpucost -g h1
check "-g h1<TAB>: case ignored" offers H100
complete_words gpucost --gpu = H1
check "--gpu=H1<TAB> (bash splits at =) offers H100-NVL" offers H100-NVL
complete_words gpucost --gpu A100-80,H1
check "--gpu A100-80,H1<TAB>: the next list item" offers A100-80,H100-NVL
complete_words gpucost --provider ''
for p in $("$GPUCOST" __complete providers); do
	check "--provider<TAB> offers $p (from the registry)" offers "$p"
done
check "--provider<TAB> offers aws" offers aws
complete_words gpucost --sort gpu-
check "--sort gpu-<TAB> offers gpu-price" offers gpu-price
complete_words gpucost --format ''
check "--format<TAB> offers json" offers json
complete_words gpucost --region europe-w
check "--region europe-w<TAB> offers europe-west4 (GCP)" offers europe-west4
complete_words gpucost --region eur
check "--region eur<TAB> offers the continent" offers europe
complete_words gpucost --group-by gpu,prov
check "--group-by gpu,prov<TAB>" offers gpu,provider
complete_words gpucost ''
check "<TAB> offers the commands" offers providers
check "<TAB> offers mcp" offers mcp
check "<TAB> hides __complete" lacks __complete
complete_words gpucost gpus --
check "gpus --<TAB> offers --gpu" offers --gpu
check "gpus --<TAB> does not offer --count" lacks --count
complete_words gpucost --gpu H100 --co
check "a query's --co<TAB> offers --count" offers --count
complete_words gpucost completion ''
check "completion <TAB> offers zsh" offers zsh
complete_words gpucost refresh --provider a
check "refresh --provider a<TAB> offers azure" offers azure

# Every option of --help is in the script (one table, no second list).
for opt in $("$GPUCOST" --help | grep -o -e '--[a-z][a-z-]*' | sort -u); do
	check "the script knows $opt" grep -q -e "$opt" "$T/gpucost.bash"
done

# The helper: regions from the cache the line names, in one indexed query.
run --db "$DB" --gpu H100 --quiet --format csv
run __complete regions --db "$DB"
check "__complete regions exits 0" status_is 0
check "__complete regions: a cached AWS region" out_has '^us-east-1$'
check "__complete regions: a continent" out_has '^europe$'
check "__complete regions: a country code" out_has '^de$'
sqlite3 "$DB" 'SELECT DISTINCT region FROM offers' | grep -v ' ' | sort > "$T/cached"
check "__complete regions: every cached region" \
    [ -z "$(sort "$T/out" | comm -23 "$T/cached" -)" ]
check "the cache has the index the region list hops along" \
    [ "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_master WHERE name = 'offers_region'")" -eq 1 ]
before=$(cksum < "$DB")
run __complete regions --db "$T/none.db"
check "__complete regions without a cache: the built-in names" out_has '^us-east-1$'
check "__complete regions creates no cache" [ ! -e "$T/none.db" ]
check "__complete regions left the cache alone" [ "$(cksum < "$DB")" = "$before" ]
# launch's operand (issue 48): the instance types of the cache, as the
# table's INSTANCE column shows them and launch takes them.
run __complete keys --db "$DB"
check "__complete keys: exit 0" status_is 0
check "__complete keys: an AWS type" out_has '^p5\.48xlarge$'
check "__complete keys: an OCI shape" out_has '^BM\.GPU\.H100\.8$'
check "__complete keys: each once" [ "$(sort "$T/out" | uniq -d | wc -l)" -eq 0 ]
check "__complete keys left the cache alone" [ "$(cksum < "$DB")" = "$before" ]
run __complete keys --db "$T/none.db"
check "__complete keys without a cache: nothing, exit 0" sh -c "[ $status -eq 0 ] && [ ! -s '$T/out' ]"
check "__complete keys creates no cache" [ ! -e "$T/none.db" ]
complete_words gpucost --db "$DB" launch p5.48
check "launch p5.48<TAB> offers p5.48xlarge" offers p5.48xlarge
check "launch p5.48<TAB> offers no p4d" lacks p4d.24xlarge
complete_words gpucost launch p5.48xlarge --no
check "launch KEY --no<TAB> offers --nodes" offers --nodes
# Issue 43, item 2: a region name is data, never code. gpucost writes
# none holding ";" or "*" and refuses a copy (or a publish) holding one;
# a cache edited by hand may still, and completion must quote it. The
# cache holds "zc;touch FILE" and "zf*"; completing --region offers
# each quoted as bash reads it back (one word, the region itself),
# nothing runs and nothing globs.
READER=$T/reader.db
evil="zc;touch $T/pwned"
check "hostile regions: not published; in the reader's own cache" hostile_regions_cached "$READER"
run __complete regions --db "$READER"
check "the cache holds \"zc;touch ...\"" out_has "^zc;touch $T/pwned\$"
mkdir -p "$T/cwd"
: > "$T/cwd/zfa"
: > "$T/cwd/zfb"
( cd "$T/cwd" && complete_words gpucost --db "$READER" --region z )
q_evil=$(bash -c 'printf %q "$1"' sh "$evil")
offers_text() { grep -qxF -- "$1" "$T/out"; }
check "--region z<TAB> offers \"zc;touch ...\" quoted ($q_evil)" offers_text "$q_evil"
check "--region z<TAB> offers zf* quoted, not globbed" offers_text 'zf\*'
check "--region z<TAB>: no file name of the directory" lacks zfa
# What bash reads back from the line the candidate makes: one word.
words=$(bash -c 'eval "set -- $1"; echo "$#|$1"' sh "gpucost --region $q_evil")
check "the inserted candidate is one argument, the region itself" [ "$words" = "3|gpucost" ]
check "... and nothing ran" [ ! -e "$T/pwned" ]
got=$(bash -c 'eval "set -- $1"; printf %s "$3"' sh "gpucost --region $q_evil")
check "... its third word is the region" [ "$got" = "$evil" ]
( cd "$T/cwd" && complete_words gpucost --db "$READER" --region 'zc\;' )
check "--region zc\\;<TAB> (typed quoted) still offers it" offers_text "$q_evil"

run __complete gpus
check "__complete gpus: aliases too" out_has '^H100-SXM$'
run __complete bogus
check "__complete bogus: usage status, nothing printed" sh -c "[ $status -eq 2 ] && [ ! -s '$T/out' ] && [ ! -s '$T/err' ]"
run completion tcsh
check "completion tcsh: usage error" status_is 2
check "completion tcsh: says which shells" err_has 'bash, zsh or fish'
run completion
check "completion without a shell: usage error" status_is 2
run completion bash --gpu H100
check "completion takes no query options" status_is 2

finish
