#!/usr/bin/env bash
# native -> F -> native for every format F that rowcast both writes and reads: each event of
# examples/shop.ndjson goes through F and back on its own, json_drops lists the fields that did
# not come back, and the sorted list must equal tests/golden/drops/F.txt — the reviewed record
# of what F cannot carry (docs/formats/F.md explains each). Options for F: F.opts.
# usage: run.sh ROWCAST JSON_DROPS   (from the repository root)
set -u
RC=${1:?rowcast}
DROPS=${2:?json_drops}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
for want in tests/golden/drops/*.txt; do
    f=$(basename "$want" .txt)
    opts=()
    if [ -f "tests/golden/drops/$f.opts" ]; then
        while IFS= read -r o; do [ -n "$o" ] && opts+=(-o "$o"); done <"tests/golden/drops/$f.opts"
    fi
    : >"$T/rt"
    while IFS= read -r line; do
        printf '%s\n' "$line" | "$RC" convert -q --to "$f" "${opts[@]}" 2>/dev/null >"$T/msg"
        if [ -s "$T/msg" ]; then
            "$RC" convert -q --from "$f" --to native "${opts[@]}" "$T/msg" >"$T/back" 2>"$T/err" || { echo "FAIL: drops $f: cannot read back: $(cat "$T/err")" >&2; fail=$((fail + 1)); continue 2; }
            head -n 1 "$T/back" >>"$T/rt"
        else
            echo >>"$T/rt"
        fi
    done <examples/shop.ndjson
    "$DROPS" examples/shop.ndjson "$T/rt" | sort -u >"$T/got"
    if cmp -s "$T/got" "$want"; then
        pass=$((pass + 1))
    else
        echo "FAIL: drops $f: what native -> $f -> native loses changed" >&2
        diff "$want" "$T/got" | head -20 >&2
        fail=$((fail + 1))
    fi
done
echo "drops: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
