# shellcheck shell=bash
# A throwaway MariaDB 10.11 for a test suite (one per suite: scripts/mariadb-throwaway.sh does
# the work, the README's demo uses the same code).
# my_test_start [MARIADBD OPTION...]: a work directory W (removed at exit, with the server
#   stopped), fail=0, and a server in W/my (binlog ROW, FULL images, FULL metadata, then the
#   options given); exports MY_PORT, MY_SOCK, MY_URL (mysql://root@127.0.0.1:PORT, root
#   without password).
# my_sql [MARIADB ARGS...]: the mariadb client as root over the socket, stops at the first
#   error, tab-separated rows without headers: `my_sql -e 'SELECT 1'` prints 1.
# my_test_kill [SIGNAL] / my_test_restart: stops the server (the data stays; TERM by default,
#   KILL for a crash) / starts it again on the same port.  my_test_stop: stops it, removes W.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/mariadb-throwaway.sh"

my_test_start() {
    W=$(mktemp -d)
    chmod 755 "$W"
    trap my_test_stop EXIT
    fail=0
    my_throwaway_start "$W/my" "$@" || return 1
    export MY_PORT MY_SOCK MY_URL
    echo "MariaDB at $MY_URL"
}

my_sql() {
    mariadb --no-defaults --default-character-set=utf8mb4 -S "$MY_SOCK" -uroot --batch --skip-column-names "$@"
}

my_test_kill() { my_throwaway_kill "$W/my" "${1:-TERM}"; }
my_test_restart() { my_throwaway_restart "$W/my"; }

my_test_stop() {
    [ -n "${W:-}" ] || return 0
    my_throwaway_stop "$W/my"
    rm -rf "$W"
    W=
}
