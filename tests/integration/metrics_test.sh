#!/usr/bin/env bash
# The metrics endpoint (--metrics, docs/metrics.md) of a `rowcast convert` kept running on a
# FIFO: the whole scrape compared byte for byte with a reviewed file after a known number of
# lines (the lag made exact by RC_METRICS_NOW_US against the input's timestamps), the HTTP
# answers (404, 405, 400, 505, HEAD; the Date header masked), two scrapes at once, clients that
# send nothing or half a request (cut off after 3 s, never stalling a scrape), a 17th connection
# while 16 are open (503), a port in use, an address of another machine and malformed addresses
# (exact messages and exit statuses; the run does not start); then a Kafka sink (the mock
# cluster) whose partition leader goes down: the queue depth and the lag stand still until it
# is back. curl is the client.
# usage: metrics_test.sh path/to/rowcast path/to/rowcast-kafka-mock   (from the repository root)
set -u
RC=${1:?path to rowcast}
MOCK=${2:?path to rowcast-kafka-mock}
T=$(mktemp -d)
PID=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null
    mock_stop
    rm -rf "$T"
}
trap cleanup EXIT
. tests/integration/kafka_lib.sh # (its own bad() is replaced by check.sh's, which counts)
. tests/common/check.sh
D=tests/integration/data/metrics
SHOP=examples/shop.ndjson
ARGS=(--to oms-canal --on-error=skip --drop ddl)
# the clock of the lag: one minute after the last change of examples/shop.ndjson
export RC_METRICS_NOW_US=1732960860017000

# The run's state families (rowcast_state, rowcast_role, rowcast_ready; run_state_test.sh checks
# them) are left out of a scrape before it is compared with the files reviewed before they came,
# and their bytes out of a 200's Content-Length (always as many: their values are 0 or 1)
STATE_RE='^(# (HELP|TYPE) )?rowcast_(state|role|ready)[ {]'
STATE_BYTES=0
# expect_scrape NAME WANT-FILE GOT-FILE: equal byte for byte without the state families
expect_scrape() {
    grep -Ev "$STATE_RE" "$3" >"$3.nostate"
    expect_eq "$1" "$2" "$3.nostate"
}
# expect NAME WANT-FILE GOT-FILE: equal byte for byte, the Date header's value masked
expect_http() {
    sed 's/^Date: [A-Z][a-z][a-z], [0-9][0-9] [A-Z][a-z][a-z] [0-9]\{4\} [0-9:]\{8\} GMT\r$/Date: D\r/' "$3" |
        awk -v extra="$STATE_BYTES" 'NR == 1 { ok = / 200 / } ok && /^Content-Length: / { sub(/[0-9]+/, $2 - extra) } { print }' >"$3.masked"
    expect_eq "$1" "$2" "$3.masked"
}
# raw NAME TEXT: sends TEXT on a connection of its own, the answer in $T/NAME
raw() {
    local fd
    exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
    printf '%b' "$2" >&"$fd"
    timeout 10 cat <&"$fd" >"$T/$1"
    exec {fd}>&-
}
scrape() { curl -sS --max-time 5 -o "$1" "$URL"; }
# settled N: a scrape shows N items read and every message sent acknowledged (the pipeline
# publishes after each batch and after serving the sink)
settled() {
    scrape "$T/s" && grep -qx "rowcast_input_items_total $1" "$T/s" &&
        [ "$(sed -n 's/^rowcast_sink_messages_sent_total //p' "$T/s")" = "$(sed -n 's/^rowcast_sink_messages_acknowledged_total //p' "$T/s")" ]
}

# --- a run kept alive on a FIFO (opened read-write here: never blocks, and EOF only when closed)
mkfifo "$T/in"
exec 3<>"$T/in"
"$RC" convert "${ARGS[@]}" --metrics 127.0.0.1:0 "$T/in" >"$T/out" 2>"$T/err" 3>&- &
PID=$!
wait_for 10 grep -q '^rowcast: metrics on ' "$T/err" || bad "no 'metrics on' line: $(cat "$T/err")"
URL=$(sed -n 's/^rowcast: metrics on //p' "$T/err")
PORT=${URL#http://127.0.0.1:}
PORT=${PORT%/metrics}
case $PORT in '' | *[!0-9]*) bad "the metrics line does not name http://127.0.0.1:PORT/metrics: $URL"; exit 1 ;; *) ok ;; esac

# --- the whole scrape before any input, after 10 lines, after a bad line and the other 10
scrape "$T/s0"
STATE_BYTES=$(grep -E "$STATE_RE" "$T/s0" | wc -c)
expect_scrape scrape-start "$D/start.prom" "$T/s0"
head -10 "$SHOP" >&3
wait_for 10 settled 10 || bad "10 lines never showed as read and acknowledged"
cp "$T/s" "$T/s10"
expect_scrape scrape-10-lines "$D/lines10.prom" "$T/s10"
{ echo '{"op":"insert",'; tail -n +11 "$SHOP"; } >&3
wait_for 10 settled 21 || bad "21 lines never showed as read and acknowledged"
expect_scrape scrape-21-lines "$D/lines21.prom" "$T/s"

