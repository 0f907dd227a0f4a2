#!/usr/bin/env bash
# Encode benchmark, as recorded in docs/BENCHMARKS.md: wall-clock events/s and MB/s of every
# format and of the jansson peers in one run, then callgrind instructions per event for each
# (each target's run minus a run that only generates the workload).
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
echo
echo "callgrind, $N events (instructions per event, workload generation subtracted):"
"$BIN" --list | while IFS= read -r t; do
    printf '%-26s %8d\n' "$t" $((($(count "$t") - base) / N))
done
