#!/usr/bin/env bash
# A writer's golden output against the real tool's file where they cannot be equal byte for
# byte: line i of OUT must be the same JSON value (json_same: key order and whitespace aside,
# numbers by their exact text) as line i of PEER once the differences DIFFS lists are taken
# out of PEER. DIFFS holds sed expressions, one a line, each after a comment saying why the
# difference is inherent (docs/formats/ name them too). Skipped (exit 77) when ../shared is missing.
# usage: peer_same.sh JSON_SAME PEER OUT DIFFS   (from the repository root)
set -u
SAME=${1:?path to json_same}
PEER=${2:?peer file}
OUT=${3:?golden output}
DIFFS=${4:?sed file of the differences}
. tests/common/peers.sh
peer_need "$OUT" "$PEER"
case $? in 1) peer_report peer_same; exit $PEER_ALL_SKIPPED ;; 2) exit 1 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep '^{' "$PEER" | sed -f <(grep -v '^#' "$DIFFS") >"$tmp/peer"
if [ "$(wc -l <"$tmp/peer")" != "$(wc -l <"$OUT")" ]; then
    echo "FAIL: $OUT has $(wc -l <"$OUT") lines, $PEER $(wc -l <"$tmp/peer")" >&2
    exit 1
fi
fail=0
i=0
while IFS= read -r a <&3 && IFS= read -r b <&4; do
    i=$((i + 1))
    printf '%s\n' "$a" >"$tmp/a"
    printf '%s\n' "$b" >"$tmp/b"
    if ! why=$("$SAME" "$tmp/a" "$tmp/b" 2>&1); then
        echo "FAIL: $OUT line $i is not $PEER line $i less the differences in $DIFFS: $why" >&2
        fail=1
    fi
done 3<"$tmp/peer" 4<"$OUT"
[ $fail = 0 ] && echo "peer_same: $OUT: $i lines carry $PEER's data"
exit $fail
