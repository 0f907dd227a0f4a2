#!/usr/bin/env bash
# Issue 25 §2: a MariaDB capture's schema history larger than a Kafka record (1 MB by default)
# in the state topic as chunk records rowcast/shop/history/HASH/N (docs/sinks.md, "State in
# Kafka"; docs/design/exactly-once.md §3.2, the order), against the mock cluster in its own
# process. WIDE tables with long column lists make the history > 1 MB; bf_writer changes shop.t
# while the runs go; each ALTER of a wide table changes the history. Killed with SIGKILL at
# points the run says it holds (RC_TEST_STATE_HOLD, tests only):
#   run 1: its first chunks acknowledged, no state naming them yet (after the snapshot);
#   run 2: a DDL's chunks and the state naming them acknowledged, the old chunks not yet deleted;
#   run 3: resumed from the chunks, a DDL's new chunks acknowledged, the state naming the old;
#   run 4: resumes from the old chunks (all there: the order kept them), stops with SIGTERM; run 5
#          --until caught-up.
# Then: the live chunk keys are exactly those the last state names; the outputs of runs 2-5
# replay to what SELECT gives; one chunk deleted (a tombstone) makes the next run refuse to
# start, naming it.
# usage: my_state_history_test.sh path/to/rowcast path/to/bf_writer path/to/rowcast-kafka-mock
N=10000
CHUNK=5000
TABLE=shop.t
WIDE=${WIDE:-26} # tables of 120 ENUM columns of 8 long labels: ~42 KB of history each, 1.1 MB in all
MOCK=${3:?path to rowcast-kafka-mock}
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER; W, URL; start_run, kill9, finish_runs
. "$HERE/kafka_lib.sh"
trap 'for p in $WPID $CAP; do kill -KILL "$p" 2>/dev/null; done; mock_stop; my_test_stop' EXIT
mock_start "$MOCK" "$W" 1 || exit 1
mock_cmd "topic rc-state 1" || exit 1
STATE="kafka://$BOOTSTRAP/rc-state"
RUN_OPTS=(--include 'shop.*' --checkpoint "$STATE" --server shop --server-id 15 --to native)

