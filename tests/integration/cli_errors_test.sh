#!/usr/bin/env bash
# What a new user sees when something is wrong, compared message by message: hints on input
# that is not one message per line of the --from format (byte-order mark, compressed data,
# another format's messages; pretty-printed JSON and comment blocks, which are read), --on-error=skip with every line bad,
# "did you mean" for formats, options, flags and commands, format names without case, options
# of a sink that is not in use, and secret options read from @FILE and env:NAME.
# usage: cli_errors_test.sh path/to/rowcast   (run from the repository root)
set -u
RC=${1:?path to rowcast}
RC=$(cd "$(dirname "$RC")" && pwd)/$(basename "$RC") # the runs below are in the temporary directory
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh

# expect NAME STATUS [ARGS...] : runs rowcast ARGS (stdin from $T/stdin when it exists, else
# empty); its exit status must be STATUS and its stderr exactly the text on expect's stdin
expect() {
    local name=$1 want_rc=$2 got_rc
    shift 2
    cat >"$T/want"
    (cd "$T" && "$RC" "$@" <"${STDIN:-/dev/null}" >"$T/out" 2>"$T/err")
    got_rc=$?
    if [ "$got_rc" != "$want_rc" ]; then bad "$name: exit status $got_rc, expected $want_rc"; fi
    if cmp -s "$T/want" "$T/err"; then ok; else
        bad "$name: stderr differs"
        diff "$T/want" "$T/err" | head -10 >&2
    fi
}

