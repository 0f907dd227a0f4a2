#!/usr/bin/env bash
# The options tables cannot drift from the docs: every -o option that `rowcast formats --options`
# prints (from the formats' typed tables) is named in its format's page, docs/formats/<format>.md
# (as `KEY` or `KEY=...`), and a choice option's values are there too: a list the page writes as
# `KEY=A|B|C` is exactly the table's, and without one each value is on a line that names the key
# (as `VALUE` or KEY=VALUE), and a default a page's table gives is the table's. Run from the
# source tree: docs_options_test.sh ROWCAST
set -u
RC=$1
fail=0 n=0
records=$("$RC" formats --options | awk -f packaging/formats-parse.awk) || { echo "FAIL: rowcast formats --options"; exit 1; }
while IFS=$'\t' read -r kind a b c d; do
    [ "$kind" = F ] && { fmt=$a; continue; }
    key=$a values=$b meta=$d
    page=docs/formats/$fmt.md
    n=$((n + 1))
    if [ ! -f "$page" ]; then
        echo "FAIL: format $fmt has options but no page $page"; fail=1; continue
    fi
    # the lines that name the key: `KEY` or KEY= (not a longer key that starts with it)
    lines=$(awk -v k="$key" '{
        s = $0
        while ((i = index(s, k)) > 0) {
            after = substr(s, i + length(k), 1); before = i > 1 ? substr(s, i - 1, 1) : ""
            if ((after == "`" || after == "=") && before !~ /[A-Za-z0-9_.-]/) { print; break }
            s = substr(s, i + length(k))
        }
    }' "$page")
    if [ -z "$lines" ]; then
        echo "FAIL: $page does not name option $key (rowcast formats --options lists it)"; fail=1; continue
    fi
    case $meta in choice*) ;; *) continue ;; esac
    # a list written KEY=A|B|C must be the table's (and then shows every value)
    listed=0
    while read -r list; do
        [ -n "$list" ] || continue
        listed=1
        if [ "$list" = "$values" ]; then :
        else echo "FAIL: $page writes $key=$list, the option's values are $values"; fail=1
        fi
    done < <(grep -oE "$(printf '%s' "$key" | sed 's/[.]/\\./g')=[A-Za-z0-9_.,+-]*(\|[A-Za-z0-9_.,+-]*)+" <<<"$lines" | cut -d= -f2-)
    [ $listed = 1 ] && continue
    IFS='|' read -ra choices <<<"$values"
    for v in "${choices[@]}"; do
        grep -qF -e "\`$v\`" -e "$key=$v" <<<"$lines" ||
            { echo "FAIL: $page does not show $v, a value of $key, on a line that names the option"; fail=1; }
    done
done <<<"$records"
[ "$n" -gt 50 ] || { echo "FAIL: only $n options listed"; fail=1; }

# Defaults: where a page's table gives an option's default (| `KEY` | `a`, `b` | `a` |, a cell
# "`a` (default)", or | `KEY` | a | what |), it is the default `rowcast formats --options` prints
# (a default in words, "by canal.flavor: ...", is not compared).
ndef=0
while IFS=$'\t' read -r kind a b c d; do
    [ "$kind" = F ] && { fmt=$a; continue; }
    key=$a default=${d#*default: }
    [[ $d == *"default: "* && $default =~ ^[A-Za-z0-9_.+:/-]+$ ]] || continue
    page=docs/formats/$fmt.md
    [ -f "$page" ] || continue
    while IFS= read -r claim; do
        ndef=$((ndef + 1))
        [ "$claim" = "$default" ] ||
            { echo "FAIL: $page gives $claim as the default of $key, rowcast formats --options says $default"; fail=1; }
    done < <(awk -v k="$key" -F ' *[|] *' '
        $2 == "`" k "`" {
            for (i = 3; i < NF; i++) if (match($i, /`[^`]*` [(]default[)]/)) { c = substr($i, RSTART + 1, RLENGTH - 12); print c; next }
            if ($4 ~ /^`[^`]*`$/ && $3 ~ /`/) { print substr($4, 2, length($4) - 2); next }
            if (NF == 5 && $3 ~ /^[a-z0-9_.-]+$/) print $3
        }' "$page")
done <<<"$records"
[ "$ndef" -gt 20 ] || { echo "FAIL: only $ndef defaults found in the pages' tables"; fail=1; }
[ $fail = 0 ] && echo "ok: all $n options of rowcast formats --options are in docs/formats/, with their choices; $ndef defaults in their tables agree"
exit $fail
