# shellcheck shell=bash
# The counting checks of the command-line test scripts: each check is ok or bad (a FAIL line
# on stderr); the script ends with `echo "NAME: $pass passed, $fail failed"; [ "$fail" = 0 ]`.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# expect_eq NAME FILE-A FILE-B : the two files are equal, byte for byte (else the diff's head)
expect_eq() { if cmp -s "$2" "$3"; then ok; else bad "$1"; diff "$2" "$3" | head -20 >&2; fi; }
# expect_rc NAME STATUS WANT
expect_rc() { if [ "$2" = "$3" ]; then ok; else bad "$1: exit status $2, expected $3"; fi; }
# wait_for SECONDS COMMAND... : until COMMAND succeeds (checked every 0.05 s); status 1 when it never did
wait_for() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ $SECONDS -ge $end ] && return 1
        nap 0.05
    done
}
. "$(dirname "${BASH_SOURCE[0]}")/nap.sh"
