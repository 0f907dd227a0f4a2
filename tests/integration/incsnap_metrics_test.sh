#!/usr/bin/env bash
# Issue 24 step O1: an incremental snapshot seen on the metrics endpoint and the progress line
# (docs/metrics.md, "Incremental snapshots"), on PostgreSQL 15 (pg) or MariaDB 10.11 (my).
# bf_writer loads t (PRIMARY KEY (id), N rows, no writes) and tc (PRIMARY KEY (id, k2), changed
# while it is read), tn (no key); tz takes rows that move the stream while paused. `rowcast
# capture --snapshot never --metrics 127.0.0.1:0 --progress=200ms` streams with a signal table
# and chunks of CHUNK rows. Signals, in order:
#  - pause-snapshot, then execute t: a scrape shows t queued while paused (paused 1) and the
#    progress line "| backfill paused, 1 queued"; execute t again (ignored: queued already);
#    pause again (ignored); resume;
#  - once a scrape shows t's first rows, pause: t is paused mid-table (state paused, its rows
#    read held while paused; the progress line names it: "| backfill T R/~E (P%), chunk C,
#    0 rows/s, paused"); resume (no writes while t is read);
#  - execute tc (under a writer), execute tn (refused: error), a row of an unknown type (error),
#    stop-snapshot once both completed (nothing to stop: ignored).
# After completion, exact: t's rows read = emitted = SELECT count(*) = N, dropped 0, chunks
# N / CHUNK + 1 (the last one empty), estimate N (PostgreSQL after ANALYZE; MariaDB's is the
# engine's guess: > 0); tc's emitted = the reads of tc in the output, emitted + dropped <= read,
# and emitted, dropped, chunks equal the stderr line "incremental snapshot of tc completed: N
# rows, D dropped by the window, C chunks"; tables by state (2 done); every signal count; lag
# still rowcast_lag_seconds.
# usage: incsnap_metrics_test.sh pg|my path/to/rowcast path/to/bf_writer
set -u
DB=${1:?pg or my}
RC=${2:?path to rowcast}
WRITER=${3:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
CHUNK=100
N=$([ "$DB" = pg ] && echo 4000 || echo 20000) # each about 5 s (MariaDB's chunks are quicker)

if [ "$DB" = pg ]; then
    . "$HERE/pg_lib.sh"
    pg_test_start || exit 1
    URL=$PG_URL
    NS=public
    sql() { pg_test_sql -c "$1" >/dev/null; }
    capture() { exec "$RC" capture "$URL" --include "$NS.t*" --snapshot never --to native \
        -o postgres.signal.table=$NS.rowcast_signal -o postgres.snapshot.chunk.rows=$CHUNK -o postgres.snapshot.flush=false "$@"; }
    # flush=false: chunks paced by the server's wal_writer_delay, so the pause falls mid-table
else
    . "$HERE/mariadb_lib.sh"
    my_test_start || exit 1
    my_sql -e 'CREATE DATABASE shop'
    URL=$MY_URL/shop
    NS=shop
    sql() { my_sql shop -e "$1" >/dev/null; }
    capture() { exec "$RC" capture "$URL" --include "$NS.t*" --snapshot never --checkpoint "$W/ck" --server-id 13 --to native \
        -o mysql.signal.table=$NS.rowcast_signal -o mysql.snapshot.chunk.rows=$CHUNK "$@"; }
fi
. "$HERE/../common/check.sh"
WPIDS=()
trap 'for p in "${WPIDS[@]}" ${CAP:-}; do kill "$p" 2>/dev/null; done; '"$([ "$DB" = pg ] && echo pg_test_stop || echo my_test_stop)" EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
M=rowcast_incremental_snapshot

sql "CREATE TABLE $NS.rowcast_signal (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)"
i=0
for spec in t:pk:$N tc:composite:2000 tn:none:100; do
    set -- ${spec//:/ }
    i=$((i + 1))
    "$WRITER" "$URL" --table "$NS.$1" --key "$2" --rows "$3" --count 0 --seed $i 2>>"$W/writer.err" ||
        { bad "bf_writer could not load $NS.$1: $(tail -1 "$W/writer.err")"; exit 1; }
done
# tn is refused on both: MariaDB has no key to chunk it by; PostgreSQL reads a keyless table in
# ctid ranges only with replica identity FULL (bf_writer's), taken back here
[ "$DB" = pg ] && sql "ALTER TABLE $NS.tn REPLICA IDENTITY DEFAULT"
sql "ANALYZE $([ "$DB" = my ] && echo TABLE) $NS.t"
# tz: rows inserted to move the stream while the snapshot is paused (a progress line follows a batch)
sql "CREATE TABLE $NS.tz (id int PRIMARY KEY)"
step "loaded"

( capture --metrics 127.0.0.1:0 --progress=200ms >"$W/stream" 2>"$W/cap.err" ) &
CAP=$!
wait_for 20 grep -qs '^rowcast: metrics on ' "$W/cap.err" || { bad "no 'metrics on' line: $(cat "$W/cap.err")"; exit 1; }
MURL=$(sed -n 's/^rowcast: metrics on //p' "$W/cap.err")
scrape() { curl -sS --max-time 5 -o "$W/s.new" "$MURL" && mv "$W/s.new" "$W/s"; }
# has LINE...: a fresh scrape holds every line given, whole
has() {
    scrape || return 1
    for l in "$@"; do grep -qxF -- "$l" "$W/s" || return 1; done
}
value() { sed -n "s/^$1 //p" "$W/s"; } # value 'NAME{LABELS}' (regex-quoted) from the last scrape
nz=0
# progress_line PATTERN: a progress line matches (an extended regex), tz's inserts moving the stream
progress_line() {
    for _ in $(seq 40); do
        nz=$((nz + 1))
        sql "INSERT INTO $NS.tz VALUES ($nz)"
        sleep 0.25
        grep -Eq "$1" "$W/cap.err" && return 0
    done
    return 1
}
n_sig=0
signal() { n_sig=$((n_sig + 1)); sql "INSERT INTO $NS.rowcast_signal VALUES ('m-$n_sig', '$1', '$2')"; }
snap() { echo "{\"data-collections\": [\"$NS.$1\"], \"type\": \"incremental\"}"; }
wait_for 20 has "${M}_paused 0" || bad "no ${M}_paused 0 at the start: $(grep -c '' "$W/s") lines scraped"

step "paused before anything: t queued"
signal pause-snapshot ''
signal execute-snapshot "$(snap t)"
wait_for 20 has "${M}_paused 1" "${M}_tables{state=\"queued\"} 1" "${M}_rows_read_total{table=\"$NS.t\"} 0" ||
    bad "t not queued while paused: $(grep "^$M" "$W/s")"
signal execute-snapshot "$(snap t)" # ignored: queued already
signal pause-snapshot ''            # ignored: paused already
wait_for 20 has 'rowcast_signals_total{type="execute-snapshot",result="ignored"} 1' \
    'rowcast_signals_total{type="pause-snapshot",result="ignored"} 1' || bad "ignored signals not counted: $(grep '^rowcast_signals' "$W/s")"
progress_line '\| backfill paused, 1 queued$' || bad "no progress line 'backfill paused, 1 queued': $(tail -3 "$W/cap.err")"

step "resume, then paused in the middle of t"
signal resume-snapshot ''
wait_for 30 eval 'scrape && [ "$(value "${M}_rows_read_total{table=\"$NS.t\"}")" -gt 0 ] 2>/dev/null' || bad "t's rows never showed"
signal pause-snapshot ''
wait_for 20 has "${M}_paused 1" "${M}_tables{state=\"paused\"} 1" || bad "t not paused: $(grep "^$M" "$W/s")"
r1=$(value "${M}_rows_read_total{table=\"$NS.t\"}")
sleep 1
scrape
r2=$(value "${M}_rows_read_total{table=\"$NS.t\"}")
[ -n "$r1" ] && [ "$r1" = "$r2" ] && [ "$r1" -lt $N ] && [ $((r1 % CHUNK)) = 0 ] && ok ||
    bad "t's rows read while paused: $r1 then $r2 (of $N, in chunks of $CHUNK)"
progress_line "\| backfill $NS\.t $r1/~[0-9]+ \([0-9]+%\), chunk $((r1 / CHUNK)), 0 rows/s, paused\$" ||
    bad "no progress line for the paused table: $(tail -3 "$W/cap.err")"

step "resume; then tc under a writer; refused and malformed signals"
# (no writes while t is read: PostgreSQL reads a chunk again when a transaction the stream handed
# before its low watermark was in progress for its snapshot, and t's numbers are to be exact)
signal resume-snapshot ''
wait_for 120 grep -q "incremental snapshot of $NS.t completed" "$W/cap.err" || bad "t did not complete in 120 s: $(tail -5 "$W/cap.err")"
step "t completed"
"$WRITER" "$URL" --table "$NS.tc" --key composite --rate 300 --bias 1:1000:50 --seed 7 --batch 2 2>>"$W/writer.err" &
WPIDS+=($!)
signal execute-snapshot "$(snap tc)"
signal execute-snapshot "$(snap tn)"
signal no-such-signal '{}'
wait_for 120 grep -q "incremental snapshot of $NS.tc completed" "$W/cap.err" || bad "tc did not complete in 120 s: $(tail -5 "$W/cap.err")"
signal stop-snapshot '' # nothing to stop: ignored
kill -TERM "${WPIDS[0]}"
wait "${WPIDS[0]}"
WPIDS=()
# every read handed to the sink (the stream file), the stop signal counted
wait_for 30 eval 'has "rowcast_signals_total{type=\"stop-snapshot\",result=\"ignored\"} 1" &&
    [ "$(grep -c "\"op\":\"read\".*\"snapshot\":\"incremental\"" "$W/stream")" = $((N + $(value "${M}_rows_emitted_total{table=\"$NS.tc\"}"))) ]' ||
    bad "the reads written are not those emitted: $(grep -c '"snapshot":"incremental"' "$W/stream") lines"

