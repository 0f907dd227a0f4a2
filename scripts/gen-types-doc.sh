#!/usr/bin/env bash
# Rewrites the catalog table at the end of docs/types.md from `rowcast types --markdown`
# (the CLI test fails while the page and the catalog disagree).
# usage: scripts/gen-types-doc.sh [path/to/rowcast]
set -eu
cd "$(dirname "$0")/.."
RC=${1:-build/rowcast}
head -n "$(grep -n '^## The catalog' docs/types.md | cut -d: -f1)" docs/types.md >docs/types.md.new
{ echo; "$RC" types --markdown; } >>docs/types.md.new
mv docs/types.md.new docs/types.md
