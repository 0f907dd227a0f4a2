#!/usr/bin/env bash
# A capture to a file is exact after a crash (issue 22 item 5): `rowcast capture --sink
# file:OUT` killed with SIGKILL at KILLS observed points and run again each time, against one
# throwaway PostgreSQL 15 (pg) or MariaDB 10.11 (my), ends with the file an uninterrupted
# capture writes, byte for byte (native; the snapshot rows' wall-clock time and consistent
# point normalised: they differ between any two snapshots; so is PostgreSQL's
# last_commit_lsn, which a session's first transaction has not).
#  - table t of 100,000 rows; kills during the snapshot (each restarts it: the file is cut
#    back to what it held before the snapshot), one where the snapshot has just been delivered
#    (PostgreSQL: the slot appears; MariaDB: the checkpoint gets a binlog position);
#  - then 10 transactions of 20,000 changes each (updates, inserts, deletes), each committed
#    while a capture runs, with one or two kills during its capture (most land inside it);
#  - a last run with --until caught-up; the file is compared with the reference's;
#  - PostgreSQL: the server restarted (its slot may go back: 15 writes confirmed_flush_lsn at
#    checkpoints only), and a run after it: the file is still the same;
#  - the file made shorter than recorded: the next run refuses it, with both sizes; PostgreSQL:
#    so is a state file of another slot, or of a slot that is gone.
# Runs alternate --threads 1 and 2.
# The reference is a capture of its own (PostgreSQL: slot ref; MariaDB: its own checkpoint)
# taken before the first change and caught up after every transaction, never killed: its
# sizes after each step are where the kills aim. A kill point is an output size the test sees
# (stat), never a sleep.
# usage: capture_file_crash_test.sh pg|pg-streaming|my ROWCAST
#        RC_CRASH_SEED=N repeats the kill points
set -u
KIND=$1 RC=$2
RC=$(cd "$(dirname "$RC")" && pwd)/$(basename "$RC")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../common/nap.sh"
N=100000 TX=10 PER=20000 KILLS=${RC_CRASH_KILLS:-20}
SNAPKILLS=$((KILLS * 2 / 5))
SEED=${RC_CRASH_SEED:-$(($(date +%s) % 100000))}
RANDOM=$SEED
echo "capture_file_crash $KIND: seed $SEED (RC_CRASH_SEED=$SEED repeats these kill points)"

if [ "$KIND" = pg ] || [ "$KIND" = pg-streaming ]; then
    # pg-streaming: protocol 2 with a small logical_decoding_work_mem, so that each transaction
    # arrives in chunks while in progress and is released in parts after its commit
    STREAMING=()
    if [ "$KIND" = pg-streaming ]; then STREAMING=(-o postgres.streaming=true) conf=(logical_decoding_work_mem=64kB); else conf=(); fi
    KIND=pg
    . "$HERE/pg_lib.sh"
    pg_test_start "${conf[@]}" || exit 1
    sql() { pg_test_sql -c "$1"; }
    sql "CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL, s text NOT NULL);
         INSERT INTO t SELECT g, g, md5(g::text) FROM generate_series(1, $N) g;" || exit 1
    # capture NAME OUT [ARGS...]: NAME is the slot (the chain's: chain; the reference's: ref)
    capture() { local name=$1 out=$2; shift 2; exec "$RC" capture "$PG_URL" --slot "$name" --include public.t --to native -q \
        --sink "file:$out" "${STREAMING[@]}" "$@" 2>>"$W/$name.err"; }
    # change J: transaction J of TX, PER changes: updates, inserts, deletes
    change() {
        local j=$1 a=$(($1 * 9000 + 1)) i=$((N + $1 * 6000))
        sql "BEGIN; UPDATE t SET v = v + 1, s = s || 'u' WHERE id BETWEEN $a AND $((a + 9999));
             INSERT INTO t SELECT g, g, md5(g::text) FROM generate_series($((i + 1)), $((i + 6000))) g;
             DELETE FROM t WHERE id BETWEEN $((a + 5000)) AND $((a + 8999)) OR id IN (SELECT g FROM generate_series($((i + 1)), $((i + 6000)), 6) g);
             COMMIT;" >/dev/null
    }
    # delivered: the chain's snapshot is delivered (its slot exists)
    delivered() { [ "$(sql "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'chain'")" = 1 ]; }
