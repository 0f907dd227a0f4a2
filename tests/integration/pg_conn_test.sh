#!/usr/bin/env bash
# The PostgreSQL replication connection (src/sources/pg/pg_conn.c) against a throwaway
# PostgreSQL 15, one server for the suite, every message compared by exact text:
#  1. URLs rendered without their password; LSNs as text;
#  2. a slot's life (pg_conn_check scenario): publication created FOR TABLE the matching
#     tables (never FOR ALL TABLES), tables without a replica identity left out and named (and
#     every --include pattern matching a table of it, else an error), slot created with
#     an exported snapshot that holds the rows before it and not the row after, the stream's
#     message types in order, values in the pinned text although the server and libpq's
#     environment say otherwise, confirmed_flush_lsn moved only by acknowledgements (not by
#     keepalive replies, not back by a lower one), a clean stop and a resume after the
#     acknowledged LSN, a publication dropped mid-stream;
#  3. setup errors: wrong password (scram for one role), connection refused, no REPLICATION
#     privilege, slot of another plugin or kind, missing publication;
#  4. "replication slot ... is active for PID": retried while the holder lives (fatal after the
#     bound), success once it is killed -9 (observed: the retry has begun, the holder's PID is
#     the slot's active_pid);
#     a status every 300 ms keeps the walsender from asking; a server restart while streaming
#     is retriable and the stream starts again;
#  5. an invalidated slot (wal_status lost); 6. wal_level = replica.
# usage: pg_conn_test.sh PG_CONN_CHECK
set -u
CHECK=$1
. "$(dirname "$0")/pg_lib.sh"
# the server's own styles differ from what rowcast pins; wal_sender_timeout 2 s makes the
# walsender ask for replies within the test's time
pg_test_start "wal_sender_timeout = 2s" "timezone = 'Asia/Kolkata'" "datestyle = 'sql, dmy'" \
    "intervalstyle = 'sql_standard'" "extra_float_digits = 0" "bytea_output = 'escape'" || exit 1
U=$PG_URL
HP="127.0.0.1:$PGPORT"

# expect NAME WANT CMD...: CMD's output must be WANT exactly
expect() {
    local name=$1 want=$2 got
    shift 2
    got=$("$@" 2>&1)
    [ "$got" = "$want" ] || { bad "$name"; diff <(echo "$want") <(echo "$got") >&2; }
}

# wait_for WHAT CMD...: polls CMD (what the test waits to observe) for up to 20 s
wait_for() {
    local what=$1
    shift
    for _ in $(seq 200); do "$@" && return 0; sleep 0.1; done
    bad "timed out waiting for $what"
    return 1
}

# 1. redaction
expect redact "postgres://u@h:5432/db?sslmode=require&application_name=a
postgresql://u@h/db
postgres://h/db
postgres://u@h/db
postgres://u@h:1,h2:2/db?connect_timeout=3
postgres://u@h/db
(not a URL)" "$CHECK" redact 'postgres://u:secret@h:5432/db?sslmode=require&password=x&application_name=a' \
    'postgresql://u@h/db' 'postgres://h/db?password=x' 'postgres://u:p%40ss@h/db' \
    'postgres://u:s@h:1,h2:2/db?pass%77ord=x&connect_timeout=3&sslpassword=y' 'postgres://u:@h/db' \
    'host=h password=secret'

expect lsn "0/0: 0 0/0
16/B374D848: 97500059720 16/B374D848
ffffffff/ffffffff: 18446744073709551615 FFFFFFFF/FFFFFFFF
0/00000001: 1 0/1
1/: not an LSN
/1: not an LSN
123456789/0: not an LSN
0/0x: not an LSN
0/1 : not an LSN" "$CHECK" lsn 0/0 16/B374D848 ffffffff/ffffffff 0/00000001 1/ /1 123456789/0 0/0x '0/1 '

