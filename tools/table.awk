# What the tools/gen-*-table.sh generators share: each puts this text
# before its own program (awk -F '\t'), so it reads its tab-separated
# table the same way and writes C strings the same way.

# s as a C string literal.
function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

# Refuse the table: "FILE:LINE: msg" on stderr, exit 1 (an END block
# sees bad and exits too).
function fail(msg) {
	print FILENAME ":" FNR ": " msg > "/dev/stderr"
	bad = 1
	exit 1
}

# Comments and blank lines are no rows.
/^#/ || /^[ \t]*$/ { next }
