#!/usr/bin/env bash
# shellcheck shell=bash
# A throwaway PostgreSQL 15 in a directory of its own: logical WAL, no fsync, a free loopback
# port, its socket in the same directory; trust authentication for local and 127.0.0.1
# connections (replication included). For tests (tests/integration/pg_lib.sh sources this
# file) and the README's demo. Runs the server as `postgres` when started by root (PostgreSQL
# refuses to run as root), as the calling user otherwise.
#
# usage: eval "$(scripts/pg-throwaway.sh start [DIR])"   starts it (DIR: a new temporary
#            directory when absent) and prints export lines for PGHOST, PGPORT, PGUSER,
#            PGDATABASE, PG_URL (postgres://postgres@127.0.0.1:PORT/postgres) and PG_DIR
#        scripts/pg-throwaway.sh stop DIR                   stops it and removes DIR
# Sourced, it defines the functions below (and scripts/lib.sh's, which it sources) and does
# nothing else.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

# pg_as CMD...: runs CMD as the server's owner
pg_as() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# pg_free_port: prints a loopback TCP port nobody listens on now (the server retries with
# another one if it is taken before it binds)
pg_free_port() { rc_free_port; }

# pg_throwaway_start DIR [CONF_LINE...]: initdb in DIR/data (DIR is created, made the
# server's), CONF_LINEs appended to postgresql.conf, started with pg_ctl -w; sets PG_DIR,
# PGHOST, PGPORT, PGUSER, PGDATABASE, PG_URL (not exported: pg_throwaway_env prints them).
# The server log is DIR/log.
pg_throwaway_start() {
    local dir=$1
    shift
    mkdir -p "$dir" || return 1
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    pg_as "$PG_BIN/initdb" -D "$dir/data" -A trust --no-sync -E UTF8 --locale=C -U postgres >"$dir/initdb.log" 2>&1 ||
        { echo "initdb failed:" >&2; cat "$dir/initdb.log" >&2; return 1; }
    # Settings the capture tests rely on; several suites run at once (ctest -j), each with
    # its own server, so everything that could collide is in DIR or on a port of its own.
    pg_as tee -a "$dir/data/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
wal_level = logical
fsync = off
synchronous_commit = off
full_page_writes = off
max_replication_slots = 20
max_wal_senders = 20
shared_buffers = 32MB
EOF
    local line
    for line in "$@"; do echo "$line" | pg_as tee -a "$dir/data/postgresql.conf" >/dev/null; done
    local try port
    for try in 1 2 3 4 5; do
        port=$(pg_free_port)
        if pg_as "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 -o "-p $port" start >/dev/null 2>&1; then
            PG_DIR=$dir PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=postgres
            PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
            return 0
        fi
        grep -q 'could not bind\|Address already in use' "$dir/log" 2>/dev/null || break
    done
    echo "PostgreSQL did not start (try $try, port $port); its log:" >&2
    cat "$dir/log" >&2 2>/dev/null
    return 1
}

# pg_throwaway_env: the export lines for the server started last
pg_throwaway_env() {
    local v
    for v in PG_DIR PGHOST PGPORT PGUSER PGDATABASE PG_URL; do printf 'export %s=%q\n' "$v" "${!v}"; done
}

# pg_throwaway_restart DIR: restarts the server in DIR (pg_ctl keeps the port it was started
# with), after a configuration change that needs a restart
pg_throwaway_restart() {
    pg_as "$PG_BIN/pg_ctl" -D "$1/data" -l "$1/log" -w -t 30 -m fast restart >/dev/null 2>&1 ||
        { echo "PostgreSQL did not restart; its log:" >&2; tail -20 "$1/log" >&2; return 1; }
}

# pg_throwaway_stop DIR: stops the server (fast: sessions are ended) and removes DIR
pg_throwaway_stop() {
    local dir=$1
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    if [ -f "$dir/data/postmaster.pid" ]; then
        pg_as "$PG_BIN/pg_ctl" -D "$dir/data" -w -t 30 -m fast stop >/dev/null 2>&1 ||
            pg_as "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
    fi
    rm -rf "$dir"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    rc_throwaway_main pg "$@"
fi
