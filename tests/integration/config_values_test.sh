#!/usr/bin/env bash
# Issue 26: a config file's value that is refused when the run is put together, not by a flag's
# setter, is said with the file's FILE:LINE (docs/config.md, Errors), exact messages:
# - the formats (to, from), on-error, on-loss, topic, keys/records, an -o option of no format in
#   use, a format's option values, kafka.order.header, the source's checks (capture: until, slot
#   with a MySQL URL, a source's option values): "FILE:LINE: " before the run's message, and
#   "KEY: " too when the message names no flag or option (to, from, topic, sink, input);
# - a source's option value and the dead-letter file, refused when the run opens them;
# - what --check / `config check` checks without connecting: the --sink URL (its form, a file's
#   path, a Kafka sink's hosts and topic template), the -o kafka.* properties on a scratch
#   librdkafka configuration (unknown ones, bad values, rowcast's own), and that each input the
#   file names can be read;
# - the same values on the command line: the messages as they were, without a line; a value the
#   command line gives instead of the file's: no line either.
# usage: config_values_test.sh ROWCAST   (from the repository root)
set -u
RC=${1:?rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
IN=examples/shop.ndjson
SEE=$'(see rowcast help convert)\n'
SEE_CAPTURE=$'(see rowcast help capture)\n'

# expect NAME MODE CONF WANT [ARGS...]: the config file CONF (its text) run as MODE (run:
# `convert --config FILE ARGS`, exit 1; open: the same, refused when the run opens its source or
# dead-letter file, exit 3; check: `config check FILE`, exit 2; capture: `capture
# --config FILE ARGS --check`, exit 2) says exactly WANT on stderr, @F@ in it standing for the
# file's path, and nothing on stdout.
expect() {
    local name=$1 mode=$2 conf=$T/$1.conf want_rc
    printf '%s' "$3" >"$conf"
    printf '%s' "${4//@F@/$conf}" >"$T/$name.want"
    shift 4
    case $mode in
    run) "$RC" convert --config "$conf" "$@" >"$T/$name.out" 2>"$T/$name.err"; echo $? >"$T/$name.rc"; want_rc=1 ;;
    open) "$RC" convert --config "$conf" "$@" >"$T/$name.out" 2>"$T/$name.err"; echo $? >"$T/$name.rc"; want_rc=3 ;;
    check) "$RC" config check "$conf" >"$T/$name.out" 2>"$T/$name.err"; echo $? >"$T/$name.rc"; want_rc=2 ;;
    capture) "$RC" capture --config "$conf" "$@" --check >"$T/$name.out" 2>"$T/$name.err"; echo $? >"$T/$name.rc"; want_rc=2 ;;
    esac
    expect_eq "$name: stderr" "$T/$name.want" "$T/$name.err"
    expect_rc "$name" "$(cat "$T/$name.rc")" $want_rc
    if [ -s "$T/$name.out" ]; then bad "$name: stdout: $(head -2 "$T/$name.out")"; else ok; fi
}
# line NAME WANT ARGS...: `rowcast ARGS` (a command line, no file) says exactly WANT on stderr
line() {
    local name=$1
    printf '%s' "$2" >"$T/$name.want"
    shift 2
    "$RC" "$@" >/dev/null 2>"$T/$name.err"
    expect_eq "$name: stderr" "$T/$name.want" "$T/$name.err"
}

# --- values checked at setup, from the file: the line, and the key when the message names none
expect to run $'quiet = true\nto = debezum\ninput = '$IN$'\n' \
    "rowcast convert: @F@:2: to: unknown format 'debezum': did you mean 'debezium'? (rowcast formats)"$'\n'"$SEE"
expect from run $'quiet = true\n\nfrom = nosuchformat\ninput = '$IN$'\n' \
    "rowcast convert: @F@:3: from: unknown format 'nosuchformat' (rowcast formats)"$'\n'"$SEE"
expect on-error run $'quiet = true\non-error = bogus\ninput = '$IN$'\n' \
    "rowcast convert: @F@:2: --on-error must be stop, skip or dead-letter:PATH, not 'bogus'"$'\n'"$SEE"
