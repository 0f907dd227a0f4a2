#!/usr/bin/env bash
# The rowcast.eos header (-o kafka.order.header=true; docs/sinks.md, "Order keys"), over TCP
# against the Kafka mock cluster (kafka_lib.sh) and a throwaway PostgreSQL 15 (pg_lib.sh), read
# back with kcat -f '%h':
#  1. convert of examples/shop.ndjson (Debezium with tombstones; Canal grouped): every record has
#     the header, its keys are of one width and strictly rising per partition, and equal (per
#     partition, in order) to those of a second run of the same input; without the option no
#     record has it, and a value other than true/false is refused;
#  2. capture of PostgreSQL: transactions of several rows, deletes with tombstones, and one
#     transaction large enough to be streamed (protocol 2, logical_decoding_work_mem = 64kB):
#     captured from two slots, one streaming, the other not, the keys are the same (a streamed
#     transaction is numbered at its Stream Commit by its commit LSN), rising per partition; and
#     an incremental snapshot from a third slot while a writer updates rows: reads (kind a) and
#     changes (kind e) rising together per partition;
#  3. capture of MariaDB 10.11 (mariadb_lib.sh): a transaction of 3,000 rows (several ROWS
#     events), a binlog rotation, updates and deletes: keys rising per partition, the rows of
#     one transaction at one place (file and offset of its first event) across its events, two
#     binlog files, and equal keys from a second run (--start earliest).
# usage: kafka_order_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
pg_test_start "logical_decoding_work_mem = 64kB" || exit 1
PW=$W
my_test_start || { W=$PW; pg_test_stop; exit 1; }
trap 'mock_stop; my_test_stop; W=$PW; pg_test_stop' EXIT
mock_start "$MOCK" "$W" 3 || exit 1
export LC_ALL=C

