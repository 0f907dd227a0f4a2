# shellcheck shell=bash
# The peer data: other tools' own test messages, and the schema files derived from them, live in
# ../shared beside the repository (CI has it; it is not part of the repository, so a plain clone
# has none). A case that needs a file there runs when ../shared is there and is counted as skipped
# when it is not; a file missing from a ../shared that is there fails the case (the peer data is
# incomplete, which must not pass unnoticed in CI).
# Sourced by the test scripts, which run from the repository root.

PEER_SKIPPED=0
# the exit status of a test whose every case needs the peer data, when ../shared is absent: ctest
# shows the test as skipped (its SKIP_RETURN_CODE, tests/CMakeLists.txt), not as passed
# shellcheck disable=SC2034 # read by the scripts that source this file
PEER_ALL_SKIPPED=77

# peer_need CASE [-n N] FILE... : status 0 when CASE can run (every FILE under ../shared/ exists;
# other files are not looked at), 1 when ../shared is absent (N cases, default 1, counted as
# skipped), 2 when ../shared is there but a FILE is not (a FAIL line naming CASE and the file).
peer_need() {
    local case_=$1 n=1 f
    shift
    [ "$1" = -n ] && { n=$2; shift 2; }
    for f in "$@"; do
        case $f in ../shared/*) ;; *) continue ;; esac
        if [ ! -d ../shared ]; then
            PEER_SKIPPED=$((PEER_SKIPPED + n))
            return 1
        fi
        [ -e "$f" ] || { echo "FAIL: $case_: $f not found (../shared is there, but without this file)" >&2; return 2; }
    done
    return 0
}

# peer_report NAME : the line that says how many cases were skipped (nothing when none were)
peer_report() {
    [ "$PEER_SKIPPED" = 0 ] || echo "$1: peer data not found at $(cd .. && pwd)/shared/testdata/peers: $PEER_SKIPPED cases skipped"
}

# peer_total LOG... : the cases skipped for want of the peer data in ctest's logs: the sum of
# the peer_report lines' counts and of cmocka's skipped tests (the unit tests skip only those);
# a missing log (ctest did not run) counts 0
peer_total() {
    cat "$@" 2>/dev/null | awk '/: [0-9]+ cases skipped$/ { n += $(NF - 2) }
         /^\[  SKIPPED \] [0-9]+ test\(s\), listed below:/ { n += $4 }
         END { print n + 0 }'
}
