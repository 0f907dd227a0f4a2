#!/usr/bin/env bash
# lib_symbols_test.sh PUBLIC.a INCLUDE_DIR INTERNAL.a (ctest lib_symbols)
# The installed library exports the public API and nothing else (issue 23 §3): every global
# symbol defined in PUBLIC.a (build/public/librowcast.a, what `cmake --install` installs) is a
# function or object that a header of INCLUDE_DIR/rowcast/ declares, and each of those is
# defined there. And the internal library INTERNAL.a, which the CLI, tests and tools link, still
# defines only rc_ names (issue 15): an internal name without the prefix can collide with a
# library linked beside it (libavro defines avro_string and avro_double, and the Avro check
# tool links both).
set -euo pipefail
lib=${1:?usage: lib_symbols_test.sh PUBLIC.a INCLUDE_DIR INTERNAL.a} inc=${2:?} internal=${3:?}
command -v nm >/dev/null || { echo "lib_symbols: nm not found (binutils)"; exit 1; }
command -v gcc >/dev/null || { echo "lib_symbols: gcc not found (for -aux-info)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# defined LIB: the global symbols LIB defines, one a line, sorted. A sanitizer build adds
# __odr_asan.NAME beside each instrumented global NAME (ASan's one-definition-rule check):
# those stand for NAME.
defined() {
    nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }' | sed 's/^__odr_asan\.//' | LC_ALL=C sort -u
}

# --- the internal library: rc_ names only
defined "$internal" >"$tmp/internal"
n=$(grep -c . "$tmp/internal" || true)
[ "$n" -gt 100 ] || { echo "lib_symbols: only $n symbols in $internal: not the library?"; exit 1; }
if grep -v '^rc_' "$tmp/internal" >"$tmp/bad"; then
    echo "FAIL: $internal defines names without the rc_ prefix (make them static or prefix them):"
    sed 's/^/  /' "$tmp/bad"
    fails=$((fails + 1))
else
    echo "ok: all $n global names of the internal $(basename "$internal") start with rc_"
fi

# --- what the installed headers declare: the functions (gcc -aux-info writes every prototype
# the translation unit sees, with the header it is in; static inline ones aside) and the objects
# (the headers' extern declarations, one a line)
for h in "$inc"/rowcast/*.h; do echo "#include <rowcast/${h##*/}>"; done >"$tmp/all.c"
gcc -std=c11 -I"$inc" -c "$tmp/all.c" -o "$tmp/all.o" -aux-info "$tmp/aux"
grep -F "/* $inc/rowcast/" "$tmp/aux" | grep -v '\*/ static ' |
    sed -E 's|^/\*[^*]*\*/ *||; s/^[^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*) \(.*/\1/' >"$tmp/declared"
cat "$inc"/rowcast/*.h | grep -E '^(RC_API +)?extern ' | sed -E 's/ *(\[[^]]*\])? *;.*$//; s/.*[^A-Za-z0-9_]//' >>"$tmp/declared"
LC_ALL=C sort -u -o "$tmp/declared" "$tmp/declared"
nd=$(grep -c . "$tmp/declared" || true)
[ "$nd" -gt 50 ] || { echo "lib_symbols: only $nd declarations found in $inc/rowcast: not the headers?"; exit 1; }

# --- the installed library against them, both ways
defined "$lib" >"$tmp/public"
if LC_ALL=C comm -23 "$tmp/public" "$tmp/declared" >"$tmp/extra" && [ -s "$tmp/extra" ]; then
    echo "FAIL: $lib exports names no installed header declares (internal: keep them hidden, without RC_API):"
    sed 's/^/  /' "$tmp/extra"
    fails=$((fails + 1))
fi
if LC_ALL=C comm -13 "$tmp/public" "$tmp/declared" >"$tmp/missing" && [ -s "$tmp/missing" ]; then
    echo "FAIL: the installed headers declare names $lib does not export (RC_API missing, or not defined):"
    sed 's/^/  /' "$tmp/missing"
    fails=$((fails + 1))
fi
[ $fails = 0 ] && echo "ok: $(basename "$lib") exports exactly the $nd functions and objects the headers of $inc/rowcast declare (of $n in the internal library)"
[ $fails = 0 ]
