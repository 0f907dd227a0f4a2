#!/usr/bin/env bash
# Issue 27 step K6: Kafka -> Kafka, format by format, against `rowcast convert` of the same
# messages from a file, byte for byte and per input partition in order. The mock cluster runs in
# its own process (3 brokers); each case has a topic in-CASE and a topic out-CASE of 6 partitions.
#
# Per case: the real messages of another tool (../shared's peers, skipped by name without it) or
# the repository's own sample (examples/shop.ndjson, always there), repeated to N messages; message
# i gets the key i % 60 and goes to partition (i % 60) % 6 (kcat -P -p, so the test knows each
# partition's messages and their order). `rowcast convert --source kafka://…/in-CASE?group=…
# --from F --to T --sink kafka://…/out-CASE -o kafka.source.stop=end` converts them.
#
# How output is matched to input partitions: the sink keys each record by its own key (the
# format's key, or db.table for a keyless one: docs/sinks.md), so one input partition's records
# spread over the output partitions, and one output partition mixes input partitions. Every
# record carries rowcast.position=in-CASE[P]:OFFSET, which names its input partition P. So the
# test reads each output partition with kcat, splits it by P, and keeps each (P, Q) sequence in
# the order of partition Q. The reference is `rowcast convert --input-layout records --records`
# of partition P's messages from a file (the same keys and values, as kcat prints them): its
# records are routed to Q by the routing key -> output partition map the output shows (a
# routing key found in two output partitions fails: the sink's partitioner is per key), and each
# (P, Q) sequence of the reference must equal the output's, key and value byte for byte (length
# fields included, so null and empty differ). Records the format sends to a topic of its own
# (Debezium's schema-change and heartbeat topics, named by --server k6-CASE) are read from that
# topic and compared the same way. Only one member reads, and nothing is killed: no duplicate is
# allowed.
#
# No case has maxwell as its target: the maxwell encoder holds each record until the next event
# comes (a file's last record goes out at the end with rowcast.position=-:OFFSET), so the header
# of a held record names the message that came next, from another input partition with a Kafka
# source; the records themselves and their order per key are right, but the header cannot say
# which input partition they came from. canal as a target numbers its messages ("id") per run, so
# a run over 6 partitions and six runs over one file each cannot match: not a target here either.
#
# Sizes: canal (the benchmark's format, bench/run_kafka_source.sh) carries 300,000 messages; the
# other cases 40,000, so that the test stays near a minute in a Release build on a loaded CI
# machine (the canal case alone takes ~20 s of the ~65; 300,000 of each of the seven would take
# over two minutes, where the whole ctest has to stay near 10 of CI's 30; a clone without
# ../shared runs the native case only, 7 s). librdkafka's mock keeps
# about 5 MiB per partition and drops a partition's oldest batches past that, so both kcat and
# rowcast's sink compress with zstd (the repeated messages shrink enough that every topic fits:
# a dropped batch would fail the comparison).
# usage: kafka_source_formats_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
. "$(dirname "$0")/../common/peers.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
[ -z "${KEEP:-}" ] || trap 'mock_stop; echo "kept $W" >&2' EXIT # KEEP=1: the work directory stays, for a look
T0=$SECONDS
FLINK=../shared/testdata/peers/apache__flink/flink-formats/flink-json/src/test/resources
ALIYUN=../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/aliyun/table/event
ZSTD=(-X compression.codec=zstd -X linger.ms=100 -X batch.num.messages=10000)
# one member a group, but librdkafka 2.0.2 sometimes joins twice at start (docs/sources/kafka.md,
# "Memory": the 100 ms metadata refresh), and the mock answers the second join after the
# session timeout: 45 s by default, 6 s here
GROUP=(-o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)

# split FILE N DIR: FILE's JSON lines (a licence block or blank line skipped) again and again to
# N messages; DIR/kv.P (key TAB value, for kcat -P) and DIR/rec.P (the records layout) per partition
split_input() {
    grep -E '^[[:space:]]*[{]' "$1" | LC_ALL=C awk -v n="$2" -v d="$3" '{ m[++c] = $0 }
        END { for (i = 0; i < n; i++) { v = m[i % c + 1]; k = i % 60; p = k % 6
                print k "\t" v >(d "/kv." p); print "in\t" length(k) "\t" k "\t" length(v) "\t" v "\t" >(d "/rec." p) } }'
}

# split_compare DIR OUT SIDE: DIR/got (kcat: topic, partition, key length, key, value length,
# value, headers) split by input partition P and output topic and partition Q into DIR/o.P.Q, the
# references DIR/exp.P (--records: topic, key length, ...) routed into DIR/e.P.Q the same way (a
# record whose --records topic is in SIDE goes to that topic, others to OUT); status 1 (the awk's
# message) when a routing key is in two partitions
split_compare() {
    LC_ALL=C awk -F'\t' -v d="$1" -v out="$2" -v side="$3" '
        function route(t, klen, key, hdr,   db, tb) {
            if (klen != -1) return t " k" key
            db = match(hdr, /rowcast\.db=[^,]*/) ? substr(hdr, RSTART + 11, RLENGTH - 11) : ""
            tb = match(hdr, /rowcast\.table=[^,]*/) ? substr(hdr, RSTART + 14, RLENGTH - 14) : ""
            return t " t" db "." tb
        }
        BEGIN { n = split(side, s, " "); for (i = 1; i <= n; i++) sides[s[i]] = 1 }
        FNR == 1 { file++ }
        file == 1 {
            p = match($7, /rowcast\.position=[^,]*\[[0-9]+\]:/) ? $7 : ""
            sub(/.*rowcast\.position=[^,]*\[/, "", p); sub(/\].*/, "", p)
            if (p == "") p = "none"
            r = route($1, $3, $4, $7)
            if ((r in q) && q[r] != $1 "~" $2) { print "routing key " r " in output partitions " q[r] " and " $1 "~" $2; bad = 1 }
            q[r] = $1 "~" $2
            print $3 "\t" $4 "\t" $5 "\t" $6 >(d "/o." p "." q[r])
            next
        }
        {
            r = route(($1 in sides) ? $1 : out, $2, $3, $6)
            part = (r in q) ? q[r] : "unrouted"
            ip = FILENAME; sub(/.*\/exp\./, "", ip)
            print $2 "\t" $3 "\t" $4 "\t" $5 >(d "/e." ip "." part)
        }
        END { exit bad }' "$1/got" "$1"/exp.[0-5]
}

