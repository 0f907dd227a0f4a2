#!/usr/bin/env bash
# A capture run the way packaging/rowcast@.service runs it: the unit's ExecStart arguments (its
# /usr/bin/rowcast the rowcast under test, /etc/rowcast/%i.conf a config file in the work
# directory), in its WorkingDirectory with its Environment (%S and %i replaced as systemd
# replaces them), stopped with its KillSignal, the exit status one of its SuccessExitStatus.
# Against one throwaway PostgreSQL, a file sink in the state directory: a snapshot of 1000 rows,
# 2000 inserts while the first run streams, 1000 while nothing runs, 500 during the second run;
# after both runs every id is in the file exactly once: nothing lost, nothing repeated.
# Skipped (77) when this rowcast has no --config.
# usage: service_run_test.sh path/to/rowcast   (from the repository root)
set -u
RC=$(realpath "${1:?path to rowcast}")
"$RC" help capture 2>/dev/null | grep -q -- '--config FILE' || { echo "service_run: rowcast has no --config: skipped"; exit 77; }
UNIT=$PWD/packaging/rowcast@.service
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
pg_test_start "autovacuum = off" || exit 1
. "$HERE/../common/check.sh"
PID=
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; pg_test_stop' EXIT

I=shop S=$W/var/lib ETC=$W/etc/rowcast
# unit KEY: the unit's value of KEY, %S and %i replaced
unit() { sed -n "s/^$1=//p" "$UNIT" | sed "s|%S|$S|g; s|%i|$I|g"; }
exec_line=$(unit ExecStart)
case $exec_line in "/usr/bin/rowcast capture --config /etc/rowcast/$I.conf") ok ;; *) bad "ExecStart is '$exec_line'" ;; esac
read -r -a ARGS <<<"${exec_line#/usr/bin/rowcast }"
ARGS=("${ARGS[@]//\/etc\/rowcast/$ETC}")
STATE=$S/$(unit StateDirectory) WORKDIR=$(unit WorkingDirectory) SIGNAL=$(unit KillSignal)
mapfile -t ENVS < <(unit Environment)
mkdir -p "$ETC" "$STATE"
[ "$WORKDIR" = "$STATE" ] && ok || bad "WorkingDirectory $WORKDIR is not the state directory $STATE"
{
    echo "# what /etc/rowcast/$I.conf would hold"
    echo "url = $PG_URL"
    echo "include = public.t"
    echo "slot = svc"
    echo "publication = svcp"
    echo "sink = file:out.ndjson"
    echo "server = $I"
} >"$ETC/$I.conf"
"$RC" help capture | grep -q -- '--log-format' && echo "log-format = json" >>"$ETC/$I.conf"

# start: rowcast as the unit starts it, its stderr appended to $W/err
start() { (cd "$WORKDIR" && exec env "${ENVS[@]}" "$RC" "${ARGS[@]}") >/dev/null 2>>"$W/err" & PID=$!; }
# stop NAME: the unit's KillSignal, and the exit status must be one of SuccessExitStatus
stop() {
    kill -s "$SIGNAL" "$PID"
    wait "$PID"
    local st=$?
    PID=
    case " $(unit SuccessExitStatus) " in *" $st "*) ok ;; *) bad "$1: exit status $st: $(tail -5 "$W/err")" ;; esac
}
# inserts FROM TO: one transaction each ten rows
inserts() { for ((i = $1; i <= $2; i += 10)); do echo "INSERT INTO t SELECT generate_series($i, $((i + 9 < $2 ? i + 9 : $2)));"; done | pg_test_sql; }
has() { grep -qF "\"after\":[$1]" "$WORKDIR/out.ndjson" 2>/dev/null; }

pg_test_sql -c "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t SELECT generate_series(1, 1000)" || exit 1
start
wait_for 60 has 1000 || bad "run 1: the snapshot never arrived: $(tail -5 "$W/err")"
inserts 1001 3000
wait_for 60 has 3000 || bad "run 1: the inserts never arrived: $(tail -5 "$W/err")"
stop "run 1"
inserts 3001 4000 # nothing runs
start
inserts 4001 4500
wait_for 60 has 4500 || bad "run 2: the inserts never arrived: $(tail -5 "$W/err")"
stop "run 2"

grep -o '"after":\[[0-9]*\]' "$WORKDIR/out.ndjson" | sort | uniq -c | awk '$1 != 1 { print "repeated: " $2 }' >"$W/repeated"
grep -o '"after":\[[0-9]*\]' "$WORKDIR/out.ndjson" | sort -u | wc -l >"$W/n"
[ "$(cat "$W/n")" = 4500 ] && ok || bad "$(cat "$W/n") ids of 4500 in the file"
[ -s "$W/repeated" ] && bad "ids written twice: $(head -3 "$W/repeated")" || ok
[ -s "$STATE/out.ndjson.rowcast-state" ] && ok || bad "no state file beside the output in $STATE: $(ls "$STATE")"

echo "service_run: $pass passed, $fail failed"
[ "$fail" = 0 ]
