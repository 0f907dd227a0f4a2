#!/usr/bin/env bash
# An incremental snapshot under --exactly-once (issue 25 with issue 24; docs/sinks.md, "Exactly
# once", and docs/design/exactly-once.md §2.7), against the Kafka mock cluster (kafka_lib.sh, its
# own process) and a throwaway PostgreSQL 15 (pg_lib.sh). bf_writer loads public.t (N rows) and
# keeps inserting, updating and deleting (half of its changes on the chunk being read); the
# capture streams into topic t (32 partitions, Debezium records keyed by id, read back as native
# lines through rowcast convert) with its incremental snapshots'
# state in topic rc-state (--checkpoint kafka://), a signal asks for t, and rowcast is killed
# with SIGKILL at observed points (RC_SNAPSHOT_VERBOSE's chunk notices): a chunk emitted and not
# acknowledged, a chunk acknowledged after the resume, a chunk's window open; then a run
# completes the snapshot, the writer stops, and a last run catches up (--until caught-up).
# A plain consumer (kcat, read_uncommitted) then sees, with the records in rowcast.eos order:
#   - every change of the stream exactly once (each `e` order key once);
#   - the replay of changes and reads equal to SELECT, and no read older than a change of its
#     key emitted before it (tools/check_stream.sh: the DBLog check);
#   - reads of one key at two high watermarks only for the chunks in flight at the kills (emitted,
#     not acknowledged: their transaction not committed), read again at a new watermark;
#   - the skip rule at work (a restart found records of its replay in Kafka).
# usage: eos_incsnap_test.sh path/to/rowcast path/to/bf_writer path/to/rowcast-kafka-mock
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
MOCK=${3:?path to rowcast-kafka-mock}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=${EOS_INCSNAP_ROWS:-100000}
CHUNK=2048
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
. "$HERE/kafka_lib.sh"
PARTS=32 # the mock keeps about 5 MB a partition and drops older records: checked below
. "$HERE/eos_lib.sh" # kafka_offsets
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # never the user's
export RC_SNAPSHOT_VERBOSE=1 # the chunk notices
export LC_ALL=C
trap 'for p in ${WPID:-} ${CAP:-} ${BIAS:-} ${REFRESH:-}; do kill -9 "$p" 2>/dev/null; done; [ -n "${EOS_KEEP:-}" ] && mkdir -p "$EOS_KEEP" && cp "$W"/err.* "$W"/keyed "$W"/raw "$EOS_KEEP"; mock_stop; pg_test_stop' EXIT
mock_start "$MOCK" "$W" 3 && mock_cmd "topic t $PARTS" && mock_cmd "topic rc-state 1" || exit 1
SIG=public.rowcast_signal
OUT=$W/out # the records read back from t (bias_follows_reads follows it)
capture() {
    exec "$RC" capture "$URL" --include public.t --snapshot never --to debezium -o debezium.schemas=false --no-tombstones --server s --exactly-once \
        --sink "kafka://$BOOTSTRAP/t" --checkpoint "kafka://$BOOTSTRAP/rc-state" \
        -o postgres.signal.table=$SIG -o postgres.snapshot.chunk.rows=$CHUNK -o postgres.snapshot.flush=false "$@"
}
. "$HERE/pg_incsnap_lib.sh" # start, killed, seen, chunk_of, bias_follows_reads, stop_all, until_caught_up
# keyed: every record of t, its rowcast.eos key and value, in the keys' order; OUT: the values
# as native lines (rowcast convert), what check_stream.sh and bias_follows_reads read
refresh() {
    kcat -C -b "$BOOTSTRAP" -t t -o beginning -e -q -f '%h\t%s\n' 2>/dev/null >"$W/raw"
    sed -n 's/^\(.*,\)\{0,1\}rowcast\.eos=\([^,	]*\)[^	]*	/\2	/p' "$W/raw" | sort -s -t '	' -k1,1 >"$W/keyed"
    cut -f2- "$W/keyed" | "$RC" convert --from debezium --to native >"$OUT.new" 2>"$W/convert.err" && mv "$OUT.new" "$OUT"
}
acked_since_start() { [ "$(grep -c 'chunk [0-9]*: acknowledged' "$W/err.$RUN")" -ge "$1" ]; }
step "load"
"$WRITER" "$URL" --table public.t --key pk --rows "$N" --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load public.t: $(tail -1 "$W/writer.err")"; exit 1; }
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null

