#!/usr/bin/env bash
# Quick start, command 1: installs what is missing (PostgreSQL 15 or MariaDB included), builds
# rowcast, starts a throwaway database server in a temporary directory, creates a small shop
# (examples/postgres-demo-setup.sql, examples/mariadb-demo-setup.sql) and captures it: first
# the snapshot, then the changes of examples/postgres-demo-changes.sql (every kind: insert,
# update, delete, a transaction, a rolled-back one, TRUNCATE) or
# examples/mariadb-demo-changes.sql (the same kinds and an ALTER TABLE), to stdout in the
# chosen format; then stops the server and removes its directory.
# usage: scripts/demo.sh [postgres|mariadb] [FORMAT] [extra capture options...]
#        (default database: postgres; default format: native)
# Environment: ROWCAST=path/to/rowcast captures with that binary and installs and builds
# nothing (tests/integration/docs_commands_test.sh runs the documented demo commands so).
set -eu
. "$(dirname "$0")/lib.sh"
db=postgres
case "${1:-}" in postgres | mariadb) db=$1 && shift ;; esac
fmt=${1:-native}
[ $# -gt 0 ] && shift
dir=$(mktemp -d)
chmod 755 "$dir"
if [ "$db" = mariadb ]; then
    . "$ROOT/scripts/mariadb-throwaway.sh"
    [ -n "${ROWCAST:-}" ] || rc_install mariadb-server mariadb-client
    rc_demo_build
    trap 'my_throwaway_stop "$dir/my"; rm -rf "$dir"' EXIT
    my_throwaway_start "$dir/my" >/dev/null
    sql() { mariadb --no-defaults --default-character-set=utf8mb4 -S "$MY_SOCK" -uroot <"$1"; }
    sql "$ROOT/examples/mariadb-demo-setup.sql"
    # the checkpoint file holds the position and the schema history between the two runs
    capture() { "$ROWCAST" capture "$MY_URL/shop" --server-id 2 --checkpoint "$dir/checkpoint" --until caught-up --to "$fmt" "$@"; }
    echo "# rowcast capture: the snapshot (writes the checkpoint)" >&2
    capture "$@"
    sql "$ROOT/examples/mariadb-demo-changes.sql"
    echo "# rowcast capture: the changes since, from the checkpoint" >&2
    capture "$@"
    exit 0
fi
. "$ROOT/scripts/pg-throwaway.sh"
[ -n "${ROWCAST:-}" ] || rc_install postgresql-15
rc_demo_build
trap 'pg_throwaway_stop "$dir/pg"; rm -rf "$dir"' EXIT
pg_throwaway_start "$dir/pg" >/dev/null
sql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U postgres -d postgres "$@"; }
sql -f "$ROOT/examples/postgres-demo-setup.sql"
capture() { "$ROWCAST" capture "$PG_URL" --include 'public.*' --until caught-up --to "$fmt" "$@"; }
echo "# rowcast capture: the snapshot (creates the publication and the slot)" >&2
capture "$@"
sql -f "$ROOT/examples/postgres-demo-changes.sql"
echo "# rowcast capture: the changes since, from the slot" >&2
capture "$@"
