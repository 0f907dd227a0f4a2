#!/usr/bin/env bash
# Layering: the formats (src/formats) and the command line (src/cli) do not include the
# sources' headers (src/sources): a format reads and writes events, whatever made them. Fails on
# any #include of a sources/ header from those directories but the known exceptions below.
# usage: structure_test.sh   (run from the repository root)
set -u
# Known exceptions, to remove as issue 23 moves what they use out of src/sources:
#  - debezium_up_values.c writes PostgreSQL values with pg_value.h's helpers;
#  - capture.c opens the PostgreSQL and MySQL connections itself.
known='src/formats/debezium_up_values.c:sources/pg/pg_value.h
src/cli/capture.c:sources/mysql/my_conn.h
src/cli/capture.c:sources/pg/pg_conn.h'

[ -d src/formats ] && [ -d src/cli ] || { echo "structure_test: run from the repository root" >&2; exit 2; }
found=$(grep -rEo --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]*sources/[^>"]*[>"]' src/formats src/cli |
        sed -E 's/:[^<"]*[<"]([^>"]*)[>"]$/:\1/; s#:(\.\./)+#:#' | sort)
fail=0
while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    if ! grep -qxF -- "$hit" <<<"$known"; then
        echo "structure_test: ${hit%%:*} includes ${hit#*:}: formats and cli do not include src/sources headers (issue 23)" >&2
        fail=1
    fi
done <<<"$found"
[ $fail = 0 ] && echo "structure_test: formats and cli include no sources header but the $(grep -c . <<<"$known") known exceptions"
exit $fail
