#!/usr/bin/env bash
# Issue 24: DDL during a PostgreSQL table's incremental snapshot (docs/sources/postgres.md,
# "Incremental snapshots", DDL). One PostgreSQL 15 server: bf_writer loads t (PRIMARY KEY (id),
# 30,000 rows) and changes it continuously while an incremental snapshot reads it in chunks of
# 500 rows; at observed points of the snapshot (its reads in the output) v's type changes
# (bigint to numeric(20,0): the table is rewritten) and a column c (DEFAULT 7) is added. Then:
#  - the snapshot completes (a structure change does not stop it) and says its columns changed;
#  - reads carry the structure they were read with: v bigint before the type change, numeric
#    after it; c only in reads after it was added, with its default;
#  - replaying the stream rebuilds the table equal to SELECT on the columns every event has
#    (id, v, pad), and the DBLog check holds event by event.
# usage: pg_incsnap_ddl_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=30000
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
CAP= WPID=
trap 'kill $CAP $WPID 2>/dev/null; pg_test_stop' EXIT
SIG=public.rowcast_signal
# flush=false: each chunk paced by the test server's wal_writer_delay (synchronous_commit = off
# there), so that the DDL falls in the middle of the table's snapshot
capture() { exec "$RC" capture "$URL" --include public.t --snapshot never --to native -o postgres.signal.table=$SIG -o postgres.snapshot.chunk.rows=500 -o postgres.snapshot.flush=false "$@"; }
reads() { grep -c '"op":"read","source".*"table":"t"' "$W/stream"; }
reads_at_least() { [ "$(reads)" -ge "$1" ]; }

"$WRITER" "$URL" --table public.t --key pk --rows $N --count 0 --seed 1 2>>"$W/writer.err" || { bad "bf_writer could not load t"; exit 1; }
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null
( capture >"$W/stream" 2>"$W/cap1.err" ) &
CAP=$!
"$WRITER" "$URL" --table public.t --key pk --rate 300 --bias 1:$N:50 --seed 2 2>>"$W/writer.err" &
WPID=$!
wait_for 30 grep -q '"op":"update"' "$W/stream" || bad "the capture streamed nothing in 30 s"
pg_test_sql -c "INSERT INTO $SIG VALUES ('d-1', 'execute-snapshot', '{\"data-collections\": [\"public.t\"]}')" >/dev/null
wait_for 60 reads_at_least 5000 || bad "fewer than 5000 reads in 60 s"
pg_test_sql -c "ALTER TABLE public.t ALTER COLUMN v TYPE numeric(20,0)" >/dev/null
at_type=$(reads)
wait_for 60 reads_at_least $((at_type + 8000)) || bad "fewer than 8000 reads after the type change in 60 s"
pg_test_sql -c "ALTER TABLE public.t ADD COLUMN c int DEFAULT 7" >/dev/null
at_add=$(reads)
wait_for 90 grep -q 'incremental snapshot of public.t completed' "$W/cap1.err" || bad "no completion in 90 s"
kill -0 $WPID 2>/dev/null && ok || bad "the writer stopped before the snapshot ended: $(tail -2 "$W/writer.err")"
kill -TERM $WPID
wait $WPID
WPID=
sleep 1
kill -TERM $CAP
wait $CAP
CAP=
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
expect_rc "capture run 2 (--until caught-up)" $? 0
cat "$W/cap1.err"

grep -q 'incremental snapshot of public.t: its columns changed' "$W/cap1.err" && ok || bad "the structure change was not said"
! grep -q 'incremental snapshot of public.t stopped' "$W/cap1.err" && ok || bad "the snapshot stopped"
# the structure each read was read with
grep '"op":"read","source".*"table":"t"' "$W/stream" | grep -v '"snapshot":"incremental:' >"$W/reads"
first_num=$(grep -n '"name":"v","type":"numeric(20,0)"' "$W/reads" | head -1 | cut -d: -f1)
last_big=$(grep -n '"name":"v","type":"bigint"' "$W/reads" | tail -1 | cut -d: -f1)
[ -n "$first_num" ] && [ -n "$last_big" ] && [ "$last_big" -lt "$first_num" ] && [ "$last_big" -ge 4000 ] &&
    ok || bad "v: the last bigint read is #$last_big, the first numeric one #$first_num"
first_c=$(grep -n '"name":"c"' "$W/reads" | head -1 | cut -d: -f1)
[ -n "$first_c" ] && [ "$first_c" -gt "$first_num" ] && ok || bad "c: first in read #$first_c"
tail -n +"${first_c:-1}" "$W/reads" | grep -v '"name":"c"' | head -1 | grep -q . && bad "a read after c was added lacks it" || ok
grep '"name":"c"' "$W/reads" | grep -v ',7\]}$' | head -1 | grep -q . && bad "a read of c is not its default 7" || ok
echo "reads: $(wc -l <"$W/reads"); bigint up to #$last_big (type change after ~$at_type), numeric from #$first_num, c from #$first_c (added after ~$at_add)"

# replay and DBLog on the columns every event has: id, v, pad (c is the last column)
LIB=(-f "$TOOLS/native_events.awk")
grep -v '"snapshot":"incremental:' "$W/stream" >"$W/rows"
awk -v table=public.t -v keys=id "${LIB[@]}" -f "$TOOLS/replay.awk" "$W/rows" 2>"$W/replay.err" | cut -f1-3 | LC_ALL=C sort >"$W/rebuilt"
expect_rc "replay" "${PIPESTATUS[0]}" 0
cat "$W/replay.err"
pg_test_sql -c "COPY (SELECT id, v, pad FROM public.t) TO STDOUT" | LC_ALL=C sort >"$W/select"
cmp -s "$W/select" "$W/rebuilt" && ok || { bad "the replay differs from SELECT"; diff "$W/select" "$W/rebuilt" | head -10 >&2; }
awk -v table=public.t -v keys=id "${LIB[@]}" -f "$TOOLS/dblog_check.awk" "$W/rows"
expect_rc "DBLog check" $? 0
echo "pg_incsnap_ddl: $pass passed, $fail failed"
[ "$fail" = 0 ]
