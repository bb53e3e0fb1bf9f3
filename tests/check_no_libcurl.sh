#!/bin/sh
# The gpucost binary must not link libcurl: src/http.c loads it with
# dlopen() on first use, so `gpucost query` starts without it. Nor
# zlib, libsodium or ncurses, loaded the same way. A linked
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
status=0
# libcurl (src/http.c), zlib (src/gz.c), libsodium (src/sign.c) and
# ncurses (src/tui/curses.c, with its libtinfo) are all loaded on first
# use.
for lib in libcurl libz libsodium libncursesw libtinfo; do
	if printf '%s\n' "$needed" | grep -i "\\[$lib[.]" >/dev/null; then
		echo "FAIL: $GPUCOST links $lib (it must be loaded with dlopen):" >&2
		printf '%s\n' "$needed" | grep -i "$lib" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] || exit 1
echo "check_no_libcurl.sh: gpucost links none of libcurl, zlib, libsodium, ncurses"
exit 0