else
    . "$HERE/mariadb_lib.sh"
    my_test_start || exit 1
    sql() { my_sql -e "$1"; }
    sql "CREATE DATABASE d; CREATE DATABASE seq; CREATE TABLE d.t (id int PRIMARY KEY, v int NOT NULL, s varchar(200) NOT NULL);
         INSERT INTO d.t SELECT seq, seq, md5(seq) FROM seq.seq_1_to_$N;" || exit 1
    capture() { local name=$1 out=$2; shift 2; exec "$RC" capture "$MY_URL/d" --include d.t --checkpoint "$W/$name.ck" --to native -q \
        --sink "file:$out" "$@" 2>>"$W/$name.err"; }
    change() {
        local j=$1 a=$(($1 * 9000 + 1)) i=$((N + $1 * 6000))
        sql "BEGIN; UPDATE d.t SET v = v + 1, s = concat(s, 'u') WHERE id BETWEEN $a AND $((a + 9999));
             INSERT INTO d.t SELECT seq, seq, md5(seq) FROM seq.seq_$((i + 1))_to_$((i + 6000));
             DELETE FROM d.t WHERE id BETWEEN $((a + 5000)) AND $((a + 8999)) OR (id > $i AND id <= $((i + 6000)) AND id % 6 = $(((i + 1) % 6)));
             COMMIT;" >/dev/null
    }
    # the chain's snapshot is delivered: its checkpoint names a binlog offset
    delivered() { [ -n "$(awk '$1 == "offset" && $2 > 0' "$W/chain.ck" 2>/dev/null)" ]; }
fi
bad() { echo "FAIL: $*" >&2; fail=1; }
OUT=$W/chain.out REF=$W/ref.out
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
# the snapshot rows' time and position (each snapshot's own), and PostgreSQL's
# last_commit_lsn: the Commit before, as the stream session saw it (none in a session's first
# transaction: a restart, a crash's or not, changes it)
norm() { sed -E '/"op":"read"/{s/"ts_us":[0-9]+/"ts_us":T/;s/"(lsn|file|offset|gtid)":("[^"]*"|[0-9]+)/"\1":P/g};s/,"last_commit_lsn":"[^"]*"//' "$1"; }

# kill_at WHAT TARGET [COND [BEFORE]]: a chain run (BEFORE, a command, runs once it started),
# killed once it wrote something (so it has cut the file back) and OUT holds TARGET bytes, or
# COND holds; a run that ends by itself, or that gets nowhere in a minute, fails
kills=0
written() { local k v; { while read -r k v; do [ "$k" = wchar: ] && [ "$v" -gt 0 ] && return 0; done <"/proc/$1/io"; } 2>/dev/null; return 1; }
kill_at() {
    local what=$1 target=$2 cond=${3:-false} before=${4:-} st end=$((SECONDS + 60))
    capture chain "$OUT" --threads $((kills % 2 + 1)) & # both ways of reading: one thread, two
    local pid=$!
    [ -z "$before" ] || $before
    until written $pid || ! kill -0 $pid 2>/dev/null; do nap 0.002; done
    while [ "$(size_of "$OUT")" -lt "$target" ] && ! $cond && kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do nap 0.005; done
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    st=$?
    [ $st = 137 ] && [ $SECONDS -lt $end ] ||
        { bad "kill $((kills + 1)) ($what, at $target bytes): the run ended with status $st, or got nowhere, before its kill point"; cat "$W/chain.err" >&2; return 1; }
    kills=$((kills + 1))
    echo "kill $kills: $what, at $target bytes; $(size_of "$OUT") in the file"
}
# a point in [lo, hi) of the reference's bytes, the i-th of n slots
point() { local lo=$1 hi=$2 i=$3 n=$4 w=$((($2 - $1) / $4)); echo $((lo + w * i + (RANDOM * 32768 + RANDOM) % (w > 0 ? w : 1))); }
catch_up_ref() { ( capture ref "$REF" --until caught-up ) || bad "reference after transaction $j: exit status $?"; }

# the reference: its snapshot, before any change
( capture ref "$REF" --until caught-up ) || { bad "reference snapshot: exit status $?"; cat "$W/ref.err" >&2; exit 1; }
SNAP=$(size_of "$REF")
echo "reference snapshot: $SNAP bytes"
# kills during the snapshot (each run takes it again), then one as it is delivered
for i in $(seq 0 $((SNAPKILLS - 1))); do
    kill_at "snapshot" "$(point $((SNAP / 50)) $((SNAP * 95 / 100)) "$i" $SNAPKILLS)" delivered || exit 1
done
kill_at "snapshot delivered" $((SNAP * 100)) delivered || exit 1
# the changes: transaction j committed once a run started (the first between two runs), one
# or two kills during its capture, aimed at the bytes the previous transaction took (they are
# alike), then the reference catches up: where the next transaction starts
left=$((KILLS - SNAPKILLS - 1)) last=$SNAP est=0
for j in $(seq 0 $((TX - 1))); do
    n=$(((left + TX - 1 - j) / (TX - j)))
    if [ "$j" = 0 ] || [ "$n" = 0 ]; then change "$j" || bad "transaction $j failed"; fi # (fewer kills than transactions)
    if [ "$j" = 0 ]; then catch_up_ref; est=$(($(size_of "$REF") - last)); fi
    for k in $(seq 0 $((n - 1))); do
        kill_at "transaction $j" "$(point "$last" $((last + est * 95 / 100)) "$k" "$n")" false "$([ "$j" != 0 ] && [ "$k" = 0 ] && echo "change $j")" || exit 1
    done
    [ "$j" = 0 ] || catch_up_ref
    now=$(size_of "$REF")
    left=$((left - n)) est=$((now - last)) last=$now
