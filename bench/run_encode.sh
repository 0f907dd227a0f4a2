#!/usr/bin/env bash
# Encode benchmark, as recorded in docs/BENCHMARKS.md: wall-clock events/s of rowcast's
# native encoder and the jansson peer in one run, then callgrind instruction counts per event
# (each encoder's run minus a run that only generates the workload).
# usage: bench/run_encode.sh [BUILD_DIR]   (default: build, configured by scripts/test.sh)
set -eu
B=${1:-build}
BIN=$B/bench/bench_encode
[ -x "$BIN" ] || { echo "build first: scripts/test.sh (or cmake --build $B)" >&2; exit 1; }
"$BIN" --events 200000 --rounds 5
N=20000
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" --only "$1" --events $N 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
base=$(count none)
nat=$(count native)
jan=$(count jansson)
echo "callgrind, $N events: native $(((nat - base) / N)) instructions/event," \
    "jansson $(((jan - base) / N)) instructions/event, ratio $(awk "BEGIN{printf \"%.2f\", ($jan-$base)/($nat-$base)}")x"