expect on-loss run $'quiet = true\non-loss = maybe\n' \
    "rowcast convert: @F@:2: --on-loss must be stop, skip, dead-letter, dead-letter:PATH or cut, not 'maybe'"$'\n'"$SEE"
expect on-loss-file run $'on-loss = dead-letter\n' \
    "rowcast convert: @F@:1: --on-loss=dead-letter needs a dead-letter file: --on-loss=dead-letter:PATH, or --on-error=dead-letter:PATH"$'\n'"$SEE"
expect topic run $'quiet = true\ntopic = {nope}\n' \
    "rowcast convert: @F@:2: topic: topic template '{nope}': unknown placeholder at byte 1 (use {server}, {db}, {schema}, {table}, {collection}, or the preset 'debezium')"$'\n'"$SEE"
expect records run $'keys = true\nrecords = true\n' \
    "rowcast convert: @F@:1: --keys and --records exclude each other"$'\n'"$SEE"
expect foreign-option run $'to = canal\n# the output is canal\ndebezium.server = shop\n' \
    "rowcast convert: @F@:3: -o debezium.server is an option of format debezium, which is neither the input (--from native) nor the output (--to canal)"$'\n'"$SEE"
expect option-value run $'to = debezium\ndebezium.bigint.unsigned.handling.mode = bogus\ninput = '$IN$'\n' \
    "rowcast convert: @F@:2: option debezium.bigint.unsigned.handling.mode must be one of long|precise, not 'bogus'"$'\n'
expect order-header run $'sink = kafka://127.0.0.1:9/t\nkafka.order.header = maybe\n' \
    "rowcast convert: @F@:2: -o kafka.order.header=maybe: true or false"$'\n'"$SEE"
# the flag a message names wins over the key it is about: the output the option does not belong to
expect foreign-to run $'to = canal\n' \
    "rowcast convert: @F@:1: -o debezium.server is an option of format debezium, which is neither the input (--from native) nor the output (--to canal)"$'\n'"$SEE" \
    -o debezium.server=shop

# --- the source's checks (capture --check: nothing connected to)
expect until capture $'url = postgres://u@127.0.0.1:9/db\nuntil = bogus\n' \
    "rowcast capture: @F@:2: --until is caught-up or an LSN such as 0/16B3748, not 'bogus'"$'\n'"$SEE_CAPTURE"
expect source-option capture $'url = postgres://u@127.0.0.1:9/db\npostgres.snapshot.chunk.rows = -5\n' \
    "rowcast capture: @F@:2: option postgres.snapshot.chunk.rows must be an integer from 0 to 1048576, not '-5'"$'\n'"$SEE_CAPTURE"
expect slot capture $'url = mysql://u@127.0.0.1:9\n\nslot = rowcast\n' \
    "rowcast capture: @F@:3: --slot is PostgreSQL's: MySQL and MariaDB have no slots or publications (the position is kept in --checkpoint PATH)"$'\n'"$SEE_CAPTURE"
expect other-source capture $'url = postgres://u@127.0.0.1:9/db\nmysql.snapshot.chunk.rows = 5\n' \
    "rowcast capture: @F@:2: -o mysql.snapshot.chunk.rows is an option of another source, not of postgres"$'\n'"$SEE_CAPTURE"

# --- what --check checks without connecting: the sink URL, the kafka.* properties, the inputs
expect sink-scheme check $'sink = ftp://host/x\n' \
    "rowcast convert: @F@:1: --sink ftp://host/x: expected stdout, file:PATH or kafka://HOST:PORT[,HOST:PORT...]/TOPIC"$'\n'
expect sink-file check $'to = maxwell\nsink = file:\n' \
    "rowcast convert: @F@:2: --sink file: needs a path (file:PATH)"$'\n'
expect sink-hosts check $'sink = kafka:///topic\n' \
    "rowcast convert: @F@:1: --sink kafka://: no HOST:PORT before the topic"$'\n'
