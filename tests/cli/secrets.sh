#!/bin/sh
# API keys, from the environment and from the config file, through a good
# refresh, failing ones (HTTP 401 with a body that echoes the key, a
# redirect to another host, a refused connection), `gpucost providers`
# and queries: a key travels only in request headers, and never shows in
# the cache (-wal, -shm, lock), stdout, stderr, a request target or body,
# a stored error, or a process's arguments. A config file holding keys
# that other users may read draws one warning. TLS verification cannot
# be turned off.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
KEYED="gcp lambda runpod vast vultr salad"
NKEYED=$(echo $KEYED | wc -w)
# Keyless providers: no key of any other provider may reach them.
KEYLESS="azure oci scaleway runpod-clusters linode ovh cloudrift verda akash"
# Environment keys and config-file keys; no 10 characters in a row of one
# appear anywhere else.
ENV_KEYS="gcp=AIzaEnvGcp7Qw2Lm9Xc4Vb8Nr1Tz6Hk3Jd lambda=lmbEnvK8s2Df7Gh4Jk9Lq3Wz6Xc1Vb5 runpod=rpdEnvP4o9Iu2Yt7Re3Wq8As1Df6Gh vast=vstEnvZ1x6Cv3Bn8Ml2Kj7Hg4Fd9Sa vultr=vltEnvQ9w4Er7Ty2Ui5Op8As3Df6Gh salad=sldEnvB5n2Mj8Kh3Lg6Fd1Sa9Qw4Er"
CFG_KEYS="gcp=AIzaCfgGcp3Pl8Ok2Ij7Uh4Yg9Tf1Rd lambda=lmbCfgM5n1Bv6Cx3Zl8Kj2Hg7Fd4Sa runpod=rpdCfgE2w7Rt4Yu9Io1Pa6Sd3Fg8Hj vast=vstCfgY7u2Ii5Oo9Pp3Aa8Ss1Dd6Ff vultr=vltCfgG3h8Jk1Ll6Zx4Cv9Bn2Mq7Wr salad=sldCfgT6y3Ui9Op2As7Df4Gh1Jk5Lz"
key_of() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
ALL_KEYS=$(for p in $KEYED; do key_of "$p" "$ENV_KEYS"; key_of "$p" "$CFG_KEYS"; done)

use_env_keys() {
	GCP_API_KEY=$(key_of gcp "$ENV_KEYS")
	LAMBDA_API_KEY=$(key_of lambda "$ENV_KEYS")
	RUNPOD_API_KEY=$(key_of runpod "$ENV_KEYS")
	VAST_API_KEY=$(key_of vast "$ENV_KEYS")
	VULTR_API_KEY=$(key_of vultr "$ENV_KEYS")
	SALAD_API_KEY=$(key_of salad "$ENV_KEYS")
	export GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
	export SALAD_API_KEY
}
no_env_keys() {
	unset GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
	unset SALAD_API_KEY
}

# What leaks searches for: each key, its first and its last 10
# characters ("pattern key" lines, written once).
for k in $ALL_KEYS; do
	echo "$k $k"
	echo "$k" | awk '{ print substr($0, 1, 10), $0; print substr($0, length($0) - 9), $0 }'
done > "$T/key-patterns"
cut -d' ' -f1 "$T/key-patterns" > "$T/key-patterns.grep"

# leaks FILE...: the keys, or 10-character starts or ends of them, found
# in the files (missing files are fine).
leaks() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		grep -aoF -f "$T/key-patterns.grep" "$f" | sort -u |
		    while read -r pat; do
			awk -v p="$pat" -v f="$f" '$1 == p { print f ": " $2 }' "$T/key-patterns"
		    done
	done | sort -u
}
no_leak() {
	found=$(leaks "$@")
	check "$1 ...: no key ($found)" [ -z "$found" ]
}

# Every run's output is kept to be searched at the end.
: > "$T/all.out"
: > "$T/all.err"
keep() {
	cat "$T/out" >> "$T/all.out"
	cat "$T/err" >> "$T/all.err"
}
cache_files() { echo "$DB" "$DB-wal" "$DB-shm" "$DB.lock"; }

GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GPUCOST_AWS_REGIONS
# SaladCloud's keyed API names the organisation in its path (the fixtures').
GPUCOST_SALAD_ORGANIZATION=gpucost-org
export GPUCOST_SALAD_ORGANIZATION
good_servers() {
	for p in aws $KEYED $KEYLESS; do
		serve "$1-$p" "$FX/$p"
		export "$(url_var "$p")=$url"
	done
}

# ---------------------------------------------------------------------
# Keys from the environment: a good refresh, providers, queries.
# ---------------------------------------------------------------------
use_env_keys
good_servers env
run --db "$DB" providers
keep
run --db "$DB" refresh
keep
check "env keys: good refresh exit 0" status_is 0
check "env keys: nothing on stderr" [ ! -s "$T/err" ]
for p in $KEYLESS; do
	check "env keys: $p was asked" grep -q '^REQ ' "$T/env-$p.log"
	check "env keys: no key at all reached $p, headers included" [ -z "$(leaks "$T/env-$p.log")" ]
	check "env keys: no Authorization header to $p" [ "$(grep -ci '^HDR authorization' "$T/env-$p.log")" -eq 0 ]
done
for p in $KEYED; do
	k=$(key_of "$p" "$ENV_KEYS")
	check "env keys: $p key sent in a header" grep -q "^HDR .*$k" "$T/env-$p.log"
	check "env keys: $p key in no request target or body" \
	    [ "$(grep -v '^HDR ' "$T/env-$p.log" | grep -cF "$k")" -eq 0 ]
done
for p in $KEYLESS; do
	check "env keys: $p was asked" grep -q '^REQ ' "$T/env-$p.log"
	check "env keys: no key at all reached $p, headers included" [ -z "$(leaks "$T/env-$p.log")" ]
done
for fmt in table csv tsv json; do
	run --db "$DB" providers --format "$fmt"
	keep
	check "providers $fmt: exit 0" status_is 0
	run --db "$DB" --gpu H100 --format "$fmt"
	keep
	check "query $fmt: exit 0" status_is 0
done
run --db "$DB" providers --format csv
check "providers shows the env keys as set" \
    [ "$(tr -d '\r' < "$T/out" | awk -F, '$8 == "set"' | wc -l)" -eq "$NKEYED" ]
no_leak $(cache_files) "$T/all.out" "$T/all.err"

# ---------------------------------------------------------------------
# Keys from the config file, and its permissions.
# ---------------------------------------------------------------------
no_env_keys
XDG_CONFIG_HOME=$T/cfg
export XDG_CONFIG_HOME
CFG=$XDG_CONFIG_HOME/gpucost/config
mkdir -p "$XDG_CONFIG_HOME/gpucost"
{
	echo "# gpucost keys"
	for p in $KEYED; do
		echo "${p}_api_key = $(key_of "$p" "$CFG_KEYS")"
	done
} > "$CFG"
chmod 600 "$CFG"
good_servers cfg
run --db "$DB" refresh
keep
check "config keys, mode 600: exit 0" status_is 0
check "config keys, mode 600: no warning" [ ! -s "$T/err" ]
for p in $KEYLESS; do
	check "config keys: no key at all reached $p" [ -z "$(leaks "$T/cfg-$p.log")" ]
done
for p in $KEYED; do
	k=$(key_of "$p" "$CFG_KEYS")
	check "config keys: $p key sent in a header" grep -q "^HDR .*$k" "$T/cfg-$p.log"
	check "config keys: $p key in no request target or body" \
	    [ "$(grep -v '^HDR ' "$T/cfg-$p.log" | grep -cF "$k")" -eq 0 ]
done
for mode in 644 640 604; do
	chmod "$mode" "$CFG"
	run --db "$DB" refresh --provider vultr
	keep
	check "config mode $mode: refresh still works" status_is 0
	check "config mode $mode: one line on stderr" err_lines_are 1
	check "config mode $mode: a warning naming the file" err_has "^gpucost: warning: $CFG "
	check "config mode $mode: suggests chmod 600" err_has "chmod 600 $CFG"
	run --db "$DB" refresh --provider vultr --quiet
	check "config mode $mode, --quiet: still warns" err_lines_are 1
