# shellcheck shell=bash
# nap SECONDS: a pause without a process (sleep is one: the polling waits of four tests at once
# spent a few percent of the two cores starting it). A read that times out on a pipe nobody
# writes, opened once per shell (a subshell opens its own: its parent's could be gone).
nap() {
    if [ "${_RC_NAP_PID:-}" != "$BASHPID" ]; then
        exec {_RC_NAP_FD}<> <(:)
        _RC_NAP_PID=$BASHPID
    fi
    read -rt "$1" -u "$_RC_NAP_FD" _ || :
}
