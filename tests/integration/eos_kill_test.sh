#!/usr/bin/env bash
# --exactly-once into Kafka (issue 25 §1, design docs/design/exactly-once.md §2.3 and "E3 without
# a partition map"), over TCP against the Kafka mock cluster (kafka_lib.sh, one process) and a
# throwaway MariaDB 10.11 (mariadb_lib.sh): a capture of d.t with --checkpoint while a writer
# inserts 200,000 rows (50,000 in transactions of 100, one transaction of 100,000, 50,000 in
# transactions of 100) and updates rows 1-1000 five times, each update of a row in a transaction
# of its own, between the inserts. rowcast is killed with SIGKILL at observed points (the
# topic's records, summed over its partitions' end offsets, passed a number: some of them inside
# the big transaction) and restarted each time; a last run catches up (--until caught-up). Then
# a plain consumer (kcat: read_uncommitted) must see every change exactly once (id and value;
# every rowcast.eos key once), the values of each row rising in its partition (per-key order),
# the last value of each row as SELECT has it, every restart's replay line said, and the skip
# rule at work (a restart found records of its replay in Kafka). Case 2: the same kills without
# --exactly-once lose nothing (at least once; duplicates allowed).
# usage: eos_kill_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
my_test_start || exit 1
mock_start "$MOCK" "$W" 3 || exit 1
trap 'stop_writer; mock_stop; [ -n "${EOS_KEEP:-}" ] && mkdir -p "$EOS_KEEP" && cp "$W"/*.err "$W"/ck.* "$EOS_KEEP"; my_test_stop' EXIT
export LC_ALL=C
SMALL=${EOS_SMALL:-50000} BIG=${EOS_BIG:-100000} UPD=1000 ROUNDS=5 PARTS=32
TOTAL=$((SMALL + BIG + SMALL))
EXPECT=$((TOTAL + UPD * ROUNDS))

