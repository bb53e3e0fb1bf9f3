#!/bin/sh
# A cache that is unreadable, not SQLite, not ours, corrupt, cut in half,
# from a newer schema, a directory, a FIFO, a device, a symlink to any of
# these, or on a full disk: every command (a query, providers, refresh)
# says so in one line naming the file, exits 3 without crashing or
# hanging, fetches nothing, and leaves the file exactly as it was. A
# cache whose committed data lives only in its -wal (a checkpoint cut
# short by a full disk) is sound, not "corrupt". Config files that are
# not regular files are refused at once.
. "$(dirname "$0")/../lib.sh"

# A refresh that got past opening the cache would ask these servers,
# which refuse the connection: nothing is fetched from anywhere.
for p in aws gcp lambda runpod vast vultr; do
	export "$(url_var "$p")=http://127.0.0.1:9/"
done

# run_bounded ARGS...: run, but a hang (a FIFO) ends as exit 124 in 20 s.
run_bounded() {
	timeout 20 "$GPUCOST" "$@" >"$T/out" 2>"$T/err"
	status=$?
}

# A fingerprint of a file (reading a FIFO would wait for a writer).
sum_of() {
	if [ -f "$1" ]; then cksum < "$1"; else ls -ld "$1" | cut -c1; fi
}