step "after completion: exact values"
count=$(if [ "$DB" = pg ]; then pg_test_sql -c "SELECT count(*) FROM $NS.t"; else my_sql shop -e "SELECT count(*) FROM t"; fi)
[ "$count" = $N ] && ok || bad "SELECT count(*) FROM t: $count"
for l in "${M}_rows_read_total{table=\"$NS.t\"} $N" "${M}_rows_emitted_total{table=\"$NS.t\"} $N" \
    "${M}_rows_dropped_total{table=\"$NS.t\"} 0" "${M}_chunks_total{table=\"$NS.t\"} $((N / CHUNK + 1))" \
    "${M}_tables{state=\"queued\"} 0" "${M}_tables{state=\"running\"} 0" "${M}_tables{state=\"paused\"} 0" \
    "${M}_tables{state=\"done\"} 2" "${M}_tables{state=\"stopped\"} 0" "${M}_paused 0" \
    'rowcast_signals_total{type="execute-snapshot",result="ok"} 2' \
    'rowcast_signals_total{type="execute-snapshot",result="error"} 1' \
    'rowcast_signals_total{type="execute-snapshot",result="ignored"} 1' \
    'rowcast_signals_total{type="pause-snapshot",result="ok"} 2' \
    'rowcast_signals_total{type="pause-snapshot",result="ignored"} 1' \
    'rowcast_signals_total{type="resume-snapshot",result="ok"} 2' \
    'rowcast_signals_total{type="resume-snapshot",result="ignored"} 0' \
    'rowcast_signals_total{type="stop-snapshot",result="ok"} 0' \
    'rowcast_signals_total{type="unknown",result="error"} 1'; do
    grep -qxF -- "$l" "$W/s" && ok || bad "not in the scrape: $l (got: $(grep -F -- "${l% *}" "$W/s"))"