expect sink-topic check $'sink = kafka://127.0.0.1:9/{server}.{nope}\n' \
    "rowcast convert: @F@:1: sink: topic template '{server}.{nope}': unknown placeholder at byte 10 (use {server}, {db}, {schema}, {table}, {collection}, or the preset 'debezium')"$'\n'
# kafka NAME LINE MESSAGE: a Kafka sink's file with LINE second is refused by config check with MESSAGE
kafka() { expect "$1" check $'sink = kafka://127.0.0.1:9/t\n'"$2"$'\n' "rowcast convert: @F@:2: $3"$'\n'; }
kafka kafka-unknown 'kafka.linger.msec = 5' '-o kafka.linger.msec=5: No such configuration property: "linger.msec"'
kafka kafka-value 'kafka.compression.codec = zip' '-o kafka.compression.codec=zip: Invalid value "zip" for configuration property "compression.codec"'
kafka kafka-own 'kafka.transaction.ms = 0' '-o kafka.transaction.ms=0: milliseconds from 1 to 50000 (below transaction.timeout.ms=60000)'
kafka kafka-kept 'kafka.acks = 1' "-o kafka.acks: rowcast keeps enable.idempotence=true, acks=all and its own murmur2 partitioning (order per row and the Java client's partitions depend on them)"
mkdir "$T/a-directory"
expect inputs check $'input = '"$IN"$'\ninput = '"$T"$'/no-such-input\ninput = -\ninput = '"$T"$'/a-directory\n' \
    "rowcast convert: @F@:2: input: cannot open $T/no-such-input: No such file or directory"$'\n'"rowcast convert: @F@:4: input: cannot open $T/a-directory: Is a directory"$'\n'
# a secret's value is not shown by librdkafka's refusal of it
printf 'pw-in-a-file\n' >"$T/pw"
expect kafka-secret check $'sink = kafka://127.0.0.1:9/t\nkafka.sasl.password = @'"$T"$'/pw\nkafka.security.protocol = sasl_nothing\n' \
    "rowcast convert: @F@:3: -o kafka.security.protocol=sasl_nothing: Invalid value \"sasl_nothing\" for configuration property \"security.protocol\""$'\n'
if grep -l pw-in-a-file "$T"/*.err; then bad "a secret's value was printed"; else ok; fi

# --- refused when the run opens what it reads and writes: a source's option value, the dead-letter file
expect source-option open $'source = kafka://127.0.0.1:9/t?group=g\nkafka.source.stop = maybe\n' \
    "rowcast convert: @F@:2: -o kafka.source.stop is end or never, not 'maybe'"$'\n'
expect dead-letter-file open $'to = debezium\non-error = dead-letter:'"$T"$'/no/such/dir/dl\n' \
    "rowcast convert: @F@:2: on-error: cannot open dead-letter file $T/no/such/dir/dl: No such file or directory"$'\n' "$IN"

# --- the command line: the messages without a line, as before the file had them
line to-line "rowcast convert: unknown format 'debezum': did you mean 'debezium'? (rowcast formats)"$'\n'"$SEE" convert --to debezum "$IN"
line on-error-line "rowcast convert: --on-error must be stop, skip or dead-letter:PATH, not 'bogus'"$'\n'"$SEE" convert --on-error bogus "$IN"
line sink-line "rowcast convert: --sink ftp://host/x: expected stdout, file:PATH or kafka://HOST:PORT[,HOST:PORT...]/TOPIC"$'\n' \
    convert --sink ftp://host/x --check
line kafka-line "rowcast convert: -o kafka.linger.msec=5: No such configuration property: \"linger.msec\""$'\n' \
    convert --sink kafka://127.0.0.1:9/t -o kafka.linger.msec=5 --check
# the file's on-error replaced by the command line's bad one: the command line's message, no line
printf 'on-error = skip\ntopic = {nope}\n' >"$T/over.conf"
line over "rowcast convert: --on-error must be stop, skip or dead-letter:PATH, not 'bogus'"$'\n'"$SEE" \
    convert --config "$T/over.conf" --on-error bogus --topic debezium "$IN"

echo "config_values: $pass passed, $fail failed"
[ "$fail" = 0 ]
