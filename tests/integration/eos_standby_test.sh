#!/usr/bin/env bash
# A standby that takes over (issue 25 §3; docs/operations.md, "A standby that takes over"): three
# instances of one capture (--exactly-once, --standby --takeover-after S) against the Kafka mock
# cluster in its own process, while a writer changes the table; a MariaDB capture (--server
# sb_my, its checkpoint in kafka://…/rc-state, whose group decides the lead) and a PostgreSQL one
# (--server sb_pg, --standby=kafka://…/rc-lead-pg; the slot is the state, and a new leader ends
# the paused old one's walsender). Each step acts at an observed point:
#   1. A and B start: one leads ("active for"), the other waits ("standby for"; its /ready is 200
#      and rowcast_role says standby);
#   2. the leader is SIGKILLed once the topic passed a number of records: the standby takes over
#      (the time from the kill to its "active for" is printed and must be below --takeover-after);
#   3. once every change of the first phase is in Kafka, the new leader is SIGSTOPped (a machine
#      gone) and C starts; the writer's second phase runs; C takes over and writes it whole; then
#      the paused one gets SIGCONT: it must stop with exit 4, saying it lost the lead, without
#      writing a record (the topic's check below would see its records twice);
#   4. C is stopped with SIGTERM. A plain consumer (kcat, read_uncommitted) then sees every change
#      exactly once, each row's values rising in its partition, the last values as SELECT has them.
# usage: eos_standby_test.sh ROWCAST MOCK
set -u
RC=$1 MOCK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
. "$HERE/eos_lib.sh" # kafka_offsets, past, changes
pg_test_start || exit 1
PW=$W
my_test_start || { W=$PW; pg_test_stop; exit 1; }
PIDS=
trap 'for p in $PIDS; do kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done; [ -n "${EOS_KEEP:-}" ] && mkdir -p "$EOS_KEEP" && cp "$W"/*.err "$EOS_KEEP"; mock_stop; my_test_stop; W=$PW; pg_test_stop' EXIT
mock_start "$MOCK" "$W" 3 || exit 1
export LC_ALL=C
PARTS=8 S=${STANDBY_TAKEOVER:-10} N1=30000 BIG=20000 UPD=1000 N2=5000
EXPECT1=$((N1 + BIG)) EXPECT=$((N1 + BIG + 2 * UPD + N2))
mock_cmd topic rc-state 1 && mock_cmd topic rc-lead-pg 1 && mock_cmd topic sb_my $PARTS && mock_cmd topic sb_pg $PARTS || exit 1
for b in 1 2 3; do mock_cmd rtt $b 5 || exit 1; done # some thousands of records a second: the kill lands mid-stream
my_sql -e "CREATE DATABASE d" || exit 1
START=$(my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }')
my_sql -e "CREATE TABLE d.sb (id int PRIMARY KEY, v int)" || exit 1
pg_test_sql -q -c "CREATE TABLE sb (id int PRIMARY KEY, v int)" || exit 1

