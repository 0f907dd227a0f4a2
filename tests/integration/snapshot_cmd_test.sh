#!/usr/bin/env bash
# `rowcast snapshot` (issue 24 step S1; docs/cli.md, "rowcast snapshot"): the signal row a
# user writes without SQL, against a running capture, on one PostgreSQL 15 and then one
# MariaDB 10.11 server (each started once). For each:
#  - without the signal table: capture's own message (the CREATE TABLE to run), exit 1;
#  - a pattern that matches no table: exit 2, the pattern and the closest table named; a URL
#    of no database: exit 1; a server not there: exit 3;
#  - while a capture runs with the signal table, `rowcast snapshot URL 'S.o*'` prints the id
#    (rowcast-MS-PID), the signal row holds it with data-collections [S.o1, S.o2], and the
#    capture emits every row of o1 and o2 as incremental reads (the set of ids equals SELECT's);
#  - an execute-snapshot signal with additional-conditions on o1: the ids of that snapshot's
#    reads equal SELECT id FROM o1 WHERE <filter>; one with a filter the server rejects on o2:
#    a warning names the table, the filter and the server's message, o2's snapshot stops and
#    the capture goes on (the steps below run on it);
#  - --pause after big's first read: no read for 1.5 s; --resume: reads again; --stop S.big:
#    the capture's stderr says big's snapshot stopped; --stop alone writes a row without data.
# usage: snapshot_cmd_test.sh path/to/rowcast
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
BIG=50000

# ids of S.TABLE's incremental reads in the stream, sorted
read_ids() { grep '"op":"read"' "$W/stream" | grep "\"table\":\"$1\"" | grep '"snapshot":"incremental"' |
    sed -n 's/.*"after":\[\([0-9]*\).*/\1/p' | sort -n; }
# ids of S.TABLE's incremental reads after its first N (in the stream's order), sorted
reads_after() { grep '"op":"read"' "$W/stream" | grep "\"table\":\"$1\"" | grep '"snapshot":"incremental"' |
    sed -n 's/.*"after":\[\([0-9]*\).*/\1/p' | tail -n +$(($2 + 1)) | sort -n; }
nreads() { read_ids "$1" | wc -l; }
more_reads() { [ "$(nreads "$1")" -gt "$2" ]; }
# after a pause signal: waits until TABLE's count of reads stands still for 1 s (at most 15 s
# for that under load); prints the count
still() {
    local n0 n1=-1
    for _ in $(seq 15); do
        n0=$(nreads "$1")
        sleep 1
        n1=$(nreads "$1")
        [ "$n0" = "$n1" ] && break
    done
    echo "$n1"
}
snap() { "$RC" snapshot "$URL" "$@" -o "$SIGOPT"; }
# a row into S.mark every 0.3 s until the capture's stream has one (it streams from its start)
streaming() {
    local i
    for i in $(seq 100); do
        sql "INSERT INTO $S.mark VALUES ($i)"
        grep -q '"table":"mark"' "$W/stream" && return 0
        sleep 0.3
    done
    return 1
}

