#!/usr/bin/env bash
# MySQL/MariaDB capture benchmark, as recorded in docs/BENCHMARKS.md. On a throwaway MariaDB
# 10.11 (scripts/mariadb-throwaway.sh; binlog ROW, FULL images, FULL metadata; a 1 GB buffer
# pool so both tables stay in memory):
#
# streaming: CHANGES row changes on the standard 12-column table (capture_mysql/workload.sql:
#   inserts, updates, deletes in transactions of 1 to 1,000 rows) in one binlog file (rotated
#   just before the load), read from the server from the position before the load by:
#     mariadb-binlog    --read-from-remote-server --base64-output=decode-rows --verbose
#                       --stop-position END, into /dev/null, then into a file (see below);
#     zongji            the npm package @vlasky/zongji, decode only (rows counted, nothing
#                       written; installed with npm into ~/.cache/rowcast-bench, skipped with a
#                       note when npm cannot install it);
#     rowcast native    rowcast capture --start FILE:POS --until caught-up --to native into a file,
#                       then to standard output into /dev/null;
#     rowcast debezium  the same with --to debezium, upstream flavour with schemas; then the
#                       same into a file on tmpfs (/dev/shm: no disk), to /dev/null, and to
#                       /dev/null with --threads 1 (decoding and encoding on one thread).
# snapshot: a SNAPSHOT_ROWS-row table (written with sql_log_bin=0) read by
#   `mariadb --quick -e 'SELECT * FROM ...'` into /dev/null and by rowcast capture --snapshot
#   initial_only --to native to stdout into /dev/null.
# mariadb-binlog and rowcast native are compared like with like (issue 23): both to /dev/null,
# and both into a file in the same directory (the work directory, on one disk), each file
# fsynced before the reader's time ends (rowcast's file sink fsyncs what it delivers;
# mariadb-binlog's file by `sync FILE` in the same timed command).
#
# Per reader: wall seconds, rows/s, the client's CPU (user+sys, /usr/bin/time), the server's
# (mariadbd's utime+stime before and after: one process, its threads' CPU is counted live) and
# the client's peak RSS. Every reader's row counts are checked against what the load made.
#
# usage: bench/run_capture_mysql.sh [BUILD_DIR] [CHANGES] [SNAPSHOT_ROWS]
#   default: build 1000000 5000000, the issue's size; a quicker look: ... build 200000 1000000.
#   READER_TIMEOUT=900: seconds after which a reader that has not stopped is a failure.
#   QUICK=1: a smoke test's size (2000 changes, 2000 rows), the throwaway's small buffer pool
#   and no timing table: every reader's counts still checked (ctest bench_capture_mysql).
set -eu
B=${1:-build}
if [ "${QUICK:-0}" = 1 ]; then N=${2:-2000} S=${3:-2000}; else N=${2:-1000000} S=${3:-5000000}; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RC=$B/rowcast
[ -x "$RC" ] || { echo "build first: scripts/test.sh (or cmake --build $B)" >&2; exit 1; }
RC=$(cd "$(dirname "$RC")" && pwd)/rowcast
. "$ROOT/scripts/lib.sh"
rc_install mariadb-server mariadb-client time
. "$ROOT/scripts/mariadb-throwaway.sh"

# zongji: npm into a cache outside the repository (never committed)
ZONGJI_DIR=$HOME/.cache/rowcast-bench
export ZONGJI_DIR
ZJ=1
if [ ! -f "$ZONGJI_DIR/node_modules/@vlasky/zongji/package.json" ]; then
    mkdir -p "$ZONGJI_DIR"
    (cd "$ZONGJI_DIR" && command -v npm >/dev/null && npm install --no-audit --no-fund @vlasky/zongji >"$ZONGJI_DIR/npm.log" 2>&1) ||
        { ZJ=0; echo "==> npm could not install @vlasky/zongji (see $ZONGJI_DIR/npm.log): the zongji peer is skipped" >&2; }
fi
command -v node >/dev/null || { ZJ=0; echo "==> no node: the zongji peer is skipped" >&2; }

W=$(mktemp -d)
chmod 755 "$W"
trap 'my_throwaway_stop "$W/my"; rm -rf "$W"' EXIT
if [ "${QUICK:-0}" = 1 ]; then my_throwaway_start "$W/my"; else
    my_throwaway_start "$W/my" --innodb-buffer-pool-size=1G --innodb-log-file-size=512M --max-binlog-size=1G
fi
MPID=$(cat "$W/my/mariadbd.pid")
URL=$MY_URL
sql() { mariadb --no-defaults --default-character-set=utf8mb4 -S "$MY_SOCK" -uroot --batch --skip-column-names "$@"; }
TCK=$(getconf CLK_TCK)