step "run 1: streams; the signal; killed with a chunk emitted, not acknowledged"
start
echo 1:$CHUNK:50 >"$W/bias"
"$WRITER" "$URL" --table public.t --key pk --rate 400 --bias-file "$W/bias" --seed 2 --batch 2 2>>"$W/writer.err" &
WPID=$!
(while :; do refresh; sleep 2; done) &
REFRESH=$!
bias_follows_reads
wait_for 30 grep -qs '"op":"update"' "$OUT" || bad "run 1 streamed nothing in 30 s"
pg_test_sql -c "INSERT INTO $SIG VALUES ('s-1', 'execute-snapshot', '{\"data-collections\": [\"public.t\"], \"type\": \"incremental\"}')" >/dev/null
wait_for 60 seen "acknowledged" 2 || bad "run 1: no chunk 2 acknowledged in 60 s: $(tail -3 "$W/err.1")"
wait_for 60 eval '[ "$(chunk_of emitted)" -gt "$(chunk_of acknowledged)" ]' || bad "run 1: no chunk emitted past the acknowledged one"
killed "chunk $(chunk_of emitted) emitted, $(chunk_of acknowledged) acknowledged"

step "run 2: resumes from the state topic; killed once a chunk of its own was acknowledged"
start
wait_for 30 grep -q "resuming incremental snapshot of public.t after key" "$W/err.$RUN" && ok || bad "run 2: no resuming line: $(head -5 "$W/err.$RUN")"
wait_for 60 acked_since_start 2 || bad "run 2: no chunk acknowledged in 60 s"
killed "chunk $(chunk_of acknowledged) acknowledged"

step "run 3: killed with a chunk's window open"
start
wait_for 30 grep -q "resuming incremental snapshot of public.t after key" "$W/err.$RUN" && ok || bad "run 3: no resuming line"
wait_for 60 eval '[ "$(grep -c "window open" "$W/err.$RUN")" -ge 2 ]' || bad "run 3: no second window in 60 s"
killed "window of chunk $(chunk_of 'window open') open"

step "run 4: completes the snapshot"
start
wait_for 120 grep -q 'incremental snapshot of public.t completed' "$W/err.$RUN" || bad "run 4: no completion in 120 s: $(tail -3 "$W/err.$RUN")"
stop_all
kill "$REFRESH"
wait "$REFRESH" 2>/dev/null
step "run 5: --until caught-up"
until_caught_up
refresh

step "checks"
[ "$(kafka_offsets t -2)" = 0 ] && ok || bad "the mock dropped the oldest records of t (start offsets $(kafka_offsets t -2)): more partitions"
awk -F '\t' '{ split($1, a, " "); k = a[2] } substr(k, 18, 1) == "e" && seen[$1]++ == 1 { d++ } END { exit d > 0 }' "$W/keyed" &&
    ok || bad "a change of the stream is in t more than once: $(awk -F '\t' 'seen[$1]++ == 1' "$W/keyed" | head -3)"
grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"
"$TOOLS/check_stream.sh" "$URL" public.t "$W/rows" --keys id --out "$W" 2>"$W/check.err"
expect_rc "replay of t equal to SELECT, DBLog check" $? 0
cat "$W/check.err"
again=$(awk -F '\t' '$2 ~ /"op":"r"/ { split($1, a, " "); hw = substr(a[2], 1, 17); if (!match($2, /"after":\{"id":[0-9]+/)) next
        k = substr($2, RSTART + 14, RLENGTH - 14); if ((k in first) && first[k] != hw) n++; if (!(k in first)) first[k] = hw }
        END { print n + 0 }' "$W/keyed")
# in flight at each kill: the chunks run R-1 emitted past the one run R resumed after
inflight=0
for r in $(seq 2 "$RUN"); do
    e=$(grep -o 'chunk [0-9]*: emitted' "$W/err.$((r - 1))" | tail -1 | tr -dc 0-9)
    res=$(sed -n 's/.*resuming incremental snapshot of public.t after key .*, chunk \([0-9]*\);.*/\1/p' "$W/err.$r" | head -1)
    [ -n "$e" ] && [ -n "$res" ] && [ "$e" -gt "$res" ] && inflight=$((inflight + e - res))
done
echo "reads of a key at a second high watermark: $again; chunks in flight at the kills: $inflight (chunk $CHUNK rows)"
[ "$again" -le $((inflight * CHUNK)) ] && ok || bad "$again reads again, more than the $inflight chunks in flight at the kills"
reads=$(grep -c '"op":"read"' "$W/rows")
[ "$reads" -ge $((N / 2)) ] && ok || bad "only $reads reads"
skipped=$(cat "$W"/err.* | sed -n 's/.*exactly once: \([0-9]*\) records of the replay.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
[ "$skipped" -gt 0 ] && ok || bad "no restart found records of its replay in Kafka (the skip rule was not exercised)"
for r in $(seq 1 "$RUN"); do echo "--- run $r"; grep -v 'chunk [0-9]*: ' "$W/err.$r"; done
echo "eos_incsnap: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
