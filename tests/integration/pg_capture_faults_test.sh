#!/usr/bin/env bash
# rowcast capture postgres:// under faults, against a throwaway PostgreSQL 15 (pg_lib.sh) and
# the Kafka mock cluster (kafka_lib.sh; its own process on loopback), each started once:
#  1. kill -9 of a capture to Kafka (upstream Debezium, a table of 20,000 rows and a writer)
#     (a) during the snapshot, (b) in the middle of a 20,000-row transaction, (c) between
#     transactions; after each a rerun with --until caught-up, and the whole topic replayed
#     (cdc_replay.awk: every change there, order per key, duplicates only at or after the
#     slot's confirmed_flush_lsn when the rerun started, no gap, no overlap) must rebuild the
#     table exactly as SELECT shows it;
#  2. Kafka unreachable (every broker down) while capturing: the slot's confirmed_flush_lsn
#     stays before the end of the first transaction written after, while rowcast has received
#     it; the brokers back, the changes arrive and the slot moves on;
#  3. PostgreSQL restarted while capturing to a file (native): rowcast says so, reconnects,
#     goes on, and the file replays to the table;
#  4. an idle captured table while a table outside the publication changes heavily: the
#     slot's restart_lsn and confirmed_flush_lsn advance (bounded wait); with
#     -o postgres.heartbeat.interval=1 also when nothing changes at all;
#  5. snapshot handover under load: a writer inserts, updates and deletes while the capture
#     starts with --snapshot initial; the file (native) replays to the table with no change
#     missing and none twice.
# A fault or a kill comes when the test observes its point (records in Kafka, slots in
# pg_replication_slots, what rowcast said), never after a fixed sleep.
# usage: pg_capture_faults_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/kafka_lib.sh"
# keepalives every 2.5 s (half of it): idle slots are acknowledged soon after the WAL moves
pg_test_start "wal_sender_timeout = 5s" || exit 1
mock_start "$MOCK" "$W" 3 || exit 1
trap 'stop_writer; mock_stop; pg_test_stop' EXIT
T0=$SECONDS
N=20000

# ---- helpers ----

