#!/usr/bin/env bash
# PostgreSQL capture benchmark, as recorded in docs/BENCHMARKS.md. On a throwaway PostgreSQL 15
# (scripts/pg-throwaway.sh; autovacuum off, so no backend but the one measured comes and goes):
#
# streaming: CHANGES row changes on the standard 12-column table (capture_pg/workload.sql:
#   inserts, updates, deletes in transactions of 1 to 1,000 rows), recorded as one WAL range,
#   and read from that range by each reader through a slot of its own created before the load:
#     min-client        bench/pg_min_client: pgoutput proto 1, every CopyData read and dropped
#                       (the ceiling);
#     recvlogical       pg_recvlogical + wal2json (format-version 2) into a file, --endpos;
#     rowcast native    rowcast capture --snapshot never --until END --to native into a file;
#     rowcast debezium  the same with --to debezium, upstream flavour with schemas.
# snapshot: a SNAPSHOT_ROWS-row table read by psql's COPY (SELECT ...) TO STDOUT into /dev/null
#   and by rowcast capture --snapshot initial_only --to native to stdout into /dev/null.
#
# Per reader: wall seconds, rows/s, the client's CPU (user+sys, /usr/bin/time) and the server's:
# the postmaster's cutime+cstime before and after the run (a backend's CPU is added there when
# it exits and the postmaster reaps it, so the difference is the walsender that served the
# reader, plus any other connection the reader opened), CPU per million rows, the client's peak
# RSS; and "rows/s 1:1", the rate if the client and the server process each had a core of
# their own (rows / the larger of the two CPU times): on this shared 2-core machine the wall
# clock of two busy processes follows their CPU sum as much as their pipeline. Every reader's
# row counts are checked against what the load made.
#
# usage: bench/run_capture_pg.sh [BUILD_DIR] [CHANGES] [SNAPSHOT_ROWS]
#   default: build 1000000 5000000, the issue's size (about 4 minutes here, ROUNDS=3 about 10;
#   up to 7 GB of disk in a temporary directory); a quicker look: ... build 200000 1000000.
#   ROUNDS=3: each streaming reader runs that many times (own slots), medians reported.
#   READER_TIMEOUT=900: seconds after which a reader that has not stopped is a failure.
#   QUICK=1: the smoke test's size (2000 changes, 2000 rows) and no timing table.
set -eu
B=${1:-build}
if [ "${QUICK:-0}" = 1 ]; then N=${2:-2000} S=${3:-2000}; else N=${2:-1000000} S=${3:-5000000}; fi
R=${ROUNDS:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RC=$B/rowcast
MIN=$B/bench/pg_min_client
[ -x "$RC" ] && [ -x "$MIN" ] || { echo "build first: scripts/test.sh (or cmake --build $B with -DRC_BENCH=ON)" >&2; exit 1; }
RC=$(cd "$(dirname "$RC")" && pwd)/rowcast
MIN=$(cd "$(dirname "$MIN")" && pwd)/pg_min_client
. "$ROOT/scripts/lib.sh"
rc_install "${BENCH_PKGS[@]}"
. "$ROOT/scripts/pg-throwaway.sh"
PSQL=("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At)
RECV=$PG_BIN/pg_recvlogical

W=$(mktemp -d)
chmod 755 "$W"
trap 'pg_throwaway_stop "$W/pg"; rm -rf "$W"' EXIT
pg_throwaway_start "$W/pg" "autovacuum = off" "shared_buffers = 256MB" "max_wal_size = 8GB" \
    "max_replication_slots = $((R * 4 + 4))" "max_wal_senders = $((R * 4 + 4))"
export PGHOST PGPORT PGUSER PGDATABASE
sql() { "${PSQL[@]}" "$@"; }
# Debian's 15.19 and later load only the output plugins in output_plugin_libraries
if [ "$(sql -c "SELECT count(*) FROM pg_settings WHERE name = 'output_plugin_libraries'")" = 1 ]; then
    sql -c "ALTER SYSTEM SET output_plugin_libraries = '$(sql -c 'SHOW output_plugin_libraries'), wal2json'" \
        -c 'SELECT pg_reload_conf()' >/dev/null
fi
PM=$(head -1 "$W/pg/data/postmaster.pid")
TCK=$(getconf CLK_TCK)

sql -f "$ROOT/bench/capture_pg/workload.sql"
echo "==> $S rows for the snapshot, 10000 base rows, $N changes ($R round(s))" >&2
sql -c "INSERT INTO orders_snap SELECT * FROM bench_rows(1, $S)" -c 'VACUUM (FREEZE, ANALYZE) orders_snap'
sql -c 'INSERT INTO orders SELECT * FROM bench_rows(1, 10000)' -c 'VACUUM (FREEZE, ANALYZE) orders' \
    -c 'CREATE PUBLICATION bench_pub FOR TABLE orders' -c 'CREATE PUBLICATION bench_snap_pub FOR TABLE orders_snap'
readers=(min recvlogical rc_native rc_dbz rc_dbz1)
for r in $(seq "$R"); do
    for t in "${readers[@]}"; do
        plugin=pgoutput
        [ "$t" = recvlogical ] && plugin=wal2json
        sql -c "SELECT 1 FROM pg_create_logical_replication_slot('${t}_$r', '$plugin')" >/dev/null
    done
done
LSN0=$(sql -c 'SELECT pg_current_wal_insert_lsn()')
sql -c "CALL bench_load($N, 10000)" 2>"$W/load.notice"
LSN1=$(sql -c 'SELECT pg_current_wal_insert_lsn()')
read -r E_INS E_UPD E_DEL E_TXN <<<"$(sed -n 's/.*expect inserts \([0-9]*\) updates \([0-9]*\) deletes \([0-9]*\) transactions \([0-9]*\).*/\1 \2 \3 \4/p' "$W/load.notice")"
[ -n "$E_TXN" ] || { echo "the load printed no counts:" >&2; cat "$W/load.notice" >&2; exit 1; }
WAL_MB=$(sql -c "SELECT round(pg_wal_lsn_diff('$LSN1', '$LSN0') / 1048576)")
echo "==> WAL $LSN0 .. $LSN1 ($WAL_MB MB): $E_INS inserts, $E_UPD updates, $E_DEL deletes in $E_TXN transactions" >&2

# server_cpu: the postmaster's children's CPU so far, in clock ticks (fields 16 and 17 of
# /proc/PID/stat; the name before them is in parentheses and has no spaces here)
server_cpu() { awk '{print $16 + $17}' "/proc/$PM/stat"; }
# backends_gone: waits until every child of the postmaster is one of its own background
# processes, at most 30 s: the backend or walsender that served the last reader has exited
# and been reaped (an exiting or zombie child has an empty command line, so the background
# processes are named rather than the backends), so its CPU is in the postmaster's cutime
backends_gone() {
    local i c busy
    for i in $(seq 3000); do
        busy=0
        for c in $(cat "/proc/$PM/task/$PM/children" 2>/dev/null); do
            grep -qaE '^postgres: (checkpointer|background writer|walwriter|autovacuum launcher|logical replication launcher)' \
                "/proc/$c/cmdline" 2>/dev/null || busy=1
        done
        [ $busy = 0 ] && return 0
        sleep 0.01
    done
    echo "a backend of the server is still running after 30 s" >&2
    return 1
}
# measure NAME CMD...: runs CMD with its standard output in $OUT (default NAME.out); appends
# "wall user+sys server peak_kib" to NAME.runs
measure() {
    local name=$1 before after
    shift
    backends_gone
    before=$(server_cpu)
    /usr/bin/time -f '%e %U %S %M' -o "$W/$name.time" timeout "${READER_TIMEOUT:-900}" "$@" >"${OUT:-$W/$name.out}" 2>"$W/$name.err" ||
        { echo "$name failed:" >&2; cat "$W/$name.err" >&2; exit 1; }
    backends_gone
    after=$(server_cpu)
    echo "$(cat "$W/$name.time") $before $after $TCK" |
        awk '{ printf "%s %.2f %.2f %s\n", $1, $2 + $3, ($6 - $5) / $7, $4 }' >>"$W/$name.runs"
}
# expect NAME INS UPD DEL: the counts a reader delivered against the load's
expect() {
    [ "$2 $3 $4" = "$E_INS $E_UPD $E_DEL" ] ||
        { echo "$1 delivered inserts $2 updates $3 deletes $4, the load made $E_INS $E_UPD $E_DEL" >&2; exit 1; }
}
count() { grep -o "$1" "$2" | wc -l || true; }
# done_with NAME FILE: notes the size of a reader's output (MB) and removes it (the Debezium
# file of 1M changes is 4-5 GB)
done_with() { du -m "$2" | cut -f1 >"$W/$1.mb"; rm -f "$2"; }

for r in $(seq "$R"); do
    measure min "$MIN" "$PG_URL" "min_$r" bench_pub "$LSN1"
    read -r _ i _ u _ d _ <"$W/min.out"
    expect min-client "$i" "$u" "$d"
    # shellcheck disable=SC2016
    measure recvlogical sh -c 'exec "$0" -d "$1" -S "$2" --start --no-loop -E "$3" -f "$4" \
        -o format-version=2 -o add-tables=public.orders' "$RECV" "$PG_URL" "recvlogical_$r" "$LSN1" "$W/recvlogical.json"
    expect recvlogical "$(count '"action":"I"' "$W/recvlogical.json")" "$(count '"action":"U"' "$W/recvlogical.json")" \
        "$(count '"action":"D"' "$W/recvlogical.json")"
    done_with recvlogical "$W/recvlogical.json"
    measure rc_native "$RC" capture "$PG_URL" --slot "rc_native_$r" --publication bench_pub --snapshot never \
        --until "$LSN1" --to native --sink "file:$W/rc_native.json" --quiet
    expect "rowcast native" "$(count '^{"op":"insert"' "$W/rc_native.json")" "$(count '^{"op":"update"' "$W/rc_native.json")" \
        "$(count '^{"op":"delete"' "$W/rc_native.json")"
    done_with rc_native "$W/rc_native.json"
    measure rc_dbz "$RC" capture "$PG_URL" --slot "rc_dbz_$r" --publication bench_pub --snapshot never \
        --until "$LSN1" --to debezium -o debezium.flavor=upstream -o debezium.schemas=true \
        --sink "file:$W/rc_dbz.json" --quiet
    expect "rowcast debezium" "$(count '"op":"c"' "$W/rc_dbz.json")" "$(count '"op":"u"' "$W/rc_dbz.json")" \
        "$(count '"op":"d"' "$W/rc_dbz.json")"
    done_with rc_dbz "$W/rc_dbz.json"
    # the same on two threads (capture --threads 2, MySQL's default: the next batch decoded while
    # the last is encoded)
    measure rc_dbz1 "$RC" capture "$PG_URL" --slot "rc_dbz1_$r" --publication bench_pub --snapshot never \
        --until "$LSN1" --to debezium -o debezium.flavor=upstream -o debezium.schemas=true --threads 2 \
        --sink "file:$W/rc_dbz1.json" --quiet
    expect "rowcast debezium --threads 2" "$(count '"op":"c"' "$W/rc_dbz1.json")" "$(count '"op":"u"' "$W/rc_dbz1.json")" \
        "$(count '"op":"d"' "$W/rc_dbz1.json")"
    done_with rc_dbz1 "$W/rc_dbz1.json"
done
# the disk's part: dd of as many bytes as the Debezium file, fsynced, into the same directory
OUT=/dev/null measure dd dd if=/dev/zero of="$W/dd.out" bs=1M count="$(cat "$W/rc_dbz.mb")" conv=fsync
rm -f "$W/dd.out"

sql -c 'SELECT count(*) FROM orders_snap' >/dev/null # the table in the page cache for both
# shellcheck disable=SC2016
OUT=/dev/null measure copy sh -c 'exec "$0" -X -q -c "COPY (SELECT * FROM orders_snap) TO STDOUT"' "$PG_BIN/psql"
# to standard output into /dev/null, as COPY's; not file:/dev/null, which never finishes (its
# fsync fails with EINVAL and is retried); the summary on stderr says how many were delivered
OUT=/dev/null measure rc_snap "$RC" capture "$PG_URL" --slot rc_snap --publication bench_snap_pub \
    --include public.orders_snap --snapshot initial_only --to native
grep -q "^rowcast: $S messages written .*: $S delivered," "$W/rc_snap.err" ||
    { echo "rowcast's snapshot did not deliver $S rows:" >&2; cat "$W/rc_snap.err" >&2; exit 1; }

# report ---------------------------------------------------------------------------------------
# med NAME COLUMN: the median of a column of NAME's runs
med() { cut -d' ' -f"$2" "$W/$1.runs" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A RATE RATE1 CPUM KIB
# calc FORMAT EXPRESSION: the expression's value, printf'd
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
[ "${QUICK:-0}" = 1 ] && { echo "quick run: every reader delivered $E_INS inserts, $E_UPD updates, $E_DEL deletes; the snapshot $S rows"; exit 0; }
echo "machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "streaming: $N row changes ($E_INS inserts, $E_UPD updates, $E_DEL deletes in $E_TXN transactions), $WAL_MB MB of WAL; medians of $R round(s); every reader's counts checked"
printf '%-18s %8s %9s %8s %8s %10s %10s %8s %8s %10s\n' reader seconds rows/s 'cli CPU' 'srv CPU' 'cli CPU/M' 'all CPU/M' 'RSS MB' 'out MB' 'rows/s 1:1'
# row LABEL NAME ROWS: a line of the table from NAME's medians; RATE, CPUM (client +
# server CPU seconds per million rows) and KIB of NAME kept for the ratios
row() {
    local wall cpu srv
    wall=$(med "$2" 1) cpu=$(med "$2" 2) srv=$(med "$2" 3) KIB[$2]=$(med "$2" 4)
    RATE[$2]=$(calc "%.0f" "$3 / $wall")
    CPUM[$2]=$(calc "%.2f" "($cpu + $srv) * 1000000 / $3")
    RATE1[$2]=$(calc "%.0f" "$3 / ($cpu > $srv ? $cpu : $srv)")
    printf '%-18s %8s %9s %8s %8s %10s %10s %8s %8s %10s\n' "$1" "$wall" "${RATE[$2]}" "$cpu" "$srv" \
        "$(calc "%.2f" "$cpu * 1000000 / $3")" "${CPUM[$2]}" $((KIB[$2] / 1024)) "$(cat "$W/$2.mb" 2>/dev/null || echo -)" "${RATE1[$2]}"
}
row min-client min "$N"
row recvlogical+w2j recvlogical "$N"
row 'rowcast native' rc_native "$N"
row 'rowcast debezium' rc_dbz "$N"
row '  --threads 2' rc_dbz1 "$N"
row "  dd $(cat "$W/rc_dbz.mb") MB fsync" dd "$N"
[ "$R" = 1 ] || for t in "${readers[@]}"; do
    [ -f "$W/$t.runs" ] && echo "  $t, each round: $(cut -d' ' -f1 "$W/$t.runs" | tr '\n' ' ')s wall, $(cut -d' ' -f2 "$W/$t.runs" | tr '\n' ' ')s client CPU, $(cut -d' ' -f3 "$W/$t.runs" | tr '\n' ' ')s server CPU"
done
echo "snapshot: $S rows"
row 'COPY to /dev/null' copy "$S"
row 'rowcast native' rc_snap "$S"
ratio() { calc "%.2f" "$1 / $2"; }
echo "targets:"
echo "  streaming rows/s, rowcast / min-client >= 0.9:  native $(ratio "${RATE[rc_native]}" "${RATE[min]}")  debezium $(ratio "${RATE[rc_dbz]}" "${RATE[min]}")   (1:1: native $(ratio "${RATE1[rc_native]}" "${RATE1[min]}")  debezium $(ratio "${RATE1[rc_dbz]}" "${RATE1[min]}"))"
echo "  the Debezium file's bytes alone (dd, fsync) / min-client rows/s:  $(ratio "${RATE[dd]}" "${RATE[min]}")"
echo "  CPU per row (client + walsender), rowcast debezium / recvlogical+wal2json <= 1.0:  $(ratio "${CPUM[rc_dbz]}" "${CPUM[recvlogical]}")"
echo "  snapshot rows/s, rowcast / COPY >= 0.7:  $(ratio "${RATE[rc_snap]}" "${RATE[copy]}")   (1:1: $(ratio "${RATE1[rc_snap]}" "${RATE1[copy]}"))"
echo "  peak RSS < 64 MB:  native $((KIB[rc_native] / 1024)) MB, debezium $((KIB[rc_dbz] / 1024)) MB, snapshot $((KIB[rc_snap] / 1024)) MB"