# eos TOPIC SERVER: "PARTITION KEY" per record in offset order (MISSING when it has no
# rowcast.eos header of SERVER)
eos() {
    kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%p\t%h\n' |
        awk -F '\t' -v s="$2" '{ k = "MISSING"; n = split($2, h, ",")
                                 for (i = 1; i <= n; i++) if (h[i] ~ "^rowcast.eos=" s " ") { k = substr(h[i], length("rowcast.eos=" s " ") + 1) }
                                 print $1, k }' | sort -s -k1,1n
}
# check NAME FILE WIDTH: every record keyed, keys of WIDTH bytes, strictly rising per partition
check() {
    local out
    out=$(awk -v w="$3" '$2 == "MISSING" { print "record " NR " has no rowcast.eos header"; exit 1 }
                         length($2) != w { print "key " $2 " is not " w " bytes"; exit 1 }
                         ($1 in last) && !($2 > last[$1]) { print "partition " $1 ": " $2 " after " last[$1]; exit 1 }
                         { last[$1] = $2; n++ } END { if (!n) { print "no records"; exit 1 } }' "$2") ||
        { bad "$1: $out"; return; }
    echo "$1: $(wc -l <"$2") records, keys rising per partition ($(cut -d' ' -f1 "$2" | sort -u | wc -l) partitions)"
}

# ---- 1. convert ----
for t in c1 c2 g1 g2 off; do mock_cmd topic "$t" 4 || exit 1; done
conv() { "$RC" convert -q --on-loss=skip --server shop --sink "kafka://$BOOTSTRAP/$1" "${@:2}" examples/shop.ndjson 2>>"$W/conv.err"; }
DBZ=(--to debezium -o debezium.bigint.unsigned.handling.mode=precise)
conv c1 "${DBZ[@]}" -o kafka.order.header=true || bad "convert to c1 failed: $(tail -2 "$W/conv.err")"
conv c2 "${DBZ[@]}" -o kafka.order.header=true || bad "convert to c2 failed"
eos c1 shop >"$W/c1"
eos c2 shop >"$W/c2"
check "convert debezium" "$W/c1" 19
grep -q '01$' "$W/c1" || bad "convert debezium: no tombstone (record 01)"
cmp -s "$W/c1" "$W/c2" || bad "convert debezium: a second run gave other keys"
conv g1 --to canal -o canal.group=true -o kafka.order.header=true || bad "convert to g1 failed"
conv g2 --to canal -o canal.group=true -o kafka.order.header=true || bad "convert to g2 failed"
eos g1 shop >"$W/g1"
eos g2 shop >"$W/g2"
check "convert canal grouped" "$W/g1" 19
cmp -s "$W/g1" "$W/g2" || bad "convert canal grouped: a second run gave other keys"
conv off "${DBZ[@]}" || bad "convert without the option failed"
kcat -C -b "$BOOTSTRAP" -t off -o beginning -e -q -f '%h\n' | grep -q 'rowcast.eos' && bad "a record has rowcast.eos without -o kafka.order.header=true"
conv off -o kafka.order.header=yes 2>"$W/e1" && bad "-o kafka.order.header=yes accepted"
grep -q 'kafka.order.header=yes: true or false' "$W/conv.err" || bad "unclear message for kafka.order.header=yes: $(tail -2 "$W/conv.err")"

# ---- 2. capture of PostgreSQL, streamed and not ----
pg_test_sql -c "CREATE TABLE t (id int PRIMARY KEY, v int, pad text)" || exit 1
for t in p1 p2; do mock_cmd topic "$t" 4 || exit 1; done
cap() {
    "$RC" capture "$PG_URL" --include public.t --slot "$1" --snapshot never --until caught-up -q --to debezium \
        -o debezium.flavor=upstream -o kafka.order.header=true --server pg --sink "kafka://$BOOTSTRAP/$2" "${@:3}" 2>>"$W/cap.err"
}
cap s1 p1 || bad "creating slot s1: $(tail -2 "$W/cap.err")"
cap s2 p2 -o postgres.streaming=true || bad "creating slot s2: $(tail -2 "$W/cap.err")"
pg_test_sql -c "INSERT INTO t SELECT i, i, 'x' FROM generate_series(1, 50) i" || exit 1
pg_test_sql -c "BEGIN; UPDATE t SET v = v + 1 WHERE id <= 20; DELETE FROM t WHERE id > 40; COMMIT" || exit 1
# large enough to be streamed past 64kB of decoded changes
pg_test_sql -c "INSERT INTO t SELECT i, i, repeat('y', 200) FROM generate_series(100, 3100) i" || exit 1
pg_test_sql -c "DELETE FROM t WHERE id BETWEEN 100 AND 150; INSERT INTO t VALUES (9999, 1, 'z')" || exit 1
cap s1 p1 || bad "capture from s1 failed: $(tail -2 "$W/cap.err")"
cap s2 p2 -o postgres.streaming=true || bad "capture from s2 (streaming) failed: $(tail -2 "$W/cap.err")"
eos p1 pg >"$W/p1"
eos p2 pg >"$W/p2"
check "capture postgres" "$W/p1" 31
check "capture postgres, streamed" "$W/p2" 31
cmp -s "$W/p1" "$W/p2" || { bad "capture postgres: the streamed transaction's keys differ from the plain one's"; diff "$W/p1" "$W/p2" | head -5 >&2; }
grep -q '01$' "$W/p1" || bad "capture postgres: no tombstone (record 01)"
streamed=$(pg_test_sql -c "SELECT stream_txns FROM pg_stat_replication_slots WHERE slot_name = 's2'")
[ "${streamed:-0}" -ge 1 ] || bad "capture postgres: slot s2 streamed no transaction (stream_txns ${streamed:-none})"
echo "capture postgres: slot s2 streamed $streamed transaction(s), same keys as s1"
# an incremental snapshot (kind a) from a new slot, while a writer changes rows: reads and
# changes in one order. Stopped (SIGTERM) once the snapshot of t completed (said on stderr)
mock_cmd topic p3 4 || exit 1
export XDG_STATE_HOME=$W/xdg
rows=$(pg_test_sql -c "SELECT count(*) FROM t")
"$RC" capture "$PG_URL" --include public.t --slot s3 --snapshot incremental --to debezium -o debezium.flavor=upstream \
    -o kafka.order.header=true -o postgres.snapshot.chunk.rows=200 --server pg --sink "kafka://$BOOTSTRAP/p3" 2>"$W/inc.err" &
CPID=$!
for i in $(seq 30); do pg_test_sql -c "UPDATE t SET v = v + 1 WHERE id % 30 = $i" || break; done
wait_until 120 grep -q 'incremental snapshot of public.t completed' "$W/inc.err" || bad "capture postgres, incremental snapshot: not completed"
kill -TERM "$CPID"
wait "$CPID"
st=$?
[ $st = 0 ] || [ $st = 143 ] || bad "capture from s3 (incremental): exit $st: $(tail -2 "$W/inc.err")"
eos p3 pg >"$W/p3"
check "capture postgres, incremental snapshot" "$W/p3" 31
reads=$(cut -d' ' -f2 "$W/p3" | cut -c18 | grep -c a) changes=$(cut -d' ' -f2 "$W/p3" | cut -c18 | grep -c e)
# the window drops the reads of rows the writer changed meanwhile (their changes stand for them)
[ "$reads" -ge $((rows / 2)) ] && [ "$changes" -ge 1 ] ||
    bad "capture postgres, incremental snapshot: $reads keys of kind a (of $rows rows), $changes of kind e"
echo "capture postgres, incremental snapshot: $reads reads (kind a) of $rows rows, $changes changes (kind e)"

# ---- 3. capture of MariaDB ----
my_sql -e "CREATE DATABASE d; CREATE TABLE d.t (id int PRIMARY KEY, v int, pad varchar(300))" || exit 1
my_sql -e "USE d; INSERT INTO d.t SELECT seq, seq, repeat('y', 200) FROM seq_1_to_3000" || exit 1
my_sql -e "FLUSH BINARY LOGS" || exit 1
my_sql -e "BEGIN; UPDATE d.t SET v = v + 1 WHERE id <= 500; DELETE FROM d.t WHERE id > 2900; COMMIT; INSERT INTO d.t VALUES (9999, 1, 'z')" || exit 1
for t in m1 m2; do mock_cmd topic "$t" 4 || exit 1; done
mcap() {
    "$RC" capture "$MY_URL" --include d.t --snapshot never --start earliest --until caught-up -q --to debezium \
        -o kafka.order.header=true --server my --sink "kafka://$BOOTSTRAP/$1" 2>>"$W/mcap.err"
}
mcap m1 || bad "capture of MariaDB to m1 failed: $(tail -2 "$W/mcap.err")"
mcap m2 || bad "capture of MariaDB to m2 failed: $(tail -2 "$W/mcap.err")"
eos m1 my >"$W/m1"
eos m2 my >"$W/m2"
check "capture mariadb" "$W/m1" 39
cmp -s "$W/m1" "$W/m2" || bad "capture mariadb: a second run gave other keys"
grep -q '01$' "$W/m1" || bad "capture mariadb: no tombstone (record 01)"
# the 3,000 rows: one place (m FILE OFFSET), numbers past one ROWS event's rows
places=$(cut -c3-27 "$W/m1" | sort -u | wc -l)
files=$(cut -c4-11 "$W/m1" | sort -u | wc -l)
big=$(awk '{ print substr($2, 1, 25) }' "$W/m1" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
[ "$places" -le 4 ] || bad "capture mariadb: $places places for 3 transactions"
[ "$files" -ge 2 ] || bad "capture mariadb: keys of $files binlog file(s), two expected"
[ "${big:-0}" -ge 3000 ] || bad "capture mariadb: the largest transaction has ${big:-0} keys at its place, 3000 expected"
echo "capture mariadb: $places transaction places in $files binlog files, $big records at the largest"
exit $fail
