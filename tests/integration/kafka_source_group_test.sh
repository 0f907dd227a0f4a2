#!/usr/bin/env bash
# Issue 27 step K2: a consumer group of rowcast members (docs/sources/kafka.md, "Rebalances"),
# against the mock cluster in its own process. Topic `in` (12 partitions) gets messages with
# unique ids (native inserts keyed by their id), in three phases, each member writing its own
# file:
#   1. member A reads phase 1 alone; B joins: the two split the partitions (each one's log says
#      it was assigned fewer than 12);
#   2. phase 2 is fed while they run; B is killed with SIGKILL once it wrote 500 records of it: A
#      takes all 12 partitions after B's session times out (6 s);
#   3. phase 3 is fed; C joins once A wrote 500 records of it: A's partitions are revoked and
#      drained (its log says so), A and C split them.
# Then every id is written at least once; the only duplicates are ids B wrote (its
# unacknowledged tail at the kill), counted; A and C together write no id twice (the drain).
# A member stopped past its session (SIGSTOP, SIGCONT) finds its partitions lost, commits nothing,
# and the group still writes every message. Each member's metrics (K4) show its partitions' committed offsets, high watermarks and lags:
# at the end A's and C's hold every message, committed; a new group at latest reads nothing.
# usage: kafka_source_group_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
T0=$SECONDS
P1=5000 P2=20000 P3=35000 # the last id of each phase
GROUP=(-o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)
mock_cmd "topic in 12" || exit 1
msgs() { # FIRST LAST: "id|message" lines
    awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "%d|{\"op\":\"insert\",\"source\":{\"kind\":\"mysql\",\"server\":\"s\",\"db\":\"d\",\"table\":\"t\"},\"pos\":{\"file\":\"b.000001\",\"offset\":%d},\"ts_us\":1732960800000000,\"columns\":[{\"name\":\"id\",\"type\":\"bigint\",\"pk\":true},{\"name\":\"v\",\"type\":\"varchar(20)\"}],\"after\":[%d,\"m%d\"]}\n", i, i, i, i }'
}
msgs 1 "$P1" | kcat -b "$BOOTSTRAP" -P -t in -K '|' 2>"$W/kcat.err" || { bad "kcat -P: $(cat "$W/kcat.err")"; exit 1; }
# phases 2 and 3 go through one kcat reading a pipe, fed a chunk at a time while the members run
mkfifo "$W/feed"
kcat -b "$BOOTSTRAP" -P -t in -K '|' <"$W/feed" 2>"$W/kcat2.err" &
feeder=$!
exec {FEED}>"$W/feed"
feed() { # FIRST LAST: 200 messages every 20 ms
    local i
    for ((i = $1; i <= $2; i += 200)); do
        msgs "$i" $((i + 199 > $2 ? $2 : i + 199)) >&"$FEED"
        nap 0.02
    done
}
member() { # NAME: a member writing file:$W/out.NAME, its log in $W/err.NAME
    "$RC" convert --source "kafka://$BOOTSTRAP/in?group=g" --to debezium --sink "file:$W/out.$1" "${GROUP[@]}" \
        --metrics 127.0.0.1:0 --progress=200ms >/dev/null 2>"$W/err.$1" {FEED}>&- & # not holding the feed's pipe open
}
ids() { cat "$@" 2>/dev/null | grep -o '"after":{"id":[0-9]*' | grep -o '[0-9]*$'; }
written_over() { [ "$(ids "$W/out.$1" | awk -v f="$2" '$1 > f' | wc -l)" -ge "$3" ]; } # NAME ID N: N ids past ID
# assigned NAME LO HI: the member's last assignment is of LO to HI partitions
assigned() { local n; n=$(grep -o '[0-9]* partitions\? assigned' "$W/err.$1" 2>/dev/null | tail -1 | cut -d' ' -f1); [ -n "$n" ] && [ "$n" -ge "$2" ] && [ "$n" -le "$3" ]; }

# 1. A alone, then B joins: a split
member A
a=$!
wait_for 30 assigned A 12 12 || bad "A was not assigned the 12 partitions"
wait_for 30 written_over A 0 "$P1" || bad "A did not write phase 1"
member B
b=$!
wait_for 30 assigned B 1 11 && wait_for 30 assigned A 1 11 && ok || bad "A and B did not split the partitions: $(grep -h assigned "$W/err.A" "$W/err.B")"
echo "[$((SECONDS - T0)) s] split: A $(grep -o '[0-9]* partitions\? assigned' "$W/err.A" | tail -1), B $(grep -o '[0-9]* partitions\? assigned' "$W/err.B" | tail -1)"

