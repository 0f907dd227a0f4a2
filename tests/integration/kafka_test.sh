#!/usr/bin/env bash
# Kafka sink, end to end over TCP against librdkafka's mock cluster in its own process, with
# kcat as the independent consumer:
#  1. every encodable format: convert examples/shop.ndjson to Kafka and to --records (the
#     rows a format cannot hold left out, --on-loss=skip); kcat's
#     view of every topic must equal the file byte for byte (keys, values, headers), each
#     record in its murmur2 partition, in order per partition (records_check);
#  2. partitions of known keys: librdkafka's murmur2 partitioner (kcat) agrees with rowcast's;
#  3. sink errors: bad URL, unknown -o kafka.* property;
#  4. records librdkafka refuses before sending (over message.max.bytes): with a dead-letter
#     file they go there like broker refusals, each reason said (a count past the first 50);
#     without one the run stops at the first;
#  5. brokers that cannot be reached: a port with nothing listening (said at once, the
#     metadata wait bounded by --flush-timeout), a broker down mid-run and back, and a second
#     SIGINT exiting at once while the first waits for deliveries.
# usage: kafka_test.sh ROWCAST MOCK RECORDS_CHECK
set -u
RC=$1 MOCK=$2 CHECK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/kafka_lib.sh"
kafka_test_start "$MOCK" || exit 1

# 1. every format, Kafka vs --records
formats=$("$RC" formats | awk 'NR > 1 && $2 == "yes" {print $1}')
for f in $formats; do
    opts=(--to "$f")
    # upstream Debezium's heartbeats go to one topic whatever the template: one run of it only
    [ "$f" = debezium ] && opts+=(-o debezium.bigint.unsigned.handling.mode=precise)
    [ "$f" = oms-avro ] && opts+=(-o avro.framing=raw) # what the Kafka sink uses by default
    tmpl="t-$f.{db}.{table}"
    # drs-dds and mongo-change-stream hold document changes (MongoDB) only: the vendor document's examples
    in=examples/shop.ndjson
    case $f in drs-dds | mongo-change-stream) in=tests/golden/native/drs-dds-seeds.out ;; esac
    "$RC" convert -q --on-error=skip --on-loss=skip "${opts[@]}" --records --tombstones --topic "$tmpl" "$in" >"$W/$f.file" 2>"$W/$f.file.err"
    "$RC" convert -q --on-error=skip --on-loss=skip "${opts[@]}" --sink "kafka://$BOOTSTRAP/$tmpl" "$in" 2>"$W/$f.kafka.err" ||
        { bad "$f: convert to kafka failed"; cat "$W/$f.kafka.err" >&2; continue; }
    cmp -s "$W/$f.file.err" "$W/$f.kafka.err" || bad "$f: the two runs reported different errors"
    [ -s "$W/$f.file" ] || { bad "$f: no messages"; continue; }
    # shellcheck disable=SC2046
    kcat_all $("$CHECK" --topics "$W/$f.file") >"$W/$f.kcat"
    out=$("$CHECK" "$W/$f.file" "$W/$f.kcat" 4 2>&1) || { bad "$f: Kafka differs from --records"; echo "$out" >&2; continue; }
    echo "$f: $out"
done

# 2. murmur2: partitions librdkafka's Java-compatible partitioner picks (kcat producing with
#    murmur2_random) equal rowcast's for keys with published Java hashes and some more
mock_cmd topic parts7 7 || bad "creating topic parts7"
keys="21 foobar a-little-bit-long-string a-little-bit-longer-string lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8 abc 1 12 123 1234 12345 kafka {\"id\":1001}"
for k in $keys; do printf '%s\t%s\n' "$k" v; done |
    kcat -P -b "$BOOTSTRAP" -t parts7 -K '\t' -X topic.partitioner=murmur2_random || bad "kcat -P"
