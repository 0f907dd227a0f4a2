#!/usr/bin/env bash
# Golden tests: for every tests/golden/<format>/<case>.in (native input events; or <case>.src
# naming such a file, e.g. examples/shop.ndjson), convert to
# <format> with the options listed in <case>.opts (one KEY=VALUE per line, optional; with
# --keys when <case>.keys exists: the message keys instead of the values) and
# compare the whole output, byte for byte, with <case>.out (or with the peer fixture file
# that <case>.expect names, relative to the repository root). Where a <case>.seed.json exists
# (the vendor document's example message, corrected only as the case's notes say), the output
# must also be the same JSON value as the seed example (json_same: key order and whitespace
# aside, numbers by their exact text). A <case>.expect-json names a peer file holding one
# pretty-printed message: the output (one line) must be that message but for whitespace, its
# members in the same order (json_same --ordered; with <case>.unordered in any order). A <case>.expect-sed lists, as a sed script
# run on the expected lines, a difference between the peer's file and rowcast that is inherent.
# A case whose input or expected file is peer data in ../shared is skipped (and counted) when
# ../shared is not beside the repository (tests/common/peers.sh).
# usage: run.sh path/to/rowcast path/to/json_same   (from the repository root)
set -u
. tests/common/peers.sh
RC=${1:?path to rowcast}
SAME=${2:?path to json_same}
pass=0
fail=0
tmp=$(mktemp)
tmpin=$(mktemp)
trap 'rm -f "$tmp" "$tmpin"' EXIT
for in in tests/golden/*/*.in tests/golden/*/*.src; do
    [ -e "$in" ] || continue
    fmt=$(basename "$(dirname "$in")")
    case_=${in%.*}
    # a .src file names an input elsewhere (the examples, a peer fixture in ../shared)
    [ "${in##*.}" = src ] && in=$(cat "$in")
    src=
    [ -f "$case_.expect" ] && src=$(cat "$case_.expect")
    jsrc=
    [ -f "$case_.expect-json" ] && jsrc=$(cat "$case_.expect-json")
    peer_need "$case_" "$in" ${src:+"$src"} ${jsrc:+"$jsrc"} || { [ $? = 2 ] && fail=$((fail + 1)); continue; }
    # a peer fixture is read as its JSON lines, like an expected file (Paimon's opens with a
    # licence comment that no producer would send); one pretty-printed message (a first line
    # "{") is read on one line, as a consumer gets it
    case $in in
    ../shared/testdata/peers/*)
        if [ "$(head -n 1 "$in")" = "{" ]; then "$SAME" --compact "$in" >"$tmpin"; else grep '^{' "$in" >"$tmpin"; fi
        in=$tmpin
        ;;
    esac
    opts=()
    if [ -f "$case_.opts" ]; then
        while IFS= read -r o; do [ -n "$o" ] && [ "${o#\#}" = "$o" ] && opts+=(-o "$o"); done <"$case_.opts"
    fi
    to=$fmt
    from=native
    [ -f "$case_.keys" ] && opts+=(--keys)
    [ -f "$case_.from" ] && from=$(cat "$case_.from")          # a decode case: <from> -> <format>
    if [ -f "$case_.args" ]; then while IFS= read -r a; do [ -n "$a" ] && opts+=("$a"); done <"$case_.args"; fi
    [ -f "$case_.format" ] && to=$(cat "$case_.format")
    if ! "$RC" convert -q --from "$from" --to "$to" "${opts[@]}" "$in" >"$tmp"; then
        echo "FAIL: $case_: convert exited non-zero" >&2
        fail=$((fail + 1))
        continue
    fi
    if [ -n "$jsrc" ]; then
        # <case>.unordered: the peer's message was written by hand, its member order is not
        # a tool's
        ord=--ordered
        [ -f "$case_.unordered" ] && ord=
        if [ "$(wc -l <"$tmp")" != 1 ] || ! "$SAME" $ord "$tmp" "$jsrc"; then
            echo "FAIL: $case_: output is not the message of $jsrc" >&2
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        continue
    fi
    # the expected bytes: <case>.out, or the JSON lines of the file <case>.expect names (peer
    # fixtures used as they are; a missing final newline does not count)
    expected=$case_.out
    if [ -f "$case_.expect" ]; then
        expected=$(mktemp)
        # the JSON lines of the fixture (Paimon's file opens with a licence comment)
        grep '^{' "$src" >"$expected"
        # a difference the peer's file has and rowcast does not reproduce (<case>.expect-sed, a
        # sed script: each line says what and why) is applied to the expected lines
        [ -f "$case_.expect-sed" ] && sed -i -f "$case_.expect-sed" "$expected"
    fi
    if ! cmp -s "$tmp" "$expected"; then
        echo "FAIL: $case_: output differs from ${src:-$case_.out}" >&2
        diff "$expected" "$tmp" | head -10 | cut -c1-300 >&2
        fail=$((fail + 1))
        [ "$expected" != "$case_.out" ] && rm -f "$expected"
        continue
    fi
    [ "$expected" != "$case_.out" ] && rm -f "$expected"
    if [ -f "$case_.seed.json" ] && ! "$SAME" "$case_.out" "$case_.seed.json"; then
        echo "FAIL: $case_: output does not carry the seed example's data" >&2
        fail=$((fail + 1))
        continue
    fi
    # F -> native -> F (cases marked with <case>.roundtrip): the expected messages, read back
    # and written again, come back byte for byte
    if [ -f "$case_.roundtrip" ]; then
        rt=$case_.out
        # a peer fixture: its JSON lines (Paimon's files open with a licence comment)
        [ -f "$case_.expect" ] && { grep '^{' "$src" >"$tmpin"; rt=$tmpin; }
        if ! "$RC" convert -q --from "$to" --to native "${opts[@]}" "$rt" | "$RC" convert -q --to "$to" "${opts[@]}" >"$tmp" ||
            ! cmp -s "$tmp" "$rt"; then
            echo "FAIL: $case_: $to -> native -> $to does not reproduce $rt" >&2
            diff "$rt" "$tmp" | head -6 | cut -c1-300 >&2
            fail=$((fail + 1))
            continue
        fi
    fi
    pass=$((pass + 1))
done
peer_report golden
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