# the state topic as "KEY SIZE" lines (SIZE -1: a tombstone), in order
state_log() { kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%k %S\n' 2>/dev/null; }
# the history line of the last state record ("HASH CHUNKS BYTES"; empty: none); records end with \036
state_history() {
    kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%k\t%s\036' 2>/dev/null | awk 'BEGIN { RS = "\036" }
        { t = index($0, "\t"); if (substr($0, 1, t - 1) != "rowcast/shop/state") next
          h = ""; n = split(substr($0, t + 1), l, "\n")
          for (i = 1; i <= n; i++) if (l[i] ~ /^history [0-9a-f]+ [0-9]+ [0-9]+$/) h = substr(l[i], 9) }
        END { print h }'
}
# the live chunk keys of hash $1 (their last record has a value), counted
chunks_live() { state_log | awk -v p="rowcast/shop/history/$1/" 'index($1, p) == 1 { v[$1] = $2 } END { n = 0; for (k in v) n += v[k] >= 0; print n }'; }
# every live chunk key, sorted
live_keys() { state_log | awk '$1 ~ /^rowcast\/shop\/history\// { v[$1] = $2 } END { for (k in v) if (v[k] >= 0) print k }' | sort; }
held() { grep -q "held after the $1 of schema history" "$W/err$run"; }
held_hash() { sed -n "s/.*held after the $1 of schema history \([0-9a-f]*\) .*/\1/p" "$W/err$run" | tail -1; }
alter_wide() { my_sql -e "ALTER TABLE shop.wide_1 ADD COLUMN extra_$1_column_with_a_long_enough_name_for_it INT"; }

step "creating $WIDE wide tables"
enum="ENUM($(for l in $(seq 8); do printf "'label number %d of a long enough list',"  "$l"; done | sed 's/,$//'))"
for i in $(seq "$WIDE"); do
    printf 'CREATE TABLE shop.wide_%d (id INT PRIMARY KEY' "$i"
    for c in $(seq 120); do printf ', column_%03d %s' "$c" "$enum"; done
    printf ');\n'
done | my_sql || { bad "creating the wide tables"; exit 1; }
load_table pk
start_writer pk

RC_TEST_STATE_HOLD=chunks start_run
wait_for 60 held chunks || bad "run 1: no chunks held in 60 s: $(tail -3 "$W/err1")"
H1=$(held_hash chunks)
kill9 "its first history chunks acknowledged ($H1), no state naming them"
[ -n "$H1" ] && [ "$(chunks_live "$H1")" -ge 3 ] && ok || bad "run 1: chunks of $H1 in the topic: $(chunks_live "$H1") (3 or more expected: > 1 MB)"
[ "$(state_history)" = "" ] && ok || bad "run 1: a state names a history already: $(state_history)"
stop_if_failed

RC_TEST_STATE_HOLD=tombstones start_run
wait_for 60 grep -q '"op":"update"' "$W/out$run" || bad "run 2: streamed nothing in 60 s"
alter_wide 2
wait_for 60 held tombstones || bad "run 2: no tombstones held in 60 s"
H2=$(held_hash tombstones)
read -r h2 C2 B2 <<<"$(state_history)"
kill9 "a DDL's chunks ($H2) and the state naming them acknowledged, the old ones not deleted"
[ "$h2" = "$H2" ] && [ "$H2" != "$H1" ] && ok || bad "run 2: the state names '$h2', the hold said '$H2' (run 1: $H1)"
[ "$(chunks_live "$H2")" = "$C2" ] && [ "$(chunks_live "$H1")" -ge 3 ] && ok ||
    bad "run 2: live chunks: $(chunks_live "$H2") of $H2 (state: $C2), $(chunks_live "$H1") of $H1"
[ "${B2:-0}" -gt 1048576 ] && ok || bad "run 2: the history is ${B2:-?} bytes, not more than 1 MB (raise WIDE)"
stop_if_failed

RC_TEST_STATE_HOLD=chunks start_run
wait_for 60 grep -qF "resuming from checkpoint $STATE at " "$W/err$run" && ok || bad "run 3: no resuming line: $(tail -3 "$W/err$run")"
grep -qF "schema history $H2 read from $C2 chunks" "$W/err$run" && ok || bad "run 3: no line saying the history came from its chunks"
h1_gone() { [ "$(chunks_live "$H1")" = 0 ]; }
wait_for 30 h1_gone || bad "run 3: the first run's orphan chunks ($H1) not deleted after its first state"
alter_wide 3
wait_for 60 held chunks || bad "run 3: no chunks held in 60 s"
H3=$(held_hash chunks)
kill9 "resumed, a DDL's chunks acknowledged ($H3), the state naming the old ones ($H2)"
[ "$(state_history | cut -d' ' -f1)" = "$H2" ] && ok || bad "run 3: the state names $(state_history), not $H2"
[ "$(chunks_live "$H3")" -ge 3 ] && [ "$(chunks_live "$H2")" = "$C2" ] && [ "$(chunks_live "$H1")" = 0 ] && ok ||
    bad "run 3: live chunks: $H3 $(chunks_live "$H3"), $H2 $(chunks_live "$H2"), $H1 $(chunks_live "$H1") (the first run's not deleted)"
stop_if_failed

start_run
wait_for 60 grep -qF "schema history $H2 read from $C2 chunks" "$W/err$run" && ok || bad "run 4: did not resume from $H2's chunks: $(tail -3 "$W/err$run")"
past_h2() { h=$(state_history | cut -d' ' -f1); [ -n "$h" ] && [ "$h" != "$H2" ]; }
wait_for 60 past_h2 || bad "run 4: the state never named another history than $H2 (the DDL read again)"
finish_runs

read -r h5 C5 B5 <<<"$(state_history)"
want=$(for i in $(seq 0 $((C5 - 1))); do echo "rowcast/shop/history/$h5/$i"; done | sort)
[ "$(live_keys)" = "$want" ] && ok || bad "live chunk keys: $(live_keys | tr '\n' ' '), the state names $h5 $C5"
cat "$W"/out[2-5] >"$W/all"
"$TOOLS/check_stream.sh" "$URL" "$TABLE" "$W/all" --out "$W" 2>"$W/check.err"
expect_rc "replay of the concatenated outputs equal to SELECT" $? 0
cat "$W/check.err"

printf 'rowcast/shop/history/%s/1\t\n' "$h5" | kcat -b "$BOOTSTRAP" -P -t rc-state -p 0 -K '\t' -Z 2>/dev/null
"$RC" capture "$URL" "${RUN_OPTS[@]}" --until caught-up >/dev/null 2>"$W/missing.err"
expect_rc "a run whose history chunk is missing" $? 1
grep -qF "chunk 1 of the schema history $h5 ($C5 chunks, $B5 bytes; key rowcast/shop/history/$h5/1) that the state names is missing" \
    "$W/missing.err" && ok || bad "the missing chunk not named: $(cat "$W/missing.err")"
echo "my_state_history: $pass passed, $fail failed ($((SECONDS - T0)) s, history $B5 bytes in $C5 chunks, $(state_log | wc -l) state records)"
[ "$fail" = 0 ]