# 2. the life of a slot; PGTZ and PGDATESTYLE would win over startup options
expect scenario "server encoding: UTF8
notice: publication rc_pub created
notice: warning: table public.tnokey is left out of publication rc_pub: it has no replica identity (no primary key): add a primary key, or ALTER TABLE public.tnokey REPLICA IDENTITY FULL, then ALTER PUBLICATION rc_pub ADD TABLE public.tnokey; published without one, the application's UPDATEs and DELETEs on it would fail (-o postgres.publish.no_identity=insert_only: its INSERTs only)
notice: warning: table public.tnothing is left out of publication rc_pub: it has no replica identity (REPLICA IDENTITY NOTHING): ALTER TABLE public.tnothing REPLICA IDENTITY FULL, or DEFAULT if it has a primary key, then ALTER PUBLICATION rc_pub ADD TABLE public.tnothing; published without one, the application's UPDATEs and DELETEs on it would fail (-o postgres.publish.no_identity=insert_only: its INSERTs only)
publication created: yes; tables: public.t, public.tfull
all tables: f
publication created again: no
slot created: yes; snapshot exported: yes
confirmed_flush_lsn = the consistent point
snapshot: 1 2020-01-01 21:34:05.123456+00 1 year 2 mons 3 days 04:05:06, 2 - -
after the snapshot: 1,2,3
insert: 3 | c | 2020-01-01 21:34:05.123456+00 | 1 year 2 mons 3 days 04:05:06 | 0.3333333333333333 | 2020-01-02 | \\x00ff |
stream: BRIC BUDC
keepalives answered: yes; confirmed_flush_lsn = the consistent point
after ack: confirmed_flush_lsn = the acknowledged LSN
after a lower ack and more keepalives: confirmed_flush_lsn = the acknowledged LSN
ack as text parses back: yes
stopped; slot active: f
insert: 4 | d | (n) | (n) | (n) | (n) | (n) |
resumed stream: BRIC
fatal: replication from $U stopped: publication \"rc_pub\" does not exist: create it again, drop the slot (SELECT pg_drop_replication_slot('rc_slot')) and capture again with a snapshot
after DROP PUBLICATION: exit 4, stream: (nothing)" env PGTZ=America/New_York PGDATESTYLE=German "$CHECK" scenario "$U"

# 3. setup errors. pwuser authenticates with scram-sha-256 (first pg_hba lines), everyone
#    else stays trusted.
pg_test_sql -c "CREATE ROLE norepl LOGIN" -c "CREATE ROLE pwuser LOGIN REPLICATION PASSWORD 'right-secret'" \
    -c "SELECT pg_create_logical_replication_slot('td', 'test_decoding')" \
    -c "SELECT pg_create_physical_replication_slot('phys')" >/dev/null || bad "roles and slots"
hba=$W/pg/data/pg_hba.conf
{ printf 'host all pwuser 127.0.0.1/32 scram-sha-256\nhost replication pwuser 127.0.0.1/32 scram-sha-256\n'; cat "$hba"; } |
    pg_as tee "$hba.new" >/dev/null && pg_as mv "$hba.new" "$hba"
pg_test_sql -c "SELECT pg_reload_conf()" >/dev/null
no_pw_refused() { ! "$PG_BIN/psql" -X -w -U pwuser -c 'SELECT 1' >/dev/null 2>&1; }
wait_for "pg_hba.conf reloaded" no_pw_refused
out=$("$CHECK" open "postgres://pwuser:wrong-secret@$HP/postgres"); st=$?
[ "$out" = "fatal: cannot connect to postgres://pwuser@$HP/postgres: connection to server at \"127.0.0.1\", port $PGPORT failed: FATAL: password authentication failed for user \"pwuser\" (check the password: PGPASSWORD, ~/.pgpass or passfile=)" ] ||
    bad "wrong password: $out"
[ $st = 4 ] || bad "wrong password: exit $st, not 4 (fatal)"
case $out in *secret*) bad "the password is printed: $out" ;; esac
expect "password in the URL" "connected to postgres://pwuser@$HP/postgres" "$CHECK" open "postgres://pwuser:right-secret@$HP/postgres"
expect "PGPASSWORD" "connected to postgres://pwuser@$HP/postgres" env PGPASSWORD=right-secret "$CHECK" open "postgres://pwuser@$HP/postgres"
port=$(pg_free_port)
out=$("$CHECK" open "postgres://postgres:pw@127.0.0.1:$port/postgres"); st=$?
[ "$out" = "retry: cannot connect to postgres://postgres@127.0.0.1:$port/postgres: connection to server at \"127.0.0.1\", port $port failed: Connection refused Is the server running on that host and accepting TCP/IP connections?" ] ||
    bad "connection refused: $out"
