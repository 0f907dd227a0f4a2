#!/usr/bin/env bash
# Both checks of a captured native stream against the server it came from, for one table:
#  1. replay.awk rebuilds the table from the stream; it must equal the table's rows on the
#     server now (COPY ... TO STDOUT / mariadb --batch), byte for byte, both sorted
#     (LC_ALL=C sort: a multiset for a table without a key);
#  2. dblog_check.awk: no read older than a change of its key.
#
#   check_stream.sh URL SCHEMA.TABLE STREAM [--keys COLS] [--dblog-keys COLS] [--strict] [--out DIR]
#
# URL: postgres://... (psql) or mysql://USER[:PASS]@HOST:PORT[/DB] (mariadb). --keys: the key
# columns for the replay (default: the events' pk flags; none: a multiset); --dblog-keys: for
# the DBLog check (default --keys; a table without a key needs one, else that check is
# skipped with a line saying so); --strict: replay.awk's strict=1 (an initial snapshot then
# changes delivered once); --out DIR: keeps TABLE.rebuilt and TABLE.select there (default: a
# temporary directory, removed). The checkers' lines on stderr; exit 0 when both pass, else 1
# (2: bad usage or the server could not be read).
set -u
URL=${1:?URL}
TABLE=${2:?SCHEMA.TABLE}
STREAM=${3:?STREAM}
shift 3
KEYS="" DKEYS="-" STRICT=0 OUT=""
while [ $# -gt 0 ]; do
    case $1 in
    --keys) KEYS=$2; shift 2 ;;
    --dblog-keys) DKEYS=$2; shift 2 ;;
    --strict) STRICT=1; shift ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "check_stream.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$DKEYS" = - ] && DKEYS=$KEYS
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=(-f "$HERE/native_events.awk")
if [ -z "$OUT" ]; then
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi

# the table's rows on the server, as COPY text
dump() {
    case $URL in
    postgres://* | postgresql://*) psql "$URL" -X -q -At -v ON_ERROR_STOP=1 -c "COPY $TABLE TO STDOUT" ;;
    mysql://* | mariadb://*)
        local rest=${URL#*://} user host port=3306 pass=""
        rest=${rest%%\?*}
        user=${rest%%@*} host=${rest#*@}
        host=${host%%/*}
        case $user in *:*) pass=${user#*:} user=${user%%:*} ;; esac
        case $host in *:*) port=${host#*:} host=${host%%:*} ;; esac
        MYSQL_PWD=$pass mariadb --no-defaults --default-character-set=utf8mb4 -h "$host" -P "$port" -u "$user" \
            --batch --skip-column-names -e "SELECT * FROM $TABLE" ;;
    *) echo "check_stream.sh: $URL: not a postgres:// or mysql:// URL" >&2; return 2 ;;
    esac
}

st=0
f=$OUT/${TABLE##*.}
awk -v table="$TABLE" -v keys="$KEYS" -v strict=$STRICT "${LIB[@]}" -f "$HERE/replay.awk" "$STREAM" 2>"$f.replay.err" | LC_ALL=C sort >"$f.rebuilt"
[ "${PIPESTATUS[0]}" = 0 ] || st=1
cat "$f.replay.err" >&2
dump | LC_ALL=C sort >"$f.select"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "check_stream.sh: cannot read $TABLE from the server" >&2; exit 2; }
if ! cmp -s "$f.select" "$f.rebuilt"; then
    echo "FAIL: $TABLE: the replay differs from SELECT (< server, > replay):" >&2
    diff "$f.select" "$f.rebuilt" | head -20 >&2
    st=1
fi
if [ -z "$DKEYS" ] && grep -q "(no key: a multiset)" "$f.replay.err"; then
    echo "dblog $TABLE: skipped, the table has no key (give --dblog-keys)" >&2
else
    awk -v table="$TABLE" -v keys="$DKEYS" "${LIB[@]}" -f "$HERE/dblog_check.awk" "$STREAM" || st=1
fi
exit $st
