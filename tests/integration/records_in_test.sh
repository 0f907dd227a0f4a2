#!/usr/bin/env bash
# convert --input-layout records (issue 15 §2, message keys): Kafka records as --records writes
# them and kcat -f '%t\t%K\t%k\t%S\t%s\t%h\n' prints, read key and value together. Debezium ->
# native -> Debezium with the records' keys gives the records back byte for byte (topic, key,
# value; the rowcast.position header names the input, which differs), with and without schemas,
# tombstones included (one after each delete); without the keys the key columns are lost (the
# row keys come back null, the heartbeat's names the default server). Bad records: the exact
# messages.
# usage: records_in_test.sh path/to/rowcast   (run from the repository root)
set -u
RC=${1:?path to rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
UP=(-o debezium.flavor=upstream -o debezium.bigint.unsigned.handling.mode=precise)

# the records without their headers (the position header names the input file)
strip() { awk -F'\t' -v OFS='\t' '{ NF = 5; print }' "$1"; }

# rec TOPIC KEY VALUE: a record line (the key or value - for null), its lengths counted in bytes
rec() {
    local k=$2 v=$3
    if [ "$k" = - ]; then printf '%s\t-1\t\t' "$1"; else printf '%s\t%s\t%s\t' "$1" "$(printf '%s' "$k" | wc -c)" "$k"; fi
    if [ "$v" = - ]; then printf -- '-1\t\t\n'; else printf '%s\t%s\t\n' "$(printf '%s' "$v" | wc -c)" "$v"; fi
}

# without schemas the values' types are guessed from the values (a MySQL geometry struct is one
# by its "wkb"), with schemas read from them: either way the whole records come back
for schemas in false true; do
    D=("${UP[@]}" -o debezium.schemas=$schemas -o debezium.heartbeats=true)
    "$RC" convert -q --to debezium "${D[@]}" --tombstones --records examples/shop.ndjson >"$T/in.rec" 2>"$T/in.err"
    expect_rc "schemas=$schemas: the records" $? 0
    # a tombstone right after each delete, with its topic and key: one for each delete of shop
    awk -F'\t' '$5 ~ /"op":"d"/ { print $1 "\t" $3 }' "$T/in.rec" >"$T/want"
    awk -F'\t' '$4 == -1 { print $1 == t && $3 == k && d ? $1 "\t" $3 : "record " NR ": a tombstone not right after the delete of its key" }
        { t = $1; k = $3; d = $5 ~ /"op":"d"/ }' "$T/in.rec" >"$T/got"
    expect_eq "schemas=$schemas: the input's tombstones" "$T/want" "$T/got"
    [ "$(wc -l <"$T/got")" = "$(grep -c '"op":"delete"' examples/shop.ndjson)" ] && ok ||
        bad "schemas=$schemas: $(wc -l <"$T/got") tombstones, not one for each delete of examples/shop.ndjson"
    "$RC" convert -q --from debezium "${D[@]}" --input-layout records "$T/in.rec" >"$T/native" &&
        "$RC" convert -q --to debezium "${D[@]}" --tombstones --records "$T/native" >"$T/back.rec"
    strip "$T/in.rec" >"$T/want"
    strip "$T/back.rec" >"$T/got"
    expect_eq "schemas=$schemas: debezium -> native -> debezium with keys" "$T/want" "$T/got"
    # the same values read without their keys lose what only the keys hold: each row's key (its
    # topic shop1.shop.<table>) comes back null (a schemaless value names no key column), the
    # heartbeat's names the default server, rowcast (its value is {"ts_ms": N} alone), the
    # schema changes' keys as they were (they are made from the value)
    cut -f5 "$T/in.rec" | grep -v '^$' | "$RC" convert -q --from debezium "${D[@]}" |
        "$RC" convert -q --to debezium "${D[@]}" --keys >"$T/nokeys" 2>/dev/null
    awk -F'\t' '$4 == -1 { next } $1 ~ /^shop1\.shop\./ { print "null"; next }
        $1 ~ /^__debezium-heartbeat\./ { sub(/"serverName":"shop1"/, "\"serverName\":\"rowcast\"", $3) } { print $3 }' "$T/in.rec" >"$T/want"
    expect_eq "schemas=$schemas: the keys of the values read without their keys" "$T/want" "$T/nokeys"
done

# a record whose key holds newlines: its length says where it ends; the errors of the next
# records name their first line
{
    rec t '{
  "id": 2
}' '{"op":"r","source":{"table":"x"},"after":{"id":2,"n":1}}'
    printf 't\t8\t{"id":1}\t5\t{"a":1}\t\n'
} >"$T/multi.rec"
"$RC" convert -q --from debezium --input-layout records "$T/multi.rec" >"$T/out" 2>"$T/err"
expect_rc multi $? 2
printf '%s\n' '{"op":"read","source":{"kind":"unknown","table":"x"},"columns":[{"name":"id","type":"bigint","pk":true},{"name":"n","type":"bigint","nullable":true}],"after":[2,1]}' >"$T/want"
expect_eq multi-out "$T/want" "$T/out"
printf '%s\n' "rowcast: $T/multi.rec:4:21 (file offset 100): syntax error: no tab after the value's 5 bytes: is the value length right? a record is topic, key length, key, value length, value, headers, tab-separated (--input-layout records)" >"$T/want"
expect_eq multi-err "$T/want" "$T/err"

