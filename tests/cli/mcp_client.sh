#!/bin/sh
# gpucost mcp with a real client: the official MCP TypeScript SDK
# (@modelcontextprotocol/sdk from npm, installed once into the build
# tree) connects over stdio, lists the six tools and calls each; the
# cheapest 4x A100-80 from find_offers must be the CLI's first offer,
# market_summary's groups the CLI's --group-by groups, answers short
# (issue 48), and arguments the tool refuses tool errors (isError).
# Skips (77) only when node or npm is absent; .ci/run installs both.
. "$(dirname "$0")/../lib.sh"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "node or npm absent: skipped"
	exit 77
fi

# The SDK version the test was written against.
SDK=@modelcontextprotocol/sdk@1.32.2
: "${TOP_BUILDDIR:=$(dirname "$GPUCOST")}"
NPMDIR=$TOP_BUILDDIR/tests/mcp-client
if [ ! -f "$NPMDIR/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
	mkdir -p "$NPMDIR"
	if ! npm install --prefix "$NPMDIR" --no-audit --no-fund \
	    --loglevel=error "$SDK" >"$T/npm.log" 2>&1; then
		echo "FAIL: npm install $SDK:" >&2
		tail -20 "$T/npm.log" >&2
		exit 1
	fi
fi
# ESM resolves packages from the script's own directory.
cp "$TOP_SRCDIR/tests/mcp/client.mjs" "$NPMDIR/client.mjs"

run --db "$DB" --gpu A100-80 --count 4 --format json
check "the CLI's 4x A100-80 query" status_is 0
cp "$T/out" "$T/expected.json"
run --db "$DB" --gpu H100 --group-by provider --format json
check "the CLI's H100 groups" status_is 0
cp "$T/out" "$T/groups.json"

node "$NPMDIR/client.mjs" "$GPUCOST" "$DB" "$T/expected.json" "$T/groups.json" >"$T/out" 2>"$T/err"
status=$?
cat "$T/out"
check "the SDK client's checks pass" status_is 0
check "the SDK client ran its checks" out_has 'client.mjs: [1-9][0-9]* passed, 0 failed'

finish