sql <"$ROOT/bench/capture_mysql/workload.sql"
echo "==> $S rows for the snapshot, 10000 base rows, $N changes" >&2
sql bench -e "SET sql_log_bin = 0; SET time_zone = '+00:00'; CALL bench_rows('orders_snap', 1, $S); CALL bench_rows('orders', 1, 10000); ANALYZE TABLE orders_snap, orders" >/dev/null
sql -e 'FLUSH BINARY LOGS'
read -r F0 P0 _ <<<"$(sql -e 'SHOW MASTER STATUS')"
sql bench -e "SET time_zone = '+00:00'; CALL bench_load($N, 10000)" >"$W/load.out"
read -r F1 P1 _ <<<"$(sql -e 'SHOW MASTER STATUS')"
[ "$F0" = "$F1" ] || { echo "the load did not fit in one binlog file ($F0 .. $F1)" >&2; exit 1; }
read -r E_INS E_UPD E_DEL E_TXN <<<"$(sed -n 's/.*expect inserts \([0-9]*\) updates \([0-9]*\) deletes \([0-9]*\) transactions \([0-9]*\).*/\1 \2 \3 \4/p' "$W/load.out")"
[ -n "$E_TXN" ] || { echo "the load printed no counts:" >&2; cat "$W/load.out" >&2; exit 1; }
BIN_MB=$(((P1 - P0) / 1048576))
echo "==> binlog $F0:$P0 .. $P1 ($BIN_MB MB): $E_INS inserts, $E_UPD updates, $E_DEL deletes in $E_TXN transactions" >&2

# server_cpu: mariadbd's CPU so far, in clock ticks (fields 14 and 15 of /proc/PID/stat)
server_cpu() { awk '{print $14 + $15}' "/proc/$MPID/stat"; }
# measure NAME CMD...: runs CMD with its standard output in $OUT (default NAME.out); appends
# "wall user+sys server peak_kib" to NAME.runs
measure() {
    local name=$1 before after
    shift
    before=$(server_cpu)
    /usr/bin/time -f '%e %U %S %M' -o "$W/$name.time" timeout "${READER_TIMEOUT:-900}" "$@" >"${OUT:-$W/$name.out}" 2>"$W/$name.err" ||
        { echo "$name failed:" >&2; cat "$W/$name.err" >&2; exit 1; }
    after=$(server_cpu)
    echo "$(tail -1 "$W/$name.time") $before $after $TCK" |
        awk '{ printf "%s %.2f %.2f %s\n", $1, $2 + $3, ($6 - $5) / $7, $4 }' >>"$W/$name.runs"
}
# expect NAME INS UPD DEL: the counts a reader delivered against the load's
expect() {
    [ "$2 $3 $4" = "$E_INS $E_UPD $E_DEL" ] ||
        { echo "$1 delivered inserts $2 updates $3 deletes $4, the load made $E_INS $E_UPD $E_DEL" >&2; exit 1; }
}
count() { grep -o "$1" "$2" | wc -l || true; }
# delivered LABEL NAME COUNT: a run to /dev/null delivered COUNT messages (its summary says)
delivered() {
    grep -q "^rowcast: $3 messages written .*: $3 delivered," "$W/$2.err" ||
        { echo "$1 did not deliver $3 messages:" >&2; cat "$W/$2.err" >&2; exit 1; }
}
# done_with NAME FILE: notes the size of a reader's output (MB) and removes it
done_with() { du -m "$2" | cut -f1 >"$W/$1.mb"; rm -f "$2"; }

# mariadb-binlog: its output is counted by a pipe into awk in a first, untimed run (one line
# per row: "### INSERT INTO", "### UPDATE", "### DELETE FROM"), then timed into /dev/null
MB=(mariadb-binlog --no-defaults --read-from-remote-server --host=127.0.0.1 --port="$MY_PORT" --user=root
    --base64-output=decode-rows --verbose --start-position="$P0" --stop-position="$P1" "$F0")
read -r i u d <<<"$("${MB[@]}" | awk '/^### INSERT INTO/ {i++} /^### UPDATE/ {u++} /^### DELETE FROM/ {d++} END {print i+0, u+0, d+0}')"
expect mariadb-binlog "$i" "$u" "$d"
OUT=/dev/null measure mbinlog "${MB[@]}"
# into a file beside rowcast's, fsynced as rowcast's file sink does
measure mbinlog_file bash -c '"$@" >"$0" && sync "$0"' "$W/mbinlog.txt" "${MB[@]}"
expect "mariadb-binlog into a file" "$(count '^### INSERT INTO' "$W/mbinlog.txt")" "$(count '^### UPDATE' "$W/mbinlog.txt")" \
    "$(count '^### DELETE FROM' "$W/mbinlog.txt")"
