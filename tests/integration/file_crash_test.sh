#!/usr/bin/env bash
# File sinks after a crash: `convert --sink file:F --checkpoint CK` killed with SIGKILL and run
# again with the same command holds every message exactly once.
#  1. resume messages and refusals, exact text: where a run resumes, the cut of the output and
#     dead-letter files, a file shorter than the checkpoint says, another input / another sink,
#     inputs matched by real path, a version 1 checkpoint, no checkpoint but an existing output;
#  2. SIGKILL at KILLS random points of a 300,000-line convert to a file sink, each followed by
#     a resume (one chain; --threads 1 and 2 alternate): after every kill the checkpoint's
#     sizes are a prefix of an uninterrupted run's output at its line, and the final file
#     equals the uninterrupted run's byte for byte;
#  3. the same with bad lines and --on-error=dead-letter:F: the dead-letter file too.
# A kill point is an output size the test waits to see (stat), never a sleep; the checkpoint
# line of every kill is printed and the kills must be spread over the run.
# usage: file_crash_test.sh path/to/rowcast   (run from the repository root)
#        RC_CRASH_SEED=N repeats a run's kill points
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_eq() { if cmp -s "$2" "$3"; then ok; else bad "$1"; diff "$2" "$3" | head -20 >&2; fi; }
expect_rc() { if [ "$2" = "$3" ]; then ok; else bad "$1: exit status $2, expected $3"; fi; }

N=300000
KILLS=${RC_CRASH_KILLS:-20}
BADEVERY=1000 # line k is bad when k % BADEVERY == 500
SEED=${RC_CRASH_SEED:-$(($(date +%s) % 100000))}
RANDOM=$SEED
echo "file_crash: seed $SEED (RC_CRASH_SEED=$SEED repeats these kill points)"

