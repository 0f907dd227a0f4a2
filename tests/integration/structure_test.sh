#!/usr/bin/env bash
# Layering: the formats (src/formats) and the command line (src/cli) do not include the
# sources' headers (src/sources): a format reads and writes events, whatever made them. Fails on
# any #include of a sources/ header from those directories but the known exceptions below.
# No circles between files: from the library's object files (nm: T/D/R/B/... defined, U used),
# fails when two files of src/ each use a symbol the other defines, but the known pairs below.
# No include circle among the headers (tsort), no internal header included by an installed one,
# no .c file over 800 lines in src/, tests/ or bench/.
# usage: structure_test.sh BUILD_DIR   (run from the repository root)
set -u
# Known exceptions, to remove as issue 23 moves what they use out of src/sources:
#  none left.
known=''

# Known pairs of files that reference each other, to break as issue 23 goes on (each line
# "a.c b.c", a before b): none left.
known_pairs=''

[ -d src/formats ] && [ -d src/cli ] || { echo "structure_test: run from the repository root" >&2; exit 2; }
[ $# = 1 ] || { echo "usage: structure_test.sh BUILD_DIR" >&2; exit 2; }
objdir=$1/CMakeFiles/rowcast.dir
[ -d "$objdir/src" ] || { echo "structure_test: no object files under $objdir/src (build first)" >&2; exit 2; }
command -v nm >/dev/null || { echo "structure_test: nm not found" >&2; exit 2; }
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

# Each object's symbols as "D symbol file" (global, defined) and "U symbol file" (used); then
# every file pair (a, b) where a uses what b defines, and the pairs that appear both ways.
# (one nm for every object: `nm -A` names the object on each line, "OBJECT:VALUE TYPE SYMBOL")
syms=$(set -o pipefail; cd "$objdir" && find src -name '*.o' -print0 | sort -z | xargs -0 nm -A |
       awk '{ i = index($0, ":"); f = substr($0, 1, i - 1); sub(/\.o$/, "", f); n = split(substr($0, i + 1), a, " ")
              if (n == 2 && a[1] == "U") print "U", a[2], f; else if (n == 3 && a[2] ~ /^[BCDGRSTVW]$/) print "D", a[3], f }') ||
    { echo "structure_test: nm failed" >&2; exit 2; }
pairs=$(awk '$1 == "D" { def[$2] = $3 } $1 == "U" { use[n++] = $3 " " $2 }
             END { for (i = 0; i < n; i++) { split(use[i], u, " ")
                       if ((u[2] in def) && def[u[2]] != u[1]) { k = u[1] " " def[u[2]]; uses[k] = uses[k] " " u[2] } }
                   for (k in uses) { split(k, p, " ")
                       if (p[1] < p[2] && ((p[2] " " p[1]) in uses)) print k " |" uses[k] " |" uses[p[2] " " p[1]] } }' <<<"$syms" | sort)
circles=0
while IFS= read -r line; do
    [ -n "$line" ] || continue
    pair=${line%% |*}
    grep -qxF -- "$pair" <<<"$known_pairs" && continue
    rest=${line#* |}
    echo "structure_test: ${pair% *} and ${pair#* } reference each other (${pair% *} uses${rest%% |*}; ${pair#* } uses${rest#* |}): move what both use to a file both use (issue 23)" >&2
    circles=$((circles + 1))
done <<<"$pairs"
[ $circles = 0 ] && echo "structure_test: no two files of src/ reference each other but the $(grep -c . <<<"$known_pairs") known pairs" || fail=1

# No include circle: every project header's #include "..." of another project header (found
# under src/, include/ or beside it), as edges for tsort, which names a loop when there is one.
# (one awk for every header: the files under src/ and include/ first, then each header's lines;
# a candidate's "." and ".." resolved as realpath would, symbolic links aside)
mapfile -t headers < <(find src include -name '*.h' | sort)
edges=$(awk '
            function norm(p,   n, a, i, k, out) { n = split(p, a, "/"); k = 0
                for (i = 1; i <= n; i++) { if (a[i] == "" || a[i] == ".") continue
                    if (a[i] == ".." && k > 0) { k--; continue } out[++k] = a[i] }
                p = out[1]; for (i = 2; i <= k; i++) p = p "/" out[i]; return p }
            FILENAME == "-" { file[$0] = 1; next }
            match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"/) {
                inc = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
                dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
                n = split("src/" inc "\034include/" inc "\034" dir "/" inc, cand, "\034")
                for (i = 1; i <= n; i++) if (norm(cand[i]) in file) { print FILENAME, norm(cand[i]); break } }' - "${headers[@]}" < <(find src include -type f))
if loop=$(tsort <<<"$edges" 2>&1 >/dev/null) && [ -z "$loop" ]; then
    echo "structure_test: no include circle among $(find src include -name '*.h' | wc -l) headers"
else
    echo "structure_test: headers include each other in a circle (issue 23):" >&2
    grep -v 'input contains a loop' <<<"$loop" | sed 's/^tsort: /  /' >&2
    fail=1
fi

# The installed headers include no internal one (the public API stands alone), and no .c file
# of src/, tests/ or bench/ is over 800 lines (issue 23: split along its own sections).
internal=$(grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(core|pipeline|sources|formats|sinks|cli)/' include/rowcast/*.h || true)
[ -z "$internal" ] || { echo "structure_test: installed headers include internal ones: $internal" >&2; fail=1; }
long=$(find src tests bench -name '*.c' -exec awk 'END { if (NR > 800) print FILENAME " (" NR " lines)" }' {} \;)
[ -z "$long" ] && echo "structure_test: no .c file over 800 lines" || { echo "structure_test: over 800 lines: $long" >&2; fail=1; }
exit $fail