# inst NAME: an instance of the case's capture (SRC: my or pg), in the background ($! its pid),
# its stderr in W/NAME.err
inst() {
    local from
    if [ "$SRC" = my ]; then from=("$MY_URL/d" --include d.sb --checkpoint "kafka://$BOOTSTRAP/rc-state" --start "$START" --server-id 21 --standby)
    else from=("$PG_URL" --include public.sb --slot sb_pg "--standby=kafka://$BOOTSTRAP/rc-lead-pg"); fi
    "$RC" capture "${from[@]}" --snapshot never --server "sb_$SRC" --exactly-once --takeover-after "$S" --metrics 127.0.0.1:0 \
        -o kafka.queue.buffering.max.messages=2000 --to debezium -o debezium.schemas=false \
        --sink "kafka://$BOOTSTRAP/sb_$SRC" 2>"$W/$1.err" &
    PIDS="$PIDS $!"
}
said() { grep -qF "$2" "$W/$1.err"; }
sql() { if [ "$SRC" = my ]; then my_sql; else pg_test_sql -q; fi; }
rows() { if [ "$SRC" = my ]; then echo "d.seq_${1}_to_$2"; else echo "generate_series($1, $2)"; fi; }
tbl() { if [ "$SRC" = my ]; then echo d.sb; else echo sb; fi; }
metrics_url() { sed -n 's|.*metrics on \(http://[^ ]*\)/metrics.*|\1|p' "$W/$1.err" | head -1; }
writer() { # PHASE: the first inserts N1 rows (transactions of 100) and one transaction of BIG; the second updates rows 1-UPD twice and inserts N2
    local i t
    t=$(tbl)
    if [ "$1" = 1 ]; then
        for ((i = 1; i <= N1; i += 100)); do echo "INSERT INTO $t SELECT seq, 0 FROM $(rows $i $((i + 99))) seq;"; done
        echo "INSERT INTO $t SELECT seq, 0 FROM $(rows $((N1 + 1)) $((N1 + BIG))) seq;"
    else
        for r in 1 2; do seq 1 $UPD | sed "s/.*/UPDATE $t SET v = $r WHERE id = &;/"; done
        for ((i = N1 + BIG + 1; i <= N1 + BIG + N2; i += 100)); do echo "INSERT INTO $t SELECT seq, 0 FROM $(rows $i $((i + 99))) seq;"; done
    fi | sql
}
T0=$SECONDS

