#!/usr/bin/env bash
# The Kafka sink's transactions (-o kafka.transactions=true, docs/design/exactly-once.md step E2)
# against librdkafka's mock cluster (its own process, TCP) and a throwaway PostgreSQL 15:
#  a. convert of a file with transactions: kcat reads back exactly the records of an
#     at-least-once run, byte for byte, in order per partition; the transactions metric counts
#     the commits; the option's refusals (no --server, kafka.transactional.id), no cluster;
#  b. a PostgreSQL capture: the slot (the capture's checkpoint) does not move past a
#     transaction's records while its commit is held at the coordinator (EndTxn answered after
#     a delay: the point is observed when the held request arrived), and moves once it commits;
#  c. fencing: a second rowcast with the same --server starts; the first is fenced (the mock
#     does not fence by itself, docs/design/exactly-once.md §7: the test injects what a broker
#     answers a fenced producer, INVALID_PRODUCER_EPOCH on AddPartitionsToTxn) and exits 4 with
#     the fenced line, and none of the lines it read after is in the topic;
#  d. retriable EndTxn and AddPartitionsToTxn errors injected: the run completes, every record
#     once;
#  e. a record refused for good (INVALID_RECORD): the transaction is aborted, exit 3 with the
#     cause, the checkpoint file not moved; a rerun completes.
# Points are observed (records in Kafka, metrics, the mock's held requests), never fixed sleeps.
# usage: kafka_txn_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/kafka_lib.sh"
pg_test_start "wal_sender_timeout = 5s" || exit 1
mock_start "$MOCK" "$W" 3 || exit 1
trap 'mock_stop; pg_test_stop' EXIT
CONV=(convert -q --to oms-canal)
TAB=$(printf '\t')

# mock_ask CMD: the mock's answer after "ok " (fails on an error answer). It counts the
# answers itself, so it may run in a subshell; mock_cmd's count is set again by mock_sync.
mock_ask() {
    local n
    n=$(($(wc -l <"$MOCK_DIR/mock.out") + 1))
    echo "$*" >&"$MOCK_FD"
    wait_until 4 eval '[ "$(wc -l <"$MOCK_DIR/mock.out")" -ge $n ]'
    local answer
    answer=$(sed -n "${n}p" "$MOCK_DIR/mock.out")
    [ "${answer%% *}" = ok ] || { echo "mock: '$*' -> ${answer:-no answer}" >&2; return 1; }
    echo "${answer#ok }"
}
mock_sync() { MOCK_ANSWERS=$(wc -l <"$MOCK_DIR/mock.out"); }
# by_partition TOPIC: partition, key, value and headers of every record, partition by
# partition in offset order (the topic's name left out, to compare two topics)
by_partition() { kcat_all "$1" | cut -f1,3- | sort -s -t "$TAB" -k1,1n; }
# metric URL NAME: the value of one sample of a scrape ('' when absent)
metric() { curl -sS --max-time 5 "$1" 2>/dev/null | awk -v n="$2" '$1 == n { print $2 }'; }
metrics_url() { wait_until 20 grep -q '^rowcast: metrics on ' "$1" && sed -n 's/^rowcast: metrics on //p' "$1"; }
alive() { kill -0 "$1" 2>/dev/null; }
# txn_on_pipe NAME TOPIC SERVER RECORDS: a transactional convert reading the pipe $W/NAME.fifo
# (the test feeds FD $FEED), its metrics at $URL, stderr in $W/NAME.err, its pid in $pid
txn_on_pipe() {
    mkfifo "$W/$1.fifo"
    "$RC" convert --to oms-canal --server "$3" --sink "kafka://$BOOTSTRAP/$2" -o kafka.transactions=true \
        -o kafka.transaction.records="$4" --metrics 127.0.0.1:0 <"$W/$1.fifo" 2>"$W/$1.err" &
    pid=$!
    exec {FEED}>"$W/$1.fifo"
    URL=$(metrics_url "$W/$1.err") || bad "$1: no metrics line: $(cat "$W/$1.err")"
}
COMMITTED='rowcast_kafka_transactions_total{result="committed"}'
ABORTED='rowcast_kafka_transactions_total{result="aborted"}'

# ---- a. a file, with and without transactions ----
awk -v N=20000 -v K=500 -f "$HERE/gen_rows.awk" >"$W/in"
mock_cmd topic alo 8 && mock_cmd topic txa 8 || exit 1
"$RC" "${CONV[@]}" --server shop --sink "kafka://$BOOTSTRAP/alo" <"$W/in" || bad "a: the at-least-once run failed"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/txa" -o kafka.transactions=true "$W/in" 2>"$W/a.err" &&
    bad "a: -o kafka.transactions=true without --server was accepted"
