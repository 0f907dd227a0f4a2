#!/usr/bin/env bash
# Incremental snapshot (backfill) benchmark, issue 24, as recorded in docs/BENCHMARKS.md
# ("Backfill while streaming"). Per source (PostgreSQL 15 by scripts/pg-throwaway.sh, MariaDB
# 10.11 by scripts/mariadb-throwaway.sh), on one server: tests/tools/bf_writer loads a table
# t (id bigint PRIMARY KEY, v bigint, pad text of 32 letters) with ROWS rows, then
#  initial   rowcast capture --snapshot initial_only --to native --sink file:F, no writer;
#  chunk C   for each C of CHUNKS ("default": no chunk option): bf_writer changes t at RATE
#            changes/s (one change a transaction: 3 in 4 updates, deletes and inserts on random
#            keys of 1..ROWS*9/8); rowcast capture --snapshot never --to native --sink file:F with
#            the signal table (-o postgres.signal.table / mysql.signal.table) and
#            -o *.snapshot.chunk.rows=C streams; after WARMUP seconds an execute-snapshot signal
#            row asks for t; when stderr says "incremental snapshot of t completed", 2 s more,
#            then rowcast is stopped (SIGTERM) and the writer too.
# bench/backfill_follow follows F as the sink writes it (read to the end, 1 ms pause, again)
# and notes the arrival of every line:
#  - rows/s: snapshot rows (op read, the zero-row table edges left out) / (arrival of the last
#    read - arrival of the first), the same for the initial snapshot and the backfill, and
#    ratio = backfill rows/s / initial rows/s; the initial's wall rate (rows / the command's
#    wall time, connection and slot included) is shown beside it;
#  - stream lag: for every insert/update/delete, arrival in F - ts_us, the source's change
#    time (PostgreSQL: the transaction's commit timestamp, µs; MariaDB: the binlog event's
#    timestamp, whole seconds, so the lag is over-stated by 0 to 1 s); p50/p99/max over the
#    changes that arrived between the first and the last read, and p99 over the whole run;
#  - rowcast's CPU (user+sys) per row read, µs: the backfill's from /proc/PID/stat at the signal
#    and at the completed line (the stream's work in between counted in), the initial's from
#    /usr/bin/time (the whole command);
#  - peak RSS: VmHWM of /proc/PID/status of rowcast read just before it is stopped (the
#    initial: /usr/bin/time's %M).
# Each result line carries the load average at its end (the machine's cores are shared).
#
# usage: bench/run_backfill.sh [BUILD_DIR] [ROWS]
#   default: build 1000000 (both sources, 5 chunk sizes, 5 rounds: about 12 minutes here)
#   SOURCES="pg my": which servers; CHUNKS="1024 4096 8192 16384 default"; RATE=500; WARMUP=5
#   ROUNDS=5: every run (the initial and each chunk size) that many times, in rounds (each
#   round: the initial, then each chunk size); each ratio is against its round's initial; the
#   table gives the medians, the lines before it each run
#   OPTS="-o ...": more options for each backfill's capture (e.g. -o mysql.snapshot.unacked.chunks=4)
#   BASE=DIR: another build's rowcast, run as "base" when CHUNKS names it (its default chunk, the
#   writer's seed of "default", without OPTS): two builds, or one build with and without OPTS
#   (BASE=BUILD_DIR), side by side in the same rounds, against the same initial snapshot
#   PERF=DIR: perf record -g of rowcast in each run (the backfill: from the signal to its
#   completion), the top of perf report --no-children in DIR/SRC_RUN.txt (not for timing)
#   QUICK=1: the smoke test's size (PostgreSQL, 20,000 rows, chunk 1024, 100 changes/s): the
#   counts are checked, no table
set -eu
B=${1:-build}
if [ "${QUICK:-0}" = 1 ]; then
    N=${2:-20000} SOURCES=${SOURCES:-pg} CHUNKS=${CHUNKS:-1024} RATE=${RATE:-100} WARMUP=${WARMUP:-1} ROUNDS=${ROUNDS:-1}