done_with mbinlog_file "$W/mbinlog.txt"
if [ $ZJ = 1 ]; then
    measure zongji node "$ROOT/bench/capture_mysql/zongji_count.mjs" "$MY_PORT" "$F0" "$P0" "$((E_INS + E_UPD + E_DEL))"
    read -r _ i _ u _ d <"$W/zongji.out"
    expect zongji "$i" "$u" "$d"
fi
measure rc_native "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 11 \
    --to native --sink "file:$W/rc_native.json" --quiet
expect "rowcast native" "$(count '^{"op":"insert"' "$W/rc_native.json")" "$(count '^{"op":"update"' "$W/rc_native.json")" \
    "$(count '^{"op":"delete"' "$W/rc_native.json")"
NATIVE_MSGS=$(wc -l <"$W/rc_native.json") # the changes and each transaction's begin and commit
done_with rc_native "$W/rc_native.json"
OUT=/dev/null measure rc_native_null "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 17 \
    --to native --sink stdout
delivered "rowcast native to /dev/null" rc_native_null "$NATIVE_MSGS"
measure rc_dbz "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 12 \
    --to debezium -o debezium.flavor=upstream -o debezium.schemas=true --sink "file:$W/rc_dbz.json" --quiet
expect "rowcast debezium" "$(count '"op":"c"' "$W/rc_dbz.json")" "$(count '"op":"u"' "$W/rc_dbz.json")" \
    "$(count '"op":"d"' "$W/rc_dbz.json")"
done_with rc_dbz "$W/rc_dbz.json"
# the same into a file in memory (tmpfs, /dev/shm): the file sink and the kernel's write path
# without the disk, when /dev/shm is a tmpfs with room for the file (skipped otherwise)
SHM=
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
    [ "$(df -k --output=avail /dev/shm | tail -1)" -gt $(($(cat "$W/rc_dbz.mb") * 1024 * 3 / 2)) ]; then
    SHM=$(mktemp -d /dev/shm/rowcast-bench.XXXXXX)
    trap 'rm -rf "$SHM"; my_throwaway_stop "$W/my"; rm -rf "$W"' EXIT
    measure rc_dbz_shm "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 16 \
        --to debezium -o debezium.flavor=upstream -o debezium.schemas=true --sink "file:$SHM/rc_dbz.json" --quiet
    expect "rowcast debezium into tmpfs" "$(count '"op":"c"' "$SHM/rc_dbz.json")" "$(count '"op":"u"' "$SHM/rc_dbz.json")" \
        "$(count '"op":"d"' "$SHM/rc_dbz.json")"
    done_with rc_dbz_shm "$SHM/rc_dbz.json"
else
    echo "==> /dev/shm is no tmpfs with room for $(cat "$W/rc_dbz.mb") MB: the tmpfs row is skipped" >&2
fi
# the same to standard output into /dev/null: the rate without writing the 4 GB file, whose
# bound on this disk the next line shows (dd of as many bytes, fsynced, into the same directory)
OUT=/dev/null measure rc_dbz_null "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 14 \
    --to debezium -o debezium.flavor=upstream -o debezium.schemas=true --sink stdout
delivered "rowcast debezium to /dev/null" rc_dbz_null "$((E_INS + E_UPD + E_DEL))"
# and on one thread (capture --threads 1: decoding, then encoding, each batch)
OUT=/dev/null measure rc_dbz_null1 "$RC" capture "$URL" --include bench.orders --start "$F0:$P0" --until caught-up --server-id 15 \
    --to debezium -o debezium.flavor=upstream -o debezium.schemas=true --threads 1 --sink stdout
delivered "rowcast debezium to /dev/null, --threads 1" rc_dbz_null1 "$((E_INS + E_UPD + E_DEL))"
OUT=/dev/null measure dd dd if=/dev/zero of="$W/dd.out" bs=1M count="$(cat "$W/rc_dbz.mb")" conv=fsync
rm -f "$W/dd.out"
# and into tmpfs: the kernel's part of writing as many bytes to any file (no disk)
if [ -n "$SHM" ]; then
    OUT=/dev/null measure dd_shm dd if=/dev/zero of="$SHM/dd.out" bs=1M count="$(cat "$W/rc_dbz.mb")"
    rm -f "$SHM/dd.out"
fi

sql bench -e 'SELECT count(*) FROM orders_snap' >/dev/null # the table in the buffer pool for both
[ "$(sql bench -e 'SELECT count(*) FROM orders_snap')" = "$S" ] || { echo "orders_snap does not hold $S rows" >&2; exit 1; }
OUT=/dev/null measure client mariadb --no-defaults --quick -S "$MY_SOCK" -uroot -e 'SELECT * FROM bench.orders_snap'
# to standard output into /dev/null (file:/dev/null's fsync fails); the summary on stderr says
# how many were delivered
OUT=/dev/null measure rc_snap "$RC" capture "$URL" --include bench.orders_snap --snapshot initial_only --server-id 13 --to native
delivered "rowcast's snapshot" rc_snap "$S"