grep -q -- "-o kafka.transactions=true needs --server NAME" "$W/a.err" || bad "a: no --server: $(cat "$W/a.err")"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/txa" -o kafka.transactional.id=x "$W/in" 2>"$W/a.err" &&
    bad "a: -o kafka.transactional.id was accepted"
grep -q -- "-o kafka.transactional.id: rowcast names" "$W/a.err" || bad "a: transactional.id: $(cat "$W/a.err")"
"$RC" "${CONV[@]}" --server shop --flush-timeout 2 --sink "kafka://127.0.0.1:1/txa" -o kafka.transactions=true "$W/in" 2>"$W/a.err"
st=$?
[ "$st" = 3 ] && grep -q "(init_transactions): no answer within 2 s (--flush-timeout)" "$W/a.err" ||
    bad "a: no cluster: exit $st: $(cat "$W/a.err")"
# the input through a pipe kept open: the run's metrics are scraped once every record is in
txn_on_pipe a txa shop 5000
cat "$W/in" >&$FEED
wait_until 60 eval '[ "$(metric "$URL" "$COMMITTED")" = 4 ]' || bad "a: 4 commits (20,000 records, 5,000 a transaction) not counted: $(metric "$URL" "$COMMITTED")"
[ "$(metric "$URL" "$ABORTED")" = 0 ] || bad "a: aborted transactions counted"
[ "$(metric "$URL" rowcast_kafka_transaction_seconds_count)" = 4 ] || bad "a: rowcast_kafka_transaction_seconds_count is not 4"
exec {FEED}>&-
wait $pid || bad "a: the transactional run failed: exit $?: $(cat "$W/a.err")"
by_partition alo >"$W/alo"
by_partition txa >"$W/txa"
[ "$(wc -l <"$W/alo")" = 20000 ] || bad "a: the at-least-once run has $(wc -l <"$W/alo") records"
cmp -s "$W/alo" "$W/txa" || bad "a: the transactional run's records differ from the at-least-once run's: $(diff "$W/alo" "$W/txa" | head -3)"
echo "a. 20000 records in 4 transactions, as the at-least-once run wrote them"

# ---- b. a capture: the slot moves only after a commit ----
lsn_of() { pg_test_sql -c "SELECT ($1) - '0/0'::pg_lsn"; }
slot_flush() { lsn_of "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'stx'"; }
flush_at_least() { local f; f=$(slot_flush); [ -n "$f" ] && [ "$f" -ge "$1" ]; }
streaming() { [ "$(pg_test_sql -c "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'stx' AND active")" = 1 ]; }
pg_test_sql -c "CREATE TABLE t (id int PRIMARY KEY, v int)" || exit 1
mock_cmd topic tk 4 && mock_cmd coordinator transaction rowcast.pgtx 2 || exit 1
"$RC" capture "$PG_URL" --include public.t --slot stx --snapshot never --server pgtx --topic tk \
    --sink "kafka://$BOOTSTRAP/tk" -o kafka.transactions=true -o kafka.transaction.ms=200 2>"$W/b.err" &
pid=$!
wait_until 30 streaming || bad "b: the capture did not start: $(cat "$W/b.err")"
pg_test_sql -c "INSERT INTO t SELECT i, i FROM generate_series(1, 100) i"
end1=$(lsn_of "SELECT pg_current_wal_insert_lsn()")
wait_until 30 flush_at_least "$end1" || bad "b: the slot did not pass the first transaction"
# the next EndTxn the coordinator (broker 2) gets is answered after 8 s
mock_cmd hold 2 26 8000 || exit 1
pg_test_sql -c "INSERT INTO t SELECT i, i FROM generate_series(101, 300) i"
end2=$(lsn_of "SELECT pg_current_wal_insert_lsn()")
wait_until 30 eval '[ "$(mock_ask held 2 26)" = 0 ] || ! alive $pid' || bad "b: no EndTxn reached the coordinator"
mock_sync
inkafka=$(kcat_count tk)
flush=$(slot_flush)
[ "$inkafka" = 304 ] || bad "b: $inkafka records in Kafka while the commit is held, want all 304 (300 rows, 2 begins, 2 commits)"
[ "$flush" -lt "$end2" ] || bad "b: the slot (flush $flush) passed the transaction ($end2) before its commit"
wait_until 30 flush_at_least "$end2" || bad "b: the slot did not pass the transaction after its commit"
echo "b. commit held: 304 records in Kafka, slot at $flush < $end2; after the commit it passed $end2"
kill -TERM $pid
wait $pid
st=$?
[ "$st" = 143 ] || bad "b: exit $st after SIGTERM, want 143: $(tail -3 "$W/b.err")"