# a checkpoint after a record of several lines: the resumed run numbers the lines on after it
RCABS=$(cd "$(dirname "$RC")" && pwd)/$(basename "$RC")
rec t '{"id":1}' - >"$T/ck.rec"
head -3 "$T/multi.rec" >>"$T/ck.rec"
(cd "$T" && "$RCABS" convert -q --from debezium --input-layout records --checkpoint ck ck.rec >/dev/null)
printf 'rowcast-checkpoint 2\ninput %s\noffset %s\nline 4\n' "$(cd "$T" && pwd -P)/ck.rec" "$(wc -c <"$T/ck.rec")" >"$T/want"
expect_eq checkpoint-file "$T/want" "$T/ck"
printf 't\t8\t{"id":1}\t5\t{"a":1}\t\n' >>"$T/ck.rec"
(cd "$T" && "$RCABS" convert -q --from debezium --input-layout records --checkpoint ck ck.rec >/dev/null 2>"$T/err")
expect_rc checkpoint-resume $? 2
{
    echo "rowcast: resuming ck.rec at line 5, byte 98 (checkpoint ck); stdout is not cut back: what the stopped run wrote after that is written again"
    echo "rowcast: ck.rec:5:21 (file offset 118): syntax error: no tab after the value's 5 bytes: is the value length right? a record is topic, key length, key, value length, value, headers, tab-separated (--input-layout records)"
} >"$T/want"
expect_eq checkpoint-resume-messages "$T/want" "$T/err"

# bad records, each its message
check_err() {
    local name=$1 line=$2
    shift 2
    printf '%s\n' "$*" >"$T/want"
    printf '%s' "$line" | "$RC" convert -q --from debezium --input-layout records >/dev/null 2>"$T/err"
    expect_eq "$name" "$T/want" "$T/err"
}
L='a record is topic, key length, key, value length, value, headers, tab-separated (--input-layout records)'
check_err no-tab $'a topic\n' "rowcast: <stdin>:1:8 (file offset 7): syntax error: there is no tab after the topic: $L"
check_err key-length $'t\tx\t{}\t-1\t\t\n' "rowcast: <stdin>:1:3 (file offset 2): syntax error: the key length must be a number of bytes or -1, followed by a tab; $L"
check_err null-key $'t\t-1\tk\t-1\t\t\n' "rowcast: <stdin>:1:6 (file offset 5): syntax error: a null key (length -1) is an empty field: a tab must follow the tab after -1; $L"
check_err cut-short $'t\t8\t{"id":1}\t40\t{"op":"c"}\n' "rowcast: <stdin>:1:27 (file offset 26): syntax error: the record ends 10 bytes into its value of 40 bytes: is the length right? $L"
check_err key-json "$(rec t '{"id":}' '{"op":"c","source":{"table":"x"},"after":{"id":1}}')" \
    "rowcast: <stdin>:1:11 (file offset 10): syntax error: value expected (found '}') (in the record key)"
check_err key-empty "$(rec t '{}' '{"op":"c","source":{"table":"x"},"after":{"id":1}}')" \
    'rowcast: <stdin>:1:5 (file offset 4): schema error: the key is not a Debezium key struct (an object of the key columns, or with schemas {"schema":..., "payload": that object}): read the values alone (--input-layout values) (in the record key)'
check_err value-error "$(rec t '{"id":1}' '{"op":"x","source":{"a":1}}')" \
    'rowcast: <stdin>:1:23 (file offset 22): schema error: unknown Debezium op "x" (expected c, u, d, r, t or m)'
# a value over two lines: its error names the second line and the byte in it
check_err value-second-line "$(rec t '{"id":1}' $'{"op":"c",\n"after":x}')" \
    "rowcast: <stdin>:2:9 (file offset 35): syntax error: value expected (found 'x')"
# a tombstone (a key with a null value) is no event and no error; a format without record keys
# (native) reads the value alone
rec t '{"id":1}' - | "$RC" convert --from debezium --input-layout records >"$T/out" 2>"$T/err"
expect_rc tombstone $? 0
printf 'rowcast: 1 line read: 1 converted, 0 filtered out, 0 bad\nrowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native\n' >"$T/want"
head -2 "$T/err" >"$T/got"
expect_eq tombstone-summary "$T/want" "$T/got"
[ -s "$T/out" ] && bad "tombstone: wrote $(wc -c <"$T/out") bytes" || ok
"$RC" convert -q --to native --records examples/shop.ndjson >"$T/native.rec"
"$RC" convert -q --input-layout records "$T/native.rec" >"$T/got"
"$RC" convert -q examples/shop.ndjson >"$T/want"
expect_eq native-values "$T/want" "$T/got"

echo "records_in: $pass passed, $fail failed"
[ "$fail" = 0 ]
