#!/usr/bin/env bash
# --exactly-once into Kafka (issue 25 §1, design docs/design/exactly-once.md §2.3 and §2.4a, "E3
# without a partition map"), over TCP against the Kafka mock cluster (kafka_lib.sh, one process),
# a throwaway MariaDB 10.11 (mariadb_lib.sh) and a throwaway PostgreSQL 15 (pg_lib.sh). A case:
# a capture of one table while a writer inserts 200,000 rows (50,000 in transactions of 100, one
# transaction of 100,000, 50,000 in transactions of 100) and updates rows 1-1000 five times
# (each update of a row a transaction of its own) between the last inserts. rowcast is killed
# with SIGKILL at observed points (the topic's records, summed over its partitions' end offsets,
# passed a number, transactions committed, state records stored) and restarted each time; a last
# run catches up (--until caught-up). Then a plain consumer (kcat: read_uncommitted) must see
# every change exactly once (id and value; every rowcast.eos key once), each row's values rising
# in its partition (per-key order), each row's last value as SELECT has it, every run's replay
# line, and the skip rule at work (restarts found records of their replay in Kafka).
# Refused first: --exactly-once without --server, to stdout, convert of stdin, a capture taking
# an initial snapshot. Cases: 1. MariaDB with --exactly-once (--checkpoint kafka://…/rc-state), ten
# kills; 2. the same kills without it, checkpoint in a file: at least once, nothing lost
# (duplicates counted); 3. PostgreSQL with --exactly-once (the slot), ten kills; 4. MariaDB with
# --exactly-once under broker faults (run_case says which). After case 1: a capture of eos_my from
# no position of its own (a lost state) is refused before it writes. EOS_SMALL, EOS_BIG scale the writer
# down; EOS_NO_ALO=1, EOS_NO_PG=1, EOS_NO_FAULTS=1 leave cases 2, 3, 4 out.
# usage: eos_kill_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
. "$HERE/eos_lib.sh" # kafka_offsets, past, changes (PARTS partitions)
pg_test_start || exit 1
PW=$W
my_test_start || { W=$PW; pg_test_stop; exit 1; }
trap 'stop_writer; mock_stop; [ -n "${EOS_KEEP:-}" ] && mkdir -p "$EOS_KEEP" && cp "$W"/*.err "$EOS_KEEP"; my_test_stop; W=$PW; pg_test_stop' EXIT
mock_start "$MOCK" "$W" 3 || exit 1
my_sql -e "CREATE DATABASE d" || exit 1
export LC_ALL=C
SMALL=${EOS_SMALL:-50000} BIG=${EOS_BIG:-100000} UPD=1000 ROUNDS=5 PARTS=64
TOTAL=$((SMALL + BIG + SMALL))
EXPECT=$((TOTAL + UPD * ROUNDS))

# The source of a case: my (MariaDB: table d.CASE, from the binlog position at its start, with
# a checkpoint file) or pg (PostgreSQL: table public.CASE, slot CASE made before the writer).
# sql SRC: the client reading statements from stdin; rows SRC A B: the table's rows A to B
sql() { if [ "$1" = my ]; then my_sql; else pg_test_sql; fi; }
rows() { if [ "$1" = my ]; then echo "d.seq_${2}_to_$3"; else echo "generate_series($2, $3)"; fi; }
table() { if [ "$1" = my ]; then echo "d.$2"; else echo "$2"; fi; }

# the writer: inserts of 100 rows (a transaction each), the big one, more inserts; an update
# round of rows 1-UPD after every tenth of the last inserts (each row's update its own transaction)
writer_sql() { # SRC TABLE
    local i r t
    t=$(table "$1" "$2")
    for ((i = 1; i <= SMALL; i += 100)); do echo "INSERT INTO $t SELECT seq, 0 FROM $(rows "$1" $i $((i + 99))) seq;"; done
    echo "INSERT INTO $t SELECT seq, 0 FROM $(rows "$1" $((SMALL + 1)) $((SMALL + BIG))) seq;"
    for ((i = SMALL + BIG + 1, r = 0; i <= TOTAL; i += 100)); do
        echo "INSERT INTO $t SELECT seq, 0 FROM $(rows "$1" $i $((i + 99))) seq;"
        if [ $(((i - SMALL - BIG - 1) % (SMALL / 10))) = 0 ] && [ $r -lt $ROUNDS ]; then
            seq 1 $UPD | sed "s/.*/UPDATE $t SET v = v + 1 WHERE id = &;/"
            r=$((r + 1))
        fi
    done
}
WRITER=
stop_writer() { [ -n "${WRITER:-}" ] || return 0; kill "$WRITER" 2>/dev/null; wait "$WRITER" 2>/dev/null; WRITER=; }

