#!/usr/bin/env bash
# Incremental snapshots under --exactly-once (issue 25 with issue 24; docs/sinks.md, "Exactly
# once", and docs/design/exactly-once.md §2.7), against the Kafka mock cluster (kafka_lib.sh, its
# own process), a throwaway PostgreSQL 15 (pg_lib.sh) and a throwaway MariaDB 10.11
# (mariadb_lib.sh). In each case bf_writer loads a table of N rows and keeps inserting, updating
# and deleting (half of its changes on the keys being read); the capture streams into a topic of
# 32 partitions (Debezium records keyed by id) with its state in topic rc-state (--checkpoint
# kafka://), takes the incremental snapshot (PostgreSQL: a signal; MariaDB: --snapshot
# incremental), and is killed with SIGKILL at observed points (RC_SNAPSHOT_VERBOSE's chunk
# notices): a chunk emitted after an acknowledged one, a chunk acknowledged after the resume, a
# chunk's window open; then a run completes the snapshot, the writer stops, and a last run
# catches up (--until caught-up). A plain consumer (kcat, read_uncommitted) then sees, with the
# records in rowcast.eos order (read back as native lines through rowcast convert):
#   - every change of the stream exactly once (each `e` order key once);
#   - the replay of changes and reads equal to SELECT, and no read older than a change of its
#     key emitted before it (tools/check_stream.sh: the DBLog check);
#   - reads of one key at two high watermarks only for the chunks emitted past the resumed one
#     by the runs before (their transactions not committed at the kills): PostgreSQL does not
#     wait for a chunk's acknowledgement before the next, MariaDB does (one chunk a kill at most);
#   - the skip rule at work (a restart found records of its replay in Kafka).
# usage: eos_incsnap_test.sh path/to/rowcast path/to/bf_writer path/to/rowcast-kafka-mock
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
MOCK=${3:?path to rowcast-kafka-mock}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=${EOS_INCSNAP_ROWS:-100000}
CHUNK=2048
PARTS=32 # the mock keeps about 5 MB a partition and drops older records: checked
. "$HERE/pg_lib.sh"
. "$HERE/mariadb_lib.sh"
. "$HERE/kafka_lib.sh"
. "$HERE/eos_lib.sh" # kafka_offsets
pg_test_start || exit 1
PW=$W
my_test_start || { W=$PW; pg_test_stop; exit 1; }
. "$HERE/../common/check.sh"
export XDG_STATE_HOME=$W/xdg # never the user's
export RC_SNAPSHOT_VERBOSE=1 # the chunk notices
export LC_ALL=C
trap 'for p in ${WPID:-} ${CAP:-}; do kill -9 "$p" 2>/dev/null; done; [ -n "${EOS_KEEP:-}" ] && mkdir -p "$EOS_KEEP" && cp "$W"/*.err.* "$W"/*.keyed "$EOS_KEEP"; mock_stop; my_test_stop; W=$PW; pg_test_stop' EXIT
mock_start "$MOCK" "$W" 3 && mock_cmd "topic rc-state 1" && my_sql -e 'CREATE DATABASE shop' || exit 1
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }

# the case's source: SRC pg (public.t, slot and signal table) or my (shop.t, --snapshot incremental)
src_url() { if [ "$SRC" = pg ]; then echo "$PG_URL"; else echo "$MY_URL/shop"; fi; }
src_table() { if [ "$SRC" = pg ]; then echo public.t; else echo shop.t; fi; }
SIG=public.rowcast_signal
capture() { # run RUN of the case in the background (CAP), stderr in W/SRC.err.RUN
    local src_opts
    if [ "$SRC" = pg ]; then
        src_opts=(--snapshot never -o postgres.signal.table=$SIG -o postgres.snapshot.chunk.rows=$CHUNK -o postgres.snapshot.flush=false)
    else
        src_opts=(--snapshot incremental --server-id 15 -o mysql.snapshot.chunk.rows=$CHUNK)
    fi
    RUN=$((RUN + 1))
    "$RC" capture "$(src_url)" --include "$(src_table)" "${src_opts[@]}" --server "e$SRC" --exactly-once \
        --to debezium -o debezium.schemas=false --no-tombstones --sink "kafka://$BOOTSTRAP/$SRC" \
        --checkpoint "kafka://$BOOTSTRAP/rc-state" "$@" >/dev/null 2>"$W/$SRC.err.$RUN" &
    CAP=$!
}
err() { cat "$W/$SRC.err.$RUN" 2>/dev/null; }
killed() { # kill -9 at the point just observed
    kill -9 "$CAP"
    wait "$CAP" 2>/dev/null
    CAP=
    step "$SRC run $RUN killed: $1"
}
# the newest chunk number a notice of run RUN gave for WHAT, and how many such notices
chunk_of() { local c; c=$(err | grep -o "chunk [0-9]*: $1" | tail -1 | tr -dc 0-9); echo "${c:-0}"; }
notices() { err | grep -c "chunk [0-9]*: $1"; }
resumed() { wait_for 30 eval 'err | grep -q "resuming incremental snapshot of $(src_table) after key"' && ok || bad "$SRC run $RUN: no resuming line: $(err | head -3)"; }
# SRC.keyed: every record of the topic, its rowcast.eos key and value, in the keys' order
keyed() {
    kcat -C -b "$BOOTSTRAP" -t "$SRC" -o beginning -e -q -f '%h\t%s\n' 2>/dev/null |
        sed -n 's/^\(.*,\)\{0,1\}rowcast\.eos=\([^,	]*\)[^	]*	/\2	/p' | sort -s -t '	' -k1,1 >"$W/$SRC.keyed"
}

eos_incsnap_case() {
    SRC=$1 RUN=0
    local url table
    url=$(src_url) table=$(src_table)
    mock_cmd "topic $SRC $PARTS" || exit 1
    step "$SRC: load $table"
    "$WRITER" "$url" --table "$table" --key pk --rows "$N" --count 0 --seed 1 2>>"$W/writer.err" ||
        { bad "bf_writer could not load $table: $(tail -1 "$W/writer.err")"; return; }
    [ "$SRC" = my ] || pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null
    step "$SRC run 1: streams and snapshots; killed with a chunk emitted after an acknowledged one"
    capture
    "$WRITER" "$url" --table "$table" --key pk --rate 400 --bias "1:$N:50" --seed 2 --batch 2 2>>"$W/writer.err" &
    WPID=$!
    # the signal once the slot exists (the stream starts at its creation)
    [ "$SRC" = my ] || wait_for 30 eval 'err | grep -q "replication slot rowcast created"' || bad "pg run 1: no slot in 30 s"
    [ "$SRC" = my ] || pg_test_sql -c "INSERT INTO $SIG VALUES ('s-1', 'execute-snapshot', '{\"data-collections\": [\"public.t\"], \"type\": \"incremental\"}')" >/dev/null
    wait_for 60 eval '[ "$(notices acknowledged)" -ge 2 ]' || bad "$SRC run 1: no two chunks acknowledged in 60 s: $(err | tail -3)"
    wait_for 60 eval '[ "$(chunk_of emitted)" -gt "$(chunk_of acknowledged)" ]' || bad "$SRC run 1: no chunk emitted past the acknowledged one"
    killed "chunk $(chunk_of emitted) emitted, $(chunk_of acknowledged) acknowledged"
    step "$SRC run 2: resumes from the state topic; killed once a chunk of its own was acknowledged"
    capture
    resumed
    wait_for 60 eval '[ "$(notices acknowledged)" -ge 2 ]' || bad "$SRC run 2: no chunk acknowledged in 60 s"
    killed "chunk $(chunk_of acknowledged) acknowledged"
    step "$SRC run 3: killed with a chunk's window open"
    capture
    resumed
    wait_for 60 eval '[ "$(notices "window open")" -ge 2 ]' || bad "$SRC run 3: no second window in 60 s"
    killed "window of chunk $(chunk_of 'window open') open"
    step "$SRC run 4: completes the snapshot"
    capture
    wait_for 120 eval 'err | grep -q "incremental snapshot of $table completed"' || bad "$SRC run 4: no completion in 120 s: $(err | tail -3)"
    kill -TERM "$WPID"
    wait "$WPID"
    WPID=
    kill -TERM "$CAP"
    wait "$CAP"
    expect_rc "$SRC run $RUN (SIGTERM: 143)" $? 143
    step "$SRC run 5: --until caught-up"
    capture --until caught-up
    wait "$CAP"
    expect_rc "$SRC run $RUN (--until caught-up)" $? 0
    CAP=
    check_case
}

