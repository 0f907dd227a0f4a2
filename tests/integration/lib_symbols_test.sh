#!/usr/bin/env bash
# The static library exports only rc_ names (issue 15): an internal name without the
# prefix can collide with a library linked beside it (libavro defines avro_string and
# avro_double, and the Avro check tool links both). Lists every defined global symbol
# of librowcast.a and fails, naming them, if any lacks the prefix.
set -euo pipefail
lib=${1:?usage: lib_symbols_test.sh LIBROWCAST.a}
command -v nm >/dev/null || { echo "lib_symbols: nm not found (binutils)"; exit 1; }
all=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u)
n=$(printf '%s\n' "$all" | grep -c . || true)
[ "$n" -gt 100 ] || { echo "lib_symbols: only $n symbols in $lib: not the library?"; exit 1; }
# AddressSanitizer adds an __odr_asan.<name> for each global variable (RC_SANITIZE builds)
bad=$(printf '%s\n' "$all" | grep -v '^rc_' | grep -v '^__odr_asan\.rc_' || true)
if [ -n "$bad" ]; then
    echo "lib_symbols: $lib exports names without the rc_ prefix (make them static or prefix them):"
    printf '  %s\n' $bad
    exit 1
fi
echo "lib_symbols: all $n exported names of $(basename "$lib") start with rc_"