wait_for() { # SECONDS COMMAND...: true once COMMAND is
    local end=$((SECONDS + $1))
    shift
    until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.05; done
}
# kafka_offsets TOPIC WHEN: the partitions' end (-1) or start (-2) offsets, summed
kafka_offsets() {
    local p args=()
    for p in $(seq 0 $((PARTS - 1))); do args+=(-t "$1:$p:$2"); done
    kcat -Q -b "$BOOTSTRAP" "${args[@]}" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
past() { [ "$(kafka_offsets "$1" -1)" -ge "$2" ]; }

# the writer: inserts of 100 rows (a transaction each), the big one, more inserts; an update
# round of rows 1-UPD after every tenth of the last inserts (each row's update its own transaction)
writer_sql() {
    local i r
    for ((i = 1; i <= SMALL; i += 100)); do echo "INSERT INTO d.t SELECT seq, 0 FROM d.seq_${i}_to_$((i + 99));"; done
    echo "INSERT INTO d.t SELECT seq, 0 FROM d.seq_$((SMALL + 1))_to_$((SMALL + BIG));"
    for ((i = SMALL + BIG + 1, r = 0; i <= TOTAL; i += 100)); do
        echo "INSERT INTO d.t SELECT seq, 0 FROM d.seq_${i}_to_$((i + 99));"
        if [ $(((i - SMALL - BIG - 1) % (SMALL / 10))) = 0 ] && [ $r -lt $ROUNDS ]; then
            seq 1 $UPD | sed 's/.*/UPDATE d.t SET v = v + 1 WHERE id = &;/'
            r=$((r + 1))
        fi
    done
}
WRITER=
stop_writer() { [ -n "${WRITER:-}" ] || return 0; kill "$WRITER" 2>/dev/null; wait "$WRITER" 2>/dev/null; WRITER=; }

# cap CASE RUN [ARGS...]: the capture of d.t into topic CASE from the binlog position START
# (exec: $! is rowcast itself)
cap() {
    local case=$1 run=$2
    shift 2
    exec "$RC" capture "$MY_URL/d" --include d.t --checkpoint "$W/ck.$case" --snapshot never --start "$START" --server "$case" \
        --to debezium -o debezium.schemas=false --sink "kafka://$BOOTSTRAP/$case" "$@" 2>>"$W/$case.$run.err"
}

# run_case CASE KILL_POINTS [ARGS...]: the writer and the capture, killed at each point
run_case() {
    local case=$1 points=$2 run=0 at pid st now
    shift 2
    START=$(my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }')
    my_sql -e "DROP DATABASE IF EXISTS d; CREATE DATABASE d; CREATE TABLE d.t (id int PRIMARY KEY, v int)" || return 1
    mock_cmd topic "$case" $PARTS || return 1
    writer_sql | my_sql 2>"$W/writer.err" &
    WRITER=$!
    for at in $points; do
        run=$((run + 1))
        now=$(kafka_offsets "$case" -1)
        [ "$now" -lt "$at" ] || at=$((now + 2000)) # the last run went past this point: one after its end
        [ "$at" -lt "$EXPECT" ] || { run=$((run - 1)); break; }
        cap "$case" $run "$@" &
        pid=$!
        if ! wait_for 120 past "$case" "$at"; then
            bad "$case run $run: the topic did not pass $at records in 120 s ($(kafka_offsets "$case" -1)): $(tail -3 "$W/$case.$run.err")"
            kill -9 $pid 2>/dev/null
            wait $pid 2>/dev/null
            return 1
        fi
        kill -9 $pid
        wait $pid 2>/dev/null
        echo "$case run $run: killed at $(kafka_offsets "$case" -1) records in Kafka (point $at)"
    done
    wait "$WRITER" || bad "$case: the writer failed: $(tail -3 "$W/writer.err")"
    WRITER=
    run=$((run + 1))
    (cap "$case" $run --until caught-up "$@")
    st=$?
    [ $st = 0 ] || bad "$case run $run (--until caught-up): exit $st: $(tail -3 "$W/$case.$run.err")"
    echo "$case run $run: caught up, $(kafka_offsets "$case" -1) records in Kafka"
    RUNS=$run
}

# changes CASE: "id v" of every row change in the topic, in partition and offset order, with
# the partition first; and "rowcast.eos" keys in $W/CASE.keys
changes() {
    kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%p\t%h\t%s\n' | sort -t "$(printf '\t')" -k1,1n -s |
        awk -F '\t' -v keys="$W/$1.keys" '
            $2 !~ /rowcast.op=(insert|update)/ { next }
            { n = split($2, h, ","); for (i = 1; i <= n; i++) if (h[i] ~ /^rowcast.eos=/) print h[i] > keys
              if (!match($3, /"after":\{"id":-?[0-9]+,"v":-?[0-9]+/)) { print "FAIL: no row in " $3 > "/dev/stderr"; next }
              s = substr($3, RSTART, RLENGTH); gsub(/[^0-9,-]/, "", s); split(s, f, ","); print $1, f[1], f[2] }'
}
# expected: every insert (v 0) and every update (v 1..ROUNDS of rows 1..UPD)
expected() {
    seq 1 $TOTAL | sed 's/$/ 0/'
    for ((r = 1; r <= ROUNDS; r++)); do seq 1 $UPD | sed "s/\$/ $r/"; done
}

check_case() { # CASE EXACT(1|0)
    local case=$1 exact=$2 lo
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
    # per-key order: each row's values rise in its partition (at least once: never fall)
    awk -v exact="$exact" '($2 in last) && ($3 < last[$2] || (exact && $3 == last[$2])) { print "row " $2 ": value " $3 " after " last[$2]; exit 1 }
                           { last[$2] = $3 }' "$W/$case.ch" >"$W/$case.order" || bad "$case: per-key order: $(cat "$W/$case.order")"
    my_sql -e 'SELECT id, v FROM d.t ORDER BY id' | tr '\t' ' ' >"$W/selected"
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
# ---- 1. --exactly-once: kills before, inside (3) and after the big transaction ----
P1="10000 $((SMALL + BIG / 5)) $((SMALL + BIG / 2)) $((SMALL + BIG * 4 / 5)) $((SMALL + BIG + SMALL / 2))"
run_case eos "$P1" --exactly-once "${SLOW[@]}" || exit 1
check_case eos 1
skipped=0 said=0
for r in $(seq 1 "$RUNS"); do
    line=$(grep 'exactly once:' "$W/eos.$r.err" | head -1)
    [ -n "$line" ] && said=$((said + 1))
    n=$(echo "$line" | sed -n 's/.*exactly once: \([0-9]*\) records.*/\1/p')
    skipped=$((skipped + ${n:-0}))
    echo "eos run $r: ${line#rowcast: }"
done
[ "$said" = "$RUNS" ] || bad "eos: $said of $RUNS runs said their replay line"
[ "$skipped" -gt 0 ] || bad "eos: no restart found records of its replay in Kafka (the skip rule was not exercised)"

# ---- 2. the same without --exactly-once: at least once, nothing lost ----
if [ "${EOS_NO_ALO:-0}" != 1 ]; then
    run_case alo "$P1" "${SLOW[@]}" || exit 1
    check_case alo 0
    echo "alo: $(($(wc -l <"$W/alo.got") - EXPECT)) duplicates (at least once)"
fi
echo "eos_kill: $((SECONDS - T0)) s"
[ $fail = 0 ] && echo "eos_kill: OK"
exit $fail
