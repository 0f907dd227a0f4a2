#!/usr/bin/env bash
# --from cloudevents (issue 15 §2): every bad message's exact error (file, line, byte, what to do),
# JSON and Avro data, and the Avro schema files rowcast does not read. The round trips are golden cases
# (tests/golden/cloudevents/*.roundtrip, tests/golden/native/cloudevents-*).
# usage: cloudevents_read_test.sh path/to/rowcast   (run from the repository root)
set -u
RC=${1:?path to rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
D=tests/integration/data

"$RC" convert -q --from cloudevents --on-error=skip $D/cloudevents-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc cloudevents-bad $? 2
expect_eq cloudevents-bad-messages $D/cloudevents-bad.expected "$T/err"
if [ -s "$T/out" ]; then bad "cloudevents-bad: a bad message produced an event"; else ok; fi

# Avro data, read with the schema of the data record (the golden seed-avro case reads it back)
"$RC" convert -q --from cloudevents -o cloudevents.schema.file=tests/golden/cloudevents/seed-avro.avsc --on-error=skip \
    $D/cloudevents-avro-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc cloudevents-avro-bad $? 0 # one message is good
expect_eq cloudevents-avro-bad-messages $D/cloudevents-avro-bad.expected "$T/err"
printf '%s\n' '{"op":"read","source":{"kind":"postgresql","table":"a"},"columns":[{"name":"pk","type":"int4"},{"name":"name","type":"text","nullable":true}],"after":[1,"Bob"]}' >"$T/want"
expect_eq cloudevents-avro-good "$T/want" "$T/out"

# schemas that are not one rowcast reads, each its message
avsc() { # NAME SCHEMA-TEXT MESSAGE
    printf '%s\n' "$2" >"$T/$1.avsc"
    printf '%s\n' "$3" >"$T/want"
    "$RC" convert -q --from cloudevents -o cloudevents.schema.file="$T/$1.avsc" /dev/null 2>"$T/err"
    expect_rc "$1" $? 1
    expect_eq "$1-message" "$T/want" "$T/err"
}
avsc no-after '{"type":"record","name":"x","fields":[{"name":"after","type":"int"}]}' \
    "rowcast convert: cloudevents.schema.file $T/no-after.avsc: not the schema of CloudEvents data: a record with the fields \"before\" and \"after\""
avsc union3 '{"type":"record","name":"x","fields":[{"name":"before","type":["null","int","string"]},{"name":"after","type":"int"}]}' \
    "rowcast convert: cloudevents.schema.file $T/union3.avsc: byte 76: a union of more than null and one type"
avsc array '{"type":"record","name":"x","fields":[{"name":"before","type":{"type":"array","items":"int"}},{"name":"after","type":"int"}]}' \
    "rowcast convert: cloudevents.schema.file $T/array.avsc: byte 62: a type rowcast does not read (it reads records, unions with null and the primitive types)"
avsc cut '{"type":"record",' "rowcast convert: cloudevents.schema.file $T/cut.avsc: byte 18: object key expected (unexpected end of input)"
"$RC" convert -q --from cloudevents -o cloudevents.data=avro /dev/null 2>"$T/err"
expect_rc avro-no-schema $? 1
printf '%s\n' "rowcast convert: reading Avro data (cloudevents.data=avro) needs its schema: -o cloudevents.schema.file=PATH, the .avsc of the data record {before, after} as the schema registry holds it" >"$T/want"
expect_eq avro-no-schema-message "$T/want" "$T/err"

echo "cloudevents_read: $pass passed, $fail failed"
[ "$fail" = 0 ]