# 2. phase 2 fed; B killed once it wrote 500 records of it
feed $((P1 + 1)) "$P2" &
fed=$!
wait_for 60 written_over B "$P1" 500 || bad "B did not write 500 records of phase 2"
kill -KILL "$b"
wait "$b" 2>/dev/null
[ -z "$(tail -c 1 "$W/out.B")" ] || sed -i '$d' "$W/out.B" # a line the kill cut short
echo "[$((SECONDS - T0)) s] B killed after $(ids "$W/out.B" | wc -l) records"
wait "$fed"
wait_for 60 assigned A 12 12 && ok || bad "A did not take B's partitions after its session timed out"
echo "[$((SECONDS - T0)) s] A has the 12 partitions again"
# (kcat -P holds its last line or two back until more input or its end: not all of the last chunk)
wait_for 60 written_over A "$P1" $((P2 - P1 - 200 - $(ids "$W/out.B" | awk -v f="$P1" '$1 > f' | wc -l))) || bad "A did not write the rest of phase 2"

# 3. phase 3 fed; C joins once A wrote 500 records of it
feed $((P2 + 1)) "$P3" &
fed=$!
wait_for 60 written_over A "$P2" 500 || bad "A did not write 500 records of phase 3"
revokes=$(grep -c 'revoked' "$W/err.A")
member C
c=$!
wait_for 60 assigned C 1 11 && wait_for 30 assigned A 1 11 && ok || bad "A and C did not split the partitions: $(grep -h assigned "$W/err.A" "$W/err.C")"
[ "$(grep -c 'revoked' "$W/err.A")" -gt "$revokes" ] && ok || bad "A's partitions were not revoked when C joined"
grep -h 'revoked\|drain' "$W/err.A"
wait "$fed"
exec {FEED}>&-
wait "$feeder"
all_written() { [ "$(ids "$W"/out.* | sort -u | wc -l)" -ge "$P3" ]; }
wait_for 60 all_written || bad "not every id was written in 60 s"
# K4: each member's metrics (curl): per partition the committed offset, high watermark and lag;
# once everything is committed, A's and C's partitions together hold every message, lag 0, and
# every committed offset is at its high watermark
scrape() { curl -sf "$(sed -n "s/^rowcast: metrics on //p" "$W/err.$1")"; }
fam_sum() { awk -v f="$1" '$1 ~ "^"f"[{ ]" { s += $2 } END { print s + 0 }'; } # FAMILY: the sum of its samples
# committed offsets that are not their partition's high watermark (a partition assigned with
# nothing left to read has no commit since its assignment, so no sample: docs/metrics.md)
behind() { awk -F'[{}" ]+' '/^rowcast_kafka_source_committed_offset\{/ { c[$5] = $6 } /^rowcast_kafka_source_high_watermark\{/ { h[$5] = $6 }
    END { n = 0; for (p in c) if (c[p] != h[p]) n++; print n }'; }
caught_up() {
    local m h=0 n
    for n in A C; do
        m=$(scrape "$n") || return 1
        [ "$(fam_sum rowcast_kafka_source_lag_total <<<"$m")" = 0 ] && [ "$(behind <<<"$m")" = 0 ] || return 1
        h=$((h + $(fam_sum rowcast_kafka_source_high_watermark <<<"$m")))
    done
    [ "$h" = "$P3" ]
}
wait_for 60 caught_up && ok || bad "metrics: A's and C's partitions are not all committed at their high watermarks: $(scrape A | grep '^rowcast_kafka_source' | head -30)"
scrape A >"$W/metrics.A"
scrape C >"$W/metrics.C"
for n in A C; do
    parts=$(grep -c '^rowcast_kafka_source_lag{topic="in",partition="[0-9]*"} 0$' "$W/metrics.$n")
    want=$(grep -o '[0-9]* partitions\? assigned' "$W/err.$n" | tail -1 | cut -d' ' -f1)
    [ "$parts" = "$want" ] && ok || bad "$n: $parts partitions in rowcast_kafka_source_lag, $want assigned"
    grep -q '^rowcast_kafka_source_rebalances_total{kind="assign"} [1-9]' "$W/metrics.$n" && ok || bad "$n: no assign in rebalances_total"
    grep -q '^rowcast: progress at .*, lag [0-9]* messages\? ([0-9.]* s)' "$W/err.$n" && ok || bad "$n: the progress line does not show the lag"
done
grep '^rowcast_kafka_source_\(lag_total\|rebalances_total\|drain_seconds_total\)' "$W/metrics.A"
kill -TERM "$a" "$c"
wait "$a"; ra=$?
wait "$c"; rc=$?
expect_rc "A at SIGTERM" "$ra" 143
expect_rc "C at SIGTERM" "$rc" 143

# every id at least once; duplicates only of B's records; A and C none
seq "$P3" >"$W/want"
ids "$W"/out.* | sort -n -u >"$W/got"
expect_eq "every id written" "$W/want" "$W/got"
dups=$(ids "$W"/out.* | sort -n | uniq -d | wc -l)
dups_ac=$(ids "$W/out.A" "$W/out.C" | sort -n | uniq -d | wc -l)
not_b=$(LC_ALL=C comm -23 <(ids "$W"/out.* | sort | uniq -d) <(ids "$W/out.B" | sort -u) | wc -l)
# A drain commits before the partitions go, so the next owner starts after what A wrote. The
# mock cluster (librdkafka 2.0.2) refuses commits while a group rebalances (REBALANCE_IN_PROGRESS;
# a broker takes them until the rebalance completes), and A says so: then at most what A drained
# is read again.
allow=0
allow=$(grep -o "reads again [0-9]*" "$W/err.A" | awk '{ s += $3 } END { print s + 0 }')
[ "$dups_ac" -le "$allow" ] && ok || bad "A and C wrote $dups_ac ids twice (the drains allow $allow)"
[ "$not_b" -le "$allow" ] && ok || bad "$not_b duplicated ids were not written by B, the killed member (the drains allow $allow)"
echo "[$((SECONDS - T0)) s] $P3 ids: A $(ids "$W/out.A" | wc -l), B $(ids "$W/out.B" | wc -l), C $(ids "$W/out.C" | wc -l) records; $dups duplicates ($dups_ac of them A's and C's, $allow allowed by refused drain commits)"
# librdkafka's own log lines (a refused commit, a broker's disconnect) come through rowcast's log,
# each once, never raw ("%4|1796599686.303|COMMITFAIL|rdkafka#consumer-1| ...")
raw=$(grep -h '^%[0-7]|' "$W"/err.* | head -3)
[ -z "$raw" ] && ok || bad "librdkafka's log printed raw: $raw"
grep -h 'librdkafka [A-Z]*:' "$W"/err.* | sort | uniq -d | head -3 >"$W/logged_twice"
[ ! -s "$W/logged_twice" ] && ok || bad "librdkafka lines said twice: $(cat "$W/logged_twice")"
# 4. a lost assignment: topic in4 fed as before; member D of group g4 stopped (SIGSTOP) once it
# wrote 500 records, E takes its partitions after D's session timed out, D continued (SIGCONT)
# finds them lost: it commits nothing (says so) and rejoins; together they write every id
mock_cmd "topic in4 12" || exit 1
mkfifo "$W/feed4"
kcat -b "$BOOTSTRAP" -P -t in4 -K '|' <"$W/feed4" 2>"$W/kcat4.err" &
feeder=$!
exec {FEED}>"$W/feed4"
g4_member() { # NAME
    "$RC" convert --source "kafka://$BOOTSTRAP/in4?group=g4" --to debezium --sink "file:$W/out.$1" "${GROUP[@]}" \
        >/dev/null 2>"$W/err.$1" {FEED}>&- &
}
g4_member D
d=$!
feed 1 10000 &
fed=$!
wait_for 30 written_over D 0 500 || bad "D did not write 500 records"
kill -STOP "$d"
g4_member E
e=$!
wait_for 60 assigned E 12 12 && ok || bad "E did not take D's partitions: $(grep -h assigned "$W/err.E")"
kill -CONT "$d"
wait "$fed"
exec {FEED}>&-
wait "$feeder"
said_lost() { grep -q 'lost (the session timed out): nothing committed' "$W/err.D"; }
wait_for 60 said_lost && ok || bad "D did not say its partitions were lost: $(grep -h 'group=g4' "$W/err.D" | tail -3)"
all4() { [ "$(ids "$W/out.D" "$W/out.E" | sort -u | wc -l)" -ge 10000 ]; }
wait_for 60 all4 || bad "D and E did not write every id of in4 in 60 s"
kill -TERM "$d" "$e"
wait "$d"; rd=$?
wait "$e"; re=$?
expect_rc "D after its lost assignment" "$rd" 143
expect_rc "E" "$re" 143
seq 10000 >"$W/want4"
ids "$W/out.D" "$W/out.E" | sort -n -u >"$W/got4"
expect_eq "a lost assignment: every id of in4 written" "$W/want4" "$W/got4"
grep -h 'group=g4' "$W/err.D" | grep -v librdkafka | sed 's/^rowcast: [^ ]*: /D: /'
# a new group with -o kafka.auto.offset.reset=latest starts at the end: nothing to read
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=late" --to debezium -o kafka.auto.offset.reset=latest -o kafka.source.stop=end \
    >"$W/late" 2>"$W/err.late"
expect_rc "a new group at latest" $? 0
[ ! -s "$W/late" ] && ok || bad "a new group with auto.offset.reset=latest read $(wc -l <"$W/late") messages"
echo "kafka_source_group: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
