#!/bin/sh
# The gpucost binary must not link libcurl: src/http.c loads it with
# dlopen() on first use, so `gpucost query` starts without it. A linked
# -lcurl would load it at every start (and only a linker that drops
# unused libraries, --as-needed, would hide the mistake).
set -u
: "${GPUCOST:=./gpucost}"
if [ ! -f "$GPUCOST" ]; then
	echo "check_no_libcurl.sh: no binary at $GPUCOST" >&2
	exit 99
fi
if command -v readelf >/dev/null 2>&1; then
	needed=$(readelf -d "$GPUCOST") || exit 99
elif command -v objdump >/dev/null 2>&1; then
	needed=$(objdump -p "$GPUCOST") || exit 99
else
	echo "check_no_libcurl.sh: SKIP: neither readelf nor objdump" >&2
	exit 77
fi
needed=$(printf '%s\n' "$needed" | grep NEEDED)
if [ -z "$needed" ]; then
	echo "check_no_libcurl.sh: no NEEDED entries read from $GPUCOST" >&2
	exit 99
fi
if printf '%s\n' "$needed" | grep -i 'libcurl' >/dev/null; then
	echo "FAIL: $GPUCOST links libcurl (it must be loaded with dlopen):" >&2
	printf '%s\n' "$needed" | grep -i libcurl >&2
	exit 1
fi
echo "check_no_libcurl.sh: gpucost does not link libcurl"
exit 0