[ $st = 3 ] || bad "connection refused: exit $st, not 3 (retriable)"
expect "no REPLICATION" "fatal: role norepl has no REPLICATION privilege on postgres://norepl@$HP/postgres: run ALTER ROLE norepl REPLICATION as a superuser" \
    "$CHECK" open "postgres://norepl@$HP/postgres"
# libpq's own parse errors quote what they could not read: the password too, unless masked
expect "parse error, password in userinfo" 'fatal: bad PostgreSQL URL postgres://u@h/db: invalid percent-encoded token: "***"' \
    "$CHECK" open 'postgres://u:sec%zzret@h/db'
expect "parse error, password= parameter" 'fatal: bad PostgreSQL URL postgres://u@h/db?port=5: invalid percent-encoded token: "***"' \
    "$CHECK" open 'postgres://u@h/db?password=sec%zz&port=5'
expect "not a URL" "fatal: not a PostgreSQL URL (expected postgres://USER@HOST:PORT/DB[?PARAMS])" "$CHECK" open "host=x password=secret"
expect "slot of test_decoding" "fatal: replication slot \"td\" on $U uses the plugin test_decoding, rowcast reads pgoutput: choose another slot name, or drop it (SELECT pg_drop_replication_slot('td')) if nothing reads it" \
    "$CHECK" slot "$U" td
expect "physical slot" "fatal: replication slot \"phys\" on $U is a physical slot: choose another slot name" "$CHECK" slot "$U" phys
expect "bad slot name" "fatal: replication slot name \"Bad-Name\" is not valid: use lower-case letters, digits and _ (at most 63)" \
    "$CHECK" slot "$U" Bad-Name
missing="fatal: publication \"nopub\" does not exist on $U: name its tables with --include SCHEMA.TABLE (rowcast creates it FOR TABLE those) or create it yourself"
expect "publication missing, no tables named" "$missing" "$CHECK" pub "$U" nopub
expect "publication missing at start" "$missing" "$CHECK" start "$U" rc_slot nopub 1000
expect "no table matches" "fatal: --include 'nosuch.*' matched no table on $U" "$CHECK" pub "$U" nopub 'nosuch.*'
expect "every matched table lacks identity" "fatal: --include 'public.oth*': table public.other has no replica identity (no primary key): add a primary key, or ALTER TABLE public.other REPLICA IDENTITY FULL; published without one, the application's UPDATEs and DELETEs on it would fail, so rowcast does not publish it (-o postgres.publish.no_identity=insert_only: its INSERTs only)" \
    "$CHECK" pub "$U" p2 'public.oth*'
pg_test_sql -c "ALTER TABLE other REPLICA IDENTITY FULL" >/dev/null
expect "publication created" "notice: publication p2 created
publication p2: created" "$CHECK" pub "$U" p2 'public.oth*'
expect "publication exists" "publication p2: exists" "$CHECK" pub "$U" p2 'public.o*'
expect "a pattern the publication has no table of" "fatal: --include 'public.t': publication \"p2\" on $U has no table it matches (public.t is not in it): run ALTER PUBLICATION p2 ADD TABLE public.t, or leave the pattern out" \
    "$CHECK" pub "$U" p2 'public.t'
expect "publication's tables" "public.other" pg_test_sql -c "SELECT string_agg(schemaname || '.' || tablename, ',') FROM pg_publication_tables WHERE pubname = 'p2'"

# 4. "active for PID"
active_pid() { pg_test_sql -c "SELECT active_pid FROM pg_replication_slots WHERE slot_name = 's_hold'"; }
holder_streams() { grep -q '^streaming$' "$1" && [ -n "$(active_pid)" ]; }
"$CHECK" hold "$U" s_hold p2 >"$W/hold1.out" 2>&1 &
hold=$!
wait_for "the holder streams" holder_streams "$W/hold1.out"
pid=$(active_pid)
out=$("$CHECK" start "$U" s_hold p2 700); st=$?
last=$(echo "$out" | tail -1)
[ "$last" = "fatal: replication slot \"s_hold\" is active for PID $pid on $U, still after 700 ms: another client reads this slot; stop it or choose another slot" ] ||
    bad "active beyond the bound: $last"