# refused FILE DESCRIPTION EXPECTED-MESSAGE: every command that opens
# the cache refuses it the same way.
refused() {
	want=$3
	sum_before=$(sum_of "$1")
	run_bounded --db "$1" --gpu H100
	check "$2: exit 3 ($status)" status_is 3
	check "$2: says $3" err_has "$3"
	check "$2: names the file" err_has "$1"
	check "$2: one line" err_lines_are 1
	check "$2: file unchanged" [ "$(sum_of "$1")" = "$sum_before" ]
	run_bounded --db "$1" providers
	check "$2: providers exits 3 too ($status)" status_is 3
	check "$2: providers says $3 in one line" eval 'err_has "$want" && err_lines_are 1'
	check "$2: still unchanged" [ "$(sum_of "$1")" = "$sum_before" ]
	run_bounded --db "$1" refresh --wait 0
	check "$2: refresh exits 3 ($status)" status_is 3
	check "$2: refresh says $3" err_has "$3"
	check "$2: refresh names the file" err_has "$1"
	check "$2: refresh says it in one line" err_lines_are 1
	check "$2: refresh left it unchanged" [ "$(sum_of "$1")" = "$sum_before" ]
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

	# A cache cut in half (a copy that stopped early).
	run --db "$T/whole.db" --gpu H100 --quiet
	size=$(wc -c < "$T/whole.db")
	head -c $((size / 2)) "$T/whole.db" > "$T/half.db"
	refused "$T/half.db" "cache cut in half" "corrupt\|malformed"

	# A symlink to a cache from a newer gpucost.
	ln -s "$T/newer.db" "$T/link-newer.db"
	refused "$T/link-newer.db" "symlink to a newer cache" "schema version 99 is newer"
else
	echo "sqlite3 not installed: skipping foreign, newer and corrupt caches" >&2
fi

ln -s "$T/text.db" "$T/link-text.db"
refused "$T/link-text.db" "symlink to a text file" "not an SQLite database"

mkdir "$T/dir.db"
run --db "$T/dir.db" --gpu H100
check "directory: exit 3" status_is 3
check "directory: says so" err_has "is a directory"
for cmd in providers refresh; do
	run_bounded --db "$T/dir.db" $cmd
	check "directory, $cmd: exit 3 ($status)" status_is 3
	check "directory, $cmd: says so in one line" eval 'err_has "is a directory" && err_lines_are 1'
done

# Not regular files: refused at once, never opened for reading (a FIFO
# would wait for a writer forever).
if mkfifo "$T/fifo.db" 2>/dev/null; then
	refused "$T/fifo.db" "FIFO" "is a FIFO"
fi
for cmd in --quiet providers refresh; do
	run_bounded --db /dev/null $cmd
	check "/dev/null, $cmd: exit 3 ($status)" status_is 3
	check "/dev/null, $cmd: a character device, in one line" \
	    eval 'err_has "/dev/null: is a character device" && err_lines_are 1'
done

# The config file: a FIFO or a directory is refused at once, by name.
mkdir -p "$T/cfg/gpucost"
if mkfifo "$T/cfg/gpucost/config" 2>/dev/null; then
	XDG_CONFIG_HOME=$T/cfg run_bounded --db "$T/cfg.db" refresh
	check "config FIFO: refresh exit 3 ($status)" status_is 3
	check "config FIFO: says so" err_has "$T/cfg/gpucost/config: is a FIFO"
	rm -f "$T/cfg/gpucost/config"
fi
mkdir "$T/cfg/gpucost/config"
XDG_CONFIG_HOME=$T/cfg run_bounded --db "$T/cfg.db" refresh
check "config directory: refresh exit 3 ($status)" status_is 3
check "config directory: says it is a directory" err_has "$T/cfg/gpucost/config: is a directory"
check "config directory: not \"larger than\"" eval "! err_has \"larger than\""

# ---------------------------------------------------------------------
# A full disk, simulated by a file size limit (works for root and for
# anyone): with SIGXFSZ ignored, a write past it fails with EFBIG, as
# ENOSPC would. Limits are in blocks of 512 or 1024 bytes by shell, so
# each case steps through a range of them.
# ---------------------------------------------------------------------
# limited BLOCKS ARGS...: gpucost under the limit.
limited() {
	(trap '' XFSZ; ulimit -f "$1" && shift && exec "$GPUCOST" "$@") >"$T/out" 2>"$T/err"
	status=$?
}
# A new cache cannot be created: every command says why, in one line.
for cmd in "--gpu H100" providers "refresh --wait 0"; do
	rm -f "$T/full.db" "$T/full.db-wal" "$T/full.db-shm"
	# shellcheck disable=SC2086
	limited 40 --db "$T/full.db" $cmd
	check "full disk, new cache, $cmd: exit 3 ($status)" status_is 3
	check "full disk, new cache, $cmd: one line naming the file" \
	    eval 'err_has "$T/full.db" && err_lines_are 1'
	check "full disk, new cache, $cmd: says why" err_has "too large\|disk is full\|I/O error"
done

if command -v sqlite3 >/dev/null 2>&1; then
	# The disk fills while a checkpoint copies a committed transaction
	# from the -wal into the file: the file alone is half old, half new;
	# with its -wal it is sound. It must open, not be called corrupt.
	run --db "$T/seed.db" --quiet
	sqlite3 "$T/seed.db" 'pragma wal_checkpoint(truncate)' >/dev/null
	walonly=no
	for blocks in 200 300 400 500 600 700 800 900 1000 1100 1200 1400 \
	    1600 1800 2000 2400 2800 3200 3600 4000; do
		cp "$T/seed.db" "$T/walonly.db"
		rm -f "$T/walonly.db-wal" "$T/walonly.db-shm"
		# A provider the cache has not seen: the next query seeds it.
		sqlite3 "$T/walonly.db" "delete from offers where provider = 'aws';
		    delete from provider_status where provider = 'aws'"
		limited "$blocks" --db "$T/walonly.db" --gpu H100 --quiet
		if [ "$status" -eq 0 ] && [ -s "$T/walonly.db-wal" ]; then
			walonly=yes
			break
		fi
	done
	check "full disk: a checkpoint was cut short, the data is in the -wal" [ "$walonly" = yes ]
	if [ "$walonly" = yes ]; then
		cp "$T/walonly.db" "$T/walonly.copy"
		cp "$T/walonly.db-wal" "$T/walonly.copy-wal"
		run --db "$T/walonly.db" --gpu H100 --provider aws --format csv
		check "data only in the -wal: opens (exit $status)" status_is 0
		check "data only in the -wal: not called corrupt" eval "! err_has corrupt"
		check "data only in the -wal: the seeded offers are there" out_has "^aws,"
		ic=$(sqlite3 "$T/walonly.db" 'pragma integrity_check')
		check "data only in the -wal: sqlite3 agrees ($ic)" [ "$ic" = ok ]
		# The same copied elsewhere (db and -wal, as a backup would).
		run --db "$T/walonly.copy" providers
		check "a copy of the file and its -wal: providers works ($status)" status_is 0
		run --db "$T/walonly.copy" refresh --provider vast --wait 0
		check "a copy of the file and its -wal: refresh opens it (exit 4: the server is gone, $status)" status_is 4
		check "a copy of the file and its -wal: refresh does not call it corrupt" eval "! err_has corrupt"
	fi

	# A full disk under a sound cache: refresh fails with a clear line
	# before fetching anything, and the cache keeps its data.
	run --db "$T/sound.db" --quiet
	sqlite3 "$T/sound.db" 'pragma wal_checkpoint(truncate)' >/dev/null
	before=$(sqlite3 "$T/sound.db" 'select * from offers order by provider, key' | cksum)
	limited 4 --db "$T/sound.db" refresh --provider vast --wait 0
	check "full disk, sound cache: refresh exit 3 ($status)" status_is 3
	check "full disk, sound cache: one line naming the file" \
	    eval 'err_has "$T/sound.db" && err_lines_are 1'
	check "full disk, sound cache: the offers are kept" \
	    [ "$(sqlite3 "$T/sound.db" 'select * from offers order by provider, key' | cksum)" = "$before" ]
fi

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