done
( capture chain "$OUT" --until caught-up ) || bad "last run: exit status $?"
if cmp -s <(norm "$REF") <(norm "$OUT"); then
    echo "after $kills kills: the file equals the uninterrupted capture's ($(size_of "$OUT") bytes, $(wc -l <"$OUT") messages)"
else
    bad "after $kills kills: the file differs from the uninterrupted capture's: $(wc -l <"$OUT") messages against $(wc -l <"$REF"), $(($(wc -l <"$OUT") - $(sort -u "$OUT" | wc -l))) repeated"
    diff <(norm "$REF") <(norm "$OUT") | grep '^[<>]' | sort -s -k1,1 | awk '$1 != p { n = 0; p = $1 } n++ < 2' | cut -c 1-400 >&2
fi
[ "$kills" = "$KILLS" ] || bad "$kills kills, $KILLS expected"
# the kills left something to cut: at least half the runs after one cut the file back
cuts=$(grep -c '^rowcast: cut .* back from' "$W/chain.err")
[ "$cuts" -ge $((KILLS / 2)) ] && echo "$cuts runs cut the file back" || bad "only $cuts runs cut the file back after $KILLS kills"
if [ "$KIND" = pg ]; then # a server restart can move the slot back (15 writes it at checkpoints only)
    before=$(sql "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'chain'")
    pg_test_restart >/dev/null || bad "the server did not restart"
    after=$(sql "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'chain'")
    ( capture chain "$OUT" --until caught-up ) || bad "the run after the server's restart: exit status $?"
    cmp -s <(norm "$REF") <(norm "$OUT") && echo "after a server restart (slot at $before, then at $after): the file is the same" ||
        bad "after a server restart (slot at $before, then at $after): the file differs: $(wc -l <"$OUT") messages against $(wc -l <"$REF")"
fi
# a file shorter than its store recorded: refused, naming the file and both sizes, untouched
if [ "$KIND" = pg ]; then noun="state file" store=$OUT.rowcast-state; else noun=checkpoint store=$W/chain.ck; fi
full=$(size_of "$OUT")
head -c 1000 "$OUT" >"$W/short" && cp "$W/short" "$OUT"
( capture chain "$OUT" --until caught-up )
st=$?
want="rowcast capture: $noun $store: $OUT holds 1000 bytes, fewer than the $full bytes the $noun recorded: it was changed after the $noun was written; restore it, or delete the $noun (the capture then appends to the file as it is)"
[ $st = 1 ] && [ "$(grep -v '^rowcast: [0-9.]* s\|messages\|events decoded' "$W/chain.err" | tail -1)" = "$want" ] && cmp -s "$W/short" "$OUT" ||
    bad "a shorter file: exit $st, $(tail -1 "$W/chain.err"), want 1 and: $want"
grep -v '^rowcast: \(resuming\|cut\)\|holds 1000 bytes\|state file' "$W/chain.err" "$W/ref.err" >&2
if [ "$KIND" = pg ]; then # the state file of another slot, of a slot gone: refused, the file untouched
    cp "$W/short" "$OUT.pre"
    ( capture other "$OUT" --until caught-up )
    st=$?
    want="rowcast capture: state file $OUT.rowcast-state is slot chain's, and this run's slot is other: give --slot chain, or delete the state file to start over ($OUT is then appended to as it is)"
    [ $st = 1 ] && [ "$(tail -1 "$W/other.err")" = "$want" ] && cmp -s "$W/short" "$OUT" || bad "another slot: exit $st, $(tail -1 "$W/other.err"), want 1 and: $want"
    sql "SELECT pg_drop_replication_slot('chain')" >/dev/null
    ( capture chain "$OUT" --until caught-up )
    st=$?
    want="rowcast capture: state file $OUT.rowcast-state records positions of slot chain, which does not exist any more: $OUT holds what was captured from it; delete the state file to capture again into $OUT as it is (appended to), or give another --sink"
    [ $st = 1 ] && [ "$(tail -1 "$W/chain.err")" = "$want" ] && cmp -s "$W/short" "$OUT" || bad "a slot gone: exit $st, $(tail -1 "$W/chain.err"), want 1 and: $want"
    [ "$(sql "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'chain'")" = 0 ] || bad "a slot gone: the refused run made one"
fi
[ "$fail" = 0 ] && echo "capture_file_crash $KIND: passed"
[ "$fail" = 0 ]