# run_case NAME FROM TO N FILE [OPTION...]: one format's Kafka -> Kafka run and its check
run_case() {
    local name=$1 from=$2 to=$3 n=$4 file=$5 d=$W/$1 p f diffs=0 fail0=$fail
    shift 5
    peer_need "$name" "$file"
    case $? in 1) echo "$name: skipped (no ../shared)"; return ;; 2) fail=1; return ;; esac
    mkdir -p "$d"
    mock_cmd "topic in-$name 6" && mock_cmd "topic out-$name 6" || { bad "$name: topics not created"; return; }
    split_input "$file" "$n" "$d"
    for p in 0 1 2 3 4 5; do
        kcat -b "$BOOTSTRAP" -P -t "in-$name" -p "$p" -K '\t' "${ZSTD[@]}" <"$d/kv.$p" 2>>"$d/kcat.err" || bad "$name: kcat -P -p $p: $(cat "$d/kcat.err")"
        "$RC" convert --input-layout records "$d/rec.$p" --from "$from" --to "$to" --server "k6-$name" "$@" --records --tombstones >"$d/exp.$p" 2>>"$d/exp.err"
    done
    "$RC" convert --source "kafka://$BOOTSTRAP/in-$name?group=g-$name" --from "$from" --to "$to" --server "k6-$name" "$@" \
        --sink "kafka://$BOOTSTRAP/out-$name" -o kafka.source.stop=end -o kafka.compression.type=zstd "${GROUP[@]}" >/dev/null 2>"$d/err"
    expect_rc "$name: convert --source" $? 0
    # the topics the sink writes besides out-CASE: those the references name that the cluster has
    side=$(LC_ALL=C comm -12 <(cut -f1 "$d"/exp.[0-5] | LC_ALL=C sort -u) <(kcat -b "$BOOTSTRAP" -L 2>/dev/null | sed -n 's/^  topic "\([^"]*\)".*/\1/p' | LC_ALL=C sort -u))
    for t in "out-$name" $side; do
        kcat -b "$BOOTSTRAP" -C -t "$t" -o beginning -e -q -f '%t\t%p\t%K\t%k\t%S\t%s\t%h\n' 2>/dev/null
    done >"$d/got"
    split_compare "$d" "out-$name" "$side" && ok || bad "$name: the sink put one routing key in two partitions"
    for f in "$d"/o.* "$d"/e.*; do
        f=${f##*/}
        f=${f#?.}
        cmp -s "$d/o.$f" "$d/e.$f" && continue
        diffs=$((diffs + 1))
        [ "$diffs" -le 3 ] && echo "$name: input partition ${f%.*} -> output partition ${f#*.}: $(wc -l <"$d/o.$f" 2>/dev/null || echo 0) records, the file gives $(wc -l <"$d/e.$f" 2>/dev/null || echo 0); first difference:" >&2 &&
            diff "$d/o.$f" "$d/e.$f" 2>&1 | head -4 | cut -c1-300 >&2
    done
    [ "$diffs" = 0 ] && ok || bad "$name ($from -> $to): $diffs (input, output) partition pairs differ from convert of the file"
    local got want
    got=$(wc -l <"$d/got") want=$(cat "$d"/exp.[0-5] | wc -l)
    [ "$got" = "$want" ] && [ "$got" -ge "$n" ] && ok || bad "$name: $got records in out-$name, the files give $want (from $n messages)"
    [ "$fail" = "$fail0" ] && echo "[$((SECONDS - T0)) s] $name: $n messages ($from) in 6 partitions -> $got records ($to) in 6 partitions, each (input, output) partition pair equal to convert of the file"
    [ -n "${KEEP:-}" ] || rm -rf "$d"
}

N=${K6_MESSAGES:-40000} # the sanitizers' run: fewer, and fewer Canal messages (tests/CMakeLists.txt)
run_case canal canal debezium "${K6_CANAL_MESSAGES:-300000}" "$FLINK/canal-data.txt"
run_case native native debezium "$N" examples/shop.ndjson -o debezium.bigint.unsigned.handling.mode=precise
run_case maxwell maxwell debezium "$N" "$FLINK/maxwell-data.txt"
run_case debezium debezium ogg-json "$N" "$FLINK/debezium-data-schema-include.txt"
run_case debezium-pg debezium native "$N" "$FLINK/debezium-postgres-data-schema-exclude.txt"
run_case ogg ogg-json debezium "$N" "$FLINK/ogg-data.txt"
run_case aliyun dataworks-aliyun debezium "$N" "$ALIYUN/event-update-in-one.txt"
peer_report kafka_source_formats
echo "kafka_source_formats: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
