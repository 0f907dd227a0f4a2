#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds rowcast and converts the bundled
# sample change stream (examples/shop.ndjson) to stdout in the chosen format.
# usage: scripts/demo.sh [FORMAT] [extra convert options...]     (default format: native)
set -eu
. "$(dirname "$0")/lib.sh"
fmt=${1:-native}
[ $# -gt 0 ] && shift
rc_install "${BUILD_PKGS[@]}"
mkdir -p "$ROOT/build-demo"
rc_build "$ROOT/build-demo" -DCMAKE_BUILD_TYPE=Release -DRC_TESTS=OFF -DRC_BENCH=OFF
exec "$ROOT/build-demo/rowcast" convert --from native --to "$fmt" "$@" "$ROOT/examples/shop.ndjson"
