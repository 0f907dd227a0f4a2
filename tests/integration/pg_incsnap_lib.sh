# shellcheck shell=bash
# Shared shell of the PostgreSQL incremental-snapshot kill tests (pg_incsnap_crash,
# pg_incsnap_initial): runs of `capture` (the test's own function) into --sink file:$OUT, killed
# with SIGKILL at observed points, and the checks on what each run read again.
# Needs: W, OUT, RC_SNAPSHOT_VERBOSE=1 (the per-chunk notices), a function `capture`, and
# check.sh's ok/bad. IS_TABLE (default public.t) is the table the chunk notices are of;
# IS_NKEYS (default 1) the number of its key columns (the first columns of "after");
# IS_PER_ID (default 1) bf_writer's key numbers per first key value (composite: 4).
IS_TABLE=${IS_TABLE:-public.t}
IS_NKEYS=${IS_NKEYS:-1}
IS_PER_ID=${IS_PER_ID:-1}
RUN=0
T0=$SECONDS
FROM=() # run R's output starts at FROM[R]: OUT's size when it started, or where it cut OUT back to
step() { echo "[$((SECONDS - T0)) s] $*"; }
start() {
    RUN=$((RUN + 1))
    FROM[$RUN]=$(stat -c %s "$OUT" 2>/dev/null || echo 0)
    (capture "$@" 2>"$W/err.$RUN") &
    CAP=$!
}
# the output of run R (once it started writing: the cut back is said before)
out_of() {
    local cut from=${FROM[$1]}
    cut=$(sed -n "s|^rowcast: cut $OUT back from [0-9]* to \([0-9]*\) bytes.*|\1|p" "$W/err.$1" | head -1)
    [ -n "$cut" ] && from=$cut
    FROM[$1]=$from
    tail -c +$((from + 1)) "$OUT"
}
killed() { # kill -9 at the point just observed
    kill -9 "$CAP"
    wait "$CAP" 2>/dev/null
    CAP=
    step "run $RUN killed: $1"
}
# the newest chunk number a notice of run RUN gave for `what`
chunk_of() { grep -o "incremental snapshot $IS_TABLE chunk [0-9]*: $1" "$W/err.$RUN" | tail -1 | sed 's/.*chunk \([0-9]*\).*/\1/'; }
seen() { [ "$(chunk_of "$1")" -ge "$2" ] 2>/dev/null; }
# the first IS_NKEYS numbers of a native line's "after" (or of a JSON array of key texts), space-separated
key_of() { grep -o '\[[^]]*' | head -1 | tr -d '["[' | tr ',' '\n' | head -"$IS_NKEYS" | tr '\n' ' '; }
# A restarted run: it says where it resumes (after key [...]) and its first read comes after
# that key, within one chunk (chunk: the chunk's rows; CHUNK_IDS: the first key's span of it).
resumed() {
    start
    wait_for 30 grep -q "resuming incremental snapshot of $IS_TABLE after key \[\"[0-9]*\"" "$W/err.$RUN" ||
        { bad "run $RUN: no resuming line: $(cat "$W/err.$RUN")"; return; }
    ok
    local after first
    after=$(grep -m1 -o "resuming incremental snapshot of $IS_TABLE after key \[[^]]*\]" "$W/err.$RUN" | key_of)
    wait_for 30 eval 'out_of $RUN | grep -q "\"op\":\"read\""' || { bad "run $RUN read nothing in 30 s"; return; }
    first=$(out_of $RUN | grep -m1 '"op":"read"' | sed 's/.*"after"://' | key_of)
    awk -v a="$after" -v f="$first" -v span="${CHUNK_IDS:-$CHUNK}" 'BEGIN {
        na = split(a, x, " "); split(f, y, " ")
        for (i = 1; i <= na; i++) if (y[i] + 0 != x[i] + 0) { gt = y[i] + 0 > x[i] + 0; break }
        exit !(gt && y[1] <= x[1] + span) }' && ok ||
        bad "run $RUN: first read [$first], expected the chunk after key [$after]"
    echo "run $RUN resumed after key [$after], first read [$first]"
}
# The keys each restarted run (2..RUN) read that the output before it holds: at most one
# chunk's (CHUNK); prints the counts. Exit status 0 when within.
reads_again() {
    local r from=""
    for r in $(seq 2 "$RUN"); do out_of "$r" >/dev/null; from="$from ${FROM[$r]}"; done
    LC_ALL=C awk -v from="$from" -v chunk="$CHUNK" -v nk="$IS_NKEYS" '
        BEGIN { nb = split(from, b, " ") }
        /"op":"read"/ && match($0, /"after":\[[^]]*/) {
            split(substr($0, RSTART + 9, RLENGTH - 9), f, ","); k = f[1]
            for (i = 2; i <= nk; i++) k = k "," f[i]
            r = 1
            for (i = 1; i <= nb; i++) if (off >= b[i]) r = i + 1
            if ((k in first) && first[k] < r && !((r, k) in again)) { again[r, k] = 1; n[r]++ }
            if (!(k in first)) first[k] = r
            reads++; times[k]++
        }
        { off += length($0) + 1 }
        END {
            for (k in times) if (times[k] > 1) twice++
            printf "reads: %d, keys read more than once: %d\n", reads, twice
            for (r = 2; r <= nb + 1; r++) {
                printf "run %d read again %d keys of the output before it (chunk %d)\n", r, n[r], chunk
                if (n[r] > chunk) bad = 1
            }
            exit bad
        }' "$OUT"
}
# In the background (BIAS: its pid): bf_writer's --bias-file $W/bias follows the reads: half
# of its changes on the keys of the next two chunks.
bias_follows_reads() {
    (
        while :; do
            last=$(tail -c 100000 "$OUT" 2>/dev/null | grep '"op":"read"' | tail -1 | sed -n 's/.*"after":\[\([0-9]*\).*/\1/p')
            last=$((${last:-0} * IS_PER_ID))
            echo "$((last + 1)):$((last + 2 * CHUNK)):50" >"$W/bias.new" && mv "$W/bias.new" "$W/bias"
            sleep 0.2
        done
    ) &
    BIAS=$!
}
# The bias follower and the writer stopped, then run RUN with SIGTERM (exit 143).
stop_all() {
    kill "$BIAS"
    wait "$BIAS" 2>/dev/null
    BIAS=
    kill -TERM "$WPID"
    wait "$WPID"
    WPID=
    kill -TERM "$CAP"
    wait "$CAP"
    expect_rc "run $RUN (SIGTERM: 143)" $? 143
    CAP=
}
# One more run with --until caught-up, to its end (exit 0).
until_caught_up() {
    start --until caught-up
    wait "$CAP"
    expect_rc "run $RUN (--until caught-up)" $? 0
    CAP=
}
