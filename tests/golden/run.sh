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
# The convert's stderr must equal <case>.err byte for byte (the events reported as not
# expressible, the rows --on-loss refused (.args: --on-loss=skip), the messages skipped); a case without one must print nothing on stderr, and
# neither may the two converts of a <case>.roundtrip.
# A <case>.pairs says the input's JSON lines are Kafka keys and values, each key on the line
# before its value (how peers' tests feed Debezium's MongoDB messages): they are read as records
# (--input-layout records), and an output that is not native is written as records and compared
# as key and value lines again.
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
tmperr=$(mktemp)
tmppair=$(mktemp)
trap 'rm -f "$tmp" "$tmpin" "$tmperr" "$tmppair" "$tmpin".*' EXIT
# the JSON lines of a peer fixture: Paimon's open with a licence comment, and its DataWorks
# file indents its one message by a space, which is not part of the message
json_lines() { grep '^ *{' "$1" | sed 's/^ *//'; }
# <case>.pairs: key and value lines -> records (topic, key length, key, value length, value,
# headers); records -> key and value lines
pairs_records() { json_lines "$1" | LC_ALL=C awk '{ if (k == "") { k = $0; next } printf "t\t%d\t%s\t%d\t%s\t\n", length(k), k, length($0), $0; k = "" }'; }
records_pairs() { LC_ALL=C awk -F'\t' '{ print $3; print $5 }' "$1"; }
# convert_case FROM TO INPUT [nopairs]: rowcast convert with the case's options, into $tmp
# (stderr $tmperr); nopairs: the input is not the case's key and value lines (native)
convert_case() {
    local in_=$3 lay=() outl=()
    if [ -n "$pairs" ] && [ -z "${4:-}" ]; then
        pairs_records "$in_" >"$tmppair"
        in_=$tmppair lay=(--input-layout records)
    fi
    [ -n "$pairs" ] && [ "$2" != native ] && outl=(--records)
    "$RC" convert -q --from "$1" --to "$2" "${opts[@]}" "${lay[@]}" "${outl[@]}" "$in_" >"$tmp" 2>"$tmperr" || return 1
    if [ -n "$pairs" ] && [ "$2" != native ]; then records_pairs "$tmp" >"$tmppair" && cp "$tmppair" "$tmp"; fi
}
for in in tests/golden/*/*.in tests/golden/*/*.src; do
    [ -e "$in" ] || continue
    fmt=${in%/*} fmt=${fmt##*/} # the directory's name (no basename, dirname: two processes a case)
    case_=${in%.*}
    # a .src file names an input elsewhere (the examples, a peer fixture in ../shared)
    [ "${in##*.}" = src ] && in=$(cat "$in")
    src=
    [ -f "$case_.expect" ] && src=$(cat "$case_.expect")
    jsrc=
    [ -f "$case_.expect-json" ] && jsrc=$(cat "$case_.expect-json")
    peer_need "$case_" "$in" ${src:+"$src"} ${jsrc:+"$jsrc"} || { [ $? = 2 ] && fail=$((fail + 1)); continue; }
    # a peer fixture is read as it is: rowcast skips the licence comment Paimon's files open
    # with and reads pretty-printed messages over their lines (docs/cli.md)
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
    pairs=
    [ -f "$case_.pairs" ] && pairs=1
    if ! convert_case "$from" "$to" "$in"; then
        echo "FAIL: $case_: convert exited non-zero" >&2
        head -5 "$tmperr" | cut -c1-300 >&2
        fail=$((fail + 1))
        continue
    fi
    # what the run said on stderr: exactly <case>.err, or nothing
    experr=/dev/null
    [ -f "$case_.err" ] && experr=$case_.err
    if ! cmp -s "$tmperr" "$experr"; then
        echo "FAIL: $case_: stderr differs from $experr" >&2
        diff "$experr" "$tmperr" | head -10 | cut -c1-300 >&2
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
        json_lines "$src" >"$expected"
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
    # <case>.same names a file (a peer fixture) whose JSON lines are, one by one, the same JSON
    # values as the output's (json_same: key order and whitespace aside), where the bytes differ
    # inherently and the case's notes (.opts comments) say why
    if [ -f "$case_.same" ]; then
        same_src=$(cat "$case_.same")
        grep '^{' "$same_src" >"$tmpin"
        if [ "$(wc -l <"$tmpin")" != "$(wc -l <"$case_.out")" ]; then
            echo "FAIL: $case_: $(wc -l <"$case_.out") messages, $same_src has $(wc -l <"$tmpin")" >&2
            fail=$((fail + 1))
            continue
        fi
        k=0 bad_line=
        while IFS= read -r l; do
            k=$((k + 1))
            sed -n "${k}p" "$case_.out" >"$tmp.a"
            printf '%s\n' "$l" >"$tmp.b"
            "$SAME" "$tmp.a" "$tmp.b" >/dev/null 2>&1 || { bad_line=$k; break; }
        done <"$tmpin"
        rm -f "$tmp.a" "$tmp.b"
        if [ -n "$bad_line" ]; then
            echo "FAIL: $case_: line $bad_line is not the same JSON value as in $same_src" >&2
            fail=$((fail + 1))
            continue
        fi
    fi
    # F -> native -> F (cases marked with <case>.roundtrip): the expected messages, read back
    # and written again, come back byte for byte; stderr says nothing, or exactly
    # <case>.roundtrip-err (a reader's notices)
    if [ -f "$case_.roundtrip" ]; then
        rt_err=/dev/null
        [ -f "$case_.roundtrip-err" ] && rt_err=$case_.roundtrip-err
        rt=$case_.out rt_exp=$case_.out
        # a peer fixture: its JSON lines (Paimon's files open with a licence comment), and
        # what rowcast writes of them (<case>.expect-sed applied)
        if [ -f "$case_.expect" ]; then
            json_lines "$src" >"$tmpin"
            rt=$tmpin rt_exp=$tmpin
            [ -f "$case_.expect-sed" ] && { sed -f "$case_.expect-sed" "$tmpin" >"$tmpin.exp"; rt_exp=$tmpin.exp; }
        fi
        if ! convert_case "$to" native "$rt" || ! cp "$tmp" "$tmpin.native" || ! cp "$tmperr" "$tmpin.err" ||
            ! convert_case native "$to" "$tmpin.native" nopairs || ! cat "$tmpin.err" "$tmperr" >"$tmpin.err2" ||
            ! cmp -s "$tmp" "$rt_exp" || ! cmp -s "$tmpin.err2" "$rt_err"; then
            echo "FAIL: $case_: $to -> native -> $to does not reproduce $rt (or says something on stderr)" >&2
            diff "$rt_exp" "$tmp" | head -6 | cut -c1-300 >&2
            head -5 "$tmpin.err2" | cut -c1-300 >&2
            fail=$((fail + 1))
            continue
        fi
    fi
    pass=$((pass + 1))
done
peer_report golden
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
