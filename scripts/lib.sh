# Shared by demo.sh and test.sh: install missing Debian packages, configure and build.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# rc_install PKG... : apt-get installs the packages that are not installed yet; does nothing
# (and touches no network) when all are present.
rc_install() {
    local need=() p st
    for p in "$@"; do
        st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [ "$st" = "install ok installed" ] || need+=("$p")
    done
    [ ${#need[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "==> installing: ${need[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

BUILD_PKGS=(build-essential cmake librdkafka-dev libjemalloc-dev libpq-dev libmariadb-dev libzstd-dev)
TEST_PKGS=(kcat libcmocka-dev libjansson-dev libavro-dev avro-bin clang libclang-rt-14-dev valgrind tzdata pkgconf man-db openssl postgresql-15 mariadb-server mariadb-client jq curl)
# bench/run_capture_pg.sh (the pg_recvlogical + wal2json peer, /usr/bin/time), whose quick mode
# is the bench_capture_pg test
BENCH_PKGS=(postgresql-15 postgresql-15-wal2json time)
TEST_PKGS+=("${BENCH_PKGS[@]}")

# rc_build DIR [CMAKE ARGS...] : configure (once) and build quietly; prints errors only.
rc_build() {
    local dir=$1
    shift
    cmake -S "$ROOT" -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
    cmake --build "$dir" -j"$(nproc)" >"$dir.build.log" 2>&1 || { grep -E 'error|Error' "$dir.build.log" | head -40; return 1; }
}

# rc_demo_build [PKG...] : for the demo scripts. Sets ROWCAST (and ROWCAST_KAFKA_MOCK, beside it
# unless given): when ROWCAST is given, uses it as built and installs nothing; otherwise installs
# what is missing (BUILD_PKGS and PKG...) and builds build-demo.
rc_demo_build() {
    if [ -z "${ROWCAST:-}" ]; then
        rc_install "${BUILD_PKGS[@]}" "$@"
        mkdir -p "$ROOT/build-demo"
        rc_build "$ROOT/build-demo" -DCMAKE_BUILD_TYPE=Release -DRC_TESTS=OFF -DRC_BENCH=OFF
        ROWCAST=$ROOT/build-demo/rowcast
    fi
    ROWCAST_KAFKA_MOCK=${ROWCAST_KAFKA_MOCK:-$(dirname "$ROWCAST")/rowcast-kafka-mock}
}
