#!/bin/sh
# Generate src/fabric_table.c from data/fabric.tsv (usage: gen-fabric-table.sh
# IN OUT). Refuses, naming the line, a table a lookup could misread: a wrong
# header or column count, an unknown fabric, GPUDirect or placement word, a
# number that is not a whole number in range, a line without a source, or
# a provider and pattern given twice.
set -eu
in=$1
out=$2
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT

LC_ALL=C awk -F '\t' "$(cat "$(dirname "$0")/table.awk")"'
function num(s, max, what) {
	if (s == "")
		return 0
	if (s !~ /^[0-9]+$/ || s + 0 < 1 || s + 0 > max)
		fail("bad " what " \"" s "\" (a whole number 1.." max " or empty)")
	return s + 0
}
BEGIN {
	split("efa:FABRIC_EFA infiniband:FABRIC_INFINIBAND roce:FABRIC_ROCE " \
	    "tcpxo:FABRIC_TCPXO tcpx:FABRIC_TCPX ethernet:FABRIC_ETHERNET " \
	    ":FABRIC_UNKNOWN", a, " ")
	for (i in a) {
		split(a[i], kv, ":")
		kinds[kv[1]] = kv[2]
	}
	split("yes:GDR_YES no:GDR_NO unknown:GDR_UNKNOWN", a, " ")
	for (i in a) {
		split(a[i], kv, ":")
		gdr[kv[1]] = kv[2]
	}
	split("placement-group:PLACE_GROUP compact-placement:PLACE_COMPACT " \
	    "scale-set:PLACE_SCALE_SET cluster-network:PLACE_CLUSTER_NETWORK " \
	    "cluster-product:PLACE_CLUSTER_PRODUCT none:PLACE_NONE " \
	    "node-pool:PLACE_NODE_POOL " \
	    ":PLACE_UNKNOWN", a, " ")
	for (i in a) {
		split(a[i], kv, ":")
		places[kv[1]] = kv[2]
	}
}
!header {
	if ($0 != "provider\tinstance\tfabric\tnode_gbps\tnics\tgpudirect_rdma\tplacement\tmax_nodes\tsource\tnote")
		fail("unexpected header: " $0)
	header = 1
	next
}
{
	if (NF != 10)
		fail("expected 10 tab-separated fields, got " NF)
	if ($1 !~ /^[a-z0-9][a-z0-9-]*$/)
		fail("bad provider \"" $1 "\"")
	if ($2 == "")
		fail("empty instance pattern")
	if (!($3 in kinds))
		fail("unknown fabric \"" $3 "\" (efa infiniband roce tcpxo tcpx ethernet or empty)")
	gbps = num($4, 100000, "node_gbps")
	nics = num($5, 64, "nics")
	if (!($6 in gdr))
		fail("unknown gpudirect_rdma \"" $6 "\" (yes no unknown)")
	if (!($7 in places))
		fail("unknown placement \"" $7 "\"")
	maxn = num($8, 1000000, "max_nodes")
	if ($9 == "")
		fail("no source")
	k = $1 "\t" $2
	if (k in seen)
		fail("repeats " $1 " " $2 " of line " seen[k])
	seen[k] = FNR
	rows[n++] = sprintf("\t{ %s, %s, %s, %d, %d, %s, %s, %d,\n\t    %s,\n\t    %s },", \
	    cstr($1), cstr($2), kinds[$3], gbps, nics, gdr[$6], places[$7], maxn, \
	    cstr($9), cstr($10))
}
END {
	if (bad)
		exit 1
	if (!header) {
		print FILENAME ": no header" > "/dev/stderr"
		exit 1
	}
	print "/* Generated from data/fabric.tsv by tools/gen-fabric-table.sh; do not edit. */"
	print "#include \"config.h\""
	print "#include \"fabric.h\""
	print ""
	print "const struct fabric fabric_rows[] = {"
	for (i = 0; i < n; i++)
		print rows[i]
	print "};"
	print "const size_t fabric_row_count = " n ";"
}' "$in" > "$tmp"
mv "$tmp" "$out"