# standby_case SRC: the steps below for one source
standby_case() {
SRC=$1
local sb=sb_$1

# ---- 1. A and B start together: one leads, the other waits ----
# (together: on the mock cluster a member joining a group whose leader is busy can take the lead
# from it, a handover that ends the old leader with exit 4; docs/operations.md says why)
inst A$SRC
PA=$!
inst B$SRC
PB=$!
wait_until 60 eval 'said A$SRC "active for --server $sb" || said B$SRC "active for --server $sb"' || bad "nobody leads: $(tail -2 "$W/A$SRC.err" "$W/B$SRC.err")"
if said A$SRC "active for"; then X=A$SRC PX=$PA Y=B$SRC PY=$PB; else X=B$SRC PX=$PB Y=A$SRC PY=$PA; fi
wait_until 60 said $Y "standby for --server $sb: waiting" || bad "$Y did not wait: $(tail -3 "$W/$Y.err")"
u=$(metrics_url $Y)
code=$(curl -s -o "$W/$Y.ready" -w '%{http_code}' "$u/ready")
[ "$code" = 200 ] || bad "$Y's /ready as a standby: $code $(cat "$W/$Y.ready")"
curl -s "$u/metrics" | grep -qx 'rowcast_role{role="standby"} 1' || bad "$Y's rowcast_role is not standby"
said $Y "active for" && bad "$Y leads while $X does"
echo "$X leads, $Y waits"
# PostgreSQL: the leader's new slot is where the capture starts; the writer writes after it
[ "$SRC" = my ] || wait_until 60 said $X "replication slot sb_pg created" || bad "$X made no slot: $(tail -3 "$W/$X.err")"

# ---- 2. the leader killed mid-stream: the standby takes over ----
writer 1 2>"$W/writer1$SRC.err" &
WR=$!
wait_until 120 past $sb 10000 || bad "$X: the topic did not pass 10000 records: $(tail -3 "$W/$X.err")"
kill -0 $PX 2>/dev/null || bad "$X ended before it was killed: $(tail -3 "$W/$X.err")"
kill -KILL $PX
t_kill=$(date +%s.%N)
echo "$X killed at $(kafka_offsets $sb -1) records in Kafka"
wait_until $((3 * S)) said $Y "active for --server $sb" || bad "$Y did not take over within $((3 * S)) s: $(tail -3 "$W/$Y.err")"
took=$(echo "$(date +%s.%N) - $t_kill" | bc)
echo "$Y took over $took s after $X's SIGKILL (--takeover-after $S; $Y says: $(grep -o 'active for.*' "$W/$Y.err"))"
[ "$(echo "$took < $S" | bc)" = 1 ] || bad "the takeover took $took s, more than --takeover-after $S"

# ---- 3. the new leader paused once phase 1 is in Kafka; C takes over; the paused one woken stops without writing ----
wait $WR || bad "writer 1 failed: $(tail -3 "$W/writer1$SRC.err")"
wait_until 120 past $sb $EXPECT1 || bad "$Y: phase 1 not in Kafka ($(kafka_offsets $sb -1) of $EXPECT1): $(tail -3 "$W/$Y.err")"
said $Y "lost the lead" && bad "$Y lost the lead before it was paused: $(grep 'lost the lead' "$W/$Y.err")"
kill -0 $PY 2>/dev/null || bad "$Y ended before it was paused: $(tail -3 "$W/$Y.err")"
kill -STOP $PY
echo "$Y stopped (SIGSTOP) at $(kafka_offsets $sb -1) records in Kafka"
inst C$SRC
C=$!
writer 2 2>"$W/writer2$SRC.err" || bad "writer 2 failed: $(tail -3 "$W/writer2$SRC.err")"
wait_until $((3 * S)) said C$SRC "active for --server $sb" || bad "C did not take over from the paused $Y: $(tail -3 "$W/C$SRC.err")"
wait_until 120 past $sb $EXPECT || bad "C: phase 2 not in Kafka ($(kafka_offsets $sb -1) of $EXPECT): $(tail -3 "$W/C$SRC.err")"
kill -CONT $PY
wait $PY
st=$?
[ $st = 4 ] || bad "$Y after SIGCONT: exit $st, not 4: $(tail -3 "$W/$Y.err")"
said $Y "lost the lead of --server $sb" || bad "$Y did not say it lost the lead: $(tail -3 "$W/$Y.err")"
echo "$Y: $(grep -o 'lost the lead.*' "$W/$Y.err" | head -1)"

# ---- 4. C stopped; the topic holds every change once ----
kill -TERM $C
wait $C
st=$?
[ $st = 143 ] || bad "C on SIGTERM: exit $st: $(tail -3 "$W/C$SRC.err")"
changes $sb >"$W/$sb.ch"
cut -d' ' -f2- "$W/$sb.ch" | sort >"$W/$sb.got"
{ seq 1 $((N1 + BIG + N2)) | sed 's/$/ 0/'; for r in 1 2; do seq 1 $UPD | sed "s/\$/ $r/"; done; } | sort >"$W/expected"
cmp -s "$W/$sb.got" "$W/expected" ||
    bad "the topic's changes are not each change once ($(wc -l <"$W/$sb.got") records, $EXPECT expected; $(uniq -d "$W/$sb.got" | wc -l) duplicated, $(comm -13 "$W/$sb.got" "$W/expected" | wc -l) missing)"
[ -z "$(sort "$W/$sb.keys" | uniq -d | head -1)" ] || bad "a rowcast.eos key twice: $(sort "$W/$sb.keys" | uniq -d | head -1)"
awk '($2 in last) && $3 <= last[$2] { print "row " $2 ": value " $3 " after " last[$2]; exit 1 } { last[$2] = $3 }' "$W/$sb.ch" >"$W/order" ||
    bad "per-key order: $(cat "$W/order")"
echo "SELECT id, v FROM $(tbl) ORDER BY id" | sql | tr '\t|' '  ' >"$W/selected"
awk '{ if (!($2 in v) || $3 > v[$2]) v[$2] = $3 } END { for (k in v) print k, v[k] }' "$W/$sb.ch" | sort -n >"$W/last"
cmp -s "$W/last" "$W/selected" || bad "the rows' last values differ from SELECT"
echo "$sb: $(wc -l <"$W/$sb.got") changes in Kafka, $EXPECT made"
}

standby_case my
standby_case pg
echo "eos_standby: $((SECONDS - T0)) s"
[ $fail = 0 ] && echo "eos_standby: OK"
exit $fail
