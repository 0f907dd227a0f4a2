#!/usr/bin/env bash
# Issue 24 step P1, first slice: an incremental snapshot of PostgreSQL tables with a primary
# key, asked for by a signal row while the capture streams (docs/sources/postgres.md,
# "Incremental snapshots"). One PostgreSQL 15 server: bf_writer loads t (PRIMARY KEY (id),
# 200,000 rows), tc (PRIMARY KEY (id, k2)) and tn (no key, replica identity FULL); the capture
# starts with --snapshot never and -o postgres.signal.table=public.rowcast_signal; writers
# change t and tc (t's half on the chunk being read and the next, moved as its reads arrive; tc's third on its first keys) while signals ask
# for t, tc and tn. Then:
#  - tn is refused by name and the capture goes on;
#  - the stderr lines say t and tc started and completed;
#  - after the writers stop, a run with --until caught-up delivers the rest, and for t and tc
#    check_stream.sh passes: replaying the stream (incremental reads, changes) rebuilds the
#    table equal to SELECT, and the DBLog check holds event by event;
#  - the reads are marked "incremental" and carry positions after the stream's (L, k);
#  - a missing signal table stops the run with the CREATE TABLE to run, one that an existing
#    publication does not publish with the ALTER PUBLICATION to run;
#  - the chunk query's form on the composite key plans as an index range (Index Cond on ROW()).
# usage: pg_incsnap_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=200000
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # the snapshot state file's default place: never the user's
WPIDS=()
trap 'for p in "${WPIDS[@]}" ${CAP:-} ${BIAS:-}; do kill "$p" 2>/dev/null; done; pg_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
SIG=public.rowcast_signal
capture() { exec "$RC" capture "$URL" --include 'public.t*' --snapshot never --to native -o postgres.signal.table=$SIG "$@"; }

step "load"
for spec in t:pk:$N tc:composite:20000 tn:none:100; do
    IFS=: read -r t k n <<<"$spec"
    "$WRITER" "$URL" --table public.$t --key $k --rows $n --count 0 --seed 1 2>>"$W/writer.err" ||
        { bad "bf_writer could not load public.$t: $(tail -1 "$W/writer.err")"; exit 1; }
done

step "a missing signal table: the CREATE TABLE to run"
"$RC" capture "$URL" --include public.tn --publication p0 --slot s0 --snapshot never --to native \
    -o postgres.signal.table=$SIG --until caught-up >/dev/null 2>"$W/missing.err"
st=$?
[ $st != 0 ] && grep -q "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" "$W/missing.err" &&
    ok || bad "missing signal table: status $st, $(cat "$W/missing.err")"
# refused before anything is made: no publication left behind to trip the next run
[ "$(pg_test_sql -Atc "SELECT count(*) FROM pg_publication WHERE pubname = 'p0'")" = 0 ] && ok ||
    bad "missing signal table: publication p0 was left behind"
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null
# a publication of the user's without the signal table: never altered, the fix said
pg_test_sql -c "CREATE PUBLICATION p0 FOR TABLE public.tn" >/dev/null
"$RC" capture "$URL" --include public.tn --publication p0 --slot s0 --snapshot never --to native \
    -o postgres.signal.table=$SIG --until caught-up >/dev/null 2>"$W/unpublished.err"
st=$?
[ $st != 0 ] && grep -q "publication p0 does not publish the signal table $SIG: ALTER PUBLICATION p0 ADD TABLE $SIG" "$W/unpublished.err" &&
    ok || bad "unpublished signal table: status $st, $(cat "$W/unpublished.err")"