kcat -C -b "$BOOTSTRAP" -t parts7 -e -q -f '%p\t%k\n' | sort >"$W/librdkafka.parts"
# shellcheck disable=SC2086
"$CHECK" --partition 7 $keys | sort >"$W/rowcast.parts"
if cmp -s "$W/librdkafka.parts" "$W/rowcast.parts"; then
    echo "murmur2: $(wc -l <"$W/rowcast.parts") keys in the partitions librdkafka's murmur2 partitioner picks"
else
    bad "murmur2 partitions differ from librdkafka's"
    diff "$W/librdkafka.parts" "$W/rowcast.parts" >&2
fi

# 3. usage errors of the sink
"$RC" convert -q --sink kafka:///topic examples/shop.ndjson 2>"$W/e1" && bad "kafka URL without hosts accepted"
grep -q 'no HOST:PORT' "$W/e1" || bad "unclear message for a URL without hosts: $(cat "$W/e1")"
"$RC" convert -q --sink "kafka://$BOOTSTRAP/x" -o kafka.no.such.property=1 examples/shop.ndjson 2>"$W/e2" && bad "unknown librdkafka property accepted"
grep -q 'kafka.no.such.property' "$W/e2" || bad "unclear message for an unknown property: $(cat "$W/e2")"
"$RC" convert -q --sink "kafka://$BOOTSTRAP/x" -o kafka.acks=1 examples/shop.ndjson 2>"$W/e3" && bad "acks=1 accepted"
grep -q 'rowcast keeps enable.idempotence=true, acks=all' "$W/e3" || bad "unclear message for acks=1: $(cat "$W/e3")"
"$RC" convert -q --topic '{tabel}' examples/shop.ndjson 2>"$W/e4" && bad "unknown placeholder accepted"
grep -q 'unknown placeholder at byte 1' "$W/e4" || bad "unclear message for a bad template: $(cat "$W/e4")"

# 4. local refusals. 70 lines, those not divisible by 7 with a 1500-byte value: 60 messages over
#    message.max.bytes=1000 (its minimum), 10 small ones
awk 'BEGIN { big = sprintf("%1500s", ""); gsub(/ /, "x", big)
    for (i = 1; i <= 70; i++)
        printf "{\"op\":\"insert\",\"source\":{\"kind\":\"mysql\",\"server\":\"s\",\"db\":\"d\",\"table\":\"t\"},\"columns\":[{\"name\":\"id\",\"type\":\"int\",\"pk\":true},{\"name\":\"s\",\"type\":\"text\"}],\"after\":[%d,\"%s\"]}\n", i, i % 7 ? big : "small" }' >"$W/big.in"
mock_cmd topic dl 4 || bad "topic dl"
"$RC" convert -q --to canal --records --topic dl "$W/big.in" >"$W/big.records"
# what must be dead-lettered: the values of records over the limit, and one reason each
awk -F'\t' '$4 + ($2 > 0 ? $2 : 0) > 1000 { print $5 }' "$W/big.records" >"$W/dl.want"
awk -F'\t' -v f="$W/big.in" '$4 + ($2 > 0 ? $2 : 0) > 1000 && ++n <= 50 { pos = $6; sub(/.*rowcast.position=[^,]*:/, "", pos); sub(/,.*/, "", pos)
    printf "rowcast: kafka: dead-lettered a message for topic dl (input %s, file offset %s): %d bytes of key and value, over message.max.bytes=1000 (MSG_SIZE_TOO_LARGE; raise -o kafka.message.max.bytes)\n", f, pos, $4 + ($2 > 0 ? $2 : 0) }' "$W/big.records" >"$W/dl.err.want"
echo "rowcast: 60 messages refused by Kafka went to the dead-letter file $W/dl.dead; the reasons of the 10 after the first 50 are not shown" >>"$W/dl.err.want"
[ "$(wc -l <"$W/dl.want")" = 60 ] || bad "local refusals: $(wc -l <"$W/dl.want") records over the limit in --records, want 60"
"$RC" convert --to canal --sink "kafka://$BOOTSTRAP/dl" -o kafka.message.max.bytes=1000 --on-error="dead-letter:$W/dl.dead" \
    --checkpoint "$W/dl.ck" "$W/big.in" 2>"$W/dl.err" || bad "local refusals with a dead-letter file: exit $?"
