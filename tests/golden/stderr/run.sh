#!/usr/bin/env bash
# What rowcast says on stderr, compared exactly: for every tests/golden/stderr/<case>.args
# (the arguments of `rowcast convert`, one per line; paths relative to the repository root),
# the run's stderr must equal <case>.err byte for byte and its exit status <case>.rc (0 when
# absent). For runs that are not a golden case of tests/golden/<format>/ (whose <case>.err
# holds the stderr of the case's convert): inputs kept here for their messages, such as
# messages skipped with --on-error skip. The config-*.conf files are the --config files of the
# config-*.args cases (docs/config.md: each bad line said with its line).
# usage: run.sh ROWCAST   (from the repository root)
set -u
RC=${1:?rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
for a in tests/golden/stderr/*.args; do
    case_=${a%.args}
    args=()
    while IFS= read -r l; do [ -n "$l" ] && args+=("$l"); done <"$a"
    "$RC" convert "${args[@]}" >"$T/out" 2>"$T/err"
    rc=$?
    want_rc=0
    [ -f "$case_.rc" ] && want_rc=$(cat "$case_.rc")
    if [ "$rc" != "$want_rc" ]; then
        echo "FAIL: $case_: exit status $rc, expected $want_rc" >&2
        fail=$((fail + 1))
    elif ! cmp -s "$T/err" "$case_.err"; then
        echo "FAIL: $case_: stderr differs from $case_.err" >&2
        diff "$case_.err" "$T/err" | head -10 | cut -c1-300 >&2
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
echo "stderr: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