step "capture run 1"
( capture >"$W/stream" 2>"$W/cap1.err" ) &
CAP=$!
# t's writer is biased onto the chunk being read and the next: the loop below moves the bias
# file to the keys after the last read of t as the reads arrive
echo 1:8192:50 >"$W/bias"
"$WRITER" "$URL" --table public.t --key pk --rate 400 --bias-file "$W/bias" --seed 2 --batch 2 2>>"$W/writer.err" &
WPIDS+=($!)
(
    while :; do
        # the last read of t (its id is the first value): the next chunk starts after it
        last=$(tail -c 100000 "$W/stream" 2>/dev/null | grep '"op":"read".*"table":"t"' | tail -1 | sed -n 's/.*"after":\[\([0-9]*\).*/\1/p')
        echo "$((${last:-0} + 1)):$((${last:-0} + 8192)):50" >"$W/bias.new" && mv "$W/bias.new" "$W/bias"
        sleep 0.2
    done
) &
BIAS=$!
"$WRITER" "$URL" --table public.tc --key composite --rate 200 --bias 1:4000:33 --seed 3 2>>"$W/writer.err" &
WPIDS+=($!)
wait_for 30 grep -q '"op":"update"' "$W/stream" || bad "the capture streamed nothing in 30 s"
signal() { pg_test_sql -c "INSERT INTO $SIG VALUES ('$1', 'execute-snapshot', '{\"data-collections\": [$2], \"type\": \"incremental\"}')" >/dev/null; }
signal s-1 '"public.t", "public.tc"'
signal s-2 '"public.tn"'
wait_for 60 grep -q 'incremental snapshot of public.tc completed' "$W/cap1.err" || bad "no completion in 60 s: $(cat "$W/cap1.err")"
alive=0
for p in "${WPIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ $alive = 2 ] && ok || bad "the writers stopped before the snapshot ended"
kill "$BIAS"
wait "$BIAS" 2>/dev/null
BIAS=
sleep 1
for p in "${WPIDS[@]}"; do kill -TERM "$p"; wait "$p"; done
WPIDS=()
step "writers stopped"
sleep 1
kill -TERM $CAP
wait $CAP
expect_rc "capture run 1 (SIGTERM: 143)" $? 143
CAP=
cat "$W/cap1.err"
grep -q 'incremental snapshot of public.t started (signal s-1, ~.* rows, by primary key)' "$W/cap1.err" && ok || bad "no start line for public.t"
grep -Eq 'incremental snapshot of public.t completed: [0-9]+ rows, [0-9]+ dropped by the window, [0-9]+ chunks, [0-9.]+ s' "$W/cap1.err" &&
    ok || bad "no completed line for public.t"
grep -q 'signal id=s-2: incremental snapshot of public.tn refused: it has no primary key' "$W/cap1.err" && ok || bad "public.tn not refused by name"

step "capture run 2 --until caught-up"
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
expect_rc "capture run 2 (--until caught-up)" $? 0

step "checks"
# the chunk query's form on the composite key is a btree range scan (row comparison as Index Cond)
plan=$(pg_test_sql -c "EXPLAIN (COSTS OFF) SELECT * FROM ONLY public.tc WHERE (id, k2) > ('5', '1') ORDER BY id, k2 LIMIT 4096")
grep -q 'Index Cond: (ROW(id, k2) > ROW(.5.::bigint, .1.::bigint))' <<<"$plan" && ok || bad "tc's chunk query is no index range scan: $plan"
# the table edges (zero-row reads "incremental:start" / ":end", which native writes) around
# each table's rows, then the checkers on the rows and changes
for t in t tc; do
    for e in start end; do
        [ "$(grep -c "\"table\":\"$t\".*\"snapshot\":\"incremental:$e\"" "$W/stream")" = 1 ] && ok || bad "public.$t: not one $e edge"
    done
done
grep -v '"snapshot":"incremental:' "$W/stream" >"$W/rows"
for t in t tc; do
    "$TOOLS/check_stream.sh" "$URL" public.$t "$W/rows" --out "$W" 2>"$W/$t.check.err"
    expect_rc "public.$t: replay equal to SELECT, DBLog check" $? 0
    cat "$W/$t.check.err"
done
reads=$(grep -c '"table":"t".*"op":"read"\|"op":"read".*"table":"t"' "$W/stream")
[ "$reads" -ge $((N / 2)) ] && ok || bad "public.t: $reads incremental reads, expected $((N / 2)) or more"
grep -q '"snapshot":"incremental"' "$W/stream" && ok || bad "no read marked incremental"
! grep -q '"table":"tn".*"op":"read"\|"op":"read".*"table":"tn"' "$W/stream" && ok || bad "public.tn was read"
echo "pg_incsnap: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
