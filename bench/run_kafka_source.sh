#!/usr/bin/env bash
# Kafka-source benchmark (issue 27, docs/BENCHMARKS.md "Kafka as a source"): consume, convert and
# produce N Canal messages (bench/kafka_source/gen_canal.awk) as upstream Debezium, against
# librdkafka's mock cluster in its own process (loopback TCP, 3 brokers; topic `in` and one output
# topic per tool and round, 24 partitions each). Three ways in the same run, ROUNDS rounds
# (default 3, medians reported):
#   rowcast   rowcast convert --source 'kafka://…/in?group=…' --from canal --to debezium
#             --sink kafka://…/out (-o kafka.source.stop=end): a group member, offsets committed
#             after the sink's acknowledgements, idempotent producer, acks=all, 5 headers;
#   kcat-pipe kcat -C -G GROUP in (a group member too, auto-committing) | rowcast convert
#             --from canal --to debezium --records --tombstones | cut -f3,5 | kcat -P -K '\t' -Z
#             (the same keys and tombstones, murmur2 partitioner, idempotent, acks=all; no headers);
#   kafkajs   node kafka_source/kafkajs_convert.js: a kafkajs 2.2.4 consumer-group member whose
#             loop converts each batch in JavaScript and sends it (acks=all, not idempotent: the
#             mock cannot serve kafkajs an idempotent producer, bench/kafka/kafkajs_produce.js),
#             committing after the send. Its conversion covers what these messages hold and is
#             checked first: on the first 20,000 messages it writes what rowcast writes, key and
#             value byte for byte (kafkajs_convert.js says what it does not cover).
# CPU seconds (user + system from /usr/bin/time -v) are reported per tool as well: for the pipe the
# sum over its processes (kcat -C, rowcast, cut, kcat -P; sh waits for them all), for kafkajs
# node's. The mock cluster's own CPU is in none of them; the wall-time ratios are bounded by the
# mock's rate, the CPU ratios are not.
# Each output topic must then hold exactly the records rowcast's file conversion gives (the sum of
# its partitions' high watermarks: the mock keeps ~5 MiB a partition, so the records are counted
# by offset, not read). Wall time and peak RSS come from /usr/bin/time -v (for the pipe: the
# pipe's wall time, the middle rowcast's RSS). `in` is produced gzip-compressed (kafkajs reads
# gzip without plugins) so the mock can hold it; the outputs are uncompressed, for all three.
# Needs: kcat, node and npm (Debian: apt-get install kcat nodejs npm); kafkajs is installed from
# bench/kafka/package-lock.json (npm ci) on the first run.
# usage: bench/run_kafka_source.sh [BUILD_DIR] [N]   (default: build, 1000000); ROUNDS=N, RC_OPTS="-o
# kafka.queued.max.messages.kbytes=8192" (extra options of the rowcast way) from the environment
set -eu
B=${1:-build} N=${2:-1000000}
RC=$B/rowcast MOCK=$B/rowcast-kafka-mock ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v kcat >/dev/null && command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "install first: apt-get install kcat nodejs npm" >&2; exit 1; }
[ -x "$RC" ] && [ -x "$MOCK" ] || { echo "build first: scripts/test.sh (or cmake --build $B)" >&2; exit 1; }
JS=$ROOT/bench/kafka_source/kafkajs_convert.js
[ -d "$ROOT/bench/kafka/node_modules/kafkajs" ] || (cd "$ROOT/bench/kafka" && npm ci --no-audit --no-fund >/dev/null)
export NODE_PATH=$ROOT/bench/kafka/node_modules
. "$ROOT/tests/integration/kafka_lib.sh"
W=$(mktemp -d)
trap 'mock_stop; rm -rf "$W"' EXIT
PARTS=24
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
awk -v N="$N" -f "$ROOT/bench/kafka_source/gen_canal.awk" >"$W/in.canal"
# what every tool must write: rowcast's conversion of the file (records, tombstones included)
want=$("$RC" convert -q "$W/in.canal" --from canal --to debezium --records --tombstones | wc -l)
head -20000 "$W/in.canal" >"$W/check.canal"
node "$JS" --check "$W/check.canal" >"$W/check.js"
"$RC" convert -q "$W/check.canal" --from canal --to debezium --records --tombstones | cut -f3,5 >"$W/check.rc"
cmp -s "$W/check.js" "$W/check.rc" || { echo "kafkajs_convert.js does not write what rowcast writes:" >&2; diff "$W/check.js" "$W/check.rc" | head -4 >&2; exit 1; }
mock_start "$MOCK" "$W" 3
mock_cmd topic in "$PARTS"
kcat -b "$BOOTSTRAP" -P -t in -X compression.codec=gzip -X linger.ms=100 -X batch.num.messages=10000 <"$W/in.canal"
# hw_sum TOPIC: the sum of the topic's partitions' high watermarks
hw_sum() {
    local p args=()
    for p in $(seq 0 $((PARTS - 1))); do args+=(-t "$1:$p:-1"); done
    kcat -b "$BOOTSTRAP" -Q "${args[@]}" | awk '{ s += $NF } END { print s + 0 }'
}
# timed NAME CMD...: CMD under /usr/bin/time -v; NAME.s the wall seconds, NAME.kb the peak RSS,
# NAME.cpu the CPU seconds (user + system) of CMD and every process it waited for (the pipe's sh:
# both kcats, rowcast and cut)
timed() {
    local name=$1
    shift
    /usr/bin/time -v -o "$W/$name.tv" "$@"
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$W/$name.tv" >"$W/$name.s"
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$W/$name.tv" >"$W/$name.kb"
    awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f\n", s }' "$W/$name.tv" >"$W/$name.cpu"
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
PIPE_P=(-X enable.idempotence=true -X acks=all -X topic.partitioner=murmur2_random)
R=${ROUNDS:-3}
TOOLS=(rowcast kcat-pipe kafkajs)
declare -A secs rss cpu
for r in $(seq "$R"); do
    for t in "${TOOLS[@]}"; do mock_cmd topic "out-$t-$r" "$PARTS"; done
    # shellcheck disable=SC2086 # RC_OPTS: several options
    timed "rowcast-$r" "$RC" convert -q ${RC_OPTS:-} --source "kafka://$BOOTSTRAP/in?group=rc-$r" --from canal --to debezium \
        --sink "kafka://$BOOTSTRAP/out-rowcast-$r" -o kafka.source.stop=end
    # the pipe: its wall time; the middle rowcast's peak RSS (the kcats' are librdkafka's)
    timed "kcat-pipe-$r" sh -c 'b=$1 r=$2 rc=$3 w=$4; shift 4
        kcat -b "$b" -C -G "pipe-$r" -o beginning -e -q -f "%s\n" in 2>/dev/null |
        /usr/bin/time -v -o "$w/pipe-rc.tv" "$rc" convert -q --from canal --to debezium --records --tombstones |
        cut -f3,5 | kcat -b "$b" -P -t "out-kcat-pipe-$r" -K "\t" -Z "$@"' sh "$BOOTSTRAP" "$r" "$RC" "$W" "${PIPE_P[@]}"
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$W/pipe-rc.tv" >"$W/kcat-pipe-$r.kb"
    timed "kafkajs-$r" node "$JS" "$BOOTSTRAP" in "out-kafkajs-$r" "js-$r" "$N" 2>/dev/null
    for t in "${TOOLS[@]}"; do
        got=$(hw_sum "out-$t-$r")
        [ "$got" = "$want" ] || { echo "$t wrote $got records, $want expected (round $r)" >&2; exit 1; }
        secs[$t]="${secs[$t]:-} $(cat "$W/$t-$r.s")"
        rss[$t]="${rss[$t]:-} $(cat "$W/$t-$r.kb")"
        cpu[$t]="${cpu[$t]:-} $(cat "$W/$t-$r.cpu")"
    done
done
echo "$N Canal messages ($(($(wc -c <"$W/in.canal") / N)) bytes each) from a topic of $PARTS partitions -> $want upstream Debezium records (tombstones included) in another, mock cluster of 3 brokers; every output topic counted"
printf '%-10s %8s %12s %14s %9s   %-22s %-22s %s\n' tool seconds messages/s "peak RSS MB" "CPU s" "rounds (s)" "rounds (CPU s)" "rounds (RSS MB)"
for t in "${TOOLS[@]}"; do
    # shellcheck disable=SC2086 # the rounds' values, split on purpose
    s=$(median ${secs[$t]}) m=$(median ${rss[$t]}) c=$(median ${cpu[$t]})
    printf '%-10s %8s %12.0f %14.1f %9s   %-22s %-22s %s\n' "$t" "$s" "$(echo "$N / ($s + 0.0001)" | bc -l)" "$(echo "$m / 1024" | bc -l)" "$c" \
        "${secs[$t]# }" "${cpu[$t]# }" "$(for k in ${rss[$t]}; do printf '%.1f ' "$(echo "$k / 1024" | bc -l)"; done)"
    eval "med_${t//-/_}=$s cpu_${t//-/_}=$c"
done
ratio() { printf '%.2f' "$(echo "($1 + 0.0001) / ($2 + 0.0001)" | bc -l)"; }
echo "ratio rowcast/kcat-pipe: $(ratio "$med_kcat_pipe" "$med_rowcast")x (target >= 1.0x)   rowcast/kafkajs: $(ratio "$med_kafkajs" "$med_rowcast")x (target >= 10x)   rowcast peak RSS target < 64 MB"
echo "CPU (user + system, all of a tool's processes; the mock cluster not counted): rowcast/kcat-pipe $(ratio "$cpu_kcat_pipe" "$cpu_rowcast")x   rowcast/kafkajs $(ratio "$cpu_kafkajs" "$cpu_rowcast")x"
echo "load average at the start: $LOAD0; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