# the checks on one server: URL, S (schema or database), SIGOPT (-o KEY=S.rowcast_signal),
# sql (runs a statement, prints rows), CREATE (the signal table's CREATE), CAPOPTS
one_server() {
    SIG=$S.rowcast_signal
    step "$NAME: without the signal table"
    snap "$S.o*" >"$W/out" 2>"$W/err"
    expect_rc "$NAME: missing signal table" $? 1
    "$RC" capture "$URL" --include "$S.*" --snapshot never --to native "${CAPOPTS[@]}" -o "$SIGOPT" --until caught-up \
        >/dev/null 2>"$W/cap0.err"
    [ "$(sed 's/^rowcast snapshot: //' "$W/err")" = "$(grep -v '^replica server id\|no --checkpoint' "$W/cap0.err" | sed 's/^rowcast capture: //')" ] &&
        grep -q "CREATE TABLE $SIG" "$W/err" && ok || bad "$NAME: not capture's message: $(cat "$W/err") / $(cat "$W/cap0.err")"
    sql "$CREATE"

    step "$NAME: errors"
    snap "$S.o3" >"$W/out" 2>"$W/err"
    expect_rc "$NAME: no match" $? 2
    echo "rowcast snapshot: --include '$S.o3' matched no table on $URL; did you mean '$S.o1'?" >"$W/want"
    expect_eq "$NAME: no match message" "$W/want" "$W/err"
    snap "nosuch*.x" >"$W/out" 2>"$W/err"
    expect_rc "$NAME: no match (schema)" $? 2
    echo "rowcast snapshot: --include 'nosuch*.x' matched no table on $URL; $KIND there: $S" >"$W/want"
    expect_eq "$NAME: no match (schema) message" "$W/want" "$W/err"
    "$RC" snapshot "http://${URL#*://}" "$S.o1" -o "$SIGOPT" >"$W/out" 2>"$W/err"
    expect_rc "$NAME: not a database URL" $? 1
    printf '%s\n' "rowcast snapshot: http://${URL#*://} is not a database URL rowcast writes signals to: postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT[/DB] (mariadb:// too)" \
        "(see rowcast help snapshot)" >"$W/want"
    expect_eq "$NAME: not a database URL message" "$W/want" "$W/err"
    "$RC" snapshot "$DOWN" "$S.o1" -o "$SIGOPT" >"$W/out" 2>"$W/err"
    expect_rc "$NAME: no server" $? 3
    grep -q "^rowcast snapshot: cannot connect to $DOWN: " "$W/err" && ok || bad "$NAME: no server: $(cat "$W/err")"
    [ "$(sql "SELECT count(*) FROM $SIG")" = 0 ] && ok || bad "$NAME: a failed run wrote a signal"

    step "$NAME: capture, then rowcast snapshot '$S.o*'"
    ("$RC" capture "$URL" --include "$S.*" --snapshot never --to native "${CAPOPTS[@]}" -o "$SIGOPT" >"$W/stream" 2>"$W/cap.err") &
    CAP=$!
    streaming || bad "$NAME: the capture streamed nothing in 30 s: $(cat "$W/cap.err")"
    id=$(snap "$S.o*" 2>"$W/err")
    expect_rc "$NAME: rowcast snapshot" $? 0
    [[ $id =~ ^rowcast-[0-9]{13}-[0-9]+$ ]] && ok || bad "$NAME: id '$id'"
    echo "rowcast snapshot: signal $id written to $SIG on $URL: execute-snapshot $S.o1, $S.o2 (2 tables)" >"$W/want"
    expect_eq "$NAME: what was written" "$W/want" "$W/err"
    [ "$(sql "SELECT type, data FROM $SIG WHERE id = '$id'")" = "execute-snapshot	{\"data-collections\": [\"$S.o1\", \"$S.o2\"], \"type\": \"incremental\"}" ] &&
        ok || bad "$NAME: the signal row: $(sql "SELECT * FROM $SIG")"
    wait_for 30 grep -q "incremental snapshot of $S.o2 completed" "$W/cap.err" || bad "$NAME: o2 not completed in 30 s: $(cat "$W/cap.err")"
    for t in o1 o2; do
        read_ids $t >"$W/got.$t"
        sql "SELECT id FROM $S.$t ORDER BY id" >"$W/want.$t"
        expect_eq "$NAME: $S.$t: the ids read are SELECT's" "$W/want.$t" "$W/got.$t"
    done

    step "$NAME: additional-conditions"
    n1=$(nreads o1)
    FILTER="id % 3 = 0 AND v <> 'a9'"
    FQ=${FILTER//"'"/"''"} # as an SQL literal's text
    sql "INSERT INTO $SIG VALUES ('ac-1', 'execute-snapshot', '{\"data-collections\": [\"$S.o1\"], \"type\": \"incremental\", \"additional-conditions\": [{\"data-collection\": \"$S.o1\", \"filter\": \"$FQ\"}]}')"
    wait_for 30 eval '[ "$(grep -c "incremental snapshot of $S.o1 completed" "$W/cap.err")" = 2 ]' ||
        bad "$NAME: filtered o1 not completed in 30 s: $(grep "o1" "$W/cap.err")"
    reads_after o1 "$n1" >"$W/got.f"
    sql "SELECT id FROM $S.o1 WHERE $FILTER ORDER BY id" >"$W/want.f"
    [ -s "$W/want.f" ] && expect_eq "$NAME: $S.o1 WHERE $FILTER: the ids read are SELECT's" "$W/want.f" "$W/got.f"
    BADF="id = = 3"
    sql "INSERT INTO $SIG VALUES ('ac-2', 'execute-snapshot', '{\"data-collections\": [\"$S.o2\"], \"type\": \"incremental\", \"additional-conditions\": [{\"data-collection\": \"$S.o2\", \"filter\": \"$BADF\"}]}')"
    wait_for 30 grep -q "incremental snapshot of $S.o2 stopped" "$W/cap.err" || bad "$NAME: o2 with a bad filter not stopped: $(grep o2 "$W/cap.err")"
    grep "warning: .*$S.o2 with the additional-conditions filter \"$BADF\" on .*: .*syntax" "$W/cap.err" >"$W/warn" && ok ||
        bad "$NAME: no warning naming o2, its filter and the server's message: $(grep -i 'o2\|warning' "$W/cap.err")"
    cat "$W/warn"

    step "$NAME: --pause, --resume, --stop"
    snap "$S.big" >/dev/null 2>"$W/err" || bad "$NAME: snapshot of big: $(cat "$W/err")"
    wait_for 30 more_reads big 0 || bad "$NAME: no read of big in 30 s"
    snap --pause >/dev/null 2>"$W/err" || bad "$NAME: --pause: $(cat "$W/err")"
    # the signal arrives, the chunk in flight ends: the count stands still for 1 s (at most 15 s
    # for that under load), then for 1.5 s more
    n1=$(still big)
    sleep 1.5
    n2=$(nreads big)
    [ "$n1" = "$n2" ] && [ "$n2" -lt $BIG ] && ok || bad "$NAME: paused, big's reads went on: $n1 then $n2 of $BIG"
    snap --resume >/dev/null 2>"$W/err" || bad "$NAME: --resume: $(cat "$W/err")"
    wait_for 20 more_reads big "$n2" || bad "$NAME: resumed, no read of big in 20 s"
    snap --stop "$S.big" >/dev/null 2>"$W/err" || bad "$NAME: --stop: $(cat "$W/err")"
    wait_for 20 grep -q "incremental snapshot of $S.big stopped" "$W/cap.err" || bad "$NAME: big not stopped: $(grep incremental "$W/cap.err")"
    n3=$(nreads big)
    echo "big's reads: $n1 when paused, $n3 when stopped (of $BIG)"
    [ "$n3" -lt $BIG ] && ok || bad "$NAME: big was read whole before its stop"
    id=$(snap --stop 2>/dev/null)
    [ "$(sql "SELECT type, data IS NULL FROM $SIG WHERE id = '$id'")" = "stop-snapshot	$TRUE" ] && ok || bad "$NAME: --stop alone: $(sql "SELECT * FROM $SIG")"
    # stopped (SIGTERM) with a snapshot under way and paused: said at the stop, with its rows
    # (under load the pause can come after big's last chunk: then a new signal, at most 3 times)
    local try done0
    for try in 1 2 3; do
        done0=$(grep -c "incremental snapshot of $S.big completed" "$W/cap.err")
        snap "$S.big" >/dev/null 2>"$W/err" || bad "$NAME: snapshot of big again: $(cat "$W/err")"
        wait_for 30 more_reads big "$n3" || bad "$NAME: no read of big in 30 s after its new signal"
        snap --pause >/dev/null 2>"$W/err" || bad "$NAME: --pause (2): $(cat "$W/err")"
        still big >/dev/null
        [ "$(grep -c "incremental snapshot of $S.big completed" "$W/cap.err")" = "$done0" ] && break
        echo "$NAME: big's snapshot completed before the pause (try $try): once more"
        snap --resume >/dev/null 2>"$W/err" || bad "$NAME: --resume (2): $(cat "$W/err")"
        n3=$(nreads big)
    done
    kill -TERM $CAP
    wait $CAP
    CAP=
    grep -Eq "^rowcast: stopped before the incremental snapshot finished: $S\.big \(([0-9]+ of ~)?[0-9]+ rows read\) \(paused\); the next run from the same state resumes it \(at most one chunk read again\)$" "$W/cap.err" &&
        ok || bad "$NAME: the stop did not say big's snapshot is unfinished: $(grep -i 'stopp\|snapshot' "$W/cap.err")"
    grep -v "additional-conditions filter \"$BADF\"" "$W/cap.err" | grep -q '^FAIL\|error' && bad "$NAME: the capture said: $(cat "$W/cap.err")"
}

# ---- PostgreSQL ----
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
trap 'kill ${CAP:-} 2>/dev/null; pg_test_stop' EXIT
NAME=postgres URL=$PG_URL S=public SIGOPT=postgres.signal.table=public.rowcast_signal KIND=schemas TRUE=t
DOWN=postgres://u@127.0.0.1:1/db
CAPOPTS=(-o postgres.snapshot.chunk.rows=5) # big (50,000 rows) in ~10,000 chunks: seconds enough for a signal to land under load
CREATE="CREATE TABLE public.rowcast_signal (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)"
sql() { pg_test_sql -F $'\t' -c "$1"; }
sql "CREATE TABLE o1 (id int PRIMARY KEY, v text); INSERT INTO o1 SELECT g, 'a' || g FROM generate_series(1, 300) g;
     CREATE TABLE o2 (id int PRIMARY KEY, v text); INSERT INTO o2 SELECT g * 7, 'b' FROM generate_series(1, 200) g;
     CREATE TABLE big (id int PRIMARY KEY, v text); INSERT INTO big SELECT g, 'c' FROM generate_series(1, $BIG) g;
     CREATE TABLE mark (id int PRIMARY KEY)"
one_server
pg_test_stop
pg_pass=$pass pg_fail=$fail

# ---- MariaDB ----
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1
. "$HERE/../common/check.sh"
pass=$pg_pass fail=$pg_fail
trap 'kill ${CAP:-} 2>/dev/null; my_test_stop' EXIT
my_sql -e 'CREATE DATABASE shop'
NAME=mariadb URL=$MY_URL/shop S=shop SIGOPT=mysql.signal.table=shop.rowcast_signal KIND=databases TRUE=1
DOWN=mysql://u@127.0.0.1:1/db
CAPOPTS=(-o mysql.snapshot.chunk.rows=20 --server-id 77)
CREATE="CREATE TABLE shop.rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB"
sql() { my_sql shop -e "$1"; }
sql "CREATE TABLE o1 (id int PRIMARY KEY, v text); INSERT INTO o1 SELECT seq, CONCAT('a', seq) FROM seq_1_to_300;
     CREATE TABLE o2 (id int PRIMARY KEY, v text); INSERT INTO o2 SELECT seq * 7, 'b' FROM seq_1_to_200;
     CREATE TABLE big (id int PRIMARY KEY, v text); INSERT INTO big SELECT seq, 'c' FROM seq_1_to_$BIG;
     CREATE TABLE mark (id int PRIMARY KEY)"
one_server

echo "snapshot_cmd: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
