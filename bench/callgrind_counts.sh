#!/usr/bin/env bash
# Callgrind instruction counts of the encode, transcode and capture paths (issue 23: the refactor
# must not make them slower), one table to paste into docs/BENCHMARKS.md. The counts are the same
# for the same binary and input however loaded the machine is; the inputs are the same every
# time:
#   encode     bench_encode --only FORMAT --events 20000 (the standard workload, seed 42), minus
#              bench_encode --only none (the workload's generation alone), per event;
#   transcode  rowcast convert of 20,000 messages made by a generator: Canal's flavour
#              (bench/transcode/gen-canal.awk) to upstream Debezium as bench/run_transcode.sh
#              converts it, and the standard workload as native JSON (rowcast-bench-gen) to
#              oms-canal; the process's total minus the same command on an empty input, per
#              message read;
#   capture    rowcast convert --from mysql-binlog of one binlog file holding 20,000 row changes
#              of bench/capture_mysql/workload.sql's load (its `orders` table, transactions of 1 to
#              1,000 rows), made once on a throwaway MariaDB and kept in CACHE (the same file for
#              every later run: its sha256 is printed), to native and to upstream Debezium with
#              schemas; the process's total minus the same command on the file cut after its
#              first event (the format description: no row), per row change;
#              and PostgreSQL's path, which the CLI cannot run without a server: bench_pgoutput
#              builds the pgoutput messages of 20,000 row changes of the same kind in memory
#              and decodes (pgoutput.c), turns into events (pg_events.c) and encodes them, to
#              native and to upstream Debezium with schemas; minus bench_pgoutput --build-only,
#              per row change.
# Every command runs once, one at a time (valgrind on one core), about 3 minutes on the project's
# machine; its output is checked against the input's count.
#
# usage: bench/callgrind_counts.sh [BUILD_DIR]   (default: build, configured with -DRC_BENCH=ON)
#   CACHE (default ~/.cache/rowcast-bench/callgrind): where the binlog file is kept; remove it
#   to make a new one (which changes the capture rows' input: keep it between two columns).
set -eu
B=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RC=$B/rowcast BE=$B/bench/bench_encode GEN=$B/bench/rowcast-bench-gen PGO=$B/bench/bench_pgoutput
for x in "$RC" "$BE" "$GEN" "$PGO"; do [ -x "$x" ] || { echo "build first with -DRC_BENCH=ON: no $x" >&2; exit 1; }; done
CACHE=${CACHE:-$HOME/.cache/rowcast-bench/callgrind}
N=20000
. "$ROOT/scripts/lib.sh"
rc_install valgrind
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# instructions CMD...: the instructions callgrind counts for CMD (its standard output in $W/out)
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$W/vg" >"$W/out" ||
        { echo "failed under callgrind: $*" >&2; cat "$W/vg" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/vg"
}
# lines_are N WHAT: the last command wrote N lines
lines_are() {
    [ "$(wc -l <"$W/out")" = "$1" ] || { echo "$2: $(wc -l <"$W/out") lines written, $1 expected" >&2; exit 1; }
}
# line NAME INPUT TOTAL BASE COUNT: a row of the table (instructions per unit: (TOTAL - BASE) / COUNT)
line() { printf '%-46s %-26s %14d %10d\n' "$1" "$2" "$3" $((($3 - $4) / $5)); }

# the binlog file, made once ------------------------------------------------------------------
BINLOG=$CACHE/orders-$N.binlog
if [ ! -s "$BINLOG" ]; then
    rc_install mariadb-server mariadb-client
    . "$ROOT/scripts/mariadb-throwaway.sh"
    echo "==> making $BINLOG ($N row changes on a throwaway MariaDB)" >&2
    chmod 755 "$W"
    trap 'my_throwaway_stop "$W/my"; rm -rf "$W"' EXIT
    my_throwaway_start "$W/my"
    sql() { mariadb --no-defaults --default-character-set=utf8mb4 -S "$MY_SOCK" -uroot --batch --skip-column-names "$@"; }
    sql <"$ROOT/bench/capture_mysql/workload.sql"
    sql bench -e "SET sql_log_bin = 0; SET time_zone = '+00:00'; CALL bench_rows('orders', 1, 10000)" >/dev/null
    sql -e 'FLUSH BINARY LOGS'
    read -r F0 _ <<<"$(sql -e 'SHOW MASTER STATUS')"
    sql bench -e "SET time_zone = '+00:00'; CALL bench_load($N, 10000)" >/dev/null
    sql -e 'FLUSH BINARY LOGS'
    mkdir -p "$CACHE"
    cp "$MY_DIR/data/$F0" "$BINLOG.tmp"
    my_throwaway_stop "$W/my"
    trap 'rm -rf "$W"' EXIT
    mv "$BINLOG.tmp" "$BINLOG"
