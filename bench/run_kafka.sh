#!/usr/bin/env bash
# Kafka produce benchmark, as recorded in docs/BENCHMARKS.md. In one run (ROUNDS rounds, default
# 3, medians reported), against librdkafka's mock cluster in its own process (loopback TCP, 3
# brokers, one 16-partition topic per tool and round):
#   rowcast   convert of N native events to canal JSON with --sink kafka:// (decode, encode,
#             key, 6 headers, idempotent producer, acks=all);
#   rowcast-txn the same with -o kafka.transactions=true --server bench (a transactional
#             producer, a commit every second: docs/sinks.md, Transactions), reported as a
#             ratio to rowcast's rate (the exactly-once design's target: 0.8x);
#   rowcast-eos the same with --exactly-once --server bench-eos-R (transactions, the tail reads
#             of a start, the rowcast.eos order-key header), reported the same way;
#   kcat -P   producing the same pre-encoded key/value pairs, with the same producer settings
#             and five headers of the same sizes (librdkafka is the ceiling);
#   kafkajs   producing the same pairs with the same five headers (npm kafkajs 2.2.4, acks=all,
#             batches of 5000; not idempotent, which the mock cannot serve to kafkajs: see
#             kafka/kafkajs_produce.js);
#   kafkajs-nh the same without headers (lighter messages than the others send; reported so the
#             ratio against the peer doing less work is on record too).
# Each topic is then counted with kcat: every tool must have delivered exactly N messages.
# usage: bench/run_kafka.sh [BUILD_DIR] [N]   (default: build, 200000); ROUNDS=5, RC_OPTS="--threads 1"
# (extra rowcast options) from the environment
set -eu
B=${1:-build}
N=${2:-200000}
RC=$B/rowcast
MOCK=$B/rowcast-kafka-mock
[ -x "$RC" ] && [ -x "$MOCK" ] || { echo "build first: scripts/test.sh (or cmake --build $B)" >&2; exit 1; }
for c in kcat node npm; do command -v $c >/dev/null || { echo "install first: apt-get install kcat nodejs npm" >&2; exit 1; }; done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=$ROOT/bench/kafka
[ -d "$P/node_modules/kafkajs" ] || (cd "$P" && npm ci --no-audit --no-fund >/dev/null)
. "$ROOT/tests/integration/kafka_lib.sh"
W=$(mktemp -d)
trap 'mock_stop; rm -rf "$W"' EXIT
awk -v N="$N" -f "$ROOT/tests/integration/gen_rows.awk" >"$W/in.nd"
"$RC" convert -q --to oms-canal --keys "$W/in.nd" >"$W/keys"
"$RC" convert -q --to oms-canal "$W/in.nd" >"$W/values"
paste "$W/keys" "$W/values" >"$W/kv"
mock_start "$MOCK" "$W" 3
# kcat sends the same five headers rowcast does (constant values of the same sizes)
HDR_KV=(rowcast.op=insert rowcast.db=d rowcast.table=t rowcast.format=canal "rowcast.position=$W/in.nd:$((N * 170))")
HDRS=()
for h in "${HDR_KV[@]}"; do HDRS+=(-H "$h"); done
SETTINGS=(-X enable.idempotence=true -X acks=all -X linger.ms=5 -X topic.partitioner=murmur2_random)
secs() { /usr/bin/time -f %e -o "$W/t" "$@" && cat "$W/t"; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
R=${ROUNDS:-3}
rc_all=() txn_all=() eos_all=() kcat_all=() js_all=() jsnh_all=()
TOOLS=(rowcast rowcast-txn rowcast-eos kcat kafkajs kafkajs-nh)
for r in $(seq "$R"); do
    for t in "${TOOLS[@]}"; do mock_cmd topic "bench-$t-$r" 16; done
    rc_all+=("$(secs "$RC" convert -q ${RC_OPTS:-} --to oms-canal --sink "kafka://$BOOTSTRAP/bench-rowcast-$r" "$W/in.nd")")
    txn_all+=("$(secs "$RC" convert -q ${RC_OPTS:-} --to oms-canal --server bench -o kafka.transactions=true \
        --sink "kafka://$BOOTSTRAP/bench-rowcast-txn-$r" "$W/in.nd")")
    eos_all+=("$(secs "$RC" convert -q ${RC_OPTS:-} --to oms-canal --server "bench-eos-$r" --exactly-once \
        --sink "kafka://$BOOTSTRAP/bench-rowcast-eos-$r" "$W/in.nd")")
    kcat_all+=("$(secs sh -c 'b=$1 t=$2 f=$3; shift 3; exec kcat -P -b "$b" -t "$t" -K "\t" "$@" <"$f"' sh "$BOOTSTRAP" "bench-kcat-$r" "$W/kv" "${HDRS[@]}" "${SETTINGS[@]}")")
    js_all+=("$(secs node "$P/kafkajs_produce.js" "$BOOTSTRAP" "bench-kafkajs-$r" 5000 "${HDR_KV[@]}" <"$W/kv" 2>/dev/null)")
    jsnh_all+=("$(secs node "$P/kafkajs_produce.js" "$BOOTSTRAP" "bench-kafkajs-nh-$r" <"$W/kv" 2>/dev/null)")
    for t in "${TOOLS[@]}"; do
        got=$(kcat -C -b "$BOOTSTRAP" -t "bench-$t-$r" -o beginning -e -q -f 'x\n' | wc -l)
        [ "$got" = "$N" ] || { echo "$t delivered $got of $N messages (round $r)" >&2; exit 1; }
        # the same headers on the first message (the position differs: rowcast's is the real one)
        want=$([ $t = kafkajs-nh ] || echo "rowcast.op=insert,rowcast.db=d,rowcast.table=t,rowcast.format=canal,rowcast.position=")
        hdr=$(kcat -C -b "$BOOTSTRAP" -t "bench-$t-$r" -p 0 -o beginning -c 1 -e -q -f '%h\n' | sed 's/position=.*/position=/')
        [ "$hdr" = "$want" ] || { echo "$t: headers $hdr, expected $want (round $r)" >&2; exit 1; }
    done
done
rc_s=$(median "${rc_all[@]}") txn_s=$(median "${txn_all[@]}") eos_s=$(median "${eos_all[@]}") kcat_s=$(median "${kcat_all[@]}") js_s=$(median "${js_all[@]}") jsnh_s=$(median "${jsnh_all[@]}")
echo "produce to the mock cluster (3 brokers, 16 partitions, acks=all): $N messages of $(($(wc -c <"$W/values") / N)) bytes with 5 headers; every topic counted with kcat"
echo "median of $R rounds (rowcast: ${rc_all[*]} s; rowcast-txn: ${txn_all[*]} s; rowcast-eos: ${eos_all[*]} s; kcat: ${kcat_all[*]} s; kafkajs: ${js_all[*]} s; kafkajs-nh: ${jsnh_all[*]} s)"
printf '%-11s %8s %12s\n' tool seconds messages/s
for t in rowcast:$rc_s rowcast-txn:$txn_s rowcast-eos:$eos_s kcat:$kcat_s kafkajs:$js_s kafkajs-nh:$jsnh_s; do
    printf '%-11s %8s %12.0f\n' "${t%%:*}" "${t#*:}" "$(echo "$N / (${t#*:} + 0.0001)" | bc -l)"
done
ratio() { printf '%.2f' "$(echo "($1 + 0.0001) / ($rc_s + 0.0001)" | bc -l)"; }
echo "ratio rowcast/kcat: $(ratio "$kcat_s")x   rowcast/kafkajs: $(ratio "$js_s")x   (rowcast/kafkajs-nh, the peer sending no headers: $(ratio "$jsnh_s")x)"
echo "transactions: rowcast-txn/rowcast rate $(printf '%.2f' "$(echo "($rc_s + 0.0001) / ($txn_s + 0.0001)" | bc -l)")x; exactly once: rowcast-eos/rowcast rate $(printf '%.2f' "$(echo "($rc_s + 0.0001) / ($eos_s + 0.0001)" | bc -l)")x (target: 0.8x)"