done
est=$(value "${M}_rows_estimate{table=\"$NS.t\"}")
if [ "$DB" = pg ]; then [ "$est" = $N ]; else [ "${est:-0}" -gt 0 ]; fi && ok || bad "t's estimate: $est"
# tc, read under writes: the metrics say what the stderr line and the output say
read_tc=$(value "${M}_rows_read_total{table=\"$NS.tc\"}")
emitted=$(value "${M}_rows_emitted_total{table=\"$NS.tc\"}")
dropped=$(value "${M}_rows_dropped_total{table=\"$NS.tc\"}")
chunks=$(value "${M}_chunks_total{table=\"$NS.tc\"}")
grep -q "incremental snapshot of $NS.tc completed: $emitted rows, $dropped dropped by the window, $chunks chunks, " "$W/cap.err" && ok ||
    bad "tc's metrics ($emitted emitted, $dropped dropped, $chunks chunks) differ from: $(grep "of $NS.tc completed" "$W/cap.err")"
[ $((emitted + dropped)) -le "$read_tc" ] && [ "$read_tc" -gt 0 ] && ok || bad "tc: $read_tc read, $emitted emitted, $dropped dropped"
reads_tc=$(grep '"op":"read".*"snapshot":"incremental"' "$W/stream" | grep -c '"table":"tc"')
[ "$reads_tc" = "$emitted" ] && ok || bad "tc: $reads_tc reads written, $emitted emitted"
grep -q '^rowcast_lag_seconds [0-9]' "$W/s" && ok || bad "no rowcast_lag_seconds sample"
# no table of the run besides t and tc has a sample; tn was refused by name
[ "$(grep -c "^${M}_rows_read_total{" "$W/s")" = 2 ] && ok || bad "rows_read samples: $(grep "^${M}_rows_read_total" "$W/s")"

grep -E '\| backfill .*(paused|chunk)' "$W/cap.err" | sed -n '1p;$p' # what the progress lines looked like
kill -TERM $CAP
wait $CAP
expect_rc "capture (SIGTERM: 143)" $? 143
CAP=
echo "incsnap_metrics $DB: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
