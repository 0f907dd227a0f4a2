#!/usr/bin/env bash
# Golden tests: for every tests/golden/<format>/<case>.in (native input events), convert to
# <format> with the options listed in <case>.opts (one -o KEY=VALUE per line, optional) and
# compare the whole output, byte for byte, with <case>.out.
# usage: run.sh path/to/rowcast   (from the repository root)
set -u
RC=${1:?path to rowcast}
pass=0
fail=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for in in tests/golden/*/*.in; do
    fmt=$(basename "$(dirname "$in")")
    case_=${in%.in}
    opts=()
    if [ -f "$case_.opts" ]; then
        while IFS= read -r o; do [ -n "$o" ] && opts+=(-o "$o"); done <"$case_.opts"
    fi
    if ! "$RC" convert -q --from native --to "$fmt" "${opts[@]}" "$in" >"$tmp"; then
        echo "FAIL: $case_: convert exited non-zero" >&2
        fail=$((fail + 1))
    elif cmp -s "$tmp" "$case_.out"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $case_: output differs from $case_.out" >&2
        diff "$case_.out" "$tmp" | head -10 >&2
        fail=$((fail + 1))
    fi
done
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