# lsn_of SQL: the pg_lsn the query gives, as a number ('' when there is no row)
lsn_of() { pg_test_sql -c "SELECT ($1) - '0/0'::pg_lsn"; }
slot_flush() { lsn_of "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '$1'"; }
slot_restart() { lsn_of "SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = '$1'"; }
wal_now() { lsn_of "SELECT pg_current_wal_insert_lsn()"; }
slot_exists() { [ "$(pg_test_sql -c "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '$1'")" = 1 ]; }
# flush_at_least SLOT LSN: the slot's confirmed_flush_lsn is LSN or later
flush_at_least() { local f; f=$(slot_flush "$1"); [ -n "$f" ] && [ "$f" -ge "$2" ]; }
# received_at_least SLOT LSN: the slot's walsender was told by rowcast that it has received
# the WAL up to LSN (pg_stat_replication.write_lsn: what rowcast reports as received)
received_at_least() {
    local r
    r=$(lsn_of "SELECT r.write_lsn FROM pg_stat_replication r JOIN pg_replication_slots s ON s.active_pid = r.pid
                WHERE s.slot_name = '$1'")
    [ -n "$r" ] && [ "$r" -ge "$2" ]
}
alive() { kill -0 "$1" 2>/dev/null; }
# begins FILE: how many transactions (native begin lines) FILE holds (0 before it exists)
begins() { local n; n=$(grep -c '"op":"begin"' "$1" 2>/dev/null); echo "${n:-0}"; }

# kafka_end TOPIC PARTITIONS: how many records the topic's partitions hold (end offsets)
kafka_end() {
    local p args=()
    for p in $(seq 0 $(($2 - 1))); do args+=(-t "$1:$p:-1"); done
    kcat -Q -b "$BOOTSTRAP" "${args[@]}" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
# kafka_values TOPIC: every record's value, partition by partition in offset order
kafka_values() { kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%p\t%s\n' | sort -t "$(printf '\t')" -k1,1n -s | cut -f2-; }
# slow_kafka MS: MS of round-trip time on every broker (0: none)
slow_kafka() { local b; for b in 1 2 3; do mock_cmd rtt $b "$1" || return 1; done; }

# A writer of table $1 (id, v, w): iteration i upserts key (i*7919)%K+1 (INSERT with w = 0,
# else v = i and w = w + 1), every third iteration deletes key (i*104729)%K+1, every fifth
# inserts the new key K+i; one transaction per iteration. Keys and values follow from i, so
# the writer's history is the same on every run.
writer_sql() { # TABLE K FROM [COUNT]: the statements (forever without COUNT, until $W/stop)
    local t=$1 k=$2 i=$3 end=$(($3 + ${4:-1000000000}))
    while [ $i -lt $end ] && [ ! -e "$W/stop" ]; do
        printf 'BEGIN;\nINSERT INTO %s VALUES (%d, %d, 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, w = %s.w + 1;\n' \
            "$t" $((i * 7919 % k + 1)) $i "$t"
        [ $((i % 3)) = 0 ] && printf 'DELETE FROM %s WHERE id = %d;\n' "$t" $((i * 104729 % k + 1))
        [ $((i % 5)) = 0 ] && printf 'INSERT INTO %s VALUES (%d, %d, 0);\n' "$t" $((k + i)) $i
        printf 'COMMIT;\n'
        i=$((i + 1))
        [ $((i % 50)) = 0 ] && sleep 0.02 # a steady load, not all the machine
    done
}
# busy_sql: big inserts into table busy (outside every publication) until $W/stop
busy_sql() { while [ ! -e "$W/stop" ]; do echo "INSERT INTO busy (pad) SELECT repeat('x', 200) FROM generate_series(1, 2000);"; done; }
# start_writer GENERATOR ARGS...: its statements into one psql, in the background
WRITER=
start_writer() { rm -f "$W/stop"; "$@" | pg_test_sql >/dev/null 2>>"$W/writer.err" & WRITER=$!; }
stop_writer() {
    [ -n "${WRITER:-}" ] || return 0
    touch "$W/stop"
    wait "$WRITER" 2>/dev/null
    WRITER=
}

# replay NAME FILE TABLE ACKED [NODUP [REF]]: replays FILE (cdc_replay.awk; REF: the reference
# stream) and compares the table it rebuilds with SELECT
replay() {
    local name=$1 file=$2 table=$3 ref=()
    [ -n "${6:-}" ] && ref=(pass=0 "$6")
    awk -v acked="$4" -v nodup="${5:-0}" -f "$HERE/cdc_replay.awk" "${ref[@]}" pass=1 "$file" pass=2 "$file" 2>"$W/replay.err" | sort -n >"$W/rebuilt"
    local st=${PIPESTATUS[0]}
    pg_test_sql -F ' ' -c "SELECT id, v, w FROM $table ORDER BY id" >"$W/selected"
    [ "$st" = 0 ] || { bad "$name: replay: $(grep FAIL "$W/replay.err" | head -10)"; }
    cmp -s "$W/rebuilt" "$W/selected" || {
        bad "$name: the replayed stream differs from SELECT ($(wc -l <"$W/rebuilt") rows rebuilt, $(wc -l <"$W/selected") in the table)"
        diff "$W/selected" "$W/rebuilt" | head -10 >&2
    }
    echo "$name: $(grep '^replay:' "$W/replay.err" | sed 's/^replay: //'); $(wc -l <"$W/selected") rows as SELECT has them"
}

# ---- 1. kill -9 with the Kafka sink ----
pg_test_sql -c "CREATE TABLE t (id int PRIMARY KEY, v int, w int);
                INSERT INTO t SELECT i, i, 0 FROM generate_series(1, $N) i;
                CREATE TABLE busy (id serial, pad text)" || exit 1
mock_cmd topic tk 16 || exit 1
# the reference: the same changes from a slot of their own, captured without faults (native)
cap_ref() { "$RC" capture "$PG_URL" --include public.t --slot ref --snapshot never --until caught-up -q --server r0 --sink "file:$W/ref"; }
cap_ref || exit 1
# cap_kafka RUN [ARGS...]: a capture of table t to topic tk, as run RUN (--server rRUN); in the
# background with `cap_kafka RUN ... &`, $! is rowcast itself (exec)
cap_kafka() {
    local run=$1
    shift
    exec "$RC" capture "$PG_URL" --include public.t --slot sk --to debezium -o debezium.flavor=upstream \
        -o debezium.provide.transaction.metadata=true --server "r$run" --topic tk --sink "kafka://$BOOTSTRAP/tk" "$@"
}
SLOW=(-o kafka.queue.buffering.max.messages=200) # with 50 ms round trips: a few thousand records a second
ACKED=
# rerun RUN: the catch-up run after a kill, then the whole topic replayed
rerun() {
    ACKED="$ACKED $1=$(slot_flush sk)"
    (cap_kafka "$1" --until caught-up 2>>"$W/k.err") || bad "run $1 (--until caught-up): exit $?: $(tail -3 "$W/k.err")"
    kafka_values tk >"$W/tk"
    cap_ref || bad "the reference capture failed"
}

# (a) during the snapshot: records in Kafka, but no slot sk yet
start_writer writer_sql t $N 1
slow_kafka 50 || exit 1
cap_kafka 1 "${SLOW[@]}" 2>>"$W/k.err" &
pid=$!
wait_until 60 eval '[ "$(kafka_end tk 16)" -ge 2000 ] || ! alive $pid' || bad "1a: 2000 records did not reach Kafka"
if slot_exists sk; then bad "1a: the snapshot was over before the kill (slot sk exists)"; fi
kill -KILL $pid 2>/dev/null || bad "1a: the run ended before the kill: $(tail -3 "$W/k.err")"
wait $pid 2>/dev/null
got=$(kafka_end tk 16)
[ "$got" -lt $N ] || bad "1a: $got records in Kafka at the kill: the snapshot was not interrupted"
if slot_exists sk; then bad "1a: slot sk exists after a run killed during its snapshot"; fi
stop_writer
slow_kafka 0
rerun 2
replay "1a kill -9 during the snapshot ($got records in Kafka, no slot)" "$W/tk" t "$ACKED" 0 "$W/ref"

# (b) in the middle of a transaction of 20,000 rows: some of its records in Kafka, its commit
# not acknowledged
slow_kafka 50
cap_kafka 3 "${SLOW[@]}" 2>>"$W/k.err" &
pid=$!
wait_until 30 received_at_least sk 0 # streaming
before=$(kafka_end tk 16)
txid=$(pg_test_sql -c "BEGIN; UPDATE t SET v = -v, w = w + 1; SELECT txid_current(); COMMIT;")
end_b=$(wal_now)
wait_until 60 eval '[ "$(kafka_end tk 16)" -ge $((before + 2000)) ] || ! alive $pid' || bad "1b: the transaction's records did not reach Kafka"
flush_at_least sk "$end_b" && bad "1b: the slot passed the transaction before the kill"
kill -KILL $pid 2>/dev/null || bad "1b: the run ended before the kill: $(tail -3 "$W/k.err")"
wait $pid 2>/dev/null
rows=$(pg_test_sql -c "SELECT count(*) FROM t")
inkafka=$(kafka_values tk | grep -c "\"txId\":$txid,")
[ "$inkafka" -gt 0 ] && [ "$inkafka" -lt "$rows" ] || bad "1b: $inkafka of the $rows records of txid $txid were in Kafka at the kill, want some, not all"
flush_at_least sk "$end_b" && bad "1b: the slot passed the transaction (killed mid-transaction)"
slow_kafka 0
rerun 4
replay "1b kill -9 mid-transaction ($inkafka of $rows records of txid $txid in Kafka)" "$W/tk" t "$ACKED" 0 "$W/ref"

# (c) between transactions: the writer's transactions delivered, the slot past them, nothing
# in flight
cap_kafka 5 2>>"$W/k.err" &
pid=$!
# shellcheck disable=SC2034 # read by the eval below
before=$(kafka_end tk 16)
start_writer writer_sql t $N 100000
wait_until 60 eval '[ "$(kafka_end tk 16)" -ge $((before + 300)) ] || ! alive $pid' || bad "1c: the writer's changes did not reach Kafka"
stop_writer
end_c=$(wal_now)
wait_until 30 flush_at_least sk "$end_c" || bad "1c: the slot did not pass the writer's last transaction"
kill -KILL $pid 2>/dev/null || bad "1c: the run ended before the kill: $(tail -3 "$W/k.err")"
wait $pid 2>/dev/null
writer_sql t $N 200000 200 | pg_test_sql >/dev/null # changes while nobody captures
rerun 6
replay "1c kill -9 between transactions" "$W/tk" t "$ACKED" 0 "$W/ref"

# ---- 2. Kafka unreachable ----
ACKED="$ACKED 7=$(slot_flush sk)"
cap_kafka 7 2>>"$W/k.err" &
pid=$!
pg_test_sql -c "UPDATE t SET v = 7, w = w + 1 WHERE id = 2"
end0=$(wal_now)
wait_until 30 flush_at_least sk "$end0" || bad "2: the first change was not acknowledged"
mock_cmd down 1 && mock_cmd down 2 && mock_cmd down 3 || bad "2: brokers down"
# the first transaction after: its end is where the WAL insert position is right after it.
# Two -c, two transactions: in one -c string psql runs both statements as one transaction, so
# the position was read before its commit, and an idle keepalive acknowledged (safe: the
# transaction is decoded again from its start) could pass it (a flake seen under load)
first_end=$(pg_test_sql -c "UPDATE t SET v = 8, w = w + 1 WHERE id = 3" -c "SELECT pg_current_wal_insert_lsn() - '0/0'")
writer_sql t $N 300000 100 | pg_test_sql >/dev/null
end2=$(wal_now)
# rowcast has all of it (it says so in its status updates) and cannot deliver it
wait_until 30 received_at_least sk "$end2" || bad "2: rowcast did not receive the changes"
flush=$(slot_flush sk)
[ "$flush" -lt "$first_end" ] || bad "2: confirmed_flush_lsn $flush passed the first undelivered transaction (ending at $first_end)"
# ... and a status update later still not
pg_test_sql -c "SELECT pg_logical_emit_message(false, 'test', 'x')" >/dev/null
wait_until 30 received_at_least sk "$(wal_now)" || bad "2: rowcast stopped reading"
flush2=$(slot_flush sk)
[ "$flush2" -lt "$first_end" ] || bad "2: confirmed_flush_lsn $flush2 passed the first undelivered transaction (ending at $first_end) later"
mock_cmd up 1 && mock_cmd up 2 && mock_cmd up 3 || bad "2: brokers up"
wait_until 60 flush_at_least sk "$end2" || bad "2: the changes were not delivered once Kafka was back"
alive $pid || bad "2: rowcast ended: $(tail -3 "$W/k.err")"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || bad "2: SIGTERM: exit $st, want 143"
kafka_values tk >"$W/tk"
cap_ref || bad "the reference capture failed"
replay "2 Kafka unreachable (slot at $flush, $flush2 < first undelivered end $first_end)" "$W/tk" t "$ACKED" 0 "$W/ref"

echo "Kafka part: $((SECONDS - T0)) s ($(grep -c "is active for PID" "$W/k.err") retries of a slot still held by a killed run's WAL sender)"

# ---- 3. PostgreSQL restarted while capturing (file sink, native) ----
T1=$SECONDS
pg_test_sql -c "CREATE TABLE t3 (id int PRIMARY KEY, v int, w int); INSERT INTO t3 SELECT i, i, 0 FROM generate_series(1, 2000) i" || exit 1
"$RC" capture "$PG_URL" --include public.t3 --publication p3 --slot s3 --server r1 --sink "file:$W/f3" 2>"$W/f3.err" &
pid=$!
start_writer writer_sql t3 2000 1
wait_until 60 eval '[ "$(begins "$W/f3")" -ge 100 ] || ! alive $pid' || bad "3: the writer's changes did not arrive"
flush_before=$(slot_flush s3)
pg_test_restart || bad "3: the restart failed"
stop_writer # its session died with the restart
wait_until 60 grep -q "reconnecting in .* ms (resuming after LSN" "$W/f3.err" || bad "3: rowcast did not say it lost the connection: $(cat "$W/f3.err")"
wait_until 60 grep -q "replication from .* resumed" "$W/f3.err" || bad "3: rowcast did not say it reconnected: $(cat "$W/f3.err")"
writer_sql t3 2000 50000 300 | pg_test_sql >/dev/null
end3=$(wal_now)
wait_until 60 flush_at_least s3 "$end3" || bad "3: the changes after the restart were not acknowledged"
alive $pid || bad "3: rowcast ended: $(tail -3 "$W/f3.err")"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || bad "3: SIGTERM: exit $st, want 143: $(tail -3 "$W/f3.err")"
replay "3 PostgreSQL restart ($(grep -c 'reconnecting in' "$W/f3.err") reconnection(s))" "$W/f3" t3 "1=$flush_before"
echo "PostgreSQL restart part: $((SECONDS - T1)) s"

# ---- 4. idle captured table, busy server ----
T1=$SECONDS
pg_test_sql -c "CREATE TABLE idle_t (id int PRIMARY KEY)" || exit 1
# cap_idle ARGS...: a capture of the idle table (slot s4) in the background; $! is rowcast
cap_idle() { exec "$RC" capture "$1" --include public.idle_t --publication p4 --slot s4 --sink "file:$W/f4" "${@:2}" 2>>"$W/f4.err"; }
# sender_of SLOT: "PID AGE" of the WAL sender that serves the slot (AGE: seconds since it started)
sender_of() {
    pg_test_sql -F ' ' -c "SELECT r.pid, extract(epoch FROM now() - r.backend_start)::int FROM pg_stat_replication r
                            JOIN pg_replication_slots s ON s.active_pid = r.pid WHERE s.slot_name = '$1'"
}
stop_idle() {
    kill -TERM $pid
    wait $pid
    local st=$?
    [ $st = 143 ] || bad "4: $1: SIGTERM: exit $st, want 143: $(tail -3 "$W/f4.err")"
}
# (a) with the server's default wal_sender_timeout (60 s: keepalives only when the WAL sender
# has sent more than the client reported)
cap_idle "$PG_URL?options=-c%20wal_sender_timeout%3D60s" --snapshot never &
pid=$!
wait_until 30 received_at_least s4 0 || bad "4: the capture did not start: $(cat "$W/f4.err")"
r0=$(slot_restart s4) c0=$(slot_flush s4)
start_writer busy_sql
wait_until 60 eval '[ "$(wal_now)" -ge $((c0 + 32 * 1024 * 1024)) ]' || bad "4: the busy table did not write 32 MB of WAL"
l4=$(wal_now)
t4=$SECONDS
# confirmed_flush_lsn: the keepalive after the WAL; restart_lsn: also needs the server's next
# running-transactions record (every 15 s while the WAL moves), decoded and then confirmed
wait_until 30 flush_at_least s4 "$l4" || bad "4: idle table: confirmed_flush_lsn $(slot_flush s4) did not reach $l4 within 30 s"
t4f=$((SECONDS - t4))
wait_until 45 eval '[ "$(slot_restart s4)" -gt $r0 ]' || bad "4: idle table: restart_lsn stayed at $r0 for 45 s"
echo "4a: idle table, $(((l4 - c0) / 1048576)) MB of WAL for another table: confirmed_flush_lsn past it within $t4f s, restart_lsn advanced within $((SECONDS - t4)) s"
stop_writer
stop_idle "busy server"
# (b) nothing changes; wal_sender_timeout 5 s: the server asks for a reply after 2.5 s and ends
# the stream of a client that does not answer within 5 s (rowcast's own status comes every 10 s)
cap_idle "$PG_URL" &
pid=$!
wait_until 30 received_at_least s4 0 || bad "4: the capture did not start: $(cat "$W/f4.err")"
sender=$(sender_of s4)
wait_until 30 eval '[ "$(sender_of s4 | cut -d" " -f2)" -ge 8 ]' || bad "4: the WAL sender did not live 8 s"
[ "$(sender_of s4 | cut -d" " -f1)" = "${sender%% *}" ] || bad "4: the WAL sender changed: $sender, now $(sender_of s4)"
grep -q "reconnecting in" "$W/f4.err" && bad "4: the idle capture lost its connection: $(grep "reconnecting in" "$W/f4.err" | head -2)"
echo "4b: nothing changes: one WAL sender for $(sender_of s4 | cut -d" " -f2) s (wal_sender_timeout 5 s): keepalives answered"
stop_idle "keepalives"
# (c) nothing changes: the heartbeat's logical messages move the slot
cap_idle "$PG_URL" -o postgres.heartbeat.interval=1 &
pid=$!
t4=$SECONDS
for k in 1 2; do
    l4=$(wal_now)
    wait_until 20 eval 'flush_at_least s4 $((l4 + 1))' || bad "4: heartbeat: confirmed_flush_lsn did not pass $l4 (time $k)"
done
echo "4c: nothing changes, -o postgres.heartbeat.interval=1: confirmed_flush_lsn moved past the end of WAL twice in $((SECONDS - t4)) s"
stop_idle "heartbeat"
[ -s "$W/f4" ] && bad "4: the idle table's capture wrote: $(head -c 300 "$W/f4")"
echo "idle table part: $((SECONDS - T1)) s"

# ---- 5. snapshot handover under load (file sink, native) ----
T1=$SECONDS
pg_test_sql -c "CREATE TABLE t5 (id int PRIMARY KEY, v int, w int); INSERT INTO t5 SELECT i, i, 0 FROM generate_series(1, $N) i" || exit 1
start_writer writer_sql t5 $N 1
wait_until 30 eval '[ "$(pg_test_sql -c "SELECT count(*) FROM t5 WHERE w > 0")" -ge 20 ]' || bad "5: the writer did not start"
"$RC" capture "$PG_URL" --include public.t5 --publication p5 --slot s5 --server r1 --sink "file:$W/f5" 2>"$W/f5.err" &
pid=$!
wait_until 60 eval 'grep -q "snapshot of 1 table " "$W/f5.err" && [ "$(begins "$W/f5")" -ge 200 ] || ! alive $pid' ||
    bad "5: the snapshot and 200 transactions after it did not arrive"
stop_writer
end5=$(wal_now)
wait_until 60 flush_at_least s5 "$end5" || bad "5: the writer's last transactions were not acknowledged"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || bad "5: SIGTERM: exit $st, want 143: $(tail -3 "$W/f5.err")"
writer_sql t5 $N 100000 200 | pg_test_sql >/dev/null
"$RC" capture "$PG_URL" --include public.t5 --publication p5 --slot s5 --server r2 --until caught-up --sink "file:$W/f5" 2>>"$W/f5.err" ||
    bad "5: the --until caught-up run: exit $?: $(tail -3 "$W/f5.err")"
replay "5 snapshot handover under load ($(grep -c '"op":"read"' "$W/f5") reads, $(grep -c '"op":"begin"' "$W/f5") transactions)" "$W/f5" t5 "" 1
echo "handover part: $((SECONDS - T1)) s"
[ "$fail" = 0 ] && echo "pg_capture_faults: all passed"
exit "$fail"