# ---- c. fencing ----
mock_cmd topic fx 4 || exit 1
awk -v N=20000 -v K=100 -f "$HERE/gen_rows.awk" >"$W/c.in"
txn_on_pipe c fx fx 1000
head -1000 "$W/c.in" >&$FEED
wait_until 60 eval '[ "$(metric "$URL" "$COMMITTED")" = 1 ]' || bad "c: the first 1000 lines were not committed"
# the second instance (on a real broker its init_transactions fences the first)
head -10 "$W/c.in" | "$RC" "${CONV[@]}" --server fx --sink "kafka://$BOOTSTRAP/fx2" -o kafka.transactions=true ||
    bad "c: the second instance failed"
mock_cmd err 24 1 47 || exit 1 # what the broker answers the first one now: INVALID_PRODUCER_EPOCH
# lines go on until it stops (it learns of the fence from a reply to a request of the next
# transaction, and serves replies between the lines it reads)
feed_until $FEED "$W/c.in" 1001 50 eval '! alive $pid' 2>/dev/null || bad "c: the fenced instance did not stop"
exec {FEED}>&-
wait $pid
st=$?
[ "$st" = 4 ] || bad "c: exit $st, want 4: $(cat "$W/c.err")"
grep -q "fenced: another rowcast with --server fx took over; this one stops without writing$" "$W/c.err" ||
    bad "c: no fenced line: $(cat "$W/c.err")"
kcat -C -b "$BOOTSTRAP" -t fx -o beginning -e -q -f '%s\n' | sed 's/.*"data":\[{"id":[0-9]*,"v":\([0-9]*\)}.*/\1/' | sort -n >"$W/c.got"
seq 1000 >"$W/c.want"
[ "$(wc -l <"$W/c.got")" = 1000 ] && cmp -s "$W/c.got" "$W/c.want" ||
    bad "c: the topic holds $(wc -l <"$W/c.got") records, want the 1000 lines before the fence once each"
echo "c. fenced: exit 4, the 1000 records before the fence once each, none of the lines after"

# ---- d. retriable EndTxn and AddPartitionsToTxn errors ----
mock_cmd topic txd 8 || exit 1
# EndTxn: COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS; AddPartitionsToTxn:
# CONCURRENT_TRANSACTIONS
mock_cmd err 26 6 15 16 51 && mock_cmd err 24 3 51 || exit 1
"$RC" "${CONV[@]}" --server shop --sink "kafka://$BOOTSTRAP/txd" -o kafka.transactions=true \
    -o kafka.transaction.records=2000 <"$W/in" 2>"$W/d.err" || bad "d: exit $?: $(cat "$W/d.err")"
by_partition txd >"$W/txd"
cmp -s "$W/alo" "$W/txd" || bad "d: $(wc -l <"$W/txd") records, not the at-least-once run's 20000 once each in order"
echo "d. retriable EndTxn/AddPartitionsToTxn errors: 20000 records once each, in order"

# ---- e. a record refused for good: the transaction is aborted, exit 3, no checkpoint past it ----
mock_cmd topic txe 8 && mock_cmd err 0 1 87 || exit 1 # one Produce: INVALID_RECORD
"$RC" "${CONV[@]}" --server shop --sink "kafka://$BOOTSTRAP/txe" -o kafka.transactions=true \
    -o kafka.transaction.ms=50000 --checkpoint "$W/e.ck" "$W/in" 2>"$W/e.err"
st=$?
[ "$st" = 3 ] || bad "e: exit $st, want 3: $(tail -3 "$W/e.err")"
grep -q "INVALID_RECORD); the transaction was aborted$" "$W/e.err" || bad "e: no abort line: $(cat "$W/e.err")"
[ "$(ck_line "$W/e.ck")" = 0 ] || bad "e: the checkpoint moved to line $(ck_line "$W/e.ck") without a commit"
"$RC" "${CONV[@]}" --server shop --sink "kafka://$BOOTSTRAP/txe" -o kafka.transactions=true --checkpoint "$W/e.ck" "$W/in" ||
    bad "e: the rerun failed"
[ "$(ck_line "$W/e.ck")" = 20000 ] || bad "e: the rerun's checkpoint is at line $(ck_line "$W/e.ck")"
echo "e. a refused record: exit 3, the transaction aborted, the checkpoint unmoved; the rerun completed"
exit $fail
