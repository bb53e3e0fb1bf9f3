#!/bin/sh
# A cache that is unreadable, not SQLite, not ours, corrupt or from a
# newer schema: one clear line, exit 3, and the file left exactly as it was.
. "$(dirname "$0")/../lib.sh"

# refused FILE DESCRIPTION EXPECTED-MESSAGE
refused() {
	sum_before=$(cksum < "$1")
	run --db "$1" --gpu H100
	check "$2: exit 3" status_is 3
	check "$2: says $3" err_has "$3"
	check "$2: names the file" err_has "$1"
	check "$2: one line" err_lines_are 1
	check "$2: file unchanged" [ "$(cksum < "$1")" = "$sum_before" ]
	run --db "$1" providers
	check "$2: providers exits 3 too" status_is 3
	check "$2: still unchanged" [ "$(cksum < "$1")" = "$sum_before" ]
}

printf 'this is not a database, it is a grocery list\n' > "$T/text.db"
refused "$T/text.db" "text file" "not an SQLite database"

head -c 8192 /dev/urandom > "$T/random.db"
refused "$T/random.db" "random bytes" "not an SQLite database"

if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$T/foreign.db" 'create table recipes (name text); insert into recipes values ("soup");'
	refused "$T/foreign.db" "someone else's database" "not a gpucost cache"

	run --db "$T/newer.db" --gpu H100 --quiet
	check "newer: seeded first" status_is 0
	sqlite3 "$T/newer.db" 'pragma user_version = 99'
	refused "$T/newer.db" "newer schema" "schema version 99 is newer"

	# Corrupt a real cache: garbage over every page but the first (the
	# header and the schema). A query reads only the status row, the
	# index entries and the rows it shows (issue 17: no pass over every
	# offer), so garbage on a page it never reads cannot change its
	# answer and goes unnoticed until a command reads that page; what
	# must hold is that a corrupt page it does read is one clear line
	# and exit 3, never a wrong answer or a crash.
	run --db "$T/corrupt.db" --gpu H100 --quiet
	sqlite3 "$T/corrupt.db" 'pragma wal_checkpoint(truncate)' >/dev/null
	size=$(wc -c < "$T/corrupt.db")
	psize=$(sqlite3 "$T/corrupt.db" 'pragma page_size')
	head -c "$psize" "$T/corrupt.db" > "$T/c1"
	head -c $((size - psize)) /dev/urandom > "$T/c2"
	cat "$T/c1" "$T/c2" > "$T/corrupt.db"
	rm -f "$T/corrupt.db-wal" "$T/corrupt.db-shm"
	refused "$T/corrupt.db" "corrupt cache" "corrupt\|malformed"
else
	echo "sqlite3 not installed: skipping foreign, newer and corrupt caches" >&2
fi

mkdir "$T/dir.db"
run --db "$T/dir.db" --gpu H100
check "directory: exit 3" status_is 3
check "directory: says so" err_has "is a directory"

run --db "$T/no/such/dir/cache.db" --gpu H100
check "missing directory: exit 3" status_is 3
check "missing directory: names the file" err_has "$T/no/such/dir/cache.db"

if [ "$(id -u)" -ne 0 ]; then
	run --db "$T/ok.db" --gpu H100 --quiet
	chmod 000 "$T/ok.db"
	run --db "$T/ok.db" --gpu H100
	check "unreadable: exit 3" status_is 3
	chmod 600 "$T/ok.db"
fi

finish