check_case() {
    local table again inflight r e res skipped reads
    table=$(src_table)
    [ "$(kafka_offsets "$SRC" -2)" = 0 ] && ok || bad "$SRC: the mock dropped the oldest records (start offsets $(kafka_offsets "$SRC" -2)): more partitions"
    keyed
    awk -F '\t' '{ split($1, a, " "); k = a[2] } substr(k, 1, 1) == "p" && substr(k, 18, 1) == "e" || substr(k, 1, 1) == "m" && substr(k, 26, 1) == "e" { if (seen[$1]++ == 1) d++ }
        END { exit d > 0 }' "$W/$SRC.keyed" && ok || bad "$SRC: a change of the stream is in the topic more than once"
    cut -f2- "$W/$SRC.keyed" | "$RC" convert --from debezium --to native 2>"$W/$SRC.convert.err" | grep -v '"snapshot":"incremental:' >"$W/$SRC.rows"
    "$TOOLS/check_stream.sh" "$(src_url)" "$table" "$W/$SRC.rows" --keys id --out "$W" 2>"$W/$SRC.check.err"
    expect_rc "$SRC: replay of the topic equal to SELECT, DBLog check" $? 0
    cat "$W/$SRC.check.err"
    # a read's high watermark: the order key's position (PostgreSQL: p LSN; MariaDB: m FILE OFFSET)
    again=$(awk -F '\t' '$2 ~ /"op":"r"/ { split($1, a, " "); hw = substr(a[2], 1, substr(a[2], 1, 1) == "p" ? 17 : 25)
            if (!match($2, /"after":\{"id":[0-9]+/)) next
            k = substr($2, RSTART + 14, RLENGTH - 14); if ((k in first) && first[k] != hw) n++; if (!(k in first)) first[k] = hw }
        END { print n + 0 }' "$W/$SRC.keyed")
    # read again at each restart: PostgreSQL, the chunks any earlier run emitted past the one run
    # R resumed after (its resuming line names it): a run killed soon after it resumed (run 3)
    # had not emitted again all that the run before it (run 2) had, and run 4 reads those again
    # too; MariaDB, one chunk (unacked.chunks=1)
    inflight=0 maxe=0
    for r in 2 3 4; do
        if [ "$SRC" = my ]; then
            grep -q "resuming incremental snapshot" "$W/$SRC.err.$r" && inflight=$((inflight + 1))
            continue
        fi
        e=$(grep -o 'chunk [0-9]*: emitted' "$W/$SRC.err.$((r - 1))" | tail -1 | tr -dc 0-9)
        [ -n "$e" ] && [ "$e" -gt "$maxe" ] && maxe=$e
        res=$(sed -n 's/.*resuming incremental snapshot of .* after key .*, chunk \([0-9]*\);.*/\1/p' "$W/$SRC.err.$r" | head -1)
        [ -n "$res" ] && [ "$maxe" -gt "$res" ] && inflight=$((inflight + maxe - res))
    done
    echo "$SRC: reads of a key at a second high watermark: $again; chunks read again after the kills: $inflight (chunk $CHUNK rows)"
    [ "$again" -le $((inflight * CHUNK)) ] && ok || bad "$SRC: $again reads again, more than the $inflight chunks read again after the kills"
    reads=$(grep -c '"op":"read"' "$W/$SRC.rows")
    [ "$reads" -ge $((N / 2)) ] && ok || bad "$SRC: only $reads reads"
    skipped=$(cat "$W/$SRC".err.* | sed -n 's/.*exactly once: \([0-9]*\) records of the replay.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    [ "$skipped" -gt 0 ] && ok || bad "$SRC: no restart found records of its replay in Kafka (the skip rule was not exercised)"
    for r in $(seq 1 "$RUN"); do echo "--- $SRC run $r"; grep -v 'chunk [0-9]*: ' "$W/$SRC.err.$r"; done
}

eos_incsnap_case pg
eos_incsnap_case my
echo "eos_incsnap: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
