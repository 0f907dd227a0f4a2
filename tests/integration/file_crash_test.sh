#!/usr/bin/env bash
# File sinks after a crash: `convert --sink file:F --checkpoint CK` killed with SIGKILL and run
# again with the same command holds every message exactly once. The format is OMS's canal:
# Canal's own (`--to canal`) numbers its messages from 1 in each run where the input carries no
# sequence, so a resumed run's ids start over.
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
RC=$(cd "$(dirname "$RC")" && pwd)/$(basename "$RC") # the tests change directory
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh

N=300000
KILLS=${RC_CRASH_KILLS:-20}
BADEVERY=1000 # line k is bad when k % BADEVERY == 500
SEED=${RC_CRASH_SEED:-$(($(date +%s) % 100000))}
RANDOM=$SEED
echo "file_crash: seed $SEED (RC_CRASH_SEED=$SEED repeats these kill points)"

# ck_field CK NAME: the number after NAME in checkpoint CK (empty when absent)
ck_field() { sed -n "s/^$2 \([0-9]*\).*/\1/p" "$1" 2>/dev/null; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
# read_progress PID BASE FILE: PROG = BASE + the bytes PID has written (/proc/PID/io, read without
# a fork: a busy machine delays a fork more than the run), or FILE's size without /proc/PID/io
[ -r /proc/$$/io ] && HAVE_IO=1 || HAVE_IO=0
read_progress() {
    PROG=$2
    if [ $HAVE_IO = 1 ]; then
        local k v
        { while read -r k v; do [ "$k" = wchar: ] && PROG=$(($2 + v)); done <"/proc/$1/io"; } 2>/dev/null
    else
        PROG=$(size_of "$3")
    fi
    return 0
}
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
    "$RC" convert -q --to oms-canal --sink "file:$ref" "${rdl[@]}" "$in" 2>/dev/null
    expect_rc "$name-reference" $? 0
    local total
    total=$(size_of "$ref")
    local last=0 lastline=0 i=0 runs=0 f target size st line off osize=0 dsize torn=0 what restarts=0
    : >"$T/$name.kills"
    while [ $i -lt "$KILLS" ] && [ $runs -lt $((KILLS * 2)) ]; do
        i=$((i + 1)) runs=$((runs + 1))
        # a point in [2%, 92%) of the run, i-th of KILLS slots, in 1/100000ths
        f=$((2000 + 90000 / KILLS * (i - 1) + (RANDOM * 32768 + RANDOM) % (90000 / KILLS)))
        # odd runs: 2 threads, checkpoints every 20 ms (often more than the 1 MiB output buffer
        # between two, so stdio's writes end mid-line: torn tails); even runs: 1 thread, 10 ms
        local threads=$((i % 2 + 1)) every=$((i % 2 * 10 + 10))
        "$RC" convert -q --threads $threads --to oms-canal --sink "file:$out" --checkpoint "$ck" --checkpoint-interval $every \
            "${dl[@]}" "$in" >/dev/null 2>>"$T/$name.log" &
        local pid=$!
        if [ $((i % 2)) = 1 ]; then # until the output passes a size (what was there + written): a kill between writes
            target=$((total / 100000 * f))
            [ "$target" -gt "$last" ] || target=$((last + total / KILLS / 4)) # a late kill before: some progress
            what="output size $target"
            while read_progress $pid "${osize:-0}" "$out" && [ "$PROG" -lt "$target" ] && kill -0 $pid 2>/dev/null; do :; done
        else # until the checkpoint passes a line (read without a fork): a kill just after one
            target=$((N / 1000 * f / 100))
            [ "$target" -gt "$lastline" ] || target=$((lastline + N / KILLS / 4))
            what="checkpoint line $target"
            while read_ck_line "$ck" && [ "$CKL" -lt "$target" ] && kill -0 $pid 2>/dev/null; do :; done
        fi
        kill -KILL $pid 2>/dev/null
        { wait $pid; } 2>/dev/null
        st=$?
        if [ $st = 0 ]; then
            # the run outpaced the polling (a busy machine) and completed: that output must be
            # right too; the chain then starts over, and this kill is tried again
            expect_eq "$name: run $runs, completed before its kill point ($what)" "$ref" "$out"
            [ "$dead" = 1 ] && expect_eq "$name: run $runs, its dead-letter file" "$ref.dead" "$T/$name.dead"
            echo "$name: run $runs completed before its kill point ($what); starting over"
            rm -f "$out" "$ck" "$T/$name.dead"
            last=0 lastline=0 osize=0 i=$((i - 1)) restarts=$((restarts + 1))
            continue
        elif [ $st != 137 ]; then
            bad "$name: run $runs ended with exit status $st before its kill point ($what)"
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
    "$RC" convert -q --to oms-canal --sink "file:$out" --checkpoint "$ck" "${dl[@]}" "$in" 2>>"$T/$name.log"
    expect_rc "$name-final-run" $? 0
    expect_eq "$name: output after $KILLS kills" "$ref" "$out"
    [ "$dead" = 1 ] && expect_eq "$name: dead-letter file after $KILLS kills" "$ref.dead" "$T/$name.dead"
    # the kills were spread over the run: among the checkpoint lines they found before the last
    # line (mid-run), at least KILLS/2 distinct ones, one in the first third and one in the last,
    # and none past the end. A kill may also find the checkpoint at the last line (the sink
    # writes on a thread of its own, so the run can have stored it when a kill near the end of
    # the output comes; the output check above shows that is fine), but that kill shows nothing
    # mid-run, so it counts for none of these
    local n early late mid over
    n=$(wc -l <"$T/$name.kills")
    read -r early late mid over < <(awk -v N="$N" '$2 > N { over++ } $2 < N { if (!seen[$2]++) mid++; if ($2 < N / 3) early++; if ($2 > N * 2 / 3) late++ }
        END { print early + 0, late + 0, mid + 0, over + 0 }' "$T/$name.kills")
    [ "$n" = "$KILLS" ] && [ "$early" -ge 1 ] && [ "$late" -ge 1 ] && [ "$mid" -ge $((KILLS / 2)) ] && [ "$over" = 0 ] && ok ||
        bad "$name: kills not spread: $n kills (want $KILLS); before line $N, $mid distinct checkpoint lines (want $((KILLS / 2)) or more), $early in the first third and $late in the last (want 1 or more each); $over past line $N"
    TORN=$((TORN + torn))
    echo "$name: $n kills at checkpoint lines $(awk '{printf "%s ", $2}' "$T/$name.kills")($torn left a torn line; $restarts runs completed before their kill point, and the chain started over); final output $(size_of "$out") bytes"
}

# --- 1. messages and refusals (exact text)
M=$(cd "$T" && pwd -P)/m # real paths: the checkpoint names files by them
mkdir "$M"
# expect_err NAME STATUS WANT-STATUS: and stderr ($M/err) equals $M/want
expect_err() { expect_rc "$1" "$2" "$3"; expect_eq "$1: messages" "$M/want" "$M/err"; }
head -5 examples/shop.ndjson >"$M/five"
B5=$(wc -c <"$M/five")
printf 'old\n' >"$M/out"
"$RC" convert -q --sink "file:$M/out" --checkpoint "$M/ck" "$M/five" 2>"$M/err"
st=$?
echo "rowcast convert: no checkpoint $M/ck yet: $M/five is read from its start and appended to $M/out, which already holds 4 bytes" >"$M/want"
expect_err existing-output-no-checkpoint $st 0
printf 'rowcast-checkpoint 2\ninput %s\noffset %s\nline 5\noutput %s %s\n' "$M/five" "$B5" $((B5 + 4)) "$M/out" >"$M/want"
expect_eq checkpoint-v2 "$M/want" "$M/ck"
# a torn tail after the checkpoint (what a kill leaves) is cut; the grown input continues
printf '{"torn' >>"$M/out"
head -8 examples/shop.ndjson >"$M/five"
"$RC" convert -q --sink "file:$M/out" --checkpoint "$M/ck" "$M/five" 2>"$M/err"
st=$?
{ echo "rowcast: resuming $M/five at line 6, byte $B5 (checkpoint $M/ck)"
  echo "rowcast: cut $M/out back from $((B5 + 10)) to $((B5 + 4)) bytes, where checkpoint $M/ck left it"; } >"$M/want"
expect_err resume-cut $st 0
{ echo old; cat "$M/five"; } >"$M/want"
expect_eq resume-cut-output "$M/want" "$M/out"
B8=$(wc -c <"$M/five")
# the same input by other names, from another directory: ./five, an absolute path, a symlink
ln -s "$M/five" "$M/link"
for name in ./five "$M/five" link; do
    (cd "$M" && "$RC" convert -q --sink file:out --checkpoint ck "$name" 2>"$M/err")
    st=$?
    echo "rowcast: resuming $name at line 9, byte $B8 (checkpoint ck)" >"$M/want"
    expect_err "same-input-$name" $st 0
done
expect_eq same-input-output-unchanged <({ echo old; cat "$M/five"; }) "$M/out"
cp "$M/five" "$M/other"
"$RC" convert -q --sink "file:$M/out" --checkpoint "$M/ck" "$M/other" 2>"$M/err"
st=$?
echo "rowcast convert: checkpoint $M/ck is for input $M/five, not $M/other" >"$M/want"
expect_err other-input $st 1
# another sink than the checkpoint's
"$RC" convert -q --checkpoint "$M/ck" "$M/five" 2>"$M/err" >/dev/null
st=$?
echo "rowcast convert: checkpoint $M/ck: made with --sink file:$M/out, this run has no file sink: resume with the same --sink, or delete the checkpoint to start over" >"$M/want"
expect_err other-sink-stdout $st 1
"$RC" convert -q --sink "file:$M/out2" --checkpoint "$M/ck" "$M/five" 2>"$M/err"
st=$?
echo "rowcast convert: checkpoint $M/ck: made with --sink file:$M/out, this run has --sink file:$M/out2: resume with the same --sink, or delete the checkpoint to start over" >"$M/want"
expect_err other-sink-file $st 1
# an output shorter than the checkpoint says: refused, nothing touched
head -c 10 "$M/out" >"$M/short" && cp "$M/short" "$M/out" && cp "$M/ck" "$M/ck.before"
"$RC" convert -q --sink "file:$M/out" --checkpoint "$M/ck" "$M/five" 2>"$M/err"
st=$?
echo "rowcast convert: checkpoint $M/ck: $M/out holds 10 bytes, fewer than the $((B8 + 4)) bytes the checkpoint recorded: it was changed after the checkpoint was written; restore it, or delete the checkpoint (and the file) to start over" >"$M/want"
expect_err shorter-output $st 1
expect_eq shorter-output-untouched "$M/short" "$M/out"
expect_eq shorter-checkpoint-untouched "$M/ck.before" "$M/ck"
# a version 1 checkpoint (older rowcast): read, the file appended to as it is, said; then version 2
head -5 examples/shop.ndjson >"$M/v1.out"
printf 'rowcast-checkpoint 1\ninput %s\noffset %s\nline 5\n' "$M/five" "$B5" >"$M/v1.ck"
"$RC" convert -q --sink "file:$M/v1.out" --checkpoint "$M/v1.ck" "$M/five" 2>"$M/err"
st=$?
{ echo "rowcast convert: checkpoint $M/v1.ck (version 1) has no file sizes: $M/v1.out is appended to as it is; what the stopped run wrote there after line 5 may be there twice"
  echo "rowcast: resuming $M/five at line 6, byte $B5 (checkpoint $M/v1.ck)"; } >"$M/want"
expect_err version-1 $st 0
expect_eq version-1-output "$M/five" "$M/v1.out"
printf 'rowcast-checkpoint 2\ninput %s\noffset %s\nline 8\noutput %s %s\n' "$M/five" "$B8" "$B8" "$M/v1.out" >"$M/want"
expect_eq version-1-rewritten "$M/want" "$M/v1.ck"
# stdout cannot be cut: said
head -5 examples/shop.ndjson >"$M/in.s"
"$RC" convert -q --checkpoint "$M/s.ck" "$M/in.s" >/dev/null 2>&1
cp "$M/five" "$M/in.s"
"$RC" convert -q --checkpoint "$M/s.ck" "$M/in.s" 2>"$M/err" >"$M/s.out"
st=$?
echo "rowcast: resuming $M/in.s at line 6, byte $B5 (checkpoint $M/s.ck); stdout is not cut back: what the stopped run wrote after that is written again" >"$M/want"
expect_err stdout-resume $st 0
expect_eq stdout-resume-output <(tail -n 3 "$M/five") "$M/s.out"
# the dead-letter file is cut back too, and must be the checkpoint's
BAD=tests/integration/data/bad-input.ndjson
"$RC" convert -q --on-error="dead-letter:$M/dead" --sink "file:$M/d.out" --checkpoint "$M/d.ck" "$BAD" 2>/dev/null
printf 'torn' >>"$M/dead"
D=$(wc -c <"$M/dead")
"$RC" convert -q --on-error="dead-letter:$M/dead" --sink "file:$M/d.out" --checkpoint "$M/d.ck" "$BAD" 2>"$M/err"
st=$?
{ echo "rowcast: resuming $BAD at line 10, byte $(wc -c <"$BAD") (checkpoint $M/d.ck)"
  echo "rowcast: cut $M/dead back from $D to $((D - 4)) bytes, where checkpoint $M/d.ck left it"; } >"$M/want"
expect_err dead-letter-cut $st 0
sed -n '2p;4,8p' "$BAD" >"$M/want"
expect_eq dead-letter-cut-file "$M/want" "$M/dead"
"$RC" convert -q --sink "file:$M/d.out" --checkpoint "$M/d.ck" "$BAD" 2>"$M/err"
st=$?
echo "rowcast convert: checkpoint $M/d.ck: made with --on-error=dead-letter:$M/dead, this run has no dead-letter file: resume with the same dead-letter file, or delete the checkpoint to start over" >"$M/want"
expect_err dead-letter-missing $st 1

# --- 2., 3. SIGKILL chains
TORN=0
awk -v N=$N -f "$HERE/gen_rows.awk" >"$T/in.ndjson"
crash_chain plain "$T/in.ndjson" 0
# a kill before the first interval: the checkpoint stored at the start cuts back to what was there
E=$T/early
printf 'old\n' >"$E.out"
"$RC" convert -q --to oms-canal --sink "file:$E.out" --checkpoint "$E.ck" --checkpoint-interval 3600000 "$T/in.ndjson" 2>/dev/null &
pid=$!
while [ "$(size_of "$E.out")" -lt 5000000 ] && kill -0 $pid 2>/dev/null; do :; done
kill -KILL $pid 2>/dev/null
{ wait $pid; } 2>/dev/null
expect_rc early-kill $? 137
[ "$(ck_field "$E.ck" line)" = 0 ] && [ "$(ck_field "$E.ck" output)" = 4 ] && ok || bad "early kill: checkpoint $(cat "$E.ck")"
X=$(size_of "$E.out")
[ "$(tail -c 1 "$E.out" | od -An -c | tr -d ' ')" != '\n' ] && TORN=$((TORN + 1))
"$RC" convert -q --to oms-canal --sink "file:$E.out" --checkpoint "$E.ck" "$T/in.ndjson" 2>"$E.err"
expect_rc early-resume $? 0
{ echo "rowcast: resuming $T/in.ndjson at line 1, byte 0 (checkpoint $E.ck)"
  echo "rowcast: cut $E.out back from $X to 4 bytes, where checkpoint $E.ck left it"; } >"$E.want"
expect_eq early-resume-messages "$E.want" "$E.err"
expect_eq early-resume-output <(echo old; cat "$T/plain.ref") "$E.out"
echo "early: killed at $X bytes before the first interval; the resume cut back to the 4 bytes there before and completed"

# a trickle of lines keeps the interval: each pause of the (threaded) input was a checkpoint (a rename and
# two fsyncs) before. Ten lines 150 ms apart on a pipe, interval 1 hour: the checkpoint file is
# the start's (replaced at the end only), its inode seen every 20 ms
Q=$T/trickle
mkfifo "$Q.in"
"$RC" convert -q --threads 2 --to oms-canal --sink "file:$Q.out" --checkpoint "$Q.ck" --checkpoint-interval 3600000 "$Q.in" 2>"$Q.err" &
pid=$!
for i in $(seq 10); do sed -n "${i}p" "$T/in.ndjson"; sleep 0.15; done >"$Q.in" &
feeder=$!
while kill -0 $feeder 2>/dev/null; do stat -c %i "$Q.ck" 2>/dev/null; sleep 0.02; done | sort -u >"$Q.inodes"
wait $pid
expect_rc trickle $? 0
# the file that replaced it at the end may be seen too: the feeder is gone (EOF, the final
# checkpoint) a moment before `kill -0` says so, on a loaded machine
mid=$(grep -cvx "$(stat -c %i "$Q.ck")" "$Q.inodes")
[ "$mid" -le 1 ] && ok || bad "trickle: $mid checkpoint files seen during ten lines besides the final one, 1 expected"
[ "$(ck_field "$Q.ck" line)" = 10 ] && ok || bad "trickle: checkpoint at the end $(cat "$Q.ck")"

awk -v B=$BADEVERY 'NR % B == 500 { print "{\"op\":\"insert\",\"source\":" ; next } { print }' "$T/in.ndjson" >"$T/bad.ndjson"
crash_chain dead "$T/bad.ndjson" 1

# the bug this is about: some kill left a torn last line that the resume had to cut
[ "$TORN" -gt 0 ] && ok || bad "no kill left a torn line: the cut of a torn tail was not exercised"
echo "file_crash: $pass passed, $fail failed"
[ "$fail" = 0 ]