# --- HTTP: the response's head, other pages and methods, bad requests
curl -sS -i --max-time 5 "$URL" >"$T/full"
{ sed -n '1,/^\r$/p' "$T/full"; } >"$T/head"
expect_http get-head "$D/get.http" "$T/head"
curl -sS -I --max-time 5 "$URL" >"$T/headreq"
expect_http head-request "$D/get.http" "$T/headreq"
curl -sS -i --max-time 5 "http://127.0.0.1:$PORT/nope?x=1" >"$T/404"
expect_http not-found "$D/404.http" "$T/404"
curl -sS -i --max-time 5 -X POST -d x=1 "$URL" >"$T/405"
expect_http post "$D/405.http" "$T/405"
raw bad-line 'GET /metrics HTTP/1.1 extra\r\n\r\n'
expect_http bad-request-line "$D/400-line.http" "$T/bad-line"
raw bad-header 'GET /metrics HTTP/1.1\r\nHost localhost\r\n\r\n'
expect_http bad-header "$D/400-header.http" "$T/bad-header"
raw http2 'GET /metrics HTTP/2.0\r\n\r\n'
expect_http http-2 "$D/505.http" "$T/http2"
raw http10 'GET http://127.0.0.1/metrics?a=b HTTP/1.0\n\n'
{ sed -n '1,/^\r$/p' "$T/http10"; } >"$T/http10.head"
expect_http http-1.0-absolute-form "$D/get.http" "$T/http10.head"
sed '1,/^\r$/d' "$T/http10" >"$T/http10.body"
expect_scrape http-1.0-body "$D/lines21.prom" "$T/http10.body"

# --- two scrapes at once
curl -sS --max-time 5 -o "$T/c1" "$URL" &
c1=$!
curl -sS --max-time 5 -o "$T/c2" "$URL" &
c2=$!
wait "$c1" && wait "$c2" && ok || bad "a concurrent scrape failed"
expect_scrape concurrent-1 "$D/lines21.prom" "$T/c1"
expect_scrape concurrent-2 "$D/lines21.prom" "$T/c2"

# --- a client that sends nothing, and one that sends half a request, stall no scrape; both are
# cut off after the connection's 3 s
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
exec 5<>"/dev/tcp/127.0.0.1/$PORT"
printf 'GET /metr' >&5
t0=$SECONDS
curl -sS --max-time 2 -o "$T/c3" "$URL" && ok || bad "a scrape beside a silent client failed"
expect_scrape beside-silent "$D/lines21.prom" "$T/c3"
timeout 10 cat <&4 >"$T/silent"
expect_rc silent-closed $? 0
timeout 10 cat <&5 >"$T/half"
expect_rc half-closed $? 0
[ -s "$T/silent" ] || [ -s "$T/half" ] && bad "a client that sent no whole request got an answer" || ok
[ $((SECONDS - t0)) -le 6 ] && ok || bad "silent clients were cut off after $((SECONDS - t0)) s, not 3"
exec 4>&- 5>&-

# --- 16 connections open at once: a 17th is told to come back
fds=()
for _ in $(seq 16); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
    fds+=("$fd")
done
# (accepted in the order they came: curl's is the 17th)
curl -sS -i --max-time 5 "$URL" >"$T/503"
expect_http busy "$D/503.http" "$T/503"
for fd in "${fds[@]}"; do exec {fd}>&-; done

# --- a port in use: the run does not start
"$RC" convert --metrics "127.0.0.1:$PORT" "$SHOP" >"$T/o2" 2>"$T/e2"
expect_rc in-use $? 3
printf "rowcast convert: --metrics '127.0.0.1:%s': cannot listen on 127.0.0.1:%s: Address already in use; another program (or another rowcast) listens there: stop it, or pick another port (0: any free port)\n" \
    "$PORT" "$PORT" >"$T/want"
expect_eq in-use-message "$T/want" "$T/e2"
[ -s "$T/o2" ] && bad "a run whose port was in use wrote output" || ok

# --- the end of the input ends the run as without --metrics, with the same output
exec 3>&-
# the summary's last line, then the status (a run that does not end fails here, not hangs)
if wait_for 20 grep -q ' events/s$' "$T/err"; then
    wait "$PID"
    expect_rc end $? 0
    PID=
else
    bad "the run did not end at the end of its input"
fi
{ head -10 "$SHOP"; echo '{"op":"insert",'; tail -n +11 "$SHOP"; } | "$RC" convert "${ARGS[@]}" >"$T/plain" 2>/dev/null
expect_eq same-output "$T/plain" "$T/out"

