#!/usr/bin/env bash
# Issue 24 P3-lite: `--snapshot incremental`, a resumable initial snapshot of PostgreSQL
# (docs/sources/postgres.md, "Slot and snapshot"). One PostgreSQL 15 server: bf_writer loads t
# (PRIMARY KEY (id, k2), 60,000 rows) and changes it all along (half of its changes on the
# next chunks to be read). Without a slot, `--snapshot incremental` creates it permanent
# without an exported snapshot, streams from it at once and reads t in chunks (no signal
# table: none exists). Killed with SIGKILL at two observed points (RC_SNAPSHOT_VERBOSE=1: a
# notice per chunk state):
#   1. right after a state write (chunk 3 acknowledged);
#   2. right after a chunk was emitted in the restarted run (its rows in the output, not
#      acknowledged);
# each restart (the slot exists now) says "resuming incremental snapshot of public.t after key
# [...]" and reads on from the chunk after it; the third run completes. Then a --until
# caught-up run after the writer stopped (the slot and no snapshot in progress: "no snapshot"
# said). Checks on OUT: check_stream.sh (replay equals SELECT, DBLog check event by event),
# the keys a restarted run read again are at most one chunk's, one end edge. Also: a table
# that cannot be read in chunks (no primary key, replica identity USING INDEX) is refused at
# start, naming it and --snapshot initial, and no slot is left; --snapshot initial names
# --snapshot incremental for a table estimated at 1,000,000 rows or more.
# usage: pg_incsnap_initial_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=60000
CHUNK=2000
CHUNK_IDS=$((CHUNK / 4)) # (id, k2): four k2 per id
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # never the user's
export RC_SNAPSHOT_VERBOSE=1 # the chunk notices
trap 'for p in ${WPID:-} ${CAP:-} ${BIAS:-}; do kill -9 "$p" 2>/dev/null; done; pg_test_stop' EXIT
CK=$W/t.state
OUT=$W/out
# flush=false: each chunk paced by the test server's wal_writer_delay (synchronous_commit = off
# there), so that the kill points fall while chunks run
capture() {
    exec "$RC" capture "$URL" --include public.t --snapshot incremental --to native --sink "file:$OUT" --checkpoint "$CK" \
        -o postgres.snapshot.chunk.rows=$CHUNK -o postgres.snapshot.flush=false "$@"
}
IS_NKEYS=2 IS_PER_ID=4
. "$HERE/pg_incsnap_lib.sh"
slots() { pg_test_sql -c "SELECT count(*) FROM pg_replication_slots"; }

step "load"
"$WRITER" "$URL" --table public.t --key composite --rows $N --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load public.t: $(tail -1 "$W/writer.err")"; exit 1; }
"$WRITER" "$URL" --table public.u --key unique --rows 10 --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load public.u"; exit 1; }
pg_test_sql -c "ANALYZE public.t" >/dev/null

step "a table that cannot be read in chunks is refused at start, naming it"
"$RC" capture "$URL" --include public.u --publication pu --slot su --snapshot incremental --to native >/dev/null 2>"$W/refused.err"
st=$?
[ $st != 0 ] && grep -q "table public.u cannot be read in chunks: it has no primary key.*--snapshot initial" "$W/refused.err" &&
    [ "$(slots)" = 0 ] && ok || bad "public.u: status $st, slots $(slots): $(cat "$W/refused.err")"

step "--snapshot initial names --snapshot incremental for a table of >= 1,000,000 rows (estimate)"
pg_test_sql -c "CREATE TABLE public.big (id int PRIMARY KEY); UPDATE pg_class SET reltuples = 2000000 WHERE oid = 'public.big'::regclass" >/dev/null
"$RC" capture "$URL" --include public.big --publication pb --snapshot initial_only --to native >/dev/null 2>"$W/big.err"
expect_rc "initial_only of public.big" $? 0
grep -q "snapshot of public.big (~2000000 rows) is one transaction.*--snapshot incremental resumes" "$W/big.err" && ok ||
    bad "no notice naming --snapshot incremental: $(cat "$W/big.err")"
"$RC" capture "$URL" --include public.t --publication pt --snapshot initial_only --to native >/dev/null 2>"$W/small.err"
! grep -q "is one transaction" "$W/small.err" && ok || bad "the notice for a small table: $(cat "$W/small.err")"

step "run 1: no slot: created, streaming, t read in chunks; killed after a state write"
echo 1:$((2 * CHUNK)):50 >"$W/bias"
"$WRITER" "$URL" --table public.t --key composite --rate 300 --bias-file "$W/bias" --seed 2 --batch 2 2>>"$W/writer.err" &
WPID=$!
bias_follows_reads
start
wait_for 30 grep -q "replication slot rowcast created; streaming from it now, and 1 table" "$W/err.1" && ok ||
    bad "run 1: no slot created: $(cat "$W/err.1")"
wait_for 60 seen "acknowledged" 3 || bad "run 1: no chunk 3 acknowledged in 60 s: $(tail -3 "$W/err.1")"
killed "chunk $(chunk_of acknowledged) acknowledged, state written"
grep -q '"op":"update"' "$OUT" && ok || bad "run 1 streamed no change while reading"

step "run 2: resumes; killed right after a chunk was emitted"
resumed
wait_for 30 seen "emitted" 2 || bad "run 2: no chunk 2 emitted in 30 s"
killed "chunk $(chunk_of emitted) emitted, not acknowledged"

step "run 3: resumes and completes"
resumed
# completed, and its end acknowledged: the state file has the table no more (the completed line
# comes at the emit; a SIGTERM between it and the acknowledgement leaves the last chunk to the
# next run, whose --until caught-up reads it but run 4 checks that none is in progress)
done_acked() { grep -q 'incremental snapshot of public.t completed' "$W/err.$RUN" && ! grep -q '^table ' "$CK"; }
wait_for 120 done_acked || bad "run 3: no acknowledged completion in 120 s: $(tail -3 "$W/err.$RUN")"
stop_all

step "run 4: --until caught-up: the slot exists, no snapshot in progress"
until_caught_up
grep -q "replication slot rowcast exists: streaming from its position (LSN [0-9A-F/]*), no snapshot (none in progress" "$W/err.4" &&
    ok || bad "run 4 did not say no snapshot: $(cat "$W/err.4")"

step "checks"
grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"
"$TOOLS/check_stream.sh" "$URL" public.t "$W/rows" --out "$W" 2>"$W/check.err"
expect_rc "replay of every run's output equal to SELECT, DBLog check" $? 0
cat "$W/check.err"
reads_again
expect_rc "each restart read at most one chunk again" $? 0
reads=$(grep -c '"op":"read"' "$W/rows")
[ "$reads" -ge $((N / 2)) ] && ok || bad "only $reads reads"
[ "$(grep -c '"table":"t".*"snapshot":"incremental:end"' "$OUT")" = 1 ] && ok || bad "not one end edge"
! grep -q '^table ' "$CK" && grep -q '^captured public.t$' "$CK" && ok || bad "the final state file: $(cat "$CK")"
for r in 1 2 3 4; do echo "--- run $r"; grep -v 'chunk [0-9]*: ' "$W/err.$r"; done
echo "pg_incsnap_initial: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
