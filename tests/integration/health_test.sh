#!/usr/bin/env bash
# /health and /ready (pipeline/metrics.h, docs/operations.md) of a `rowcast capture` through
# its phases, against one throwaway PostgreSQL, with curl; its --log-format=json stderr parsed
# line by line:
#  1. snapshot: stdout is a FIFO nobody reads yet, so the snapshot of 20000 rows stands still:
#     /ready 503 {"state":"snapshot",...,"reason":"snapshot"}, /health 200, HEAD the same
#     statuses without a body, rowcast_state{state="snapshot"} 1, rowcast_role{role="active"} 1,
#     rowcast_ready 0;
#  2. streaming once the FIFO is read: /ready 200 (idle with everything acknowledged, although
#     --ready-lag 0), a change inserted arrives;
#  3. PostgreSQL restarted: /ready 503 reconnecting while /health stays 200; 200 again after;
#  4. lagging: the FIFO not read while 20000 changes come: /ready 503 "lagging: ..."; 200 once
#     it is read again;
#  5. SIGTERM: exit 143; every stderr line is a JSON object with time, level and message, the
#     reconnection said among them.
# usage: health_test.sh path/to/rowcast
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
pg_test_start "autovacuum = off" || exit 1
. "$HERE/../common/check.sh"
PID= CAT=
finish() {
    [ -n "$CAT" ] && kill "$CAT" 2>/dev/null
    [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
    pg_test_stop
}
trap finish EXIT

pg_test_sql -c "CREATE TABLE h (id int PRIMARY KEY, v text); INSERT INTO h SELECT i, repeat('x', 200) FROM generate_series(1, 20000) i" || exit 1
mkfifo "$W/out"
exec 3<>"$W/out" # never blocks rowcast's open; nobody reads until `reader`
reader() { cat <&3 >>"$W/cap.out" & CAT=$!; }
"$RC" capture "$PG_URL" --include public.h --slot hs --publication hp --metrics 127.0.0.1:0 --ready-lag 0 \
    --log-format=json >&3 2>"$W/err" &
PID=$!
wait_for 20 grep -q '"message":"metrics on http' "$W/err" || { bad "no 'metrics on' line: $(cat "$W/err")"; exit 1; }
BASE=$(jq -r 'select(.message | startswith("metrics on ")) | .message[11:]' "$W/err" | sed 's|/metrics$||')

# probe PATH: the status in $code, the body in $W/body
probe() { code=$(curl -sS --max-time 5 -o "$W/body" -w '%{http_code}' "$BASE$1"); }
# ready_is STATUS STATE: /ready answers STATUS with that state
ready_is() { probe /ready && [ "$code" = "$1" ] && jq -e --arg s "$2" '.state == $s' "$W/body" >/dev/null; }
# body_has NAME JQ-EXPRESSION: the last body satisfies it
body_has() { jq -e "$2" "$W/body" >/dev/null && ok || bad "$1: $(cat "$W/body")"; }
# head_is NAME PATH STATUS: HEAD answers STATUS, no body
head_is() {
    local got
    got=$(curl -sS --max-time 5 -I -o "$W/head" -w '%{http_code}' "$BASE$2")
    [ "$got" = "$3" ] && ! sed '1,/^\r$/d' "$W/head" | grep -q . && ok || bad "$1: HEAD $2 answered $got: $(cat "$W/head")"
}
health_ok() {
    probe /health
    [ "$code" = 200 ] && jq -e '.status == "alive" and .role == "active"' "$W/body" >/dev/null && ok || bad "$1: /health $code: $(cat "$W/body")"
}

# --- 1. snapshot, held by the FIFO
wait_for 30 ready_is 503 snapshot && ok || bad "1: /ready never said 503 snapshot: $code $(cat "$W/body")"
body_has "1: ready body" '.status == "not ready" and .role == "active" and .reason == "snapshot" and .ready_lag_seconds == 0'
health_ok 1
head_is "1: HEAD /ready" /ready 503
head_is "1: HEAD /health" /health 200
probe /metrics
grep -qx 'rowcast_state{state="snapshot"} 1' "$W/body" && grep -qx 'rowcast_role{role="active"} 1' "$W/body" &&
    grep -qx 'rowcast_ready 0' "$W/body" && [ "$(grep -c '^rowcast_state{.*} 1$' "$W/body")" = 1 ] && ok ||
    bad "1: metrics: $(grep 'rowcast_\(state\|role\|ready\)' "$W/body")"

# --- 2. streaming
reader
wait_for 60 ready_is 200 streaming && ok || bad "2: /ready never said 200 streaming: $code $(cat "$W/body")"
body_has "2: ready body" '.status == "ready" and .role == "active" and (has("reason") | not)'
pg_test_sql -c "INSERT INTO h VALUES (100001, 'after the snapshot')"
wait_for 30 grep -q 'after the snapshot' "$W/cap.out" && ok || bad "2: the change never arrived"
wait_for 30 ready_is 200 streaming && ok || bad "2: /ready after the change: $code $(cat "$W/body")"
probe /metrics
grep -qx 'rowcast_state{state="streaming"} 1' "$W/body" && grep -qx 'rowcast_ready 1' "$W/body" && ok || bad "2: metrics: $(grep 'rowcast_\(state\|ready\)' "$W/body")"

# --- 3. the server restarted
pg_test_restart >"$W/restart.log" 2>&1 &
RESTART=$!
wait_for 30 ready_is 503 reconnecting && ok || bad "3: /ready never said 503 reconnecting: $code $(cat "$W/body")"
body_has "3: ready body" '.reason == "reconnecting"'
health_ok 3
wait "$RESTART" || bad "3: the restart failed: $(cat "$W/restart.log")"
wait_for 60 ready_is 200 streaming && ok || bad "3: /ready never said 200 again: $code $(cat "$W/body")"
health_ok 3b

# --- 4. lagging: the output is not read while changes come
kill "$CAT"
wait "$CAT" 2>/dev/null
CAT=
pg_test_sql -c "UPDATE h SET v = repeat('y', 200)"
wait_for 60 eval 'probe /ready && [ "$code" = 503 ] && jq -e ".reason | startswith(\"lagging\")" "$W/body" >/dev/null' && ok ||
    bad "4: /ready never said 503 lagging: $code $(cat "$W/body")"
body_has "4: ready body" '.state == "streaming" and (.lag_seconds | type) == "number"'
health_ok 4
reader
wait_for 60 ready_is 200 streaming && ok || bad "4: /ready never said 200 after the output was read: $code $(cat "$W/body")"

# --- 5. SIGTERM, and the log
kill -TERM "$PID"
wait "$PID"
expect_rc 5-sigterm $? 143
PID=
n=$(wc -l <"$W/err")
good=$(jq -c 'select(type == "object" and (.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z$")) and (.level | IN("error", "warning", "info")) and (.message | type) == "string")' "$W/err" | wc -l)
[ "$n" -gt 3 ] && [ "$good" = "$n" ] && ok || bad "5: $good of $n stderr lines are log objects: $(cat "$W/err")"
jq -se 'any(.[]; .message | test("reconnecting in [0-9]+ ms"))' "$W/err" >/dev/null && ok || bad "5: no reconnection line: $(cat "$W/err")"
jq -se 'any(.[]; .message | startswith("SIGTERM: stopping"))' "$W/err" >/dev/null && ok || bad "5: no SIGTERM line: $(cat "$W/err")"

echo "health: $pass passed, $fail failed"
[ "$fail" = 0 ]