else
    N=${2:-1000000} SOURCES=${SOURCES:-pg my} CHUNKS=${CHUNKS:-1024 4096 8192 16384 default} RATE=${RATE:-500} WARMUP=${WARMUP:-5}
    ROUNDS=${ROUNDS:-5}
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
for f in rowcast tests/bf_writer bench/backfill_follow; do
    [ -x "$B/$f" ] || { echo "build first: cmake --build $B with -DRC_TESTS=ON -DRC_BENCH=ON ($B/$f is missing)" >&2; exit 1; }
done
B=$(cd "$B" && pwd)
case " $CHUNKS " in *" base "*) [ -x "${BASE:-}/rowcast" ] || { echo "CHUNKS has base: BASE=DIR with DIR/rowcast" >&2; exit 1; } ;; esac
RC=$B/rowcast WRITER=$B/tests/bf_writer FOLLOW=$B/bench/backfill_follow
. "$ROOT/scripts/lib.sh"
rc_install "${BENCH_PKGS[@]}" mariadb-server mariadb-client
. "$ROOT/scripts/pg-throwaway.sh"
. "$ROOT/scripts/mariadb-throwaway.sh"

W=$(mktemp -d)
chmod 755 "$W"
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -d "$W/pg" ] && pg_throwaway_stop "$W/pg"
    [ -d "$W/my" ] && my_throwaway_stop "$W/my"
    [ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
die() { echo "run_backfill: $*" >&2; exit 1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
TCK=$(getconf CLK_TCK)
# wait_line SECS FILE PATTERN: until FILE has a line matching PATTERN
wait_line() {
    for _ in $(seq $(($1 * 10))); do
        grep -q "$3" "$2" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# per source: start the server, set URL, T (the table), SIG (the signal table), OPT (the
# option prefix) and the functions sql, cap_args TAG (the capture's arguments but the snapshot's
# and the sink's) and cap_done TAG (after a run)
pg_setup() {
    pg_throwaway_start "$W/pg" "autovacuum = off" "shared_buffers = 256MB" "max_wal_size = 4GB" \
        "synchronous_commit = on" "wal_writer_delay = 10ms"
    export PGHOST PGPORT PGUSER PGDATABASE
    URL=$PG_URL T=public.t SIG=public.rowcast_signal OPT=postgres
    sql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -c "$1"; }
    cap_args() { echo "--slot bf_$1 --publication bf_pub --include $T"; }
    cap_done() { sql "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'bf_$1'" >/dev/null; }
    signal_table() {
        sql "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)"
        sql "CREATE PUBLICATION bf_pub FOR TABLE $T, $SIG"
    }
    analyze() { sql "VACUUM (FREEZE, ANALYZE) $T"; }
}
my_setup() {
    my_throwaway_start "$W/my" --innodb-buffer-pool-size=512M --innodb-log-file-size=256M --max-binlog-size=1G
    URL=$MY_URL/bench T=bench.t SIG=bench.rowcast_signal OPT=mysql
    sql() { mariadb --no-defaults -S "$MY_SOCK" -uroot --batch --skip-column-names -e "$1"; }
    sql 'CREATE DATABASE bench'
    MY_ID=20
    cap_args() { MY_ID=$((MY_ID + 1)); echo "--checkpoint $W/ck_$1 --server-id $MY_ID --include $T"; }
    cap_done() { :; }
    signal_table() { sql "CREATE TABLE $SIG (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB"; }
    analyze() { sql "ANALYZE TABLE $T" >/dev/null; }
}

# follow_start F: the follower of F in the background (FPID), once it catches SIGTERM (bit 15
# of SigCgt); follow_stop F: stops it at the end of F, its line in FLINE
follow_start() {
    "$FOLLOW" "$1" >"$1.follow" &
    FPID=$!
    PIDS+=("$FPID")
    local m
    for _ in $(seq 100); do
        m=$(awk '/^SigCgt/ { print $2 }' "/proc/$FPID/status" 2>/dev/null)
        [ -n "$m" ] && (((0x$m >> 14) & 1)) && return 0
        sleep 0.05
    done
    die "the follower of $1 did not start"
}
follow_stop() { kill -TERM "$FPID"; wait "$FPID" || die "the follower of $1 failed"; FLINE=$(cat "$1.follow"); }
# field LINE KEY: KEY's value in a key=value line
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p; s/^$2=\([^ ]*\).*/\1/p" <<<"$1" | head -1; }

# result SRC RUN ROWS READ_S RATE RATIO P50 P99 MAX RUN_P99 CPU RSS NOTES: a line of the
# table, and the same numbers in $W/results for the medians
FMT='%-8s %-9s %9s %8s %9s %6s %8s %8s %8s %8s %7s %7s  %s\n'
result() {
    # shellcheck disable=SC2059
    printf "$FMT" "$@"
    echo "${*:1:12}" >>"$W/results"
}
# ticks PID: its user+sys CPU so far, clock ticks (fields 14 and 15 of /proc/PID/stat; the name
# before them has no spaces here)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# per_row TICKS|SECONDS ROWS [TICKS_PER_S]: µs per row
per_row() { awk "BEGIN { printf \"%.2f\", $1 / ${3:-1} * 1000000 / $2 }"; }
# perf_start NAME PID / perf_stop: perf record of PID while it runs (PERF=DIR only)
perf_start() {
    [ -n "${PERF:-}" ] || return 0
    perf record -q -g -F 499 -o "$W/$1.perf" -p "$2" 2>/dev/null &
    PPID_=$! PNAME=$1
}
perf_stop() {
    [ -n "${PERF:-}" ] || return 0
    kill -INT "$PPID_" 2>/dev/null
    wait "$PPID_" || true
    mkdir -p "$PERF"
    perf report -q --stdio --no-children --percent-limit 1.5 -g none -i "$W/$PNAME.perf" >"$PERF/$PNAME.txt" 2>/dev/null || true
}

initial_run() {
    local f=$W/$1_init.json rows line
    rows=$(sql "SELECT count(*) FROM $T")
    follow_start "$f"
    # shellcheck disable=SC2046
    /usr/bin/time -f '%e %M %U %S' -o "$W/init.time" "$RC" capture "$URL" $(cap_args "init_$2") --snapshot initial_only \
        --to native --sink "file:$f" --quiet 2>"$W/init.err" &
    local tpid=$! cpid=''
    if [ -n "${PERF:-}" ]; then # rowcast, /usr/bin/time's child
        for _ in $(seq 100); do cpid=$(pgrep -P "$tpid") && break; sleep 0.01; done
        perf_start "$1_initial" "$cpid"
    fi
    wait "$tpid" || { cat "$W/init.err" >&2; die "$1: the initial snapshot failed"; }
    perf_stop
    cap_done "init_$2"
    follow_stop "$f"
    line=$FLINE
    [ "$(field "$line" reads)" = "$rows" ] || die "$1: the initial snapshot delivered $(field "$line" reads) rows of $rows"
    read -r wall kib us sy <"$W/init.time"
    INIT_RATE=$(field "$line" rows_per_s)
    result "$1" initial "$rows" "$(field "$line" read_s)" "$INIT_RATE" 1.00 - - - - "$(per_row "$us + $sy" "$rows")" $((kib / 1024)) \
        "wall $wall s = $(awk "BEGIN { printf \"%.0f\", $rows / $wall }") rows/s; load $(load)"
    rm -f "$f" "$f.rowcast-state"
}

backfill_run() {
    local src=$1 c=$2 tag=c$2_$3 f=$W/$1_$2.json chunk=() line hwm done_line wpid t0 t1 rc=$RC seed=${2/base/default} opts=${OPTS:-}
    [ "$c" = base ] && rc=$BASE/rowcast opts=''
    [ "$c" = default ] || [ "$c" = base ] || chunk=(-o "$OPT.snapshot.chunk.rows=$c")
    follow_start "$f"
    "$WRITER" "$URL" --table "$T" --key pk --rate "$RATE" --seed "$((${seed/default/7} + $3))" 2>"$W/writer.err" &
    wpid=$!
    PIDS+=("$wpid")
    # shellcheck disable=SC2046
    "$rc" capture "$URL" $(cap_args "$tag") --snapshot never --to native --sink "file:$f" \
        -o "$OPT.signal.table=$SIG" "${chunk[@]}" $opts 2>"$W/cap.err" &
    CAP=$!
    PIDS+=("$CAP")
    wait_line 60 "$f" '"op":"update"' || { cat "$W/cap.err" >&2; die "$src chunk $c: nothing streamed in 60 s"; }
    sleep "$WARMUP"
    perf_start "${src}_$c" "$CAP"
    t0=$(ticks "$CAP")
    sql "INSERT INTO $SIG VALUES ('bf-$tag', 'execute-snapshot', '{\"data-collections\": [\"$T\"], \"type\": \"incremental\"}')"
    wait_line 1800 "$W/cap.err" "incremental snapshot of $T completed" ||
        { cat "$W/cap.err" >&2; die "$src chunk $c: no completion in 30 minutes"; }
    t1=$(ticks "$CAP")
    perf_stop
    sleep 2
    hwm=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$CAP/status")
    kill -TERM "$CAP"
    wait "$CAP" || true
    kill -TERM "$wpid"
    wait "$wpid" || die "$src chunk $c: the writer failed: $(cat "$W/writer.err")"
    cap_done "$tag"
    follow_stop "$f"
    line=$FLINE
    done_line=$(grep -o "incremental snapshot of $T completed: .*" "$W/cap.err" | sed 's/.*completed: //')
    [ "$(field "$line" reads)" -gt 0 ] || die "$src chunk $c: no incremental reads"
    [ "$(field "$line" changes)" -gt 0 ] || die "$src chunk $c: no streamed changes"
    result "$src" "$c" "$(field "$line" reads)" "$(field "$line" read_s)" "$(field "$line" rows_per_s)" \
        "$(awk "BEGIN { printf \"%.2f\", $(field "$line" rows_per_s) / $INIT_RATE }")" \
        "$(field "$line" p50_ms)" "$(field "$line" p99_ms)" "$(field "$line" max_ms)" "$(field "$line" all_p99_ms)" \
        "$(per_row $((t1 - t0)) "$(field "$line" reads)" "$TCK")" "$hwm" \
        "$(field "$line" during) changes during; rowcast: $done_line; writer: $(tail -1 "$W/writer.err" | sed 's/^bf_writer: //'); load $(load)"
    rm -f "$f" "$f.rowcast-state"
}

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load/load/'); $N rows, writer $RATE changes/s, chunks $CHUNKS, $ROUNDS round(s)"
# shellcheck disable=SC2059
printf "$FMT" source run rows 'read s' rows/s ratio 'p50 ms' 'p99 ms' 'max ms' 'run p99' 'CPU us' 'RSS MB' notes
for src in $SOURCES; do
    "${src}_setup"
    "$WRITER" "$URL" --table "$T" --key pk --rows "$N" --count 0 --seed 1 2>"$W/load.err" || die "$src: loading t failed: $(cat "$W/load.err")"
    signal_table
    analyze
    for r in $(seq "$ROUNDS"); do
        initial_run "$src" "$r"
        for c in $CHUNKS; do backfill_run "$src" "$c" "$r"; done
    done
done
[ "${QUICK:-0}" = 1 ] && { echo "quick run: the initial snapshots delivered every row, the backfills completed under the writer"; exit 0; }
# the medians of each (source, run) over the rounds, each column on its own; CPU ratio: the
# initial's median CPU per row over the run's (the rate ratio if rowcast had a core to itself)
echo "medians of $ROUNDS round(s); load average at the end $(load):"
# shellcheck disable=SC2059
printf "$FMT" source run rows 'read s' rows/s ratio 'p50 ms' 'p99 ms' 'max ms' 'run p99' 'CPU us' 'RSS MB' 'CPU ratio'
for src in $SOURCES; do
    for run in initial $CHUNKS; do
        med=()
        for col in $(seq 3 12); do
            med+=("$(awk -v s="$src" -v r="$run" -v c="$col" '$1 == s && $2 == r { print $c }' "$W/results" | sort -g |
                awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')")
        done
        [ "$run" = initial ] && cpu0=${med[8]}
        # shellcheck disable=SC2059
        printf "$FMT" "$src" "$run" "${med[@]}" "$(awk "BEGIN { printf \"%.2f\", $cpu0 / ${med[8]} }")"
    done
done
