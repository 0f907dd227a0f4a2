#!/usr/bin/env bash
# The capture demo's stdout (scripts/demo.sh native) against its reviewed golden: OUT, with
# what varies between runs normalised (demo_normalise.awk), must equal GOLDEN; a difference
# fails with the diff. RC_UPDATE_GOLDEN=1 rewrites GOLDEN (read it before committing: its
# values are examples/postgres-demo-setup.sql's rows and examples/postgres-demo-changes.sql's
# changes). Used by demo_test.sh (the README's command, its own build) and docs_commands_test.sh
# (the same command with the build under test).
# usage: demo_same.sh GOLDEN OUT   (from the repository root)
set -u
GOLDEN=${1:?golden file} OUT=${2:?demo output}
norm=$(mktemp)
trap 'rm -f "$norm"' EXIT
awk -f tests/integration/demo_normalise.awk "$OUT" >"$norm"
[ "${RC_UPDATE_GOLDEN:-}" = 1 ] && cp "$norm" "$GOLDEN"
if ! cmp -s "$GOLDEN" "$norm"; then
    echo "FAIL: the demo's output (normalised) differs from $GOLDEN in lines $(diff "$GOLDEN" "$norm" | grep -v '^[<>-]' | paste -sd' '):" >&2
    diff <(tr , '\n' <"$GOLDEN") <(tr , '\n' <"$norm") | head -40 >&2 # member by member: lines are long
    exit 1
fi
echo "demo: $(wc -l <"$norm") lines as $GOLDEN"
