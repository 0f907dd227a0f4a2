#!/usr/bin/env bash
# rowcast capture mysql:// under faults, against one throwaway MariaDB 10.11 (mariadb_lib.sh)
# and the Kafka mock cluster (kafka_lib.sh), each started once. Table d.t (id, v, w) of 20,000
# rows, captured to native on topic tk with --checkpoint; after the faults the whole topic is
# replayed (my_replay.awk: every change the database made, the same, order per key, duplicates
# only of transactions at or after the checkpoint a run started from, no gap, no overlap) and
# must rebuild the table as SELECT shows it. The reference is the binlog captured without
# faults (--start earliest).
#  1a. kill -9 during the snapshot (records in Kafka, no checkpoint yet): the next run takes the
#      snapshot again;
#  1b. kill -9 in the middle of a 20,000-row transaction (some of its rows in Kafka): the
#      checkpoint is at or before the transaction's start, never inside it; the next run starts
#      at its first row, and its rows come again, none missing;
#  1c. kill -9 between transactions (the checkpoint at the end of the binlog), with binlog
#      rotations (FLUSH BINARY LOGS) in the middle of the stream (libmariadb 3.3 fails on the
#      event after a real ROTATE: the stream went on at the next file, seen failing before);
#  2.  every Kafka broker down: the checkpoint stays before the first undelivered transaction,
#      then moves on once they are back;
#  3.  MariaDB restarted while capturing: rowcast says so, reconnects, nothing lost (the old
#      binlog ends in a STOP event, after which libmariadb fails on the ROTATE to the new
#      one: the stream goes on at the next file, seen failing before);
#  4.  a purged binlog: a resume from an old checkpoint is refused with the exact message,
#      naming the position asked and the server's oldest binlog.
# A kill or a fault comes when the test observes its point (records in Kafka, the checkpoint
# file, SHOW MASTER STATUS, what rowcast said), never after a fixed sleep.
# usage: my_capture_faults_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
my_test_start || exit 1
mock_start "$MOCK" "$W" 3 || exit 1
trap 'stop_writer; mock_stop; my_test_stop' EXIT
N=20000
CK=$W/ck

