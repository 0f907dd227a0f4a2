#!/usr/bin/env bash
# --log-format (core/log.c): text is the messages as they always were, json one object a line.
#  1. a convert with six bad lines (--on-error=skip) and its summary: the json stderr, its
#     times masked, equals data/log_json/bad-input.golden (level, message, file, line, code);
#     every line parses, its time is RFC 3339 UTC with microseconds, and its messages are the
#     text run's lines without "rowcast: " (the same facts).
#  2. a row --on-loss=stop refuses: the table and position as fields.
#  3. a command's own error ("rowcast convert: ...") is level error with the command;
#     --log-format=xml is refused by its message.
# usage: log_format_test.sh path/to/rowcast   (from the repository root)
set -u
RC=${1:?path to rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
D=tests/integration/data
BAD=$D/bad-input.ndjson
TIME_RE='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$'

# mask FILE: each line's time as T, the run's elapsed time and rate as T and R
mask() {
    sed -E 's/^\{"time":"[^"]*"/{"time":"T"/; s/"[0-9]+\.[0-9]{3} s, [0-9]+ events\/s"/"T s, R events\/s"/' "$1"
}
# parsed FILE: every line is one JSON object with time (RFC 3339, µs), level and message
parsed() {
    local n=0 good
    good=$(jq -c 'select(type == "object" and (.time | type) == "string" and (.level | IN("error", "warning", "info")) and (.message | type) == "string") | .time' "$1" 2>/dev/null | tr -d '"' | grep -cE "$TIME_RE")
    n=$(wc -l <"$1")
    [ "$n" -gt 0 ] && [ "$good" = "$n" ] && ok || bad "$1: $good of $n lines are objects with a time, a level and a message: $(head -3 "$1")"
}

# --- 1. bad lines and the summary
"$RC" convert --on-error=skip --log-format=json "$BAD" >"$T/out.json" 2>"$T/err.json"
expect_rc json-status $? 0
"$RC" convert --on-error=skip "$BAD" >"$T/out.text" 2>"$T/err.text"
expect_rc text-status $? 0
expect_eq same-output "$T/out.text" "$T/out.json"
mask "$T/err.json" >"$T/err.masked"
if [ "${RC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$T/err.masked" "$D/log_json/bad-input.golden"; fi
expect_eq json-golden "$D/log_json/bad-input.golden" "$T/err.masked"
parsed "$T/err.json"
jq -r .message "$T/err.json" | sed -E 's/^[0-9]+\.[0-9]{3} s, [0-9]+ events\/s$/T s, R events\/s/' >"$T/messages"
sed -E 's/^rowcast: //; s/^[0-9]+\.[0-9]{3} s, [0-9]+ events\/s$/T s, R events\/s/' "$T/err.text" >"$T/text-messages"
expect_eq same-facts "$T/text-messages" "$T/messages"
# the text form is what it was (bad-input.expected-err: the same file's errors)
grep -v '^rowcast: [0-9]' "$T/err.text" | grep -v 'read:\|decoded:\|written (' >"$T/err.text.errors"
expect_eq text-unchanged "$D/bad-input.expected-err" "$T/err.text.errors"

# --- 2. a row the format cannot hold (OMS Debezium's milliseconds): its table and position
LOSS=tests/golden/stderr/loss.ndjson
"$RC" convert --to oms-debezium --log-format=json "$LOSS" >/dev/null 2>"$T/loss.err"
expect_rc loss-status $? 2
head -1 "$T/loss.err" | jq -e --arg f "$LOSS" '.level == "error" and .table == "shop.visits" and .code == "range" and .file == $f and .line == 2 and (.position | type) == "string"' >/dev/null && ok ||
    bad "loss: the first line is not an error with table shop.visits, code range, file, line and position: $(head -1 "$T/loss.err")"
parsed "$T/loss.err"

# --- 3. a command's error, and a bad --log-format
"$RC" convert --log-format=json "$T/missing.ndjson" >/dev/null 2>"$T/missing.err"
expect_rc missing-status $? 3
head -1 "$T/missing.err" | jq -e '.level == "error" and .command == "convert" and (.message | startswith("cannot open "))' >/dev/null && ok ||
    bad "missing input: $(cat "$T/missing.err")"
"$RC" convert --log-format=xml "$BAD" >/dev/null 2>"$T/xml.err"
expect_rc xml-status $? 1
printf '%s\n' "rowcast convert: --log-format xml: the formats are text and json" "(see rowcast help convert)" >"$T/want"
expect_eq xml-message "$T/want" "$T/xml.err"

echo "log_format: $pass passed, $fail failed"
[ "$fail" = 0 ]
