#!/usr/bin/env bash
# Quick start, command 2: installs what is missing (apt-get), builds and runs every test:
# unit, CLI and golden tests in the normal build (Release) and again under ASan+UBSan, the
# README's first command as written (tests/integration/demo_test.sh), then a bounded libFuzzer
# run of every fuzz target. Exit status 0 only when everything passed.
# Environment: FUZZ_SECONDS (per target, default 20; 0 skips fuzzing).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
rc_install "${BUILD_PKGS[@]}" "${TEST_PKGS[@]}"

status=0
run_ctest() {
    echo "==> ctest ($1)"
    (cd "$2" && ctest --output-on-failure -j2) || status=1
    # cases skipped for want of ../shared (the peer data) say so here too, not only in the log
    grep -h 'cases skipped$' "$2/Testing/Temporary/LastTest.log" 2>/dev/null || true
}

echo "==> build (Release, as users build it; warnings are errors here: RC_WERROR)"
mkdir -p build
rc_build build -DCMAKE_BUILD_TYPE=Release -DRC_WERROR=ON -DRC_TESTS=ON -DRC_BENCH=ON -DRC_SANITIZE=OFF
run_ctest normal build

echo "==> the README's first command, as written (scripts/demo.sh native: its own build in build-demo)"
bash tests/integration/demo_test.sh || status=1

echo "==> build (sanitizers: ASan + UBSan)"
mkdir -p build-asan
rc_build build-asan -DCMAKE_BUILD_TYPE=Debug -DRC_WERROR=ON -DRC_SANITIZE=ON -DRC_TESTS=ON -DRC_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 run_ctest sanitizers build-asan

secs=${FUZZ_SECONDS:-20}
if [ "$secs" != 0 ]; then
    echo "==> fuzz (libFuzzer, ${secs}s per target)"
    mkdir -p build-fuzz
    CC=clang rc_build build-fuzz -DCMAKE_BUILD_TYPE=Debug -DRC_WERROR=ON -DRC_FUZZ=ON -DRC_TESTS=OFF -DRC_BENCH=OFF
    bash tests/fuzz/run.sh build-fuzz "$secs" || status=1
fi

if [ $status = 0 ]; then echo "==> all tests passed"; else echo "==> FAILED"; fi
exit $status
