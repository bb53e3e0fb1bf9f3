#!/bin/sh
# tests/deb.sh: build the Debian package from a clean copy of the tree
# (dpkg-buildpackage -us -uc -b), check it with lintian (no errors), then
# unpack it with dpkg -x into an empty directory and run the installed
# binary: --version, one query from the installed files with a private
# HOME and XDG directories, and the installed completion and man page.
# CI runs it after the other steps (.ci/run); `make check` does not (it
# takes minutes and writes outside the build tree's own files).
# The tests ran earlier in CI, so the package build skips them
# (DEB_BUILD_OPTIONS=nocheck). Prints "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpucost-deb.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() {
	desc=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $desc" >&2
	fi
}
finish() {
	echo "deb.sh: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

version=$(sed -n '1s/^gpucost (\([^)]*\)).*/\1/p' "$top/debian/changelog")
src=$work/gpucost-$version
mkdir -p "$src"
# The tracked files only: no build products of an earlier configure.
if [ -d "$top/.git" ] && command -v git >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$src"
else
	(cd "$top" && tar --exclude=./.git -cf - .) | tar -xf - -C "$src"
	(cd "$src" && { [ ! -f Makefile ] || make distclean >/dev/null 2>&1; })
fi

start=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
    DEB_BUILD_PROFILES=nocheck dpkg-buildpackage -us -uc -b) \
    >"$work/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -us -uc -b exits 0" [ "$rc" -eq 0 ]
if [ "$rc" -ne 0 ]; then
	tail -40 "$work/build.log" >&2
	finish
fi
deb=$(ls "$work"/gpucost_"$version"_*.deb)
echo "deb.sh: built $(basename "$deb"): $(wc -c < "$deb") bytes in $(( $(date +%s) - start )) s"

if command -v lintian >/dev/null 2>&1; then
	lintian --info "$deb" >"$work/lintian.log" 2>&1
	echo "deb.sh: lintian: $(grep -c '^E:' "$work/lintian.log") errors," \
	    "$(grep -c '^W:' "$work/lintian.log") warnings," \
	    "$(grep -c '^I:' "$work/lintian.log") info"
	grep -E '^[EW]:' "$work/lintian.log" | sort -u | sed 's/^/  /'
	check "lintian: no errors" sh -c "! grep -q '^E:' '$work/lintian.log'"
else
	echo "deb.sh: lintian absent: not checked"
fi

root=$work/root
mkdir -p "$root"
dpkg -x "$deb" "$root"
bin=$root/usr/bin/gpucost
check "the package installs /usr/bin/gpucost" [ -x "$bin" ]
check "the man page" [ -f "$root/usr/share/man/man1/gpucost.1.gz" ]
check "bash completion" [ -f "$root/usr/share/bash-completion/completions/gpucost" ]
check "zsh completion" [ -f "$root/usr/share/zsh/vendor-completions/_gpucost" ]
check "fish completion" [ -f "$root/usr/share/fish/vendor_completions.d/gpucost.fish" ]
check "the README" sh -c "[ -f '$root/usr/share/doc/gpucost/README.md' ] || [ -f '$root/usr/share/doc/gpucost/README.md.gz' ]"
check "the data sources" sh -c "ls '$root'/usr/share/doc/gpucost/data-sources.md* >/dev/null 2>&1"
check "the copyright file" [ -f "$root/usr/share/doc/gpucost/copyright" ]

# Run the installed files with nothing of the user's.
home=$work/home
mkdir -p "$home"
run() {
	env -i PATH=/usr/bin:/bin HOME="$home" XDG_CACHE_HOME="$home/cache" \
	    XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
	    LC_ALL=C.UTF-8 "$bin" "$@"
}
run --version >"$work/version" 2>&1
check "gpucost --version exits 0" [ $? -eq 0 ]
check "--version names the version" grep -q "^gpucost $version\$" "$work/version"
check "--version names AWS's snapshot date" grep -Eq '^  aws +[0-9]{4}-[0-9]{2}-[0-9]{2} ' "$work/version"
sed 's/^/  /' "$work/version"
run --gpu A100-80 --count 4 --format json >"$work/query" 2>"$work/query.err"
check "a query from the installed files exits 0" [ $? -eq 0 ]
check "the query found 4x A100-80 offers" grep -q '"gpu": "A100-80"' "$work/query"
check "the cache is in the private XDG_DATA_HOME" [ -f "$home/data/gpucost/gpucost.db" ]
check "the installed bash completion offers H100-NVL" sh -c "bash -c '
	. \"$root/usr/share/bash-completion/completions/gpucost\"
	COMP_WORDS=(\"$bin\" --gpu H1); COMP_CWORD=2; _gpucost
	printf \"%s\n\" \"\${COMPREPLY[@]}\"' | grep -qx H100-NVL"
finish