done
chmod 600 "$CFG"
run --db "$DB" refresh --provider vultr
check "config back to 600: no warning" [ ! -s "$T/err" ]
# Readable by others but without keys: nothing to warn about.
echo "aws_regions = us-east-1,us-west-2,eu-west-1" > "$T/cfg/gpucost/config.nokeys"
mv "$CFG" "$CFG.keys"
mv "$T/cfg/gpucost/config.nokeys" "$CFG"
chmod 644 "$CFG"
run --db "$DB" refresh --provider vultr
check "config 644 without keys: no warning" [ ! -s "$T/err" ]
mv "$CFG.keys" "$CFG"
chmod 600 "$CFG"
for fmt in table csv json; do
	run --db "$DB" providers --format "$fmt"
	keep
	run --db "$DB" --gpu A100 --format "$fmt"
	keep
done
run --db "$DB" providers --format csv
check "providers shows the config-file keys as set" \
    [ "$(tr -d '\r' < "$T/out" | awk -F, '$8 == "set"' | wc -l)" -eq "$NKEYED" ]
no_leak $(cache_files) "$T/all.out" "$T/all.err"

# ---------------------------------------------------------------------
# Failing refreshes: 401 with the key echoed, a redirect to another
# host, a refused connection. Config keys (mode 600) are in use.
# ---------------------------------------------------------------------
# An error body that echoes the key twice: once early, once where a
# 120-character excerpt of it would cut the key in two.
for p in $KEYED; do
	k=$(key_of "$p" "$CFG_KEYS")
	mkdir -p "$T/echo-$p"
	printf '{"error": {"code": 401, "message": "API key %s is not valid; the key given was: %s", "status": "UNAUTHENTICATED"}}\n' \
	    "$k" "$k" > "$T/echo-$p/echo.json"
	printf '{"message": "Unauthorized. Request rejected for the credentials %s"}\n' "$k" > "$T/echo-$p/cut.json"
	echo "* /* echo.json status=401" > "$T/echo-$p/routes"
	serve "echo-$p" "$T/echo-$p"
	export "$(url_var "$p")=$url"
done
run --db "$DB" refresh --provider "$(echo $KEYED | tr ' ' ,)" --timeout 5
keep
check "401 echoing the key: exit 4" status_is 4
check "401 echoing the key: one line per provider" err_lines_are "$NKEYED"
check "401 echoing the key: says 401" err_has 'HTTP 401'
check "401 echoing the key: the key is masked" err_has '\*\*\*'
for p in $KEYED; do
	echo "* /* cut.json status=401" > "$T/echo-$p/routes.new"
	mv "$T/echo-$p/routes.new" "$T/echo-$p/routes"
done
run --db "$DB" refresh --provider "$(echo $KEYED | tr ' ' ,)" --timeout 5
keep
check "401 echo cut by the excerpt: exit 4" status_is 4
sqlite3 "$DB" "select last_error from provider_status" > "$T/stored-errors"
run --db "$DB" providers --format csv
keep
no_leak "$T/stored-errors" "$T/all.err" "$T/all.out" $(cache_files)

# A redirect to another host: the key must not follow it.
serve elsewhere "$FX/vast"
elsewhere=$url
for p in $KEYED; do
	echo "* /* - status=302 header=Location:%20$elsewhere/moved" > "$T/echo-$p/routes.new"
	mv "$T/echo-$p/routes.new" "$T/echo-$p/routes"
done
run --db "$DB" refresh --provider "$(echo $KEYED | tr ' ' ,)" --timeout 5
keep
check "redirect elsewhere: exit 4" status_is 4
no_leak "$T/elsewhere.log"

# A refused connection.
serve gone "$FX/vast"
gone=$url
kill "${server_pids##* }"
wait_for 5 eval '! kill -0 "${server_pids##* }" 2>/dev/null'
for p in $KEYED; do
	export "$(url_var "$p")=$gone"
done
run --db "$DB" refresh --provider "$(echo $KEYED | tr ' ' ,)" --timeout 2
keep
check "refused connection: exit 4" status_is 4
check "refused connection: one line per provider" err_lines_are "$NKEYED"
no_leak "$T/all.err" "$T/all.out" $(cache_files)

