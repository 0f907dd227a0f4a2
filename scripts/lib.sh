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
# bench/run_capture_pg.sh (the pg_recvlogical + wal2json peer, /usr/bin/time), whose quick mode
# is the bench_capture_pg test
BENCH_PKGS=(postgresql-15 postgresql-15-wal2json time)
# (one assignment, so that sourcing this file twice, as the throwaway scripts do, lists each once)
TEST_PKGS=(kcat libcmocka-dev libjansson-dev libavro-dev avro-bin clang libclang-rt-14-dev valgrind tzdata pkgconf man-db openssl postgresql-15 postgresql-15-postgis-3 mariadb-server mariadb-client jq curl "${BENCH_PKGS[@]}")

# rc_build DIR [CMAKE ARGS...] : configure (once) and build quietly; prints errors only.
rc_build() {
    local dir=$1
    shift
    cmake -S "$ROOT" -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
    cmake --build "$dir" -j"$(nproc)" >"$dir.build.log" 2>&1 || { grep -E 'error|Error' "$dir.build.log" | head -40; return 1; }
}

# rc_demo_build [PKG...] : for the demo scripts. Sets ROWCAST (and ROWCAST_KAFKA_MOCK, beside it
# unless given): when ROWCAST is given, uses it as built and installs nothing; otherwise installs
# what is missing (BUILD_PKGS and PKG...) and builds: in build, the Release build the test
# command makes, when it is configured (only the two programs the demos run, brought up to
# date), else in a Release build of its own, build-demo (without the tests: a first run
# builds only what it runs).
rc_demo_build() {
    if [ -z "${ROWCAST:-}" ]; then
        rc_install "${BUILD_PKGS[@]}" "$@"
        local dir=$ROOT/build-demo
        if grep -qx 'CMAKE_BUILD_TYPE:STRING=Release' "$ROOT/build/CMakeCache.txt" 2>/dev/null &&
            ! grep -qx 'RC_SANITIZE:BOOL=ON' "$ROOT/build/CMakeCache.txt"; then
            dir=$ROOT/build
            cmake --build "$dir" -j"$(nproc)" --target rowcast-cli rowcast-kafka-mock >"$dir.demo-build.log" 2>&1 ||
                { grep -E 'error|Error' "$dir.demo-build.log" | head -40; return 1; }
        else
            mkdir -p "$dir"
            rc_build "$dir" -DCMAKE_BUILD_TYPE=Release -DRC_TESTS=OFF -DRC_BENCH=OFF
        fi
        ROWCAST=$dir/rowcast
    fi
    ROWCAST_KAFKA_MOCK=${ROWCAST_KAFKA_MOCK:-$(dirname "$ROWCAST")/rowcast-kafka-mock}
}

# rc_free_port: prints a loopback TCP port nobody listens on now (the throwaway servers retry
# with another one if it is taken before they bind)
rc_free_port() {
    local p
    while :; do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
}

# rc_throwaway_main PREFIX ARG...: the command line of a throwaway server script run as a
# program (scripts/pg-throwaway.sh, scripts/mariadb-throwaway.sh): `start [DIR]` calls
# PREFIX_throwaway_start DIR (a new temporary directory when absent; removed if the start fails)
# and prints PREFIX_throwaway_env's export lines; `stop DIR` calls PREFIX_throwaway_stop DIR.
rc_throwaway_main() {
    local prefix=$1 d
    shift
    set -eu
    case "${1:-}" in
    start)
        d=${2:-$(mktemp -d)}
        "${prefix}_throwaway_start" "$d" >&2 || { rm -rf "$d"; exit 1; }
        "${prefix}_throwaway_env"
        ;;
    stop)
        [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
        "${prefix}_throwaway_stop" "$2"
        ;;
    *)
        echo "usage: eval \"\$($0 start [DIR])\"  |  $0 stop DIR" >&2
        exit 2
        ;;
    esac
}
