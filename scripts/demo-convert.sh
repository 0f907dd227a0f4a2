#!/usr/bin/env bash
# The convert example of the quick start: installs what is missing, builds rowcast and converts the bundled
# sample change stream (examples/shop.ndjson) to stdout in the chosen format.
# usage: scripts/demo-convert.sh [FORMAT] [extra convert options...]     (default format: native)
# Environment: ROWCAST=path/to/rowcast converts with that binary and installs and builds nothing
# (tests/integration/docs_commands_test.sh runs the documented demo commands so).
set -eu
. "$(dirname "$0")/lib.sh"
fmt=${1:-native}
[ $# -gt 0 ] && shift
rc_demo_build
# the sample holds edge values on purpose, some of which a format cannot hold (OMS Debezium's
# milliseconds, upstream Debezium's int64): the demo says which and goes on (--on-loss=skip;
# --on-loss=stop, the default elsewhere, as an extra option stops there)
exec "$ROWCAST" convert --from native --to "$fmt" --on-loss=skip "$@" "$ROOT/examples/shop.ndjson"