# ---------------------------------------------------------------------
# A key with a control character (CR/LF would end its header and start
# one of the key's choosing) is refused, for every provider, from the
# environment and from the config file: nothing is sent, and the message
# names the variable or setting, never the key.
# ---------------------------------------------------------------------
CR=$(printf '\r')
LF='
'
for p in $KEYED; do
	serve "ctl-$p" "$FX/$p"
	export "$(url_var "$p")=$url"
done
for ctl in "$CR${LF}X-Injected: yes" "$LF" "$(printf 'tab\there')" "$(printf 'esc\033[2J')"; do
	no_env_keys
	for p in $KEYED; do
		var=$(echo "$p" | tr '[:lower:]' '[:upper:]')_API_KEY
		k=$(key_of "$p" "$ENV_KEYS")
		# shellcheck disable=SC2163
		export "$var=${k}$ctl"
	done
	run --db "$DB" refresh --provider "$(echo $KEYED | tr ' ' ,)" --timeout 5
	keep
	check "env key with a control character: exit 4 ($status)" status_is 4
	check "env key with a control character: one line per provider" err_lines_are "$NKEYED"
	for p in $KEYED; do
		var=$(echo "$p" | tr '[:lower:]' '[:upper:]')_API_KEY
		check "env key with a control character: $p names $var" \
		    err_has "^gpucost: $p: $var holds a control character"
		check "env key with a control character: $p stored as failed" \
		    [ -n "$(sqlite3 "$DB" "select last_error from provider_status where provider = '$p' and last_error like '$var holds a control%'")" ]
	done
done
no_env_keys
for p in $KEYED; do
	check "control-character keys: nothing reached the $p server" \
	    [ ! -s "$T/ctl-$p.log" ]
done
# The config file: a control character inside a value (ESC).
cp "$CFG" "$CFG.good"
esc=$(printf '\033')
sed "s/^lambda_api_key = \(.*\)/lambda_api_key = \1${esc}[0m/" "$CFG.good" > "$CFG"
chmod 600 "$CFG"
check "config key with ESC written" grep -q "$esc" "$CFG"
run --db "$DB" refresh --provider lambda,vultr --timeout 5
keep
check "config key with a control character: exit 4 ($status)" status_is 4
check "config key with a control character: names the setting and the file" \
    err_has "^gpucost: lambda: lambda_api_key in $CFG holds a control character"
check "config key with a control character: the other provider works" \
    eval '! err_has "vultr"'
check "config key with a control character: nothing sent to lambda" [ ! -s "$T/ctl-lambda.log" ]
mv "$CFG.good" "$CFG"
no_leak "$T/all.err" "$T/all.out" $(cache_files)

# ---------------------------------------------------------------------
# A running refresh: no key in its arguments (ps, /proc/PID/cmdline),
# and a config-file key not in its environment either.
# ---------------------------------------------------------------------
mkdir -p "$T/slow"
cp "$FX/lambda/instance-types.json" "$T/slow/"
echo "GET /api/v1/instance-types instance-types.json delay=2000" > "$T/slow/routes"
serve slow "$T/slow"
GPUCOST_LAMBDA_URL=$url "$GPUCOST" --db "$DB" refresh --provider lambda \
    > "$T/bg.out" 2> "$T/bg.err" &
pid=$!
check "the slow refresh asked" wait_for 10 grep -q '^REQ ' "$T/slow.log"
if [ -r "/proc/$pid/cmdline" ]; then
	tr '\0' ' ' < "/proc/$pid/cmdline" > "$T/cmdline"
	check "cmdline read ($(cat "$T/cmdline"))" grep -q refresh "$T/cmdline"
	no_leak "$T/cmdline"
	tr '\0' '\n' < "/proc/$pid/environ" > "$T/environ" 2>/dev/null
	no_leak "$T/environ"
fi
ps -o args= -p "$pid" > "$T/ps-args" 2>/dev/null
ps -e -o args= > "$T/ps-all" 2>/dev/null
no_leak "$T/ps-args" "$T/ps-all"
wait "$pid"
check "the slow refresh worked" [ $? -eq 0 ]
check "the config key went in a header" grep -q "^HDR .*$(key_of lambda "$CFG_KEYS")" "$T/slow.log"
cat "$T/bg.out" >> "$T/all.out"
cat "$T/bg.err" >> "$T/all.err"