cmp -s "$W/dl.want" "$W/dl.dead" || bad "local refusals: the dead-letter file differs from the records over the limit"
# the notices exactly; the summary apart: its messages line adds the refusals up as dead-lettered
grep -v '^rowcast: [0-9]* lines read: \|^rowcast: [0-9]* events decoded: \|^rowcast: [0-9]* messages written \|^rowcast: [0-9.]* s, [0-9]* events/s$' "$W/dl.err" >"$W/dl.notices"
diff "$W/dl.err.want" "$W/dl.notices" >&2 || bad "local refusals: messages differ (above)"
grep -q '^rowcast: 70 messages written ([0-9]* bytes): 10 delivered, 60 dead-lettered, 0 refused, 0 undelivered$' "$W/dl.err" ||
    bad "local refusals: summary $(grep 'messages written' "$W/dl.err")"
[ "$(kcat_count dl)" = 10 ] || bad "local refusals: $(kcat_count dl) messages in Kafka, want the 10 small ones"
[ "$(ck_line "$W/dl.ck")" = 70 ] || bad "local refusals: checkpoint at line $(ck_line "$W/dl.ck"), want 70"
echo "local refusals: 60 over message.max.bytes dead-lettered (file and 50 reasons exact, 10 counted), 10 in Kafka, checkpoint at the end"
"$RC" convert -q --to canal --sink "kafka://$BOOTSTRAP/dl" -o kafka.message.max.bytes=1000 "$W/big.in" 2>"$W/dl2.err"
st=$?
size1=$(awk -F'\t' 'NR == 1 { print $4 + ($2 > 0 ? $2 : 0) }' "$W/big.records")
want="rowcast: $W/big.in:1: kafka: delivery to topic dl failed: $size1 bytes of key and value, over message.max.bytes=1000 (MSG_SIZE_TOO_LARGE; raise -o kafka.message.max.bytes); input $W/big.in, file offset 0"
[ $st = 3 ] && [ "$(head -1 "$W/dl2.err")" = "$want" ] || bad "local refusal without a dead-letter file: exit $st, $(cat "$W/dl2.err")"

# 5a. a port with nothing listening: said at once in rowcast's words, the wait for the topic's
#     metadata ends after --flush-timeout
t0=$(date +%s%N)
"$RC" convert -q --to canal --flush-timeout 2 --sink kafka://127.0.0.1:1/t examples/shop.ndjson 2>"$W/down.err"
st=$? ms=$((($(date +%s%N) - t0) / 1000000))
cat >"$W/down.want" <<EOT
rowcast: kafka: broker 127.0.0.1:1: connection refused; nothing listens there: check the host and port in --sink and that Kafka runs there (librdkafka keeps trying)
rowcast: examples/shop.ndjson:1: kafka: topic t: no broker answered within 2 s (--flush-timeout); could not reach 127.0.0.1:1 (connection refused)
EOT
[ $st = 3 ] || bad "unreachable broker: exit $st, want 3"
diff "$W/down.want" "$W/down.err" >&2 || bad "unreachable broker: messages differ (above)"
[ $ms -lt 6000 ] || bad "unreachable broker: $ms ms with --flush-timeout 2"
echo "unreachable broker: exit 3 after $ms ms (--flush-timeout 2), messages exact"