# --- pretty-printed JSON: one message over several lines is read as one (the fixtures people
# save are often pretty-printed); errors name the line and byte within it
printf '{\n  "op": "heartbeat"\n}\n' >"$T/pretty.json"
expect pretty 0 convert -q pretty.json </dev/null
printf '{"op":"heartbeat","source":{"kind":"unknown"}}\n' >"$T/want_out"
expect_eq pretty-output "$T/want_out" "$T/out"
expect pretty-threads 0 convert -q --threads 2 pretty.json </dev/null
expect_eq pretty-threads-output "$T/want_out" "$T/out"
(cd "$T" && "$RC" convert pretty.json 2>&1 >/dev/null | head -1) >"$T/sum"
printf 'rowcast: 1 line read: 1 converted, 0 filtered out, 0 bad; 1 of them pretty-printed over several lines\n' >"$T/want_sum"
expect_eq pretty-summary "$T/want_sum" "$T/sum"
# a bad value on the third line of a message: that line and its byte; the next message, which
# starts at the first byte of a line while the brackets are still open, is read on its own
printf '{\n  "op": "heartbeat",\n  "ts_us": x\n}\n{\n  "op":\n  "heartbeat"\n}\n' >"$T/pretty-bad.json"
expect pretty-bad 0 convert -q --on-error=skip pretty-bad.json <<'EOF'
rowcast: pretty-bad.json:3:12 (file offset 34): syntax error: value expected (found 'x')
EOF
expect_eq pretty-bad-next "$T/want_out" "$T/out"
printf '{\n  "op": "heartbeat",\n  "ts_us": [1,\n{"op":"heartbeat"}\n' >"$T/pretty-cut.json"
expect pretty-cut 0 convert -q --on-error=skip pretty-cut.json <<'EOF'
rowcast: pretty-cut.json:3:15 (file offset 37): syntax error: value expected (unexpected end of input); the message ends before its brackets close: cut short by the end of the input or by the next message (a line that starts with '{')
EOF
expect_eq pretty-cut-next "$T/want_out" "$T/out"
# a comment block between messages (the licence header of a saved fixture) is skipped, counted
printf '/*\n * Licensed to the Apache Software Foundation\n */\n{"op":"heartbeat"}\n/* one line */\n' >"$T/comment.json"
(cd "$T" && "$RC" convert comment.json 2>&1 >"$T/out" | head -1) >"$T/sum"
printf 'rowcast: 1 line read: 1 converted, 0 filtered out, 0 bad; 2 comment blocks skipped\n' >"$T/want_sum"
expect_eq comment-summary "$T/want_sum" "$T/sum"
expect_eq comment-output "$T/want_out" "$T/out"
# a comment that is not closed before the next message is one bad item, and the message after
# it is read; one not closed at all, or with text after its end, is bad too: nothing is skipped
# that could hold a message
printf '/*\n * never closed\n{"op":"heartbeat"}\n' >"$T/comment-open.json"
expect comment-open 0 convert -q --on-error=skip comment-open.json <<'EOF'
rowcast: comment-open.json:1:1 (file offset 0): syntax error: a comment (/*) that is not closed before the next message (line 3 starts with '{' or '['): close it with */ before that line; a line that starts so is read as a message, also in a comment (indent it to keep it there)
EOF
expect_eq comment-open-next "$T/want_out" "$T/out"
# a comment block that holds a line starting with '{' (a message commented out): that line is
# a message, as everywhere (a comment that swallowed it could swallow the rest of the input), so
# the comment is not closed before it, and its end is a bad item of its own that says why
printf '/* not this one:
{"op":"heartbeat","ts_us":1}
*/
  */
{"op":"heartbeat"}
' >"$T/comment-message.json"
expect comment-message 0 convert -q --on-error=skip comment-message.json <<'EOF'
rowcast: comment-message.json:1:1 (file offset 0): syntax error: a comment (/*) that is not closed before the next message (line 2 starts with '{' or '['): close it with */ before that line; a line that starts so is read as a message, also in a comment (indent it to keep it there)
rowcast: comment-message.json:3:1 (file offset 46): syntax error: the end of a comment (*/) with no comment open: a line that starts with '{' or '[' is read as a message, also in a comment, and ends it (indent such lines to keep them in the comment)
rowcast: comment-message.json:4:3 (file offset 51): syntax error: the end of a comment (*/) with no comment open: a line that starts with '{' or '[' is read as a message, also in a comment, and ends it (indent such lines to keep them in the comment)
EOF
printf '{"op":"heartbeat","source":{"kind":"unknown"},"ts_us":1}
' | cat - "$T/want_out" >"$T/want_msg"
expect_eq comment-message-next "$T/want_msg" "$T/out"
# indented, the line stays in the comment, which is skipped
printf '/* not this one:
 {"op":"heartbeat","ts_us":1}
*/
{"op":"heartbeat"}
' >"$T/comment-indented.json"
expect comment-indented 0 convert -q comment-indented.json </dev/null
expect_eq comment-indented-next "$T/want_out" "$T/out"
printf '/*\n * never closed\n' >"$T/comment-end.json"
expect comment-end 2 convert -q comment-end.json <<'EOF'
rowcast: comment-end.json:1:1 (file offset 0): syntax error: a comment (/*) that is not closed before the end of the input: close it with */
EOF
printf '/* licence */ {"op":"heartbeat"}\n{"op":"heartbeat"}\n' >"$T/comment-text.json"
expect comment-text 0 convert -q --on-error=skip comment-text.json <<'EOF'
rowcast: comment-text.json:1:15 (file offset 14): syntax error: text after the end of a comment (*/): a message starts on a line of its own, or it is not read
EOF
expect_eq comment-text-next "$T/want_out" "$T/out"
printf '[\n  {"op": "heartbeat"},\n  {"op": "heartbeat"}\n]\n' >"$T/array.json"
expect pretty-array 2 convert -q array.json <<'EOF'
rowcast: array.json:1:1 (file offset 0): schema error: the event must be a JSON object (found array); the line is a JSON array of messages: one message per line: pipe through jq -c '.[]'
EOF
printf '[{"op":"heartbeat"},{"op":"heartbeat"}]\n' >"$T/one-array.json"
expect array-on-one-line 2 convert -q one-array.json <<'EOF'
rowcast: one-array.json:1:1 (file offset 0): schema error: the event must be a JSON object (found array); the line is a JSON array of messages: one message per line: pipe through jq -c '.[]'
EOF
# a torn line (cut inside a value) is not taken for pretty-printed JSON
printf '{"op":"heartbeat","ts_us":17\n' >"$T/torn.json"
expect torn-line 2 convert -q torn.json <<'EOF'
rowcast: torn.json:1:29 (file offset 28): syntax error: ',' or '}' expected (unexpected end of input)
EOF
printf '\xef\xbb\xbf{"op":"heartbeat"}\n' >"$T/bom.ndjson"
expect bom 2 convert -q bom.ndjson <<'EOF'
rowcast: bom.ndjson:1:1 (file offset 0): syntax error: value expected (found byte 0xEF); the line starts with a UTF-8 byte-order mark: strip the byte-order mark (sed '1s/^\xEF\xBB\xBF//')
EOF
printf '{"op":"heartbeat"}\n' | gzip -c >"$T/in.ndjson.gz"
expect gzip 2 convert -q in.ndjson.gz <<'EOF'
rowcast: in.ndjson.gz:1:1 (file offset 0): syntax error: value expected (found byte 0x1F); the input is gzip-compressed: decompress first (zcat FILE | rowcast convert ...)
EOF

# --- messages of another format: one line per shape of src/formats/sniff.c, read wrongly
SCHEMA='"schema":{"type":"struct","fields":[{"type":"struct","fields":[{"type":"bytes","optional":true,"field":"b"}],"optional":true,"field":"after"}]}'
printf '{%s,"payload":{"before":null,"after":{"b":"AP8="},"source":{"connector":"mysql","name":"s1","db":"d","table":"t"},"op":"c","ts_ms":1}}\n' "$SCHEMA" >"$T/upstream.ndjson"
printf '{%s,"payload":{"before":null,"after":{"b":"0F"},"source":{"connector":"MYSQL","name":"OMS","db":"d","table":"t"},"op":"c","ts_ms":1}}\n' "$SCHEMA" >"$T/oms.ndjson"
expect upstream-as-oms 2 convert -q --from oms-debezium upstream.ndjson <<'EOF'
rowcast: upstream.ndjson:1:184 (file offset 183): value error: column "b" (varbinary(65535)): "AP8=" is not hex; this looks like upstream Debezium: use --from debezium (debezium.flavor=upstream)
EOF
expect upstream-as-oms-flavor 2 convert -q --from debezium -o debezium.flavor=oms upstream.ndjson <<'EOF'
rowcast: upstream.ndjson:1:184 (file offset 183): value error: column "b" (varbinary(65535)): "AP8=" is not hex; this looks like upstream Debezium: use --from debezium (debezium.flavor=upstream)
EOF
expect upstream-as-flatten 2 convert -q --from oms-debeziumflatten upstream.ndjson <<'EOF'
rowcast: upstream.ndjson:1:184 (file offset 183): value error: column "b" (varbinary(65535)): "AP8=" is not hex; this looks like upstream Debezium: use --from debezium
EOF
expect upstream-as-canal 2 convert -q --from canal upstream.ndjson <<'EOF'
rowcast: upstream.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like upstream Debezium: use --from debezium
EOF
expect oms-debezium-as-upstream 2 convert -q --from debezium oms.ndjson <<'EOF'
rowcast: oms.ndjson:1:184 (file offset 183): value error: column "b" (varbinary(65535)): "0F" is not base64; this looks like Debezium (as OMS writes it): use --from oms-debezium
EOF
expect oms-debezium-as-upstream-flavor 2 convert -q --from debezium -o debezium.flavor=upstream oms.ndjson <<'EOF'
rowcast: oms.ndjson:1:184 (file offset 183): value error: column "b" (varbinary(65535)): "0F" is not base64; this looks like Debezium (as OMS writes it): use --from oms-debezium
EOF
expect oms-debezium-as-canal 2 convert -q --from canal oms.ndjson <<'EOF'
rowcast: oms.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like Debezium (as OMS writes it): use --from oms-debezium
EOF
# the right reader, rightly configured: the error is the news, no hint
expect upstream-right-reader 0 convert -q --from debezium upstream.ndjson <<'EOF'
EOF
expect oms-right-reader 0 convert -q --from oms-debezium oms.ndjson <<'EOF'
EOF
# OMS's debeziumflatten is read as OMS's whatever debezium.flavor says: its own error, no hint
printf '{"payload":{"before":null,"after":{"b":"0F"},"source":{"connector":"MYSQL","name":"OMS","db":"d","table":"t"},"op":"x","ts_ms":1}}\n' >"$T/oms-bad-op.ndjson"
expect oms-flatten-no-hint 2 convert -q --from oms-debeziumflatten oms-bad-op.ndjson <<'EOF'
rowcast: oms-bad-op.ndjson:1:116 (file offset 115): schema error: unknown Debezium op "x" (expected c, u, d, r, t or m)
EOF
printf '{"op":"c","source":{"db":"d","table":"t"},"after":{"id":"x"},"ts_ms":1}\n' >"$T/plain-debezium.ndjson"
expect debezium-no-connector-as-maxwell 2 convert -q --from maxwell plain-debezium.ndjson <<'EOF'
rowcast: plain-debezium.ndjson:1:1 (file offset 0): schema error: a Maxwell message without "type"; this looks like Debezium: use --from debezium
EOF
printf '{"op":"heartbeat","source":{"kind":"mysql","server":"s1"},"ts_us":1}\n' >"$T/native.ndjson"
expect native-as-canal 2 convert -q --from canal native.ndjson <<'EOF'
rowcast: native.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like rowcast's native format: use --from native
EOF
printf '{"data":null,"database":"d","table":"t","type":"QUERY","isDdl":true,"es":1,"ts":1,"sql":"x"}\n' >"$T/canal.ndjson"
expect canal-as-native 2 convert -q canal.ndjson <<'EOF'
rowcast: canal.ndjson:1:2 (file offset 1): schema error: unknown field "data" in the event; this looks like Canal: use --from canal
EOF
printf '{"database":"d","table":"t","type":"insert","ts":1,"xid":7,"data":{"id":1}}\n' >"$T/maxwell.ndjson"
expect maxwell-as-canal 2 convert -q --from canal maxwell.ndjson <<'EOF'
rowcast: maxwell.ndjson:1:36 (file offset 35): schema error: unknown Canal type "insert" for a DML message; this looks like Maxwell: use --from maxwell
EOF
printf '{"version":"2.0","schema":{"source":{"dbType":"mysql"}},"payload":{"op":"INSERT"},"extend":{}}\n' >"$T/dataworks.ndjson"
expect dataworks-as-debezium 2 convert -q --from debezium dataworks.ndjson <<'EOF'
rowcast: dataworks.ndjson:1:73 (file offset 72): schema error: unknown Debezium op "INSERT" (expected c, u, d, r, t or m); this looks like DataWorks: use --from oms-dataworks
EOF
printf '{"prevStruct":null,"postStruct":null,"allMetaData":{"db":"d"},"recordType":"INSERT"}\n' >"$T/default.ndjson"
expect default-as-shareplex 2 convert -q --from oms-shareplex default.ndjson <<'EOF'
rowcast: default.ndjson:1:1 (file offset 0): schema error: a SharePlex message needs "meta"; this looks like OMS default JSON: use --from oms-default
EOF
printf '{"data":{"ID":"1"},"meta":{"op":"ins","table":"S.T"}}\n' >"$T/shareplex.ndjson"
expect shareplex-as-default 2 convert -q --from oms-default shareplex.ndjson <<'EOF'
rowcast: shareplex.ndjson:1:1 (file offset 0): schema error: an OMS default record without "recordType"; this looks like SharePlex: use --from oms-shareplex
EOF
printf '{"version":1,"id":1,"sourcePosition":"4@f","operation":"INSERT","objectName":"d.t"}\n' >"$T/avro-json.ndjson"
expect avro-json-as-canal 2 convert -q --from canal avro-json.ndjson <<'EOF'
rowcast: avro-json.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like DTS Avro as JSON (oms-avro-json), which rowcast writes but does not read
EOF
# Canal and DRS messages have the same members: reading one as the other gets no hint
printf '{"data":[{"id":"x1"}],"database":"d","table":"t","type":"INSERT","isDdl":false,"mysqlType":{"id":"int"},"es":1,"ts":1}\n' >"$T/canal-bad.ndjson"
expect canal-as-drs 2 convert -q --from drs-json canal-bad.ndjson <<'EOF'
rowcast: canal-bad.ndjson:1:16 (file offset 15): value error: column "id" (int): "x1" is not an integer
EOF

# --- --on-error=skip (or dead-letter) where every line was bad: status 2, and the summary says so
"$RC" convert --from canal --on-error=skip "$T/native.ndjson" "$T/native.ndjson" >"$T/out" 2>"$T/err"
expect_rc=$?
[ "$expect_rc" = 2 ] && ok || bad "skip-all-bad: exit status $expect_rc, expected 2"
# (the summary's time line aside)
grep -v '^rowcast: [0-9.]* s, [0-9]* events/s$' "$T/err" >"$T/err2"
cat >"$T/want" <<EOF
rowcast: $T/native.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like rowcast's native format: use --from native
rowcast: $T/native.ndjson:1:1 (file offset 0): schema error: Canal message without "type"; this looks like rowcast's native format: use --from native
rowcast: 2 lines read: 0 converted, 0 filtered out, 2 bad (skipped)
rowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: none of the 2 lines could be converted (--on-error=skip): exit status 2
EOF
cmp -s "$T/want" "$T/err2" && ok || { bad "skip-all-bad: stderr"; diff "$T/want" "$T/err2" >&2; }
"$RC" convert -q --from canal --on-error=dead-letter:"$T/dead" "$T/native.ndjson" >/dev/null 2>&1
expect_rc=$?
[ "$expect_rc" = 2 ] && ok || bad "dead-letter-all-bad: exit status $expect_rc, expected 2"
cmp -s "$T/native.ndjson" "$T/dead" && ok || bad "dead-letter-all-bad: the line is not in the dead-letter file"
# one good line among bad ones: status 0 as before
cat "$T/native.ndjson" "$T/canal.ndjson" >"$T/mixed.ndjson"
"$RC" convert -q --from canal --on-error=skip "$T/mixed.ndjson" >/dev/null 2>&1
expect_rc=$?
[ "$expect_rc" = 0 ] && ok || bad "skip-some-bad: exit status $expect_rc, expected 0"

# --- names: formats without case, "did you mean", options of sinks and of other formats
head -3 examples/shop.ndjson >"$T/shop.ndjson"
"$RC" convert -q --to canal "$T/shop.ndjson" >"$T/want_canal"
STDIN=$T/shop.ndjson expect format-case 0 convert -q --from NATIVE --to Canal <<'EOF'
EOF
cmp -s "$T/want_canal" "$T/out" && ok || bad "format-case: --to Canal wrote other messages than --to canal"
expect format-typo 1 convert --to debezum shop.ndjson <<'EOF'
rowcast convert: unknown format 'debezum': did you mean 'debezium'? (rowcast formats)
(see rowcast help convert)
EOF
expect format-unknown 1 convert --from yaml shop.ndjson <<'EOF'
rowcast convert: unknown format 'yaml' (rowcast formats)
(see rowcast help convert)
EOF
expect format-not-readable 1 convert --from OMS-Avro shop.ndjson <<'EOF'
rowcast convert: format 'oms-avro' cannot be read (rowcast formats)
(see rowcast help convert)
EOF
expect option-typo 1 convert --to canal -o canal.valuse=string shop.ndjson <<'EOF'
rowcast convert: unknown option 'canal.valuse': did you mean 'canal.values'? (rowcast formats --options)
EOF
# the reader reads its format's table too: a typo or a bad value is an error on either side
# (they were ignored when reading), and an option read for another encoder names its own key
expect option-typo-reader 1 convert --from canal -o canal.timezon=+08:00 shop.ndjson <<'EOF'
rowcast convert: unknown option 'canal.timezon': did you mean 'canal.timezone'? (rowcast formats --options)
EOF
expect option-bad-value-reader 1 convert --from maxwell -o maxwell.output_nulls=maybe shop.ndjson <<'EOF'
rowcast convert: option maxwell.output_nulls must be true or false, not 'maybe'
EOF
expect option-bad-value-own-key 1 convert --to cloudevents -o cloudevents.compat=4 shop.ndjson <<'EOF'
rowcast convert: option cloudevents.compat must be one of 0.10|1|1.6|2.0|2.6|2|3, not '4'
EOF
expect option-prefix-typo 1 convert --to canal -o canl.values=string shop.ndjson <<'EOF'
rowcast convert: option 'canl.values' belongs to neither the input nor the output format: did you mean 'canal.values'?
(see rowcast help convert)
EOF
expect option-unknown 1 convert --to canal -o xyz.values=string shop.ndjson <<'EOF'
rowcast convert: option 'xyz.values' belongs to neither the input nor the output format
(see rowcast help convert)
EOF
expect option-of-other-format 1 convert --from canal -o debezium.flavor=upstream shop.ndjson <<'EOF'
rowcast convert: -o debezium.flavor is an option of format debezium, which is neither the input (--from canal) nor the output (--to native)
(see rowcast help convert)
EOF
expect option-of-sink 1 convert -o kafka.linger.ms=5 shop.ndjson <<'EOF'
rowcast convert: -o kafka.linger.ms is a Kafka sink option: add --sink kafka://HOST:PORT/TOPIC
(see rowcast help convert)
EOF
expect flag-typo 1 convert --form canal shop.ndjson <<'EOF'
rowcast convert: unknown option '--form': did you mean '--from'?
(see rowcast help convert)
EOF
expect flag-typo-value 1 convert --on-eror=skip shop.ndjson <<'EOF'
rowcast convert: unknown option '--on-eror=skip': did you mean '--on-error'?
(see rowcast help convert)
EOF
expect flag-without-value 1 convert shop.ndjson --from <<'EOF'
rowcast convert: option '--from' needs a value
(see rowcast help convert)
EOF
expect switch-with-value 1 convert --keys=yes shop.ndjson <<'EOF'
rowcast convert: option '--keys' takes no value
(see rowcast help convert)
EOF
expect formats-typo 1 formats --option <<'EOF'
rowcast formats: unknown argument '--option': did you mean '--options'?
EOF
"$RC" convet >/dev/null 2>"$T/err"
expect_rc=$?
[ "$expect_rc" = 1 ] && ok || bad "command-typo: exit status $expect_rc, expected 1"
[ "$(head -1 "$T/err")" = "rowcast: unknown command 'convet': did you mean 'convert'?" ] && ok || bad "command-typo: $(head -1 "$T/err")"

# --- secrets: @FILE and env:NAME reach librdkafka; their values are never printed. An
# encrypted TLS key makes the password observable: librdkafka opens the key with
# ssl.key.password when the producer is made (no broker needed), and fails on a wrong one.
if openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout "$T/key.pem" -out "$T/cert.pem" -days 36500 \
    -subj /CN=rowcast-test -passout pass:right-pw-1 >/dev/null 2>&1; then
    printf 'right-pw-1\n' >"$T/pw"
    KAFKA=(convert -q --sink kafka://127.0.0.1:1/t --flush-timeout 1 -o kafka.log_level=0 -o kafka.security.protocol=ssl
        -o kafka.ssl.key.location=key.pem -o kafka.ssl.certificate.location=cert.pem)
    expect secret-file 0 "${KAFKA[@]}" -o kafka.ssl.key.password=@pw <<'EOF'
EOF
    RC_TEST_PW=right-pw-1 expect secret-env 0 "${KAFKA[@]}" -o kafka.ssl.key.password=env:RC_TEST_PW <<'EOF'
EOF
    RC_TEST_PW=wrong-pw-2 expect secret-env-wrong 1 "${KAFKA[@]}" -o kafka.ssl.key.password=env:RC_TEST_PW <<'EOF'
rowcast convert: kafka: ssl.key.location failed: error:0A080009:SSL routines::PEM lib
EOF
    # before @FILE was read, the text "@pw" itself was the password
    expect secret-literal 1 "${KAFKA[@]}" -o kafka.ssl.key.password=right-pw-1x <<'EOF'
rowcast convert: kafka: ssl.key.location failed: error:0A080009:SSL routines::PEM lib
EOF
else
    bad "openssl could not make a test key (scripts/lib.sh TEST_PKGS has openssl)"
fi
expect secret-missing-file 1 convert --sink kafka://127.0.0.1:1/t -o kafka.sasl.password=@no/such/file shop.ndjson <<'EOF'
rowcast convert: -o kafka.sasl.password=@no/such/file: cannot read no/such/file: No such file or directory
(see rowcast help convert)
EOF
: >"$T/empty"
expect secret-empty-file 1 convert --sink kafka://127.0.0.1:1/t -o kafka.sasl.password=@empty shop.ndjson <<'EOF'
rowcast convert: -o kafka.sasl.password=@empty: empty is empty
(see rowcast help convert)
EOF
expect secret-missing-env 1 convert --sink kafka://127.0.0.1:1/t -o kafka.sasl.password=env:RC_TEST_NO_SUCH_VARIABLE shop.ndjson <<'EOF'
rowcast convert: -o kafka.sasl.password=env:RC_TEST_NO_SUCH_VARIABLE: the environment variable RC_TEST_NO_SUCH_VARIABLE is not set
(see rowcast help convert)
EOF
# librdkafka refuses the property: the message names it, not the value read from the file
printf 'org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2-3";\n' >"$T/jaas"
expect secret-refused-property 1 convert --sink kafka://127.0.0.1:1/t -o kafka.sasl.jaas.config=@jaas shop.ndjson <<'EOF'
rowcast convert: -o kafka.sasl.jaas.config=(secret): Java JAAS configuration is not supported, see https://github.com/edenhill/librdkafka/wiki/Using-SASL-with-librdkafka for more information.
EOF

# an Oracle GoldenGate JSON message (sniff.c's last shape) read as Maxwell
printf '{"table":"OGG.T","op_type":"I","op_ts":"2020-05-13 15:40:06.000000","pos":"00000000000000000143","after":{"id":1}}\n' >"$T/ogg.ndjson"
expect ogg-json-as-maxwell 2 convert -q --from maxwell ogg.ndjson <<'EOF'
rowcast: ogg.ndjson:1:1 (file offset 0): schema error: a Maxwell message without "type"; this looks like Oracle GoldenGate JSON: use --from ogg-json
EOF

# a position's LSN that is no LSN (not X/Y in hex, a half past 8 digits, a sign, text): refused
# at its byte, as a bad offset is, where it used to reach the encoders, which wrapped or dropped
# it; the good forms, hex either case and Debezium's decimal, pass unchanged
H='{"op":"heartbeat","source":{"kind":"postgresql"},"pos":'
cat >"$T/lsn.ndjson" <<EOF
$H{"lsn":"0/16B3G48"}}
$H{"lsn":"123456789/0"}}
$H{"lsn":"0/"}}
$H{"lsn":"-5"}}
$H{"lsn":"018446744073709551615"}}
$H{"lsn":"18446744073709551616"}}
$H{"lsn":"16/B374D848 "}}
$H{"lsn":"0/16B3748","last_commit_lsn":"the commit before"}}
$H{"lsn":"0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"}}
$H{"lsn":"FFFFFFFF/ffffffff","last_commit_lsn":"0/0"}}
$H{"lsn":"18446744073709551615"}}
EOF
expect lsn-bad 0 convert -q --on-error=skip lsn.ndjson <<'EOF'
rowcast: lsn.ndjson:1:63 (file offset 62): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "0/16B3G48"
rowcast: lsn.ndjson:2:63 (file offset 138): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "123456789/0"
rowcast: lsn.ndjson:3:63 (file offset 216): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "0/"
rowcast: lsn.ndjson:4:63 (file offset 285): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "-5"
rowcast: lsn.ndjson:5:63 (file offset 354): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "018446744073709551615"
rowcast: lsn.ndjson:6:63 (file offset 442): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "18446744073709551616"
rowcast: lsn.ndjson:7:63 (file offset 529): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "16/B374D848 "
rowcast: lsn.ndjson:8:93 (file offset 638): value error: pos "last_commit_lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "the commit before"
rowcast: lsn.ndjson:9:63 (file offset 722): value error: pos "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "0123456789ABCDEF0123456789ABCDEF01234567"...
EOF
tail -2 "$T/lsn.ndjson" >"$T/want_out"
expect_eq lsn-good "$T/want_out" "$T/out"
# Debezium's source.lsn and the first LSN of its source.sequence: the same check
D='{"payload":{"op":"c","after":{"id":1},"source":{"connector":"postgresql","db":"d","schema":"public","table":"t",'
cat >"$T/lsn-dbz.ndjson" <<EOF
$D"lsn":-1}}}
$D"lsn":1.5}}}
$D"lsn":"0/1G"}}}
$D"lsn":33227720,"sequence":"[\"x\",\"33227720\"]"}}}
$D"lsn":33227720,"sequence":"[\"33227000\",\"33227720\"]"}}}
EOF
expect lsn-debezium 0 convert -q --from debezium -o debezium.flavor=upstream --on-error=skip lsn-dbz.ndjson <<'EOF'
rowcast: lsn-dbz.ndjson:1:119 (file offset 118): value error: source "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "-1"
rowcast: lsn-dbz.ndjson:2:119 (file offset 242): value error: source "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "1.5"
rowcast: lsn-dbz.ndjson:3:119 (file offset 367): value error: source "lsn" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "0/1G"
rowcast: lsn-dbz.ndjson:4:139 (file offset 515): value error: the first LSN of source "sequence" must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side ("0/16B3748") or its decimal number, found "x"
EOF
cat >"$T/want_out" <<'EOF'
{"op":"insert","source":{"kind":"postgresql","db":"d","schema":"public","table":"t"},"pos":{"lsn":"33227720","last_commit_lsn":"33227000"},"columns":[{"name":"id","type":"bigint","nullable":true}],"after":[1]}
EOF
expect_eq lsn-debezium-good "$T/want_out" "$T/out"