# report ---------------------------------------------------------------------------------------
if [ "${QUICK:-0}" = 1 ]; then
    readers="mariadb-binlog, rowcast native, rowcast debezium (each into a file and to /dev/null)"
    [ $ZJ = 1 ] && readers="mariadb-binlog, zongji, rowcast native, rowcast debezium (each into a file and to /dev/null)"
    echo "quick run: every reader ($readers) delivered $E_INS inserts, $E_UPD updates, $E_DEL deletes; the snapshot $S rows"
    [ $ZJ = 1 ] || echo "quick run: zongji skipped (no node, or npm could not install @vlasky/zongji)"
    exit 0
fi
declare -A RATE KIB CPU
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
echo "machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "streaming: $N row changes ($E_INS inserts, $E_UPD updates, $E_DEL deletes in $E_TXN transactions), $BIN_MB MB of binlog; every reader's counts checked"
printf '%-20s %8s %9s %8s %8s %8s %8s\n' reader seconds rows/s 'cli CPU' 'srv CPU' 'RSS MB' 'out MB'
# row LABEL NAME ROWS: a line of the table; RATE and KIB of NAME kept for the ratios
row() {
    local wall cpu srv
    read -r wall cpu srv "KIB[$2]" <"$W/$2.runs"
    CPU[$2]=$cpu
    RATE[$2]=$(calc "%.0f" "$3 / $wall")
    printf '%-20s %8s %9s %8s %8s %8s %8s\n' "$1" "$wall" "${RATE[$2]}" "$cpu" "$srv" $((KIB[$2] / 1024)) "$(cat "$W/$2.mb" 2>/dev/null || echo -)"
}
row mariadb-binlog mbinlog "$N"
row '  into a file' mbinlog_file "$N"
[ $ZJ = 1 ] && row 'zongji (decode)' zongji "$N"
row 'rowcast native' rc_native "$N"
row '  to /dev/null' rc_native_null "$N"
row 'rowcast debezium' rc_dbz "$N"
[ -n "$SHM" ] && row '  into tmpfs' rc_dbz_shm "$N"
row '  to /dev/null' rc_dbz_null "$N"
row '    --threads 1' rc_dbz_null1 "$N"
row "  dd $(cat "$W/rc_dbz.mb") MB fsync" dd "$N"
[ -n "$SHM" ] && row "  dd $(cat "$W/rc_dbz.mb") MB tmpfs" dd_shm "$N"
echo "snapshot: $S rows"
row 'mariadb --quick' client "$S"
row 'rowcast native' rc_snap "$S"
ratio() { calc "%.2f" "($2 > 0 ? $1 / $2 : 0)"; }
echo "targets:"
echo "  rowcast native / mariadb-binlog -v rows/s >= 1.0:  to /dev/null $(ratio "${RATE[rc_native_null]}" "${RATE[mbinlog]}"), into a file $(ratio "${RATE[rc_native]}" "${RATE[mbinlog_file]}") (same directory, both fsynced)"
echo "    the same by the client's CPU (user+sys) instead of wall time:  to /dev/null $(ratio "${CPU[mbinlog]}" "${CPU[rc_native_null]}"), into a file $(ratio "${CPU[mbinlog_file]}" "${CPU[rc_native]}")"
if [ $ZJ = 1 ]; then
    echo "  rowcast debezium / zongji (decode only) rows/s >= 5:  $(ratio "${RATE[rc_dbz]}" "${RATE[zongji]}")   ($([ -n "$SHM" ] && echo "into a tmpfs file: $(ratio "${RATE[rc_dbz_shm]}" "${RATE[zongji]}"); ")to /dev/null: $(ratio "${RATE[rc_dbz_null]}" "${RATE[zongji]}"), --threads 1: $(ratio "${RATE[rc_dbz_null1]}" "${RATE[zongji]}"); dd of its bytes alone: $(ratio "${RATE[dd]}" "${RATE[zongji]}")$([ -n "$SHM" ] && echo ", into tmpfs: $(ratio "${RATE[dd_shm]}" "${RATE[zongji]}")"))"
else
    echo "  rowcast debezium / zongji: skipped (zongji not installed)"
fi
echo "  snapshot rows/s, rowcast / mariadb --quick >= 0.7:  $(ratio "${RATE[rc_snap]}" "${RATE[client]}")"
echo "  peak RSS < 64 MB:  native $((KIB[rc_native] / 1024)) MB, debezium $((KIB[rc_dbz] / 1024)) MB, snapshot $((KIB[rc_snap] / 1024)) MB"
