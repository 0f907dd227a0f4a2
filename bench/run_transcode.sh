#!/usr/bin/env bash
# Transcode benchmark, as recorded in docs/BENCHMARKS.md: 200,000 generated Canal messages
# (transcode/gen-canal.awk) to upstream Debezium JSON with rowcast and, in the same run, with the
# same transformation as a jq program (transcode/canal2dbz.jq) and a Node.js script
# (transcode/canal2dbz.js). The three outputs must be identical (checked); prints wall-clock
# messages/s, peak RSS and the ratios, then callgrind instructions per message for rowcast.
# usage: bench/run_transcode.sh [BUILD_DIR] [MESSAGES]   (default: build, 200000)
set -eu
B=${1:-build}
N=${2:-200000}
RC=$B/rowcast
[ -x "$RC" ] || { echo "build first: scripts/test.sh (or cmake --build $B)" >&2; exit 1; }
need=()
command -v jq >/dev/null || need+=(jq)
command -v node >/dev/null || need+=(nodejs)
[ -x /usr/bin/time ] || need+=(time)
command -v valgrind >/dev/null || need+=(valgrind)
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "install first: apt-get install ${need[*]}" >&2; exit 1; }
    apt-get install -y -q "${need[@]}" >/dev/null
fi
H=$(cd "$(dirname "$0")/transcode" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
awk -v N="$N" -f "$H/gen-canal.awk" >"$W/in.json"
OPTS=(-o debezium.flavor=upstream -o debezium.compat=1.6 -o debezium.decimal.handling.mode=string)
# run NAME ROUNDS CMD...: median wall seconds and the largest peak RSS (KiB) of ROUNDS runs of
# CMD reading in.json, output in NAME.out. Wall clock on this shared machine moves by up to 2x
# between identical runs, so the fast tools run several rounds.
run() {
    local name=$1 rounds=$2 r all=() kib=0 k
    shift 2
    for r in $(seq "$rounds"); do
        /usr/bin/time -f '%e %M' -o "$W/$name.time" "$@" <"$W/in.json" >"$W/$name.out"
        read -r secs k <"$W/$name.time"
        all+=("$secs")
        [ "$k" -gt "$kib" ] && kib=$k
    done
    secs=$(printf '%s\n' "${all[@]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
    eval "${name}_s=$secs ${name}_kib=$kib ${name}_all='${all[*]}'"
}
run rowcast 7 "$RC" convert -q --from canal --to debezium "${OPTS[@]}"
run jq 1 jq -c -f "$H/canal2dbz.jq"
run node 5 node "$H/canal2dbz.js"
cmp "$W/rowcast.out" "$W/jq.out" || { echo "jq output differs from rowcast's" >&2; exit 1; }
cmp "$W/rowcast.out" "$W/node.out" || { echo "Node.js output differs from rowcast's" >&2; exit 1; }
rows=$(wc -l <"$W/rowcast.out")
echo "canal -> debezium (upstream, compat 1.6, decimal string): $N messages, $rows events, $(du -m "$W/in.json" | cut -f1) MB in; outputs identical"
echo "medians: rowcast of 7 runs (${rowcast_all}), node of 5 (${node_all}), jq of 1"
printf '%-8s %10s %14s %12s\n' tool seconds messages/s 'peak RSS'
for t in rowcast jq node; do
    eval "s=\$${t}_s kib=\$${t}_kib"
    printf '%-8s %10s %14.0f %9d MB\n' "$t" "$s" "$(echo "$N / ($s + 0.0001)" | bc -l)" $((kib / 1024))
done
printf 'ratio rowcast/jq: %.1fx   rowcast/node: %.1fx\n' "$(echo "($jq_s + 0.0001) / ($rowcast_s + 0.0001)" | bc -l)" \
    "$(echo "($node_s + 0.0001) / ($rowcast_s + 0.0001)" | bc -l)"
M=20000
head -n $M "$W/in.json" >"$W/small.json"
ins=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$RC" convert -q --from canal --to debezium "${OPTS[@]}" "$W/small.json" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
echo "callgrind: $((ins / M)) instructions per message (rowcast, first $M messages, process total)"
