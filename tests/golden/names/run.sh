#!/usr/bin/env bash
# The format names (docs/formats/README.md, src/formats/registry.c):
#  - `rowcast formats` lists them by vendor exactly as tests/golden/names/formats.out does;
#  - each old spelling (the table of docs/formats/README.md, "The names of before"), as --to
#    and (when it reads) --from, prints one notice
#    "rowcast: --to OLD is now NEW (...)" on stderr and the same bytes as NEW, which are the
#    golden bytes of tests/golden/NEW/shop.out (the bytes the old spelling wrote before);
#  - debezium and canal are the tools' own layouts: the flavour option a user wrote before
#    (-o debezium.flavor=upstream, -o canal.flavor=canal) changes nothing, and
#    -o debezium.flavor=oms / -o canal.flavor=oms is what oms-debezium / oms-canal write, on
#    the side that names it only.
# usage: run.sh ROWCAST   (from the repository root)
set -u
RC=${1:?rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
same() { # NAME EXPECTED GOT
    if cmp -s "$2" "$3"; then pass=$((pass + 1)); else bad "$1: $3 differs from $2"; diff "$2" "$3" | head -5 | cut -c1-200 >&2; fi
}
SHOP=examples/shop.ndjson
# the extra arguments of a format's shop golden (tests/golden/NAME/shop.args: --on-loss=skip
# where the shop has rows the format cannot hold) into the array A
shop_args() {
    A=()
    [ -f "tests/golden/$1/shop.args" ] || return 0
    while IFS= read -r a; do [ -n "$a" ] && A+=("$a"); done <"tests/golden/$1/shop.args"
}

"$RC" formats >"$T/formats" 2>&1
same formats tests/golden/names/formats.out "$T/formats"

nold=0
while IFS='|' read -r _ old new _; do
    old=$(tr -d ' `' <<<"$old") new=$(tr -d ' `' <<<"$new")
    nold=$((nold + 1))
    shop_args "$new"
    "$RC" convert -q --to "$new" "${A[@]}" "$SHOP" >"$T/new" 2>"$T/new.err"
    "$RC" convert -q --to "$old" "${A[@]}" "$SHOP" >"$T/old" 2>"$T/old.err"
    same "--to $old" "$T/new" "$T/old"
    same "--to $old: golden" "tests/golden/$new/shop.out" "$T/old"
    { grep -F "rowcast: --to $old is now $new (" "$T/old.err" | head -1; cat "$T/new.err"; } >"$T/want.err"
    [ "$(head -1 "$T/old.err")" = "$(head -1 "$T/want.err")" ] || bad "--to $old: no notice naming $new: $(head -1 "$T/old.err")"
    same "--to $old: stderr" "$T/want.err" "$T/old.err"
    # the reader by its old name: the same events as by its new one
    if "$RC" convert -q --from "$new" "$T/new" >"$T/back" 2>/dev/null; then
        "$RC" convert -q --from "$old" "$T/new" >"$T/back-old" 2>"$T/back-old.err"
        same "--from $old" "$T/back" "$T/back-old"
        [ "$(cat "$T/back-old.err")" = "$(grep -F "rowcast: --from $old is now $new (" "$T/back-old.err")" ] && [ -s "$T/back-old.err" ] &&
            pass=$((pass + 1)) || bad "--from $old: stderr is not the one notice: $(cat "$T/back-old.err")"
    fi
done < <(sed -n '/^## The names of before/,$p' docs/formats/README.md | grep -E '^\| `[a-z-]+` \| `[a-z-]+` \|')
[ "$nold" -ge 8 ] || bad "only $nold old names in docs/formats/README.md"

# the tools' own layouts, and the flavour options users wrote before
U=(-o debezium.bigint.unsigned.handling.mode=precise)
"$RC" convert -q --to debezium "${U[@]}" "$SHOP" >"$T/dbz" 2>"$T/dbz.err"
"$RC" convert -q --to debezium -o debezium.flavor=upstream "${U[@]}" "$SHOP" >"$T/dbz-up" 2>"$T/dbz-up.err"
same "debezium is upstream Debezium" tests/golden/debezium/shop.out "$T/dbz"
same "-o debezium.flavor=upstream as before" tests/golden/debezium/shop.out "$T/dbz-up"
same "-o debezium.flavor=upstream: stderr" "$T/dbz.err" "$T/dbz-up.err"
for f in debezium canal; do
    shop_args oms-$f
    "$RC" convert -q --to oms-$f "${A[@]}" "$SHOP" >"$T/oms" 2>"$T/oms.err"
    "$RC" convert -q --to $f -o $f.flavor=oms "${A[@]}" "$SHOP" >"$T/flavor" 2>"$T/flavor.err"
    same "oms-$f" tests/golden/oms-$f/shop.out "$T/oms"
    same "$f -o $f.flavor=oms" "$T/oms" "$T/flavor"
    same "$f -o $f.flavor=oms: stderr" "$T/oms.err" "$T/flavor.err"
    # the flavour is its side's: OMS's read, the tool's own written, and back
    "$RC" convert -q --from oms-$f --to $f "$T/oms" >"$T/cross" 2>/dev/null
    "$RC" convert -q --from oms-$f "$T/oms" | "$RC" convert -q --to $f >"$T/cross2" 2>/dev/null
    same "--from oms-$f --to $f" "$T/cross2" "$T/cross"
    "$RC" convert -q --from $f --to oms-$f "$T/cross" >"$T/back" 2>/dev/null
    "$RC" convert -q --from $f "$T/cross" | "$RC" convert -q --to oms-$f >"$T/back2" 2>/dev/null
    same "--from $f --to oms-$f" "$T/back2" "$T/back"
    # a flavour option against the name is refused, unless the other side reads it
    "$RC" convert -q --to oms-$f -o $f.flavor=$([ $f = canal ] && echo canal || echo upstream) "$SHOP" >/dev/null 2>"$T/err"
    [ $? = 1 ] && grep -q "oms-$f is $f with -o $f.flavor=oms" "$T/err" && pass=$((pass + 1)) || bad "oms-$f with another flavour: $(cat "$T/err")"
done
"$RC" convert -q --to canal -o canal.flavor=canal "$SHOP" >"$T/c1" 2>/dev/null
"$RC" convert -q --to canal "$SHOP" >"$T/c2" 2>/dev/null
same "-o canal.flavor=canal as before" "$T/c1" "$T/c2"
echo "names: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
