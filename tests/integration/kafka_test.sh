#!/usr/bin/env bash
# Kafka sink, end to end over TCP against librdkafka's mock cluster in its own process, with
# kcat as the independent consumer:
#  1. every encodable format: convert examples/shop.ndjson to Kafka and to --records; kcat's
#     view of every topic must equal the file byte for byte (keys, values, headers), each
#     record in its murmur2 partition, in order per partition (records_check);
#  2. partitions of known keys: librdkafka's murmur2 partitioner (kcat) agrees with rowcast's;
#  3. sink errors: bad URL, unknown -o kafka.* property.
# usage: kafka_test.sh ROWCAST MOCK RECORDS_CHECK
set -u
RC=$1 MOCK=$2 CHECK=$3
. "$(dirname "$0")/kafka_lib.sh"
kafka_test_start "$MOCK" || exit 1

# 1. every format, Kafka vs --records
formats=$("$RC" formats | awk 'NR > 1 && $2 == "yes" {print $1}')
for f in $formats upstream; do
    opts=(--to "$f")
    [ "$f" = upstream ] && opts=(--to debezium -o debezium.flavor=upstream -o debezium.bigint.unsigned.handling.mode=precise)
    [ "$f" = avro ] && opts+=(-o avro.framing=raw) # what the Kafka sink uses by default
    tmpl="t-$f.{db}.{table}"
    "$RC" convert -q --on-error=skip "${opts[@]}" --records --tombstones --topic "$tmpl" examples/shop.ndjson >"$W/$f.file" 2>"$W/$f.file.err"
    "$RC" convert -q --on-error=skip "${opts[@]}" --sink "kafka://$BOOTSTRAP/$tmpl" examples/shop.ndjson 2>"$W/$f.kafka.err" ||
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
exit $fail