# --- an address of another machine (TEST-NET-1), and malformed addresses
"$RC" convert --metrics 192.0.2.1:9470 "$SHOP" >"$T/o3" 2>"$T/e3"
expect_rc not-here $? 3
cat >"$T/want" <<'EOF'
rowcast convert: --metrics '192.0.2.1:9470': cannot listen on 192.0.2.1:9470: Cannot assign requested address; the host is not an address of this machine: give one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)
EOF
expect_eq not-here-message "$T/want" "$T/e3"
[ -s "$T/o3" ] && bad "a run that could not listen wrote output" || ok
while IFS='|' read -r spec msg; do
    "$RC" convert --metrics "$spec" "$SHOP" >"$T/o4" 2>"$T/e4"
    expect_rc "malformed '$spec'" $? 1
    printf "rowcast convert: --metrics '%s': %s\n(see rowcast help convert)\n" "$spec" "$msg" >"$T/want"
    expect_eq "malformed '$spec' message" "$T/want" "$T/e4"
    [ -s "$T/o4" ] && bad "malformed '$spec' wrote output" || ok
done <<'EOF'
|the port is missing: give HOST:PORT, :PORT or PORT (0: any free port)
localhost|no port: give HOST:PORT (localhost:9470), :PORT or PORT (then on 127.0.0.1)
127.0.0.1:|the port is missing: give HOST:PORT, :PORT or PORT (0: any free port)
127.0.0.1:65536|the port is not a number from 0 to 65535 (0: any free port)
127.0.0.1:http|the port is not a number from 0 to 65535 (0: any free port)
::1:9470|an IPv6 address goes in brackets: [ADDRESS]:PORT, as [::1]:9470
[::1:9470|no ']' closes the IPv6 address: write [ADDRESS]:PORT, as [::1]:9470
[::1]9470|':PORT' expected after ']', as [::1]:9470
[]:9470|not an IPv6 address in the brackets: write [ADDRESS]:PORT, as [::1]:9470
exa mple:9470|the host is not a name or an address (an IPv6 address goes in brackets: [::1]:9470)
EOF

# --- Kafka: acknowledged by delivery reports. With the one partition's leader down, 5 more lines
# are sent (3 messages) and not acknowledged: the queue depth is theirs, the lag still that of line 10
mock_start "$MOCK" "$T" 3 || exit 1
mock_cmd topic m1 1 && mock_cmd leader m1 0 1 || bad "mock setup"
mkfifo "$T/kin"
exec 3<>"$T/kin"
# --threads 2: the reading thread waits for the FIFO, the pipeline serves delivery reports (and
# publishes them) every 100 ms meanwhile; with one thread it would wait in the read itself
"$RC" convert "${ARGS[@]}" --threads 2 --sink "kafka://$BOOTSTRAP/m1" --metrics 127.0.0.1:0 "$T/kin" >"$T/kout" 2>"$T/kerr" 3>&- &
PID=$!
wait_for 10 grep -q '^rowcast: metrics on ' "$T/kerr" || bad "kafka: no 'metrics on' line: $(cat "$T/kerr")"
URL=$(sed -n 's/^rowcast: metrics on //p' "$T/kerr")
head -10 "$SHOP" >&3
wait_for 20 settled 10 || bad "kafka: 10 lines never showed as read and acknowledged"
cp "$T/s" "$T/k10"
expect_scrape kafka-10-lines "$D/kafka10.prom" "$T/k10"
mock_cmd down 1
sed -n 11,15p "$SHOP" >&3
# shellcheck disable=SC2016 # expanded by eval, in the loop
wait_for 20 eval 'scrape "$T/s" && grep -qx "rowcast_sink_queue_depth 3" "$T/s"' || bad "kafka: the 3 messages of lines 11-15 never waited"
cp "$T/s" "$T/k15"
expect_scrape kafka-leader-down "$D/kafka15-down.prom" "$T/k15"
mock_cmd up 1
tail -n +16 "$SHOP" >&3
wait_for 30 settled 20 || bad "kafka: 20 lines never showed as read and acknowledged after the leader came back"
cp "$T/s" "$T/k20"
expect_scrape kafka-20-lines "$D/kafka20.prom" "$T/k20"
exec 3>&-
if wait_for 30 grep -q ' events/s$' "$T/kerr"; then
    wait "$PID"
    expect_rc kafka-end $? 0
    PID=
else
    bad "kafka: the run did not end at the end of its input"
fi

# --- PORT alone is loopback, and [::1] is IPv6 (when this machine has it)
"$RC" convert --quiet --metrics 0 "$SHOP" >/dev/null 2>"$T/e5"
expect_rc port-alone $? 0
grep -qx 'rowcast: metrics on http://127.0.0.1:[0-9]*/metrics' "$T/e5" && ok || bad "--metrics 0: $(cat "$T/e5")"
if "$RC" convert --quiet --metrics '[::1]:0' "$SHOP" >/dev/null 2>"$T/e6"; then
    grep -qx 'rowcast: metrics on http://\[::1\]:[0-9]*/metrics' "$T/e6" && ok || bad "--metrics [::1]:0: $(cat "$T/e6")"
else
    echo "metrics: no IPv6 loopback here: $(cat "$T/e6")"
fi

echo "metrics: $pass passed, $fail failed"
[ "$fail" = 0 ]