# ck_field CK NAME: the number after NAME in checkpoint CK (empty when absent)
ck_field() { sed -n "s/^$2 \([0-9]*\).*/\1/p" "$1" 2>/dev/null; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
# read_ck_line CK: CKL = the line in checkpoint CK (0 when there is none yet), with no fork
read_ck_line() {
    CKL=0
    local k v
    { while read -r k v; do [ "$k" = line ] && CKL=$v; done <"$1"; } 2>/dev/null
    return 0
}
# bad_before L: bad lines among lines 1..L
bad_before() { echo $(((${1} + BADEVERY - 500) / BADEVERY)); }
# prefix_ok NAME REF FILE SIZE LINES: FILE's first SIZE bytes are REF's, and hold LINES lines
prefix_ok() {
    local name=$1 ref=$2 file=$3 size=$4 lines=$5
    if ! cmp -s -n "$size" "$ref" "$file"; then
        bad "$name: the first $size bytes differ from the uninterrupted run's"
    elif [ "$(head -c "$size" "$ref" | wc -l)" != "$lines" ] || { [ "$size" -gt 0 ] && [ "$(tail -c +"$size" "$ref" | head -c 1 | od -An -c | tr -d ' ')" != '\n' ]; }; then
        bad "$name: $size bytes are not the first $lines lines"
    else
        ok
    fi
}

# crash_chain NAME INPUT DEAD(0|1): KILLS kills and resumes, then the final run; compares
crash_chain() {
    local name=$1 in=$2 dead=$3
    local out=$T/$name.out ck=$T/$name.ck ref=$T/$name.ref dl=() rdl=()
    if [ "$dead" = 1 ]; then dl=(--on-error="dead-letter:$T/$name.dead"); rdl=(--on-error="dead-letter:$ref.dead"); fi
    "$RC" convert -q --to canal --sink "file:$ref" "${rdl[@]}" "$in" 2>/dev/null
    expect_rc "$name-reference" $? 0
    local total
    total=$(size_of "$ref")
    local last=0 lastline=0 i f target size st line off osize dsize torn=0 what
    : >"$T/$name.kills"
    for i in $(seq "$KILLS"); do
        # a point in [2%, 92%) of the run, i-th of KILLS slots, in 1/100000ths
        f=$((2000 + 90000 / KILLS * (i - 1) + (RANDOM * 32768 + RANDOM) % (90000 / KILLS)))
        local threads=$((i % 2 + 1))
        "$RC" convert -q --threads $threads --to canal --sink "file:$out" --checkpoint "$ck" --checkpoint-interval 10 \
            "${dl[@]}" "$in" >/dev/null 2>>"$T/$name.log" &
        local pid=$!
        if [ $((i % 2)) = 1 ]; then # wait until the output passes a size: a kill between writes
            target=$((total / 100000 * f))
            [ "$target" -gt "$last" ] || target=$((last + 1))
            what="output size $target"
            while size=$(size_of "$out") && [ "$size" -lt "$target" ] && kill -0 $pid 2>/dev/null; do :; done
        else # until the checkpoint passes a line (read without a fork): a kill just after one
            target=$((N / 1000 * f / 100))
            [ "$target" -gt "$lastline" ] || target=$((lastline + 1))
            what="checkpoint line $target"
            while read_ck_line "$ck" && [ "$CKL" -lt "$target" ] && kill -0 $pid 2>/dev/null; do :; done
        fi
        kill -KILL $pid 2>/dev/null
        { wait $pid; } 2>/dev/null
        st=$?
        if [ $st != 137 ]; then
            bad "$name: run $i ended (exit $st) before its kill point ($what)"
            break
        fi
        size=$(size_of "$out")
        last=$size
        line=$(ck_field "$ck" line) off=$(ck_field "$ck" offset) osize=$(ck_field "$ck" output)
        lastline=${line:-0}
        if [ -z "$line" ] || [ -z "$osize" ]; then
            bad "$name: kill $i: checkpoint without line or output size: $(cat "$ck" 2>/dev/null)"
            break
        fi
        [ "$size" -gt "$osize" ] && [ "$(tail -c 1 "$out" | od -An -c | tr -d ' ')" != '\n' ] && torn=$((torn + 1))
        echo "$i $line $off $osize $size $what" >>"$T/$name.kills"
        prefix_ok "$name: kill $i (checkpoint line $line)" "$ref" "$out" "$osize" $((line - $(bad_before "$line") * dead))
        if [ "$dead" = 1 ]; then
            dsize=$(ck_field "$ck" dead-letter)
            prefix_ok "$name: kill $i: dead-letter file" "$ref.dead" "$T/$name.dead" "${dsize:-missing}" "$(bad_before "$line")"
        fi
    done
    "$RC" convert -q --to canal --sink "file:$out" --checkpoint "$ck" "${dl[@]}" "$in" 2>>"$T/$name.log"
    expect_rc "$name-final-run" $? 0
    expect_eq "$name: output after $KILLS kills" "$ref" "$out"
    [ "$dead" = 1 ] && expect_eq "$name: dead-letter file after $KILLS kills" "$ref.dead" "$T/$name.dead"
    # the kills were mid-run and spread: checkpoint lines in the first and the last third
    local n min max distinct
    n=$(wc -l <"$T/$name.kills")
    min=$(awk 'NR == 1 || $2 < m {m = $2} END {print m + 0}' "$T/$name.kills")
    max=$(awk '$2 > m {m = $2} END {print m + 0}' "$T/$name.kills")
    distinct=$(awk '{print $2}' "$T/$name.kills" | sort -u | wc -l)
    [ "$n" = "$KILLS" ] && [ "$min" -lt $((N / 3)) ] && [ "$max" -gt $((N * 2 / 3)) ] && [ "$max" -lt "$N" ] &&
        [ "$distinct" -ge $((KILLS * 3 / 4)) ] && ok ||
        bad "$name: kills not spread: $n kills, checkpoint lines $min..$max, $distinct distinct"
    echo "$name: $n kills at checkpoint lines $(awk '{printf "%s ", $2}' "$T/$name.kills")($torn left a torn line); final output $(size_of "$out") bytes"
}

awk -v N=$N -f "$HERE/gen_rows.awk" >"$T/in.ndjson"
crash_chain plain "$T/in.ndjson" 0
awk -v B=$BADEVERY 'NR % B == 500 { print "{\"op\":\"insert\",\"source\":" ; next } { print }' "$T/in.ndjson" >"$T/bad.ndjson"
crash_chain dead "$T/bad.ndjson" 1

echo "file_crash: $pass passed, $fail failed"
[ "$fail" = 0 ]
