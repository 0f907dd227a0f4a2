#!/usr/bin/env bash
# shellcheck shell=bash
# A throwaway MariaDB 10.11 in a directory of its own (docs/sources/mysql.md): mariadb-install-db
# into DIR/data, mariadbd --no-defaults on a free loopback port with its socket in DIR, the
# binlog in ROW format with full images and full metadata, no fsync. For tests
# (tests/integration/mariadb_lib.sh sources this file) and the README's demo. root's password
# is empty; the server runs as `mysql` when started by root, as the calling user otherwise.
#
# usage: eval "$(scripts/mariadb-throwaway.sh start [DIR])"   starts it (DIR: a new temporary
#            directory when absent) and prints export lines for MY_DIR, MY_PORT, MY_SOCK and
#            MY_URL (mysql://root@127.0.0.1:PORT)
#        scripts/mariadb-throwaway.sh stop DIR                  stops it and removes DIR
# Sourced, it defines the functions below (and scripts/lib.sh's, which it sources) and does
# nothing else.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# my_owner: the user the server runs as
my_owner() { if [ "$(id -u)" = 0 ]; then echo mysql; else id -un; fi; }

# my_free_port: a loopback TCP port nobody listens on now
my_free_port() { rc_free_port; }

# my_throwaway_start DIR [MARIADBD OPTION...]: a new server in DIR (created), started with
# the options below and then the extra ones (which override them: --binlog-row-image=MINIMAL);
# sets MY_DIR, MY_PORT, MY_SOCK, MY_URL. The server log is DIR/log.err (mariadbd adds .err to
# --log-error's name). It waits up to a minute: on a loaded machine InnoDB's start takes its time.
my_throwaway_start() {
    local dir=$1
    shift
    mkdir -p "$dir" || return 1
    chmod 755 "$dir"
    local owner
    owner=$(my_owner)
    [ "$(id -u)" = 0 ] && chown "$owner": "$dir"
    # a temporary directory of its own: two servers bootstrapping side by side (ctest -j2) in
    # the shared /tmp collided on '#sql-temptable' files
    mkdir -p "$dir/tmp" || return 1
    if [ "$(id -u)" = 0 ]; then chown "$owner": "$dir/tmp"; fi
    mariadb-install-db --no-defaults --user="$owner" --datadir="$dir/data" --auth-root-authentication-method=normal \
        --skip-test-db --skip-name-resolve --tmpdir="$dir/tmp" >"$dir/install.log" 2>&1 ||
        { echo "mariadb-install-db failed:" >&2; cat "$dir/install.log" >&2; return 1; }
    local try port
    for try in 1 2 3 4 5; do
        port=$(my_free_port)
        MY_OPTS=(--no-defaults --user="$owner" --datadir="$dir/data" --port="$port" --bind-address=127.0.0.1
            --socket="$dir/sock" --pid-file="$dir/pid" --log-error="$dir/log" --log-bin="$dir/data/bin" --tmpdir="$dir/tmp"
            --binlog-format=ROW --binlog-row-image=FULL --binlog-row-metadata=FULL --server-id=1
            --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci
            --skip-name-resolve --innodb-flush-log-at-trx-commit=0 --sync-binlog=0 --innodb-buffer-pool-size=32M
            --innodb-log-file-size=16M --skip-innodb-doublewrite --max-connections=50 "$@")
        mariadbd "${MY_OPTS[@]}" >/dev/null 2>&1 &
        MY_PID=$!
        local i
        for i in $(seq 1 1200); do # up to a minute: InnoDB's start takes seconds on a loaded machine
            if mariadb --no-defaults -S "$dir/sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
                MY_DIR=$dir MY_PORT=$port MY_SOCK=$dir/sock MY_URL="mysql://root@127.0.0.1:$port"
                echo "$MY_PID" >"$dir/mariadbd.pid"
                return 0
            fi
            kill -0 "$MY_PID" 2>/dev/null || break
            sleep 0.05
        done
        # (|| true: a server that already exited makes both fail, which would end a caller running
        # under set -e, bench/run_capture_mysql.sh, silently instead of trying another port)
        kill "$MY_PID" 2>/dev/null || true
        wait "$MY_PID" 2>/dev/null || true
        grep -q 'Address already in use\|Do you already have another' "$dir/log.err" 2>/dev/null || break
        # the port was taken (a server beside this one, ctest -j2): the failed start opened a
        # binlog already, which the next would follow with bin.000002 (the tests name the files)
        rm -f "$dir"/data/bin.[0-9]* "$dir/data/bin.index" "$dir/data/bin.state"
    done
    echo "MariaDB did not start (try $try, port $port); its log:" >&2
    tail -30 "$dir/log.err" >&2 2>/dev/null
    return 1
}

# my_throwaway_env: the export lines for the server started last
my_throwaway_env() {
    local v
    for v in MY_DIR MY_PORT MY_SOCK MY_URL; do printf 'export %s=%q\n' "$v" "${!v}"; done
}

# my_throwaway_kill DIR [SIGNAL]: stops the server of DIR (TERM: a clean shutdown) and waits
# until it is gone; the data stays
my_throwaway_kill() {
    local dir=$1 sig=${2:-TERM} pid
    pid=$(cat "$dir/mariadbd.pid" 2>/dev/null) || return 0
    kill "-$sig" "$pid" 2>/dev/null || return 0
    local i
    for i in $(seq 1 400); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    rm -f "$dir/mariadbd.pid"
}

# my_throwaway_restart DIR: starts the server of DIR again (after my_throwaway_kill), same
# port and options as the last my_throwaway_start of this shell
my_throwaway_restart() {
    local dir=$1 i old
    # a second mariadbd on the same directory would leak the first (its pid file overwritten)
    old=$(cat "$dir/mariadbd.pid" 2>/dev/null)
    if [ -n "$old" ] && kill -0 "$old" 2>/dev/null; then
        echo "my_throwaway_restart: MariaDB (pid $old) is still running in $dir: stop it first (my_throwaway_kill)" >&2
        return 1
    fi
    mariadbd "${MY_OPTS[@]}" >/dev/null 2>&1 &
    MY_PID=$!
    for i in $(seq 1 400); do
        if mariadb --no-defaults -S "$dir/sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
            echo "$MY_PID" >"$dir/mariadbd.pid"
            return 0
        fi
        sleep 0.05
    done
    echo "MariaDB did not restart; its log:" >&2
    tail -20 "$dir/log.err" >&2
    return 1
}

# my_throwaway_stop DIR: stops the server and removes DIR
my_throwaway_stop() {
    local dir=$1
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    my_throwaway_kill "$dir" TERM
    rm -rf "$dir"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    rc_throwaway_main my "$@"
fi
