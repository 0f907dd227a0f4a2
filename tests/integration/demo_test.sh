#!/usr/bin/env bash
# The README's first command (the first line of its Quick start), run as the README writes it:
# from the repository root, with no ROWCAST, so the demo installs what is missing and builds
# (scripts/lib.sh, rc_demo_build: build brought up to date when scripts/test.sh made it, else a
# Release build of its own in build-demo, as a new user's first run does). Its stdout must equal
# the reviewed golden tests/golden/demo/native.out (demo_same.sh). Run by scripts/test.sh, not
# by ctest: on a fresh machine it installs PostgreSQL.
# usage: tests/integration/demo_test.sh   (from the repository root)
set -u
cmd=$(awk '/^## Quick start/ { q = 1 } q && /^```sh/ { getline; print; exit }' README.md)
[ "$cmd" = "scripts/demo.sh native" ] || { echo "FAIL: the README's first command is '$cmd', the golden is scripts/demo.sh native's" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "demo: $cmd"
if ! env -u ROWCAST bash -c "$cmd" </dev/null >"$W/out" 2>"$W/err"; then
    echo "FAIL: $cmd: exit status $?" >&2
    tail -20 "$W/err" >&2
    exit 1
fi
bash tests/integration/demo_same.sh tests/golden/demo/native.out "$W/out"
