#!/bin/sh
# No include circles between the modules of src/ outside src/tui/.
#
# A module is a file pair: X.c and X.h are module X (provider/aws.c is
# module provider/aws). Module X depends on module Y when X.c or X.h
# includes "Y.h". A circle (offer -> notes -> offer) means neither
# module can be read, tested or moved without the other: the lower one
# must not know the higher. The TUI is one face on top of everything
# and is checked by check_layering.sh, not here. Prints every circle
# found, one a line, and fails if there is any.
set -u
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
cd "$TOP_SRCDIR/src" || exit 99

# The edges, "X Y" a line: module X includes module Y's header.
edges=$(find . -path ./tui -prune -o -name '*.[ch]' -print | sort |
    while read -r f; do
	f=${f#./}
	from=${f%.*}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' \
	    "$f" | while read -r to; do
		case "$to" in tui/*) continue ;; esac
		# Includes resolve against src/ (-I src), or the file's folder.
		if [ ! -f "$to.h" ] && [ -f "$(dirname "$f")/$to.h" ]; then
			to=$(dirname "$f")/$to
		fi
		[ -f "$to.h" ] || continue	# config.h, system headers
		[ "$to" = "$from" ] || echo "$from $to"
	done
    done | sort -u)

if [ -z "$edges" ]; then
	echo "FAIL: no includes found under $TOP_SRCDIR/src" >&2
	exit 1
fi

# Depth-first search; a grey module reached again closes a circle.
cycles=$(echo "$edges" | awk '
{
	n[$1]++
	out[$1, n[$1]] = $2
	mods[$1] = 1
	mods[$2] = 1
}
function visit(m,    i, to, j, c) {
	colour[m] = 1
	stack[++depth] = m
	for (i = 1; i <= n[m]; i++) {
		to = out[m, i]
		if (colour[to] == 1) {
			c = ""
			for (j = depth; stack[j] != to; j--)
				;
			for (; j <= depth; j++)
				c = c stack[j] " -> "
			print c to
		} else if (colour[to] == 0)
			visit(to)
	}
	depth--
	colour[m] = 2
}
END {
	for (m in mods)
		if (colour[m] == 0)
			visit(m)
}' | sort)

nedges=$(echo "$edges" | wc -l)
if [ -n "$cycles" ]; then
	echo "$cycles" | sed 's/^/FAIL: include circle: /' >&2
	echo "check_include_cycles.sh: $(echo "$cycles" | wc -l) circle(s)" \
	    "among $nedges includes" >&2
	exit 1
fi
echo "check_include_cycles.sh: no circle among $nedges includes"