# ---------------------------------------------------------------------
# TLS verification stays on: no option, no variable, no code to turn it
# off; a self-signed server is refused, whatever the environment says.
# ---------------------------------------------------------------------
src=$TOP_SRCDIR/src
check "sources set VERIFYPEER to 1 and VERIFYHOST to 2" \
    eval 'grep -q "CURLOPT_SSL_VERIFYPEER, 1L" "$src/http.c" && grep -q "CURLOPT_SSL_VERIFYHOST, 2L" "$src/http.c"'
check "no source sets VERIFYPEER or VERIFYHOST otherwise" \
    [ "$(grep -rn 'CURLOPT_SSL_VERIFY\(PEER\|HOST\)' "$src" | grep -vc 'VERIFYPEER, 1L\|VERIFYHOST, 2L')" -eq 0 ]
check "no source weakens TLS (insecure, CAINFO, PINNEDPUBLICKEY, SSL_OPTIONS)" \
    [ "$(grep -rnE 'CURLOPT_(CAINFO|CAPATH|SSL_OPTIONS|PROXY_SSL_VERIFY|DOH_SSL_VERIFY|SSL_VERIFYSTATUS)|insecure' "$src" | grep -vc '^\S*:[0-9]*:\s*\*')" -eq 0 ]
check "no environment variable name about TLS is read" \
    [ "$(grep -rhoE 'getenv\("[^"]*"\)|"[A-Z_]*(TLS|SSL|VERIFY|INSECURE|CA_BUNDLE)[A-Z_]*"' "$src" | grep -cE 'TLS|SSL|VERIFY|INSECURE|CA_BUNDLE')" -eq 0 ]
check "the man page offers no way to skip verification" \
    [ "$(grep -ciE 'insecure|no-verify|verify=|skip.*(tls|certif)' "$TOP_SRCDIR/man/gpucost.1")" -eq 0 ]
for opt in --insecure -k --no-verify --tls-verify=no; do
	run --db "$DB" refresh --provider lambda "$opt"
	check "refresh $opt: a usage error" status_is 2
done
if command -v openssl >/dev/null 2>&1 &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$T/tls.key" -out "$T/tls.crt" -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1; then
	openssl s_server -accept 127.0.0.1:0 -cert "$T/tls.crt" -key "$T/tls.key" \
	    -www -naccept 20 > "$T/tls.log" 2>&1 </dev/null &
	server_pids="$server_pids $!"
	if wait_for 10 grep -q '^ACCEPT' "$T/tls.log"; then
		port=$(sed -n 's/^ACCEPT .*:\([0-9]*\)$/\1/p' "$T/tls.log")
		GPUCOST_LAMBDA_URL=https://127.0.0.1:$port run --db "$DB" refresh \
		    --provider lambda --timeout 5
		keep
		check "self-signed TLS: refused (exit 4)" status_is 4
		check "self-signed TLS: a certificate error" err_has 'certificate\|SSL\|TLS'
		GPUCOST_LAMBDA_URL=https://127.0.0.1:$port GPUCOST_INSECURE=1 \
		    GPUCOST_TLS_VERIFY=0 GPUCOST_SSL_VERIFY=0 CURL_INSECURE=1 \
		    CURL_SSL_VERIFYPEER=0 GIT_SSL_NO_VERIFY=1 \
		    NODE_TLS_REJECT_UNAUTHORIZED=0 PYTHONHTTPSVERIFY=0 \
		    run --db "$DB" refresh --provider lambda --timeout 5
		keep
		check "self-signed TLS with 'insecure' variables: still refused" status_is 4
		check "the key never reached the TLS server" [ -z "$(leaks "$T/tls.log")" ]
	else
		echo "openssl s_server did not start: TLS server checks skipped" >&2
	fi
else
	echo "openssl missing: TLS server checks skipped" >&2
fi

# Everything seen, once more.
for f in "$T"/*.log; do
	grep -v '^HDR ' "$f" > "$f.nohdr"
done
no_leak $(cache_files) "$T/all.out" "$T/all.err" "$T"/*.log.nohdr
echo "secrets: $(wc -l < "$T/all.out") lines of stdout, $(wc -l < "$T/all.err") of stderr, $(ls "$T"/*.log | wc -l) server logs searched for $(echo $ALL_KEYS | wc -w) keys"
finish