[ $st = 4 ] || bad "active beyond the bound: exit $st"
echo "$out" | sed '$d' | grep -v "^notice: replication slot \"s_hold\" is active for PID $pid: retrying in [0-9]* ms$" && bad "unexpected retry notices"
[ "$(echo "$out" | grep -c '^notice')" -ge 2 ] || bad "fewer than 2 retries in 700 ms: $out"
# kill -9 of the holder while the second client retries
"$CHECK" start "$U" s_hold p2 30000 >"$W/retry.out" 2>&1 &
retry=$!
retrying() { grep -q '^notice: .*retrying' "$W/retry.out"; }
wait_for "the first retry" retrying
kill -9 $hold
wait $hold 2>/dev/null
wait $retry; st=$?
[ $st = 0 ] && [ "$(tail -1 "$W/retry.out")" = streaming ] || { bad "no stream after the holder was killed (exit $st)"; cat "$W/retry.out" >&2; }
# kill -9 of a client that streams, and a new client at once
"$CHECK" hold "$U" s_hold p2 >"$W/hold2.out" 2>&1 &
hold=$!
wait_for "the second holder streams" holder_streams "$W/hold2.out"
kill -9 $hold
wait $hold 2>/dev/null
out=$("$CHECK" start "$U" s_hold p2 30000); st=$?
[ $st = 0 ] && [ "$(echo "$out" | tail -1)" = streaming ] || bad "no stream right after kill -9 (exit $st): $out"
echo "after kill -9: $(echo "$out" | grep -c '^notice') retries"

# a status every 300 ms: the walsender (wal_sender_timeout 2 s) never has to ask for one
expect "periodic status" "streaming
keepalives asking for a reply: 0" "$CHECK" status "$U" s_hold p2 300
# a server restart while streaming: retriable, and the stream starts again
"$CHECK" hold "$U" s_hold p2 >"$W/hold3.out" 2>&1 &
hold=$!
wait_for "the third holder streams" holder_streams "$W/hold3.out"
pg_test_restart || bad "restart"
again() { grep -q '^streaming again$' "$W/hold3.out"; }
wait_for "the stream after the restart" again
kill $hold
wait $hold 2>/dev/null
# the server's words for the end depend on when the shutdown reached the walsender
{ read -r l1; read -r l2; read -r l3; } <"$W/hold3.out"
[ "$l1" = streaming ] && [ "$l3" = "streaming again" ] && case $l2 in "retry: replication on $U: "*) true ;; *) false ;; esac ||
    { bad "restart while streaming"; cat "$W/hold3.out" >&2; }

# 5. an invalidated slot: 1 MB of WAL may be kept for slots, 3 segments switched
pg_test_sql -c "ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'" -c "SELECT pg_reload_conf()" \
    -c "SELECT pg_create_logical_replication_slot('lost1', 'pgoutput')" >/dev/null
for _ in 1 2 3; do pg_test_sql -c "INSERT INTO other VALUES (1)" -c "SELECT pg_switch_wal()" >/dev/null; done
pg_test_sql -c CHECKPOINT
slot_lost() { [ "$(pg_test_sql -c "SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'lost1'")" = lost ]; }
wait_for "the slot invalidated" slot_lost
expect "invalidated slot" "fatal: replication slot \"lost1\" on $U is invalidated (wal_status lost, see max_slot_wal_keep_size): drop it with SELECT pg_drop_replication_slot('lost1') and capture again with a snapshot" \
    "$CHECK" slot "$U" lost1

# 6. wal_level = replica (no logical slot may exist then)
pg_test_sql -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots" -c "ALTER SYSTEM SET wal_level = replica" >/dev/null
pg_test_restart || bad "restart"
expect "wal_level" "fatal: $U has wal_level = replica, logical decoding needs logical: set wal_level = logical in postgresql.conf and restart PostgreSQL" \
    "$CHECK" open "$U"
exit $fail
