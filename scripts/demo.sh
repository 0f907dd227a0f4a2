#!/usr/bin/env bash
# Quick start, command 1: installs what is missing (PostgreSQL 15 included), builds rowcast,
# starts a throwaway PostgreSQL in a temporary directory, creates a small shop
# (examples/postgres-demo-setup.sql) and captures it: first the snapshot, then the changes of
# examples/postgres-demo-changes.sql (every kind: insert, update, delete, a transaction, a
# rolled-back one, TRUNCATE), to stdout in the chosen format; then stops the server and
# removes its directory.
# usage: scripts/demo.sh [FORMAT] [extra capture options...]     (default format: native)
# Environment: ROWCAST=path/to/rowcast captures with that binary and installs and builds
# nothing (tests/integration/docs_commands_test.sh runs the documented demo commands so).
set -eu
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/pg-throwaway.sh"
fmt=${1:-native}
[ $# -gt 0 ] && shift
[ -n "${ROWCAST:-}" ] || rc_install postgresql-15
rc_demo_build
dir=$(mktemp -d)
chmod 755 "$dir"
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
