#!/usr/bin/env bash
# Issue 24 step P1, first slice: an incremental snapshot of PostgreSQL tables with a primary
# key, asked for by a signal row while the capture streams (docs/sources/postgres.md,
# "Incremental snapshots"). One PostgreSQL 15 server: bf_writer loads t (PRIMARY KEY (id),
# 200,000 rows), tc (PRIMARY KEY (id, k2)), tn (no key, replica identity FULL: read in ctid
# ranges) and tnd (no key, replica identity DEFAULT); the capture starts with --snapshot never
# and -o postgres.signal.table=public.rowcast_signal; writers change t, tc and tn (t's half on
# the chunk being read and the next, moved as its reads arrive; tc's and tn's third on their
# first keys) while signals ask for t, tc, tn and tnd. Then:
#  - tnd is refused by name with the fix (REPLICA IDENTITY FULL) and the capture goes on;
#  - the stderr lines say t, tc and tn started and completed;
#  - after the writers stop, a run with --until caught-up delivers the rest, and for t, tc and
#    tn check_stream.sh passes: replaying the stream (incremental reads, changes) rebuilds the
#    table equal to SELECT (tn: as a multiset), and the DBLog check holds event by event (tn:
#    keyed by its id column, which the writer keeps unique);
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
# (tnd, without a replica identity, is published for its INSERTs only; the chunks read ahead,
# docs/design/incremental-snapshots.md §1.2: the other incsnap tests read them one by one)
capture() { exec "$RC" capture "$URL" --include 'public.t*' --snapshot never --to native -o postgres.signal.table=$SIG -o postgres.publish.no_identity=insert_only -o postgres.snapshot.read_ahead=true "$@"; }

step "load"
for spec in t:pk:$N tc:composite:20000 tn:none:20000; do
    IFS=: read -r t k n <<<"$spec"
    "$WRITER" "$URL" --table public.$t --key $k --rows $n --count 0 --seed 1 2>>"$W/writer.err" ||
        { bad "bf_writer could not load public.$t: $(tail -1 "$W/writer.err")"; exit 1; }
done

pg_test_sql -c "CREATE TABLE public.tnd (id bigint, v bigint); INSERT INTO public.tnd VALUES (1, 1)" >/dev/null

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
"$WRITER" "$URL" --table public.tn --key none --rate 200 --bias 1:2000:33 --seed 4 2>>"$W/writer.err" &
WPIDS+=($!)
wait_for 30 grep -q '"op":"update"' "$W/stream" || bad "the capture streamed nothing in 30 s"
signal() { pg_test_sql -c "INSERT INTO $SIG VALUES ('$1', 'execute-snapshot', '{\"data-collections\": [$2], \"type\": \"incremental\"}')" >/dev/null; }
signal s-1 '"public.t", "public.tc"'
signal s-2 '"public.tn", "public.tnd"'
for t in tc tn; do
    wait_for 60 grep -q "incremental snapshot of public.$t completed" "$W/cap1.err" || bad "no completion of $t in 60 s: $(cat "$W/cap1.err")"
done
alive=0
for p in "${WPIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ $alive = 3 ] && ok || bad "the writers stopped before the snapshot ended"
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
grep -q 'incremental snapshot of public.tn started (signal s-2, ~.* rows, in ctid ranges: no primary key)' "$W/cap1.err" && ok || bad "no start line for public.tn"
grep -q 'signal id=s-2: incremental snapshot of public.tnd refused: it has no primary key and its replica identity is not FULL (ALTER TABLE ... REPLICA IDENTITY FULL lets it be read in ctid ranges)' "$W/cap1.err" &&
    ok || bad "public.tnd not refused by name"

step "capture run 2 --until caught-up"
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
expect_rc "capture run 2 (--until caught-up)" $? 0

step "checks"
# the chunk query's form on the composite key is a btree range scan (row comparison as Index Cond)
plan=$(pg_test_sql -c "EXPLAIN (COSTS OFF) SELECT * FROM ONLY public.tc WHERE (id, k2) > ('5', '1') ORDER BY id, k2 LIMIT 4096")
grep -q 'Index Cond: (ROW(id, k2) > ROW(.5.::bigint, .1.::bigint))' <<<"$plan" && ok || bad "tc's chunk query is no index range scan: $plan"
# the table edges (zero-row reads "incremental:start" / ":end", which native writes) around
# each table's rows, then the checkers on the rows and changes
for t in t tc tn; do
    for e in start end; do
        [ "$(grep -c "\"table\":\"$t\".*\"snapshot\":\"incremental:$e\"" "$W/stream")" = 1 ] && ok || bad "public.$t: not one $e edge"
    done
done
grep -v '"snapshot":"incremental:' "$W/stream" >"$W/rows"
# a consumer of a keyless table rebuilds it from its start edge (the changes before are in the
# reads): tn's stream from there, its DBLog check keyed by the id the writer keeps unique
awk '/"table":"tn".*"snapshot":"incremental:start"/ { f = 1 } f' "$W/stream" | grep -v '"snapshot":"incremental:' >"$W/rows.tn"
for t in t tc tn; do
    # (each table's lines first: the checkers then read only them)
    grep "\"table\":\"$t\"" "$W/rows" >"$W/rows.$t.only"
    rows=$W/rows.$t.only keys=""
    [ $t = tn ] && rows=$W/rows.tn keys="--dblog-keys id"
    # shellcheck disable=SC2086
    "$TOOLS/check_stream.sh" "$URL" public.$t "$rows" $keys --out "$W" 2>"$W/$t.check.err"
    expect_rc "public.$t: replay equal to SELECT, DBLog check" $? 0
    cat "$W/$t.check.err"
done
reads=$(grep -c '"table":"t".*"op":"read"\|"op":"read".*"table":"t"' "$W/stream")
[ "$reads" -ge $((N / 2)) ] && ok || bad "public.t: $reads incremental reads, expected $((N / 2)) or more"
grep -q '"snapshot":"incremental"' "$W/stream" && ok || bad "no read marked incremental"
! grep -q '"table":"tnd".*"op":"read"\|"op":"read".*"table":"tnd"' "$W/stream" && ok || bad "public.tnd was read"
# tn's chunks are TID range scans
plan=$(pg_test_sql -c "EXPLAIN (COSTS OFF) SELECT * FROM ONLY public.tn WHERE ctid > '(5,3)'::tid AND ctid < '(9,0)'::tid ORDER BY ctid")
grep -q 'Tid Range Scan on tn' <<<"$plan" && ok || bad "tn's chunk query is no TID range scan: $plan"
echo "pg_incsnap: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
