# shellcheck shell=bash
# A throwaway PostgreSQL 15 for a test suite (one per suite: scripts/pg-throwaway.sh does the
# work, the README's demo uses the same code).
# pg_test_start [CONF_LINE...]: a work directory W (removed at exit, with the server stopped),
#   fail=0 and bad MESSAGE to count a failure, and a server in W/pg with the extra
#   postgresql.conf lines; exports PGHOST, PGPORT, PGUSER, PGDATABASE, PG_URL.
# pg_test_sql [PSQL ARGS...]: psql as the test's user (superuser postgres), stops at the first
#   error, unaligned tuples only: `pg_test_sql -c 'SELECT 1'` prints 1.
# pg_test_restart: restarts the server (same port).  pg_test_stop: stops it, removes W.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/pg-throwaway.sh"

pg_test_start() {
    W=$(mktemp -d)
    chmod 755 "$W"
    trap pg_test_stop EXIT
    fail=0
    pg_throwaway_start "$W/pg" "$@" || return 1
    export PGHOST PGPORT PGUSER PGDATABASE PG_URL
    echo "PostgreSQL at $PG_URL"
}

pg_test_sql() {
    "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"
}

pg_test_restart() {
    pg_throwaway_restart "$W/pg"
}

pg_test_stop() {
    [ -n "${W:-}" ] || return 0
    pg_throwaway_stop "$W/pg"
    rm -rf "$W"
    W=
}

bad() { echo "FAIL: $*" >&2; fail=1; }
