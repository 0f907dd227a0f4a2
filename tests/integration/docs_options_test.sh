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
    [ "$kind" = O ] || continue
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
    [ "$kind" = O ] || continue
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

# The names (docs/formats/README.md): every name `rowcast formats` lists has its row there,
# "| VENDOR | `NAME` | [PAGE](PAGE) ...", under the vendor it is listed by, and its page
# exists; every old name of the page's table works as --to (and as --from where its new name
# reads), says in one line on stderr "rowcast: --to OLD is now NEW (WHAT)" as the table says, and
# writes the bytes of NEW.
INDEX=docs/formats/README.md
nn=0
while IFS=$'\t' read -r kind a _; do
    [ "$kind" = G ] && { vendor=$a; continue; }
    [ "$kind" = F ] || continue
    nn=$((nn + 1))
    row=$(grep -F "| $vendor | \`$a\` | [" "$INDEX" | head -1)
    [ -n "$row" ] || { echo "FAIL: $INDEX has no row | $vendor | \`$a\` | [page] for a name rowcast formats lists"; fail=1; continue; }
    page=$(sed -E 's/^[^[]*\[[^]]*\]\(([^)]*)\).*/\1/' <<<"$row")
    [ -f "docs/formats/$page" ] || { echo "FAIL: $INDEX: the page of $a, $page, is not there"; fail=1; }
done <<<"$records"
[ "$nn" -ge 20 ] || { echo "FAIL: only $nn names listed by rowcast formats"; fail=1; }
no=0
T=$(mktemp -d)
while IFS='|' read -r _ old new what _; do
    old=$(tr -d ' `' <<<"$old") new=$(tr -d ' `' <<<"$new") what=$(sed 's/^ *//; s/ *$//' <<<"$what")
    no=$((no + 1))
    "$RC" convert -q --to "$new" examples/shop.ndjson >"$T/new" 2>/dev/null
    "$RC" convert -q --to "$old" examples/shop.ndjson >"$T/old" 2>"$T/err"
    [ "$(head -1 "$T/err")" = "rowcast: --to $old is now $new ($what)" ] ||
        { echo "FAIL: --to $old says '$(head -1 "$T/err")', $INDEX: is now $new ($what)"; fail=1; }
    cmp -s "$T/new" "$T/old" || { echo "FAIL: --to $old does not write what --to $new writes"; fail=1; }
    if "$RC" convert -q --from "$new" "$T/new" >/dev/null 2>&1; then
        "$RC" convert -q --from "$old" "$T/new" 2>&1 >/dev/null | grep -qxF "rowcast: --from $old is now $new ($what)" ||
            { echo "FAIL: --from $old says no notice naming $new"; fail=1; }
    fi
done < <(sed -n '/^## The names of before/,$p' "$INDEX" | grep -E '^\| `[a-z-]+` \| `[a-z-]+` \|')
rm -rf "$T"
[ "$no" -ge 8 ] || { echo "FAIL: only $no old names in $INDEX"; fail=1; }
[ $fail = 0 ] && echo "ok: all $n options of rowcast formats --options are in docs/formats/, with their choices and the $ndef defaults their tables give; its $nn names and $no old names in $INDEX"
exit $fail