alive() { kill -0 "$1" 2>/dev/null; }
wait_until() { # SECONDS COMMAND...: true once COMMAND is
    local end=$((SECONDS + $1))
    shift
    until "$@"; do [ $SECONDS -lt $end ] || return 1; nap 0.05; done
}
kafka_end() {
    local p args=()
    for p in $(seq 0 15); do args+=(-t "tk:$p:-1"); done
    kcat -Q -b "$BOOTSTRAP" "${args[@]}" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
kafka_values() { kcat -C -b "$BOOTSTRAP" -t tk -o beginning -e -q -f '%p\t%s\n' | sort -t "$(printf '\t')" -k1,1n -s | cut -f2-; }
slow_kafka() { local b; for b in 1 2 3; do mock_cmd rtt $b "$1" || return 1; done; }
# the checkpoint's position, FILE:OFFSET ('' without one); the binlog's end now
ck_pos() { [ -s "${1:-$CK}" ] && awk '$1 == "file" { f = $2 } $1 == "offset" { print f ":" $2; exit }' "${1:-$CK}"; }
binlog_end() { my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }'; }
# pos_num FILE:OFFSET: as one number, comparable
pos_num() { local f=${1%%:*}; echo $(((10#${f##*.} << 32) + ${1##*:})); }
ck_at_least() { local c; c=$(ck_pos) && [ -n "$c" ] && [ "$(pos_num "$c")" -ge "$(pos_num "$1")" ]; }

# the writer: iteration i upserts key (i*7919)%K+1, every third deletes key (i*104729)%K+1,
# every fifth inserts key K+i; a transaction each
writer_sql() { # K FROM COUNT
    local k=$1 i=$2 end=$(($2 + $3))
    while [ $i -lt $end ] && [ ! -e "$W/stop" ]; do
        printf 'BEGIN;\nINSERT INTO d.t VALUES (%d, %d, 0) ON DUPLICATE KEY UPDATE v = VALUES(v), w = w + 1;\n' $((i * 7919 % k + 1)) $i
        [ $((i % 3)) = 0 ] && printf 'DELETE FROM d.t WHERE id = %d;\n' $((i * 104729 % k + 1))
        [ $((i % 5)) = 0 ] && printf 'INSERT INTO d.t VALUES (%d, %d, 0);\n' $((k + i)) $i
        printf 'COMMIT;\n'
        i=$((i + 1))
    done
}
WRITER=
start_writer() { rm -f "$W/stop"; writer_sql "$@" | my_sql 2>>"$W/writer.err" & WRITER=$!; }
stop_writer() { [ -n "${WRITER:-}" ] || return 0; touch "$W/stop"; wait "$WRITER" 2>/dev/null; WRITER=; }

# cap RUN [ARGS...]: a capture of d.t to topic tk as run RUN (--server rRUN); in the background
# with `cap RUN ... &`, $! is rowcast itself (exec); what it says in $W/kRUN.err
cap() {
    local run=$1
    shift
    exec "$RC" capture "$MY_URL/d" --include d.t --checkpoint "$CK" --server "r$run" --to debezium -o debezium.flavor=upstream \
        --topic tk --sink "kafka://$BOOTSTRAP/tk" "$@" 2>>"$W/k$run.err"
}
ACKED=
rerun() { # RUN: the catch-up run after a kill (the checkpoint's position noted for the replay)
    [ -s "$CK" ] && ACKED="$ACKED $1=$(ck_pos)"
    (cap "$1" --until caught-up) || bad "run $1 (--until caught-up): exit $?: $(tail -3 "$W/k$1.err")"
}
replay() { # NAME
    "$RC" capture "$MY_URL/d" --include d.t --snapshot never --start earliest --until caught-up -q --server r0 \
        --sink "file:$W/ref" 2>"$W/ref.err" || bad "$1: the reference capture: exit $?: $(tail -3 "$W/ref.err")"
    kafka_values >"$W/tk"
    awk -v acked="$ACKED" -f "$HERE/my_replay.awk" pass=0 "$W/ref" pass=1 "$W/tk" pass=2 "$W/tk" 2>"$W/replay.err" | sort -n >"$W/rebuilt"
    local st=${PIPESTATUS[0]}
    rm -f "$W/ref"
    my_sql -e 'SELECT id, v, w FROM d.t ORDER BY id' | tr '\t' ' ' >"$W/selected"
    [ "$st" = 0 ] || bad "$1: replay: $(grep FAIL "$W/replay.err" | head -10)"
    cmp -s "$W/rebuilt" "$W/selected" || {
        bad "$1: the replayed stream differs from SELECT ($(wc -l <"$W/rebuilt") rows rebuilt, $(wc -l <"$W/selected") in the table)"
        diff "$W/selected" "$W/rebuilt" | head -10 >&2
    }
    echo "$1: $(grep '^replay:' "$W/replay.err" | sed 's/^replay: //'); $(wc -l <"$W/selected") rows as SELECT has them"
}

my_sql -e "CREATE DATABASE d; CREATE TABLE d.t (id int PRIMARY KEY, v int, w int);
           INSERT INTO d.t SELECT seq, seq, 0 FROM d.seq_1_to_$N" || exit 1
mock_cmd topic tk 16 || exit 1
SLOW=(-o kafka.queue.buffering.max.messages=200) # with 50 ms round trips: a few thousand records a second

# ---- 1a. during the snapshot: records in Kafka, no checkpoint ----
slow_kafka 50 || exit 1
cap 1 "${SLOW[@]}" &
pid=$!
wait_until 60 eval '[ "$(kafka_end)" -ge 2000 ] || ! alive $pid' || bad "1a: 2000 records did not reach Kafka"
[ -e "$CK" ] && bad "1a: the snapshot was over before the kill (a checkpoint exists)"
kill -KILL $pid 2>/dev/null || bad "1a: the run ended before the kill: $(tail -3 "$W/k1.err")"
wait $pid 2>/dev/null
got=$(kafka_end)
[ "$got" -lt $N ] || bad "1a: $got records in Kafka at the kill: the snapshot was not interrupted"
[ -e "$CK" ] && bad "1a: a checkpoint after a run killed during its snapshot: $(ck_pos)"
slow_kafka 0
rerun 2
cp "$CK" "$W/ck.first" # for 4, a checkpoint in the first binlog
replay "1a kill -9 during the snapshot ($got records in Kafka, no checkpoint)"

# ---- 1b. in the middle of a transaction of 20,000 rows ----
slow_kafka 50
cap 3 "${SLOW[@]}" &
pid=$!
wait_until 30 grep -q "resuming from checkpoint" "$W/k3.err" || bad "1b: the run did not resume"
before=$(kafka_end)
tx_start=$(binlog_end)
tx_gtid=$(my_sql -e "UPDATE d.t SET v = -v, w = w + 1; SELECT @@last_gtid")
tx_end=$(binlog_end)
wait_until 60 eval '[ "$(kafka_end)" -ge $((before + 2000)) ] || ! alive $pid' || bad "1b: the transaction's records did not reach Kafka"
ck_b=$(ck_pos)
kill -KILL $pid 2>/dev/null || bad "1b: the run ended before the kill: $(tail -3 "$W/k3.err")"
wait $pid 2>/dev/null
inkafka=$(kafka_values | grep -c '"name":"r3".*"op":"u"')
[ "$inkafka" -gt 0 ] && [ "$inkafka" -lt $N ] || bad "1b: $inkafka of the transaction's $N rows in Kafka at the kill, want some, not all"
[ "$(pos_num "$ck_b")" -le "$(pos_num "$tx_start")" ] ||
    bad "1b: the checkpoint $ck_b is inside the transaction $tx_start..$tx_end"
slow_kafka 0
rerun 4
# run 4's first change, in Kafka order of partition 0 (a key's changes come in order; the
# first row of the transaction's first rows event is key 1)
tx_first=$(kafka_values | grep '"gtid":"'"$tx_gtid"'"' | grep -o '"pos":[0-9]*' | cut -d: -f2 | sort -n | head -1)
first4=$(kafka_values | grep '"name":"r4"' | grep -m1 '"after":{"id":1,')
case $first4 in *'"pos":'"${tx_first:-x}"',"row":0,'*) ;; *) bad "1b: run 4 did not start at the transaction's first row (at $tx_first): ${first4:0:400}" ;; esac
replay "1b kill -9 mid-transaction ($inkafka of its $N rows in Kafka, checkpoint $ck_b, transaction $tx_start..$tx_end)"

# ---- 1c. between transactions, binlog rotations mid-stream ----
cap 5 &
pid=$!
writer_sql $N 1 100 | my_sql
my_sql -e 'FLUSH BINARY LOGS'
writer_sql $N 101 100 | my_sql
my_sql -e 'FLUSH BINARY LOGS'
writer_sql $N 201 100 | my_sql
end_c=$(binlog_end)
wait_until 60 ck_at_least "$end_c" || bad "1c: the checkpoint $(ck_pos) did not reach $end_c (after two rotations): $(tail -3 "$W/k5.err")"
kill -KILL $pid 2>/dev/null || bad "1c: the run ended before the kill: $(tail -3 "$W/k5.err")"
wait $pid 2>/dev/null
writer_sql $N 301 100 | my_sql # while nobody captures
rerun 6
replay "1c kill -9 between transactions, two rotations (checkpoint at $end_c)"

# ---- 2. every broker down ----
ACKED="$ACKED 7=$(ck_pos)"
cap 7 &
pid=$!
my_sql -e "UPDATE d.t SET v = 7, w = w + 1 WHERE id = 2"
e0=$(binlog_end)
wait_until 30 ck_at_least "$e0" || bad "2: the first change was not acknowledged"
mock_cmd down 1 && mock_cmd down 2 && mock_cmd down 3 || bad "2: brokers down"
first_start=$(binlog_end)
my_sql -e "UPDATE d.t SET v = 8, w = w + 1 WHERE id = 3"
writer_sql $N 401 100 | my_sql
e2=$(binlog_end)
# rowcast has read it all (its dump thread is at the binlog's end) and cannot deliver it
dump_at_end() { my_sql -e 'SHOW PROCESSLIST' | grep -q 'Master has sent all binlog to slave'; }
wait_until 30 dump_at_end || bad "2: rowcast did not read the binlog to its end"
c2=$(ck_pos)
[ "$(pos_num "$c2")" -le "$(pos_num "$first_start")" ] || bad "2: the checkpoint $c2 passed the first undelivered transaction (at $first_start)"
mock_cmd up 1 && mock_cmd up 2 && mock_cmd up 3 || bad "2: brokers up"
wait_until 60 ck_at_least "$e2" || bad "2: the checkpoint did not reach $e2 once Kafka was back"
alive $pid || bad "2: rowcast ended: $(tail -3 "$W/k7.err")"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || bad "2: SIGTERM: exit $st, want 143"
replay "2 Kafka unreachable (the checkpoint at $c2 <= $first_start, the first undelivered transaction)"

# ---- 3. MariaDB restarted while capturing ----
ACKED="$ACKED 8=$(ck_pos)"
cap 8 &
pid=$!
wait_until 30 grep -q "resuming from checkpoint" "$W/k8.err" || bad "3: the run did not resume"
writer_sql $N 501 100 | my_sql
wait_until 30 ck_at_least "$(binlog_end)" || bad "3: the writes before the restart were not acknowledged"
ACKED="${ACKED% 8=*} 8=$(ck_pos)" # a run that reconnects resends from its checkpoint at most
my_test_kill TERM
my_test_restart || bad "3: the restart failed"
wait_until 60 grep -q "reconnecting in .* ms (resuming at" "$W/k8.err" || bad "3: rowcast did not say it lost the connection: $(cat "$W/k8.err")"
writer_sql $N 601 100 | my_sql
e3=$(binlog_end)
wait_until 60 grep -q "binlog stream from .* resumed" "$W/k8.err" || bad "3: rowcast did not say it reconnected: $(cat "$W/k8.err")"
wait_until 60 ck_at_least "$e3" || bad "3: the changes after the restart were not acknowledged ($(ck_pos), want $e3)"
alive $pid || bad "3: rowcast ended: $(tail -3 "$W/k8.err")"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || bad "3: SIGTERM: exit $st, want 143"
replay "3 MariaDB restart ($(grep -c 'reconnecting in' "$W/k8.err") reconnection(s))"

# ---- 4. a purged binlog ----
my_sql -e 'FLUSH BINARY LOGS'
last=$(binlog_end)
my_sql -e "PURGE BINARY LOGS TO '${last%%:*}'"
oldest=$(my_sql -e 'SHOW BINARY LOGS' | head -1 | cut -f1)
[ "$oldest" = "${last%%:*}" ] || bad "4: PURGE left $oldest as the oldest binlog, want ${last%%:*}"
old=$(ck_pos "$W/ck.first")
og=$(awk '$1 == "gtids" { print $2 }' "$W/ck.first")
cp "$W/ck.first" "$W/ck.old"
out=$("$RC" capture "$MY_URL/d" --include d.t --checkpoint "$W/ck.old" --server-id 77 --sink "file:$W/f4" 2>&1)
st=$?
want="rowcast: binlog stream from $MY_URL/d: error 1236: Could not find GTID state requested by slave in any binlog files. Probably the slave state is too old and required binlog files have been purged. (asked: $old, GTID $og; the server's oldest binlog is $oldest): the changes in between are lost to this capture; remove the checkpoint and capture again with a snapshot"
got=$(printf '%s\n' "$out" | grep -v "resuming from checkpoint\|^rowcast: [0-9.]* s\|messages\|events decoded")
[ "$got" = "$want" ] || bad "4: the purged binlog's message:
  got:  $got
  want: $want"
[ $st = 1 ] || bad "4: exit $st, want 1"
echo "4 purged binlog: exit $st: ${got:0:160}..."

[ "$fail" = 0 ] && echo "my_capture_faults: all passed"
exit "$fail"