# capture's PostgreSQL source options (src/cli/capture.c's table): an unknown key with the list
# of them, a value of the wrong type; all refused before any connection is tried
PG=postgres://u@127.0.0.1:1/db
expect pg-option-unknown 1 capture "$PG" -o postgres.streamin=1 <<'EOF'
rowcast capture: unknown source option 'postgres.streamin': postgres.streaming, postgres.heartbeat.interval, postgres.stream.spill_bytes, postgres.stream.max_bytes, postgres.stream.spill_dir, postgres.signal.table, postgres.snapshot.chunk.rows, postgres.snapshot.flush, postgres.snapshot.read_ahead, postgres.publish.no_identity
(see rowcast help capture)
EOF
expect pg-option-bool 1 capture "$PG" -o postgres.streaming=maybe <<'EOF'
rowcast capture: option postgres.streaming must be true or false, not 'maybe'
(see rowcast help capture)
EOF
expect pg-option-int 1 capture "$PG" -o postgres.heartbeat.interval=1.5 <<'EOF'
rowcast capture: option postgres.heartbeat.interval must be an integer from 0 to 86400, not '1.5'
(see rowcast help capture)
EOF
expect pg-option-size 1 capture "$PG" -o postgres.stream.spill_bytes=-1 <<'EOF'
rowcast capture: option postgres.stream.spill_bytes must be an integer from 0 to 9223372036854775807, not '-1'
(see rowcast help capture)
EOF
# ... and MySQL's capture takes none of them (it used to ignore them)
expect my-pg-option 1 capture mysql://u@127.0.0.1:1 -o postgres.streaming=true <<'EOF'
rowcast capture: -o postgres.streaming is PostgreSQL's: MySQL and MariaDB have no postgres.* options
(see rowcast help capture)
EOF
# MySQL's own -o mysql.* (docs/sources/mysql.md, "Incremental snapshots"), which PostgreSQL's refuses
expect my-option-unknown 1 capture mysql://u@127.0.0.1:1 -o mysql.signal.tabel=a.b <<'EOF'
rowcast capture: unknown source option 'mysql.signal.tabel': mysql.signal.table, mysql.snapshot.chunk.rows, mysql.snapshot.unacked.chunks, mysql.snapshot.watermark
(see rowcast help capture)
EOF
expect pg-my-option 1 capture "$PG" -o mysql.signal.table=a.b <<'EOF'
rowcast capture: -o mysql.signal.table is an option of another source, not of postgres
(see rowcast help capture)
EOF

# a file sink whose writing thread cannot start (no room for its stack under these limits): the
# sink and the reason, not "out of memory" (not in a sanitizer build, which needs far more
# address space than the limit leaves)
if [ "$(ldd "$RC" 2>/dev/null | grep -c libasan)" = 0 ]; then
    (cd "$T" && ulimit -v 200000 && ulimit -s 400000 && exec "$RC" convert -q --sink file:out.ndjson shop.ndjson) 2>"$T/err"
    expect_rc file-thread $? 3
    echo "rowcast convert: out.ndjson: cannot start the thread that writes it: Resource temporarily unavailable (check ulimit -v, -s and -u: they bound the memory of a thread's stack and the number of threads)" >"$T/want"
    expect_eq file-thread "$T/want" "$T/err"
fi

echo "cli_errors: $pass passed, $fail failed"
[ "$fail" = 0 ]