fi
# the file cut after its first event (4 bytes of magic, then the event of the length at 9..12)
head -c "$((4 + $(od -An -tu4 -j13 -N4 "$BINLOG")))" "$BINLOG" >"$W/first.binlog"

# the generated inputs ------------------------------------------------------------------------
awk -v N=$N -f "$ROOT/bench/transcode/gen-canal.awk" >"$W/canal.json"
"$GEN" $N >"$W/native.json"
: >"$W/empty"

echo "callgrind instructions, $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?') ($B), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "binlog: $(sha256sum "$BINLOG" | cut -c1-16) ($(du -k "$BINLOG" | cut -f1) KiB, $N row changes)"
printf '%-46s %-26s %14s %10s\n' path input 'whole process' 'per event'

base=$(instructions "$BE" --only none --events $N)
for f in native 'debezium upstream' canal drs-json; do
    label=$f
    [ "$f" = canal ] && label=oms-canal
    [ "$f" = 'debezium upstream' ] && label='debezium (upstream)'
    line "encode $label" "workload, $N events" "$(instructions "$BE" --only "$f" --events $N)" "$base" $N
done

DBZ=(--to debezium -o debezium.flavor=upstream -o debezium.compat=1.6 -o debezium.decimal.handling.mode=string)
base=$(instructions "$RC" convert -q --from canal "${DBZ[@]}" "$W/empty")
total=$(instructions "$RC" convert -q --from canal "${DBZ[@]}" "$W/canal.json")
lines_are $((N + N / 10 * 2)) "canal to debezium" # every tenth INSERT has three rows
line "transcode canal -> debezium" "gen-canal.awk, $N msgs" "$total" "$base" $N
base=$(instructions "$RC" convert -q --to oms-canal "$W/empty")
total=$(instructions "$RC" convert -q --to oms-canal "$W/native.json")
lines_are $N "native to oms-canal"
line "transcode native -> oms-canal" "bench-gen, $N msgs" "$total" "$base" $N

for to in native debezium; do
    opts=(--to "$to")
    [ "$to" = debezium ] && opts+=(-o debezium.flavor=upstream -o debezium.schemas=true)
    base=$(instructions "$RC" convert -q --from mysql-binlog "${opts[@]}" "$W/first.binlog")
    total=$(instructions "$RC" convert -q --from mysql-binlog "${opts[@]}" "$BINLOG")
    if [ "$to" = native ]; then
        [ "$(grep -c '"op":"\(insert\|update\|delete\)"' "$W/out")" = $N ] ||
            { echo "the binlog gave $(grep -c '"op":"\(insert\|update\|delete\)"' "$W/out") row changes, $N expected" >&2; exit 1; }
    else
        lines_are $N "the binlog to debezium"
    fi
    label=$to
    [ "$to" = debezium ] && label='debezium (schemas)'
    line "capture mysql-binlog -> $label" "binlog, $N changes" "$total" "$base" $N
done

base=$(instructions "$PGO" --changes $N --build-only)
for to in native debezium; do
    opts=(--to "$to")
    [ "$to" = debezium ] && opts+=(-o debezium.flavor=upstream -o debezium.schemas=true)
    total=$(instructions "$PGO" --changes $N "${opts[@]}")
    grep -q "^[0-9]* messages, $((N + N / 50)) events, $([ "$to" = native ] && echo $((N + N / 50)) || echo $N) messages of $to " "$W/out" ||
        { echo "bench_pgoutput to $to: $(cat "$W/out")" >&2; exit 1; }
    label=$to
    [ "$to" = debezium ] && label='debezium (schemas)'
    line "capture pgoutput -> $label" "built, $N changes" "$total" "$base" $N
done