# cap SRC CASE RUN [ARGS...]: the capture of table CASE into topic CASE (exec: $! is rowcast)
cap() { # --state-kafka among ARGS: MariaDB's checkpoint in the topic rc-state, not a file
    local src=$1 case=$2 run=$3 from ck=$W/ck.$case a args=()
    shift 3
    for a in "$@"; do if [ "$a" = --state-kafka ]; then ck=kafka://$BOOTSTRAP/rc-state; else args+=("$a"); fi; done
    set -- "${args[@]}"
    if [ "$src" = my ]; then from=("$MY_URL/d" --include "d.$case" --checkpoint "$ck" --start "$START")
    else from=("$PG_URL" --include "public.$case" --slot "$case"); fi
    exec "$RC" capture "${from[@]}" --snapshot never --server "$case" \
        --to debezium -o debezium.schemas=false --sink "kafka://$BOOTSTRAP/$case" "$@" 2>>"$W/$case.$run.err"
}

# A point of a run, observed (kinds: docs in the header): reached KIND N CASE RUN
reached() {
    if [ "$1" = t ] || [ "$1" = s ]; then past "$3" "$EXPECT" && return 0; fi # everything is in Kafka: no more commits or states come
    case $1 in
    r) past "$3" "$2" ;;
    t) [ "$(curl -s "$(sed -n 's|.*metrics on \(http://[^ ]*\)/metrics.*|\1|p' "$W/$3.$4.err" | head -1)/metrics" 2>/dev/null |
            sed -n 's/^rowcast_kafka_transactions_total{result="committed"} //p')" -ge "$2" ] 2>/dev/null ;;
    s) [ "$(state_records)" -ge $((STATE0 + $2)) ] ;;
    *) echo "unknown kind of point: $1" >&2; return 1 ;;
    esac
}
state_records() { kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%k\n' 2>/dev/null | grep -c '/state$'; } # not the history's chunks

# run_case SRC CASE POINTS [ARGS...]: the writer and the capture, which at each point is killed
# with SIGKILL and restarted. A point is KIND:N — r:N the topic holds N records (r:+N: N more than
# when the run started; a point already passed is taken 2000 records later, or halfway to the last
# record when that is nearer), t:N the run committed N transactions (its metrics), s:N the state
# topic (--checkpoint kafka://) got N state records from this run (its history chunks not counted) — or f:N:CMD;CMD...: at N records the mock's CMDs (words joined by commas) run
# instead of a kill (a CMD "wait,S" pauses S seconds: the length of a fault; "!" before the CMDs:
# a fault the run must end on, exit 3, before it is restarted). KILLS: the kills made.
run_case() {
    local src=$1 case=$2 points=$3 run=0 pt kind at pid= st now cmds c base=0
    shift 3
    KILLS=0
    mock_cmd topic "$case" $PARTS || return 1
    [ "$src" = my ] && START=$(my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }')
    echo "CREATE TABLE $(table "$src" "$case") (id int PRIMARY KEY, v int);" | sql "$src" || return 1
    if [ "$src" = pg ]; then # the slot, before anything is written
        (cap "$src" "$case" 0 --until caught-up "$@") || { bad "$case: creating slot $case: $(tail -3 "$W/$case.0.err")"; return 1; }
    fi
    writer_sql "$src" "$case" | sql "$src" 2>"$W/writer.err" &
    WRITER=$!
    for pt in $points; do
        kind=${pt%%:*} at=${pt#*:} cmds=
        [ "$kind" = f ] && cmds=${at#*:} at=${at%%:*} kind=r
        if [ -z "$pid" ]; then base=$(kafka_offsets "$case" -1); fi
        [ "${at:0:1}" = + ] && at=$((base + ${at#+}))
        if [ "$kind" = r ]; then
            now=$(kafka_offsets "$case" -1)
            [ "$now" -lt "$at" ] || at=$((now + 2000))
            if [ "$at" -ge "$EXPECT" ]; then # past the end: halfway to it, while a kill still has records to cut
                [ $((EXPECT - now)) -ge 200 ] || break
                at=$((now + (EXPECT - now) / 2))
            fi
        fi
        if [ -z "$pid" ]; then
            run=$((run + 1))
            STATE0=$(state_records)
            cap "$src" "$case" $run --metrics 127.0.0.1:0 "$@" &
            pid=$!
        fi
        if ! wait_until 120 reached "$kind" "$at" "$case" $run; then
            bad "$case run $run: point $pt not reached in 120 s ($(kafka_offsets "$case" -1) records): $(tail -3 "$W/$case.$run.err")"
            kill -9 $pid 2>/dev/null
            wait $pid 2>/dev/null
            return 1
        fi
        if [ -n "$cmds" ]; then
            IFS=';' read -ra cl <<<"${cmds#!}"
            for c in "${cl[@]}"; do
                c=${c//,/ }
                if [ "${c%% *}" = wait ]; then sleep "${c#wait }"; else mock_cmd "$c" || bad "$case: mock: $c"; fi
            done
            echo "$case run $run: at $(kafka_offsets "$case" -1) records in Kafka: ${cmds//,/ }"
            [ "${cmds:0:1}" = '!' ] || continue
            wait $pid
            st=$?
            [ $st = 3 ] || bad "$case run $run: exit $st after the fatal fault, not 3: $(tail -3 "$W/$case.$run.err")"
            echo "$case run $run: ended on the fault: $(grep -m1 -o 'kafka: .*' "$W/$case.$run.err" | cut -c1-160)"
        else
            kill -9 $pid
            wait $pid 2>/dev/null
            KILLS=$((KILLS + 1))
            echo "$case run $run: killed at $(kafka_offsets "$case" -1) records in Kafka (point $pt)"
        fi
        pid=
    done
    if [ -n "$pid" ]; then kill -TERM $pid; wait $pid 2>/dev/null; pid=; fi
    wait "$WRITER" || bad "$case: the writer failed: $(tail -3 "$W/writer.err")"
    WRITER=
    run=$((run + 1))
    (cap "$src" "$case" $run --until caught-up "$@")
    st=$?
    [ $st = 0 ] || bad "$case run $run (--until caught-up): exit $st: $(tail -3 "$W/$case.$run.err")"
    echo "$case run $run: caught up, $(kafka_offsets "$case" -1) records in Kafka"
    RUNS=$run
}

# expected: every insert (v 0) and every update (v 1..ROUNDS of rows 1..UPD)
expected() {
    seq 1 $TOTAL | sed 's/$/ 0/'
    for ((r = 1; r <= ROUNDS; r++)); do seq 1 $UPD | sed "s/\$/ $r/"; done
}

check_case() { # SRC CASE EXACT(1|0)
    local src=$1 case=$2 exact=$3 lo
    changes "$case" >"$W/$case.ch"
    cut -d' ' -f2- "$W/$case.ch" | sort >"$W/$case.got"
    expected | sort >"$W/expected"
    if [ "$exact" = 1 ]; then
        cmp -s "$W/$case.got" "$W/expected" || {
            bad "$case: the topic's changes are not each change once ($(wc -l <"$W/$case.got") records, $EXPECT expected; $(uniq -d "$W/$case.got" | wc -l) duplicated, $(comm -13 "$W/$case.got" "$W/expected" | wc -l) missing)"
            comm -3 "$W/$case.got" "$W/expected" | head -5 >&2
        }
        [ -z "$(sort "$W/$case.keys" | uniq -d | head -1)" ] || bad "$case: a rowcast.eos key twice: $(sort "$W/$case.keys" | uniq -d | head -1)"
    else
        [ -z "$(sort -u "$W/$case.got" | comm -13 - "$W/expected" | head -1)" ] ||
            bad "$case: changes lost: $(sort -u "$W/$case.got" | comm -13 - "$W/expected" | head -3 | tr '\n' ';')"
    fi
    # per-key order: each row's values rise in its partition (at least once repeats a replay's)
    [ "$exact" = 0 ] || awk '($2 in last) && $3 <= last[$2] { print "row " $2 ": value " $3 " after " last[$2]; exit 1 }
                             { last[$2] = $3 }' "$W/$case.ch" >"$W/$case.order" || bad "$case: per-key order: $(cat "$W/$case.order")"
    echo "SELECT id, v FROM $(table "$src" "$case") ORDER BY id" | sql "$src" | tr '\t|' '  ' >"$W/selected"
    awk '{ if (!($2 in v) || $3 > v[$2]) v[$2] = $3 } END { for (k in v) print k, v[k] }' "$W/$case.ch" | sort -n >"$W/$case.last"
    cmp -s "$W/$case.last" "$W/selected" || bad "$case: the rows' last values differ from SELECT"
    lo=$(kafka_offsets "$case" -2)
    [ "$lo" = 0 ] || bad "$case: the mock cut partitions (start offsets sum to $lo): the check cannot see everything"
    echo "$case: $(wc -l <"$W/$case.got") changes in Kafka, $EXPECT made; $(sort -u "$W/$case.got" | wc -l) distinct"
}

# round trips of a few ms and a short producer queue: the capture runs at some thousands of records
# a second, so that a kill lands near its point
for b in 1 2 3; do mock_cmd rtt $b "${EOS_RTT:-5}" || exit 1; done
SLOW=(-o kafka.queue.buffering.max.messages=${EOS_QUEUE:-2000})
T0=$SECONDS
# eos_case SRC CASE POINTS [ARGS...]: a case with --exactly-once, checked, and its runs' replay lines
eos_case() {
    local src=$1 case=$2 skipped=0 said=0 r line n
    run_case "$src" "$case" "$3" --exactly-once "${SLOW[@]}" "${@:4}" || return 1
    [ "${EOS_MIN_KILLS:-0}" -le "$KILLS" ] || [ "$case" = eos_ft ] || bad "$case: $KILLS kills, fewer than ${EOS_MIN_KILLS:-0}"
    check_case "$src" "$case" 1
    for r in $(seq 1 "$RUNS"); do
        line=$(grep 'exactly once:' "$W/$case.$r.err" | head -1)
        [ -n "$line" ] && said=$((said + 1))
        n=$(echo "$line" | sed -n 's/.*exactly once: \([0-9]*\) records.*/\1/p')
        skipped=$((skipped + ${n:-0}))
        echo "$case run $r: ${line:-(killed before its tail reads)}" | sed 's/: rowcast: /: /' 
    done
    # a run killed at its first state record or commit can die before its tail reads: no line
    grep -q 'exactly once:' "$W/$case.$RUNS.err" || bad "$case: the last run did not say its replay line"
    [ "$said" -ge $((RUNS / 2)) ] || bad "$case: $said of $RUNS runs said their replay line"
    [ "$skipped" -gt 0 ] || bad "$case: no restart found records of its replay in Kafka (the skip rule was not exercised)"
}

# ---- 0. refusals: no --server, not Kafka, convert of stdin, an initial snapshot ----
refused() { # NAME WANT CMD...: CMD fails saying WANT
    local name=$1 want=$2 out
    shift 2
    out=$("$@" </dev/null 2>&1) && bad "$name: accepted"
    grep -qF -- "$want" <<<"$out" || bad "$name: not '$want': $(echo "$out" | head -2)"
}
refused "no --server" "--exactly-once needs --server NAME" "$RC" convert --exactly-once --sink "kafka://$BOOTSTRAP/r0" examples/shop.ndjson
refused "stdout" "--exactly-once is into Kafka: give --sink kafka://" "$RC" convert --exactly-once --server r0 examples/shop.ndjson
refused "stdin" "--exactly-once needs exactly one input FILE" "$RC" convert --exactly-once --server r0 --sink "kafka://$BOOTSTRAP/r0"
my_sql -e "CREATE TABLE d.r0 (id int PRIMARY KEY); INSERT INTO d.r0 VALUES (1)" || exit 1
refused "initial snapshot" "--exactly-once: an initial snapshot's rows are not exactly once yet" \
    "$RC" capture "$MY_URL/d" --include d.r0 --server r0 --exactly-once --sink "kafka://$BOOTSTRAP/r0"

# ten kill points: records in Kafka before, inside (4) and after the big transaction, transactions
# committed by a run, and (MariaDB, its state in the topic rc-state) state records stored by a run
P1="r:10000 t:1 r:+6000 t:2 r:$((SMALL + BIG / 2)) t:1 r:$((SMALL + BIG * 4 / 5)) r:+6000 t:1 r:$((SMALL + BIG + SMALL / 2))"
P1MY="r:10000 s:1 r:+6000 t:1 r:$((SMALL + BIG / 2)) s:1 r:$((SMALL + BIG * 4 / 5)) t:1 r:+6000 r:$((SMALL + BIG + SMALL / 2))"
: "${EOS_MIN_KILLS:=$([ "$BIG" = 100000 ] && echo 10 || echo 0)}" # the full-size writer: each of the ten points is reached
mock_cmd topic rc-state 1 || exit 1
# ---- 1. MariaDB, --exactly-once, the checkpoint in Kafka: ten kills ----
eos_case my eos_my "$P1MY" --state-kafka -o kafka.transaction.ms=200 # a replay after a kill can make all that is left in one 1 s transaction: the t: point after it would be the end
# ---- 1b. a lost state: the topic holds eos_my's records, and a capture of --server eos_my starts
# from the server's current position (no --checkpoint; a new, empty state topic): refused before
# it writes anything ----
mock_cmd topic rc-state-new 1 || exit 1
before=$(kafka_offsets eos_my -1)
lost() { "$RC" capture "$MY_URL/d" --include d.eos_my --snapshot never --server eos_my --exactly-once --to debezium \
    -o debezium.schemas=false --sink "kafka://$BOOTSTRAP/eos_my" --until caught-up "$@"; }
refused "lost state (no --checkpoint)" "--exactly-once: topic eos_my holds records of --server eos_my up to " lost
refused "lost state (an empty state topic)" "but this capture starts at the server's current position (no state in --checkpoint): the state" \
    lost --checkpoint "kafka://$BOOTSTRAP/rc-state-new"
[ "$(kafka_offsets eos_my -1)" = "$before" ] || bad "a capture refused for a lost state wrote to eos_my"
# ---- 2. the same without --exactly-once: at least once, nothing lost ----
if [ "${EOS_NO_ALO:-0}" != 1 ]; then
    run_case my alo_my "$(printf '%s\n' $P1 | grep '^r:')" "${SLOW[@]}" && check_case my alo_my 0 # no transactions: no t: points
    echo "alo_my: $(($(wc -l <"$W/alo_my.got") - EXPECT)) duplicates (at least once)"
fi
# ---- 3. PostgreSQL, --exactly-once: ten kills ----
[ "${EOS_NO_PG:-0}" = 1 ] || eos_case pg eos_pg "$P1" -o kafka.transaction.ms=200 # PostgreSQL's capture is faster: commits every 200 ms keep the t: points apart
# ---- 4. MariaDB, --exactly-once under broker faults: retried request errors of Produce,
# AddPartitionsToTxn and EndTxn, leader changes, a broker down for 2 s, one kill, and a fatal
# OUT_OF_ORDER_SEQUENCE the run ends on (exit 3) and is restarted after ----
if [ "${EOS_NO_FAULTS:-0}" != 1 ]; then
    eos_case my eos_ft "f:8000:err,0,6,6,7,6,7,6,7;err,24,3,51;err,26,3,15,16,51 r:$((SMALL / 2))
        f:$((SMALL + BIG / 4)):leader,eos_ft,0,2;leader,eos_ft,1,3;leader,eos_ft,2,1;down,2;wait,2;up,2
        r:$((SMALL + BIG / 2)) f:$((SMALL + BIG + SMALL / 4)):!err,0,1,45"
fi
echo "eos_kill: $((SECONDS - T0)) s"
[ $fail = 0 ] && echo "eos_kill: OK"
exit $fail