# 5b. broker 1 down mid-run and back: said once per cause, every message delivered once. The
#     input is a pipe the test feeds, so the broker goes down at a point the test observes (the
#     first 1000 messages acknowledged) while the run still has messages to send.
b1=${BOOTSTRAP%%,*}
awk -v N=5000 -v K=200 -f "$HERE/gen_rows.awk" >"$W/in5k"
# broker 1 leads partitions 0 and 1 (the mock's own choice of leaders may leave it none, and
# then nothing waits for it)
mock_cmd topic mid 6 && mock_cmd leader mid 0 1 && mock_cmd leader mid 1 1 || bad "topic mid"
# mid_run TOPIC ERRFILE [OPTIONS]: starts rowcast reading the fifo $W/fifo (pid in $pid), sends
# the first 1000 lines, waits until Kafka holds them, takes broker 1 down and sends the rest
# until rowcast said that broker 1 refuses connections
mid_run() {
    local topic=$1 errf=$2
    shift 2
    rm -f "$W/fifo" && mkfifo "$W/fifo"
    "$RC" convert -q --to canal --sink "kafka://$BOOTSTRAP/$topic" "$@" <"$W/fifo" 2>"$errf" &
    pid=$!
    exec {FEED}>"$W/fifo"
    head -1000 "$W/in5k" >&$FEED
    wait_until 60 eval '[ "$(kcat_count "$topic")" -ge 1000 ]' || bad "$topic: the first 1000 messages were not acknowledged"
    mock_cmd down 1 || bad "down 1"
    feed_until $FEED "$W/in5k" 1001 10 grep -q 'connection refused' "$errf" || bad "$topic: rowcast did not say that broker 1 is down"
}
refused_lines() {
    echo "rowcast: kafka: broker $b1: lost the connection; librdkafka reconnects and resends (check the broker if this goes on)"
    echo "rowcast: kafka: broker $b1: connection refused; nothing listens there: check the host and port in --sink and that Kafka runs there (librdkafka keeps trying)"
}
mid_run mid "$W/mid.err"
mock_cmd up 1 || bad "up 1"
exec {FEED}>&-
wait $pid || bad "broker down mid-run: exit $?"
refused_lines >"$W/mid.want"
diff "$W/mid.want" "$W/mid.err" >&2 || bad "broker down mid-run: messages differ (above)"
kcat -C -b "$BOOTSTRAP" -t mid -e -q -f '%s\n' | sort >"$W/mid.got"
"$RC" convert -q --to canal "$W/in5k" | sort >"$W/mid.expect"
cmp -s "$W/mid.expect" "$W/mid.got" || bad "broker down mid-run: Kafka does not hold each of the 5000 messages once"
echo "broker 1 down mid-run and back: said once per cause, 5000 messages delivered once"

# 5c. the same fault, then SIGINT (rowcast waits up to --flush-timeout for broker 1) and a
#     second SIGINT: exit 130 at once
mock_cmd topic int 6 && mock_cmd leader int 0 1 && mock_cmd leader int 1 1 || bad "topic int"
mid_run int "$W/int.err" --flush-timeout 60
kill -INT $pid
wait_until 30 grep -q 'SIGINT: stopping after line' "$W/int.err" || bad "SIGINT: no message"
t0=$(date +%s%N)
kill -INT $pid
wait_until 10 eval '! kill -0 $pid 2>/dev/null' || { bad "a second SIGINT did not end the run"; kill -KILL $pid; }
wait $pid
st=$? ms=$((($(date +%s%N) - t0) / 1000000))
exec {FEED}>&-
mock_cmd up 1 || bad "up 1"
{ refused_lines
  echo "rowcast: SIGINT: stopping after line N; waiting up to 60 s for deliveries"
  echo "rowcast: a second signal: exiting now without waiting for deliveries; the checkpoint stays where it was last stored"; } >"$W/int.want"
[ $st = 130 ] || bad "second SIGINT: exit $st, want 130"
sed 's/stopping after line [0-9]*;/stopping after line N;/' "$W/int.err" | diff "$W/int.want" - >&2 || bad "second SIGINT: messages differ (above)"
echo "second SIGINT: exit $st after $ms ms, messages exact"
exit $fail
