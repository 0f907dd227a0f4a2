#!/usr/bin/env bash
# Kafka sink under faults, against librdkafka's mock cluster (own process, TCP) with its fault
# injection, counted with kcat:
#  1. retriable produce errors and a broker (partition leader) down and up mid-stream: every
#     message delivered exactly once, in order per key;
#  2. a non-retriable produce error: non-zero exit, a message naming the error and topic, the
#     checkpoint before the first undelivered message; a rerun after the fault completes and
#     nothing is lost;
#  3. SIGTERM mid-stream: flush, exit 143, checkpoint; the rerun completes;
#  4. SIGKILL at several points of a 100,000-message run, restarted with the same checkpoint:
#     every message in Kafka at least once, duplicates only after the checkpoint the killed
#     run had stored.
# Faults and signals come at points the test observes (messages Kafka holds, the checkpoint
# file, what rowcast said), never after fixed sleeps: a quiet or a busy machine changes how long
# the test takes, not what it checks.
# usage: kafka_fault_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/kafka_lib.sh"
kafka_test_start "$MOCK" || exit 1
CONV=(convert -q --to oms-canal)

# keys_in TOPIC: "key value" lines as Kafka holds them, partition by partition in offset order
keys_in() { kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%p %k %s\n' | sed 's/ {.*"data":\[{"id":[0-9]*,"v":\([0-9]*\)}.*/ \1/'; }

# order_ok FILE: for each key, the values (input line numbers) rise in partition order
order_ok() { awk '{ if (($2 in last) && $3 <= last[$2] && bad++ < 5) print "key " $2 ": " $3 " after " last[$2]; last[$2] = $3 } END { exit bad > 0 }' "$1"; }

# 1. retriable errors + leader down/up. The input is a pipe the test feeds: broker 1 (leader of
#    some partitions) goes down once the first 5000 messages are in Kafka, more are sent while it
#    is down, and it comes back once rowcast said it refuses connections
awk -v N=20000 -v K=500 -f "$HERE/gen_rows.awk" >"$W/in20k"
mock_cmd topic f1 8 && mock_cmd leader f1 0 1 && mock_cmd leader f1 1 1 && mock_cmd err 0 40 6 7 19 || bad "fault setup"
mkfifo "$W/f1.fifo"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f1" -o kafka.linger.ms=20 <"$W/f1.fifo" 2>"$W/f1.err" &
pid=$!
exec {FEED}>"$W/f1.fifo"
head -5000 "$W/in20k" >&$FEED
wait_until 120 eval '[ "$(kcat_count f1)" -ge 5000 ]' || bad "retriable faults: the first 5000 messages did not arrive"
mock_cmd down 1
feed_until $FEED "$W/in20k" 5001 50 grep -q "broker ${BOOTSTRAP%%,*}: connection refused" "$W/f1.err" ||
    bad "retriable faults: broker 1 down was not said"
mock_cmd up 1
exec {FEED}>&-
wait $pid || { bad "retriable faults: exit $?"; cat "$W/f1.err" >&2; }
keys_in f1 | sort -k1,1n -s >"$W/f1.got"
n=$(wc -l <"$W/f1.got")
u=$(awk '{print $3}' "$W/f1.got" | sort -u | wc -l)
[ "$n" = 20000 ] && [ "$u" = 20000 ] || bad "retriable faults: $n messages in Kafka, $u distinct, want 20000 exactly once"
order_ok "$W/f1.got" || bad "retriable faults: order per key broken"
echo "retriable errors + broker down/up: $n messages, $u distinct, order per key kept"

# 1b. back-pressure: a producer queue of 50 messages on slow brokers blocks reading, drops nothing
mock_cmd topic f1b 4 && mock_cmd rtt 1 2 && mock_cmd rtt 2 2 && mock_cmd rtt 3 2 || bad "setup"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f1b" -o kafka.queue.buffering.max.messages=50 "$W/in20k" || bad "back-pressure run failed"
mock_cmd rtt 1 0 && mock_cmd rtt 2 0 && mock_cmd rtt 3 0
keys_in f1b >"$W/f1b.got"
u=$(awk '{print $3}' "$W/f1b.got" | sort -u | wc -l)
[ "$(wc -l <"$W/f1b.got")" = 20000 ] && [ "$u" = 20000 ] || bad "back-pressure: $u distinct of 20000"
order_ok "$W/f1b.got" || bad "back-pressure: order per key broken"
echo "back-pressure (queue of 50 messages): 20000 delivered exactly once, in order per key"

# 2. non-retriable error, checkpoint, rerun
mock_cmd topic f2 8 && mock_cmd err 0 3 0 0 87 || bad "fault setup"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f2" --checkpoint "$W/f2.ck" "$W/in20k" 2>"$W/f2.err"
st=$?
[ $st = 3 ] || bad "non-retriable error: exit $st, want 3"
grep -q 'delivery to topic f2 failed: Broker: Broker failed to validate record (INVALID_RECORD)' "$W/f2.err" ||
    bad "non-retriable error: no clear message: $(cat "$W/f2.err")"
grep -q 'messages written were not delivered (.*); checkpoint .* at input offset' "$W/f2.err" || bad "no undelivered count: $(cat "$W/f2.err")"
ckline=$(sed -n 's/^line //p' "$W/f2.ck")
first_missing=$(keys_in f2 | awk '{print $3}' | sort -n | awk 'BEGIN {want = 1} $1 == want {want++} END {print want}')
[ -n "$ckline" ] && [ "$ckline" -lt "$first_missing" ] ||
    bad "checkpoint line $ckline is not before the first undelivered message (line $first_missing)"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f2" --checkpoint "$W/f2.ck" "$W/in20k" || bad "rerun after the fault failed"
u=$(keys_in f2 | awk '{print $3}' | sort -u | wc -l)
[ "$u" = 20000 ] || bad "after the rerun $u of 20000 messages are in Kafka"
echo "non-retriable error: exit 3, checkpoint at line $ckline < first undelivered $first_missing; rerun: $u of 20000 in Kafka"

# 2b. the same error with --on-error=dead-letter: refused messages go to the file, the run
#     completes, Kafka + dead letters hold every message
mock_cmd topic f2b 8 && mock_cmd err 0 3 0 0 87 || bad "fault setup"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f2b" --on-error="dead-letter:$W/f2b.dead" --checkpoint "$W/f2b.ck" "$W/in20k" 2>"$W/f2b.err" ||
    bad "dead-letter run: exit $? ($(cat "$W/f2b.err"))"
nd=$(wc -l <"$W/f2b.dead")
nk=$(keys_in f2b | wc -l)
[ "$nd" -gt 0 ] && [ $((nd + nk)) = 20000 ] || bad "dead-letter: $nk in Kafka + $nd dead-lettered, want 20000"
grep -q '^line 20000$' "$W/f2b.ck" || bad "dead-letter: the checkpoint did not reach the end"
echo "non-retriable error with dead-letter: $nk in Kafka + $nd in the dead-letter file = 20000, exit 0"

# 3. SIGTERM once the checkpoint passed line 1000 (of 20000, on slow brokers): flush, exit 143,
#    checkpoint; rerun completes
mock_cmd topic f3 8 && mock_cmd rtt 1 100 && mock_cmd rtt 2 100 && mock_cmd rtt 3 100 || bad "rtt setup"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f3" --checkpoint "$W/f3.ck" -o kafka.queue.buffering.max.messages=1000 "$W/in20k" 2>"$W/f3.err" &
pid=$!
wait_until 120 eval '[ "$(ck_line "$W/f3.ck")" -ge 1000 ] || ! kill -0 $pid 2>/dev/null'
kill -TERM $pid || bad "SIGTERM: the run ended before its checkpoint reached line 1000"
wait $pid
st=$?
[ "$(ck_line "$W/f3.ck")" -lt 20000 ] || bad "SIGTERM: the run was not stopped mid-stream (checkpoint at the end)"
mock_cmd rtt 1 0 && mock_cmd rtt 2 0 && mock_cmd rtt 3 0
[ $st = 143 ] || bad "SIGTERM: exit $st, want 143 ($(cat "$W/f3.err"))"
grep -q 'SIGTERM: stopping after line' "$W/f3.err" || bad "SIGTERM: no message: $(cat "$W/f3.err")"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f3" --checkpoint "$W/f3.ck" "$W/in20k" || bad "rerun after SIGTERM failed"
u=$(keys_in f3 | awk '{print $3}' | sort -u | wc -l)
n=$(keys_in f3 | wc -l)
[ "$u" = 20000 ] || bad "after SIGTERM and rerun $u of 20000 messages are in Kafka"
echo "SIGTERM: exit 143 after flushing; rerun: $u of 20000 in Kafka ($((n - u)) sent twice)"

# 4. SIGKILL at several points of a 100,000-message run
awk -v N=100000 -f "$HERE/gen_rows.awk" >"$W/in100k"
mock_cmd topic f4 32 || bad "topic f4"
: >"$W/kills"
# slow brokers and a queue of 500 messages: about 25,000 messages a second, so that a test
# process slowed down by a busy machine still kills well before the end
mock_cmd rtt 1 20 && mock_cmd rtt 2 20 && mock_cmd rtt 3 20
# each run is killed as soon as its stored checkpoint is 10,000 lines past where it resumed
for k in 1 2 3 4 5 6; do
    target=$(($(ck_line "$W/f4.ck") + 10000))
    "$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f4" --checkpoint "$W/f4.ck" --checkpoint-interval 50 \
        -o kafka.queue.buffering.max.messages=500 "$W/in100k" 2>>"$W/f4.err" &
    pid=$!
    wait_until 300 eval '[ "$(ck_line "$W/f4.ck")" -ge $target ] || ! kill -0 $pid 2>/dev/null'
    if kill -KILL $pid 2>/dev/null; then
        wait $pid 2>/dev/null
        ck_line "$W/f4.ck" >>"$W/kills"
    else
        wait $pid
        bad "SIGKILL: run $k ended (exit $?) before its checkpoint reached line $target (it is at $(ck_line "$W/f4.ck"))"
    fi
done
mock_cmd rtt 1 0 && mock_cmd rtt 2 0 && mock_cmd rtt 3 0
[ "$(wc -l <"$W/kills")" = 6 ] || bad "only $(wc -l <"$W/kills") of 6 runs were killed mid-run"
"$RC" "${CONV[@]}" --sink "kafka://$BOOTSTRAP/f4" --checkpoint "$W/f4.ck" "$W/in100k" || bad "final run after the kills failed"
keys_in f4 | awk '{print $3}' | sort -n | uniq -c | awk '{print $2, $1}' >"$W/f4.counts"
u=$(wc -l <"$W/f4.counts")
total=$(awk '{s += $2} END {print s}' "$W/f4.counts")
[ "$u" = 100000 ] && [ "$(head -1 "$W/f4.counts")" != "" ] && [ "$(awk 'END {print $1}' "$W/f4.counts")" = 100000 ] ||
    bad "after $(wc -l <"$W/kills") kills: $u distinct of 100000 messages in Kafka"
# a message of line i may be sent once more per kill whose stored checkpoint was before line i
awk 'NR == FNR { ck[++k] = $1; next } { allowed = 1; for (j = 1; j <= k; j++) if (ck[j] < $1) allowed++
     if ($2 > allowed) { print "line " $1 " sent " $2 " times, at most " allowed " allowed"; bad = 1; exit } }
     END { exit bad }' "$W/kills" "$W/f4.counts" || bad "a duplicate outside the unacknowledged tail"
echo "SIGKILL $(wc -l <"$W/kills") times, stored checkpoints (lines) $(tr '\n' ' ' <"$W/kills")-> all 100000 in Kafka, $((total - u)) duplicates, each after its run's checkpoint"
exit $fail
