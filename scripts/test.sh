#!/usr/bin/env bash
# Quick start, command 2: installs what is missing (apt-get), builds and runs every test:
# unit, CLI, golden and integration tests in the normal build (Release) and again under
# ASan+UBSan (but the few tests/CMakeLists.txt lists as Release only), the
# README's first command as written (tests/integration/demo_test.sh), then a bounded libFuzzer
# run of every fuzz target; last, how many cases were skipped for want of ../shared (the peer
# data). Exit status 0 only when everything passed.
# Environment: TEST_JOBS (ctest cases run at once, default 4: 20% faster than 2 in session 20's
# CI, though with four integration cases at once both cores are busy, 1% idle by vmstat),
# FUZZ_SECONDS (per target, default 2: the seeds and regressions, and a short search; 0 skips
# fuzzing), FUZZ_JOBS (targets run at once, default one per core, at most 2).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
rc_install "${BUILD_PKGS[@]}" "${TEST_PKGS[@]}"

. tests/common/peers.sh

status=0
peer_skipped=()
run_ctest() {
    echo "==> ctest ($1)"
    (cd "$2" && ctest --output-on-failure -j"${TEST_JOBS:-4}") || status=1
    # cases skipped for want of ../shared (the peer data), counted at the end
    peer_skipped+=("$(peer_total "$2/Testing/Temporary/LastTest.log") in $1")
}

echo "==> build (Release, as users build it; warnings are errors here: RC_WERROR)"
mkdir -p build
rc_build build -DCMAKE_BUILD_TYPE=Release -DRC_WERROR=ON -DRC_TESTS=ON -DRC_BENCH=ON -DRC_SANITIZE=OFF
run_ctest normal build

echo "==> the README's first command, as written (scripts/demo.sh native: it brings build, just made, up to date)"
bash tests/integration/demo_test.sh || status=1

echo "==> build (sanitizers: ASan + UBSan)"
mkdir -p build-asan
rc_build build-asan -DCMAKE_BUILD_TYPE=Debug -DRC_WERROR=ON -DRC_SANITIZE=ON -DRC_TESTS=ON -DRC_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 run_ctest sanitizers build-asan

secs=${FUZZ_SECONDS:-2}
if [ "$secs" != 0 ]; then
    echo "==> fuzz (libFuzzer, ${secs}s per target)"
    mkdir -p build-fuzz
    CC=clang rc_build build-fuzz -DCMAKE_BUILD_TYPE=Debug -DRC_WERROR=ON -DRC_FUZZ=ON -DRC_TESTS=OFF -DRC_BENCH=OFF
    bash tests/fuzz/run.sh build-fuzz "$secs" || status=1
fi

# one closing count: every case the peer data's absence skipped, in both builds
peers="$(cd .. && pwd)/shared"
[ -d ../shared ] || peers="$peers (not found)"
total=0
for c in "${peer_skipped[@]}"; do total=$((total + ${c%% *})); done
echo "==> peer data $peers: $total cases skipped ($(printf '%s, ' "${peer_skipped[@]}" | sed 's/, $//'))"
if [ $status = 0 ]; then echo "==> all tests passed"; else echo "==> FAILED"; fi
exit $status
