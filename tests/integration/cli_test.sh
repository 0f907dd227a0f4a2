#!/usr/bin/env bash
# End-to-end tests of the rowcast command line: identity on the examples, bad input under
# each --on-error mode (exact messages), usage errors, odd line endings.
# usage: cli_test.sh path/to/rowcast   (run from the repository root)
set -u
. tests/common/peers.sh
RC=${1:?path to rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh

D=tests/integration/data
BAD=$D/bad-input.ndjson

# --- identity on the bundled examples, from a file and from stdin
"$RC" convert --from native --to native examples/shop.ndjson >"$T/out" 2>"$T/err"
expect_rc identity-file $? 0
expect_eq identity-file examples/shop.ndjson "$T/out"
grep -q '^rowcast: 20 lines read: 20 converted, 0 filtered out, 0 bad$' "$T/err" && ok || bad "summary line: $(cat "$T/err")"
"$RC" convert -q <examples/shop.ndjson >"$T/out" 2>"$T/err"
expect_rc identity-stdin $? 0
expect_eq identity-stdin examples/shop.ndjson "$T/out"
[ -s "$T/err" ] && bad "--quiet printed: $(cat "$T/err")" || ok
# a file sink on a special file that cannot be fsync'ed (EINVAL) delivers what it flushed
"$RC" convert --sink file:/dev/null examples/shop.ndjson 2>"$T/err"
expect_rc devnull $? 0
grep -q '^rowcast: 20 messages written (22256 bytes): 20 delivered, 0 dead-lettered, 0 refused, 0 undelivered$' "$T/err" && ok ||
    bad "file:/dev/null summary: $(cat "$T/err")"

# --- CRLF endings, blank lines, no final newline
{ head -2 examples/shop.ndjson | sed 's/$/\r/'; echo; echo "   "; sed -n 3p examples/shop.ndjson | tr -d '\n'; } >"$T/crlf"
"$RC" convert -q "$T/crlf" >"$T/out"
expect_rc crlf $? 0
head -3 examples/shop.ndjson >"$T/want"
expect_eq crlf "$T/want" "$T/out"

# --- bad input, stop (default): status 2, only the lines before the bad one, exact message
"$RC" convert -q "$BAD" >"$T/out" 2>"$T/err"
expect_rc stop $? 2
head -1 $D/bad-input.expected-out >"$T/want"
expect_eq stop-output "$T/want" "$T/out"
head -1 $D/bad-input.expected-err >"$T/want"
expect_eq stop-message "$T/want" "$T/err"

# --- skip: every bad line reported, the good ones converted, count in the summary
"$RC" convert --on-error=skip "$BAD" >"$T/out" 2>"$T/err"
expect_rc skip $? 0
expect_eq skip-output $D/bad-input.expected-out "$T/out"
sed '/^rowcast: 9 lines read/,$d' "$T/err" >"$T/errs"
expect_eq skip-messages $D/bad-input.expected-err "$T/errs"
grep -q '6 bad (skipped)' "$T/err" && ok || bad "skip summary: $(tail -1 "$T/err")"

# --- dead-letter: rejected lines written unchanged
"$RC" convert -q --on-error=dead-letter:"$T/dead" "$BAD" >"$T/out" 2>/dev/null
expect_rc dead-letter $? 0
expect_eq dead-letter-output $D/bad-input.expected-out "$T/out"
sed -n '2p;4,8p' "$BAD" >"$T/want"
expect_eq dead-letter-file "$T/want" "$T/dead"

# --- events an encoder cannot write (an UPDATE without before image): the documented error
# per format, the rest of the stream converted; a truncate without text gets its statement
for f in $("$RC" formats | awk 'NR > 1 && $1 != "oms-avro" && $2 == "yes" {print $1}'); do
    echo "== $f"
    "$RC" convert -q --on-error=skip --on-loss=skip --to "$f" $D/encoder-bad.ndjson 2>&1
done >"$T/enc"
expect_eq encoder-errors $D/encoder-bad.expected "$T/enc"

# --- upstream Debezium schema names adjusted for Avro: "a-b" and "a_b" collide in one server;
# a server name starting with a digit gets an underscore before it (SchemaNameAdjuster)
"$RC" convert -q --on-error=skip --to debezium -o debezium.flavor=upstream -o debezium.schemas=true \
    -o debezium.schema.name.adjustment.mode=avro $D/name-collision.ndjson >"$T/out" 2>"$T/err"
expect_rc name-collision $? 0
expect_eq name-collision-message $D/name-collision.expected-err "$T/err"
# the first table's envelope srv.shop.a_b.Envelope, the third's _9srv.shop.t.Envelope
expect_eq name-collision-output $D/name-collision.expected-out "$T/out"

# --- Canal input that cannot be read: one clear message per line, naming the byte
# --- the Canal decoder keeps tables' column lists between messages (and skips a mysqlType or
# sqlType it has read before): a stream of interleaved tables, key changes, typed values, a bad
# key and a changed column list reads exactly as each message read on its own
"$RC" convert -q --from canal --to native --on-error=skip $D/canal-tables.ndjson >"$T/out" 2>"$T/err"
: >"$T/want"
: >"$T/wanterr"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" | "$RC" convert -q --from canal --to native --on-error=skip >>"$T/want" 2>"$T/lerr"
    sed "s|^rowcast: <stdin>:1:|rowcast: $D/canal-tables.ndjson:$n:|; s/ (file offset [0-9]*)//" "$T/lerr" >>"$T/wanterr"
done <$D/canal-tables.ndjson
expect_eq canal-tables "$T/want" "$T/out"
# encoders keep what they derive from a cached column list (rc_event.cols_id): the same
# interleaved tables written as Canal and upstream Debezium, all at once and line by line
for to in canal debezium; do
    "$RC" convert -q --from canal --to $to -o debezium.flavor=upstream --on-error=skip $D/canal-tables.ndjson >"$T/out_$to" 2>/dev/null
    : >"$T/want_$to"
    while IFS= read -r line; do
        printf '%s\n' "$line" | "$RC" convert -q --from canal --to $to -o debezium.flavor=upstream --on-error=skip >>"$T/want_$to" 2>/dev/null
    done <$D/canal-tables.ndjson
    expect_eq "canal-tables-$to" "$T/want_$to" "$T/out_$to"
done
# the same for the native reader (its "columns" and "source" are kept by their text): every
# fourth line of the examples and golden inputs (every CLI_LINE_EVERY-th: the sanitizers' run
# takes one in 16, a process a line being most of this test's time there), each alone and all
# in one run, as native and OMS's canal (whose ids do not count the messages, as Canal's own do)
cat examples/*.ndjson tests/golden/native/*.out tests/golden/*/*.in "$BAD" | grep -av "^ *$" |
    awk -v n="${CLI_LINE_EVERY:-4}" 'NR % n == 1' >"$T/all.nd"
for to in native oms-canal; do
    "$RC" convert -q --to $to --on-error=skip --on-loss=skip "$T/all.nd" >"$T/out_all_$to" 2>/dev/null
    : >"$T/want_all_$to"
done
while IFS= read -r line; do
    for to in native oms-canal; do
        printf '%s\n' "$line" | "$RC" convert -q --to $to --on-error=skip --on-loss=skip >>"$T/want_all_$to" 2>/dev/null
    done
done <"$T/all.nd"
expect_eq native-tables "$T/want_all_native" "$T/out_all_native"
expect_eq native-tables-canal "$T/want_all_oms-canal" "$T/out_all_oms-canal"
[ "$(wc -l <"$T/out")" = 12 ] || bad "canal-tables: expected 12 events"
sed 's/ (file offset [0-9]*)//' "$T/err" >"$T/err2"
expect_eq canal-tables-errors "$T/wanterr" "$T/err2"

"$RC" convert -q --from canal --on-error=skip $D/canal-bad.ndjson >/dev/null 2>"$T/err"
expect_rc canal-bad $? 2
expect_eq canal-bad-messages $D/canal-bad.expected "$T/err"
"$RC" convert -q --from debezium -o debezium.flavor=upstream --on-error=skip $D/debezium-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc debezium-bad $? 2
expect_eq debezium-bad-messages $D/debezium-bad.expected "$T/err"
[ -s "$T/out" ] && bad "debezium-bad: a bad message produced an event"
"$RC" convert -q --from drs-json --on-error=skip $D/drs-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc drs-bad $? 2
expect_eq drs-bad-messages $D/drs-bad.expected "$T/err"
[ -s "$T/out" ] && bad "drs-bad: a bad message produced an event"
"$RC" convert -q --from oms-defaultextendcolumntype --on-error=skip $D/default-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc default-bad $? 2
expect_eq default-bad-messages $D/default-bad.expected "$T/err"
[ -s "$T/out" ] && bad "default-bad: a bad message produced an event"
"$RC" convert -q --from oms-dataworks --on-error=skip $D/dataworks-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc dataworks-bad $? 2
expect_eq dataworks-bad-messages $D/dataworks-bad.expected "$T/err"
[ -s "$T/out" ] && bad "dataworks-bad: a bad message produced an event"
# (line 11, an UPDATE_BEFORE, is held for its UPDATE_AFTER, which line 12 is not: no event)
"$RC" convert -q --from dataworks-aliyun --on-error=skip $D/dataworks-aliyun-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc dataworks-aliyun-bad $? 0
expect_eq dataworks-aliyun-bad-messages $D/dataworks-aliyun-bad.expected "$T/err"
[ -s "$T/out" ] && bad "dataworks-aliyun-bad: a bad message produced an event"
# (the first line is a minimal valid message: one event)
"$RC" convert -q --from oms-shareplex --on-error=skip $D/shareplex-bad.ndjson >"$T/out" 2>"$T/err"
expect_rc shareplex-bad $? 0
expect_eq shareplex-bad-messages $D/shareplex-bad.expected "$T/err"
[ "$(wc -l <"$T/out")" = 1 ] || bad "shareplex-bad: expected exactly the one valid message's event"
# every pair: the shop stream as each decodable format wrote it, read back and written in every
# format; each either converts or refuses events with a clear message (status 0 under
# --on-error=skip --on-loss=skip, 2 under stop) and never crashes
for from in $("$RC" formats | awk 'NR > 1 && $3 == "yes" && $1 != "native" && $1 != "mysql-binlog" {print $1}'); do
    src=tests/golden/$from/shop.out
    [ -f "$src" ] || { bad "pairs: no $src"; continue; }
    fopts=()
    case $from in debezium | oms-debezium) fopts=(-o debezium.heartbeats=true) ;; esac
    for to in $("$RC" formats | awk 'NR > 1 && $2 == "yes" {print $1}'); do
        "$RC" convert -q --from "$from" --to "$to" "${fopts[@]}" --on-error=skip --on-loss=skip "$src" >"$T/pair" 2>"$T/pair.err"
        rc=$?
        # (and the notices of a reader: a schemaless Debezium message's base64)
        if [ $rc != 0 ] || grep -qv '^rowcast: .*:[0-9]*\(:[0-9]*\)\? .*\(error\|warning\): ' "$T/pair.err"; then
            bad "pairs: $from -> $to (status $rc): $(head -c 300 "$T/pair.err")"
        else
            ok
        fi
    done
done
# --drop: no DDL and no heartbeat left, every other event kept
"$RC" convert -q --drop ddl,heartbeat examples/shop.ndjson >"$T/out"
expect_rc drop $? 0
[ "$(grep -c '"op":"ddl"\|"op":"heartbeat"' "$T/out")" = 0 ] && [ "$(wc -l <"$T/out")" = \
    "$(grep -vc '"op":"ddl"\|"op":"heartbeat"' examples/shop.ndjson)" ] && ok || bad "--drop ddl,heartbeat"
"$RC" convert -q --drop ddl,nonsense examples/shop.ndjson >/dev/null 2>&1
expect_rc drop-unknown $? 1
# PostgreSQL without REPLICA IDENTITY FULL: updates and deletes have no before image; the decoder
# marks it absent and a target that needs it refuses each such event by line (11 of 16 written)
RI=../shared/testdata/peers/apache__flink/flink-formats/flink-json/src/test/resources/debezium-postgres-data-replica-identity.txt
if peer_need replica-identity -n 4 "$RI"; then
    "$RC" convert -q --from debezium --to canal --on-error=skip "$RI" >"$T/out" 2>"$T/err"
    expect_rc replica-identity $? 0
    sed 's|^rowcast: [^:]*:|rowcast: FIXTURE:|' "$T/err" >"$T/err2"
    expect_eq replica-identity-messages $D/replica-identity-canal.expected "$T/err2"
    [ "$(wc -l <"$T/out")" = 11 ] && ok || bad "replica-identity: expected 11 canal messages"
    "$RC" convert -q --from debezium --to canal "$RI" >/dev/null 2>&1
    expect_rc replica-identity-stop $? 2
else
    [ $? = 2 ] && fail=$((fail + 1))
fi

# --- usage errors: status 1 and a message
for args in "--from nosuch" "--to nosuch" "--on-error=later" "-o native.x=1" "-o canal.values=string" "--bogus" "-o novalue"; do
    # shellcheck disable=SC2086
    "$RC" convert $args examples/shop.ndjson >/dev/null 2>"$T/err"
    expect_rc "usage: $args" $? 1
    [ -s "$T/err" ] && ok || bad "usage: $args printed nothing"
done
"$RC" convert -q /nonexistent/file >/dev/null 2>"$T/err"
expect_rc missing-file $? 3
grep -q 'cannot open /nonexistent/file' "$T/err" && ok || bad "missing file message: $(cat "$T/err")"

# --- help, version, formats
"$RC" --help | grep -q 'rowcast convert' && ok || bad "--help"
"$RC" help convert | grep -q -- '--on-error=MODE' && ok || bad "help convert"
"$RC" convert --help | grep -q 'dead-letter:PATH' && ok || bad "convert --help"
"$RC" --version | grep -Eq '^rowcast [0-9]+\.[0-9]+\.[0-9]+$' && ok || bad "--version"
"$RC" formats | grep -Eq '^native +yes +yes ' && ok || bad "formats"
"$RC" formats --options | grep -q 'no options' && ok || bad "formats --options"
# docs/types.md ends with the catalog exactly as `rowcast types --markdown` prints it
"$RC" types --markdown >"$T/types"
tail -n "$(wc -l <"$T/types")" docs/types.md >"$T/doc"
expect_eq docs-types-current "$T/types" "$T/doc"
"$RC" types postgresql | grep -Eq '^timestamptz +Timestamp ' && ok || bad "types postgresql"
# the BSON kinds (issue 29): each with a value as each document format writes it
"$RC" types bson | grep -Eq '^decimal +19  native +\{"\$numberDecimal":"1\.10"\}$' && ok || bad "types bson"
"$RC" nosuch >/dev/null 2>&1
expect_rc unknown-command $? 1

# --- sinks without a server: file:, --records, --checkpoint (resume, bad files)
"$RC" convert -q --sink "file:$T/sunk" examples/shop.ndjson
expect_rc file-sink $? 0
expect_eq file-sink examples/shop.ndjson "$T/sunk"
head -5 examples/shop.ndjson >"$T/five"
"$RC" convert -q --sink "file:$T/ck.out" --checkpoint "$T/ck" "$T/five"
expect_rc checkpoint-first $? 0
printf 'rowcast-checkpoint 2\ninput %s\noffset %s\nline 5\noutput %s %s\n' "$(realpath "$T/five")" "$(wc -c <"$T/five")" \
    "$(wc -c <"$T/ck.out")" "$(realpath "$T/ck.out")" >"$T/want"
expect_eq checkpoint-file "$T/want" "$T/ck"
cat examples/shop.ndjson >"$T/five.more"
"$RC" convert -q --sink "file:$T/ck.out" --checkpoint "$T/ck" "$T/five"
expect_rc checkpoint-nothing-left $? 0
expect_eq checkpoint-no-repeat "$T/five" "$T/ck.out"
head -8 examples/shop.ndjson >"$T/five" # the input grew: the rerun continues after line 5
"$RC" convert -q --sink "file:$T/ck.out" --checkpoint "$T/ck" "$T/five"
expect_eq checkpoint-resume "$T/five" "$T/ck.out"
grep -q '^line 8$' "$T/ck" && ok || bad "checkpoint after resume: $(cat "$T/ck")"
printf 'rowcast-checkpoint 1\ninput %s\noffset 12\nline 1\n' "$T/five" >"$T/ck"
"$RC" convert -q --checkpoint "$T/ck" "$T/five" >/dev/null 2>"$T/err"
expect_rc checkpoint-mid-line $? 1
grep -q "offset 12 is not the start of a line of $T/five" "$T/err" && ok || bad "mid-line checkpoint: $(cat "$T/err")"
printf 'rowcast-checkpoint 1\ninput %s\noffset x\nline 1\n' "$T/five" >"$T/ck"
"$RC" convert -q --checkpoint "$T/ck" "$T/five" >/dev/null 2>"$T/err"
expect_rc checkpoint-bad $? 3
grep -q 'checkpoint line 3: expected .* (byte [0-9]* of ' "$T/err" && ok || bad "bad checkpoint message: $(cat "$T/err")"
printf 'rowcast-checkpoint 1\ninput other.ndjson\noffset 0\nline 0\n' >"$T/ck"
"$RC" convert -q --checkpoint "$T/ck" "$T/five" >/dev/null 2>"$T/err"
expect_rc checkpoint-other-input $? 1
grep -q 'is for input other.ndjson' "$T/err" && ok || bad "other input: $(cat "$T/err")"
"$RC" convert -q --checkpoint "$T/ck" <"$T/five" >/dev/null 2>"$T/err"
expect_rc checkpoint-stdin $? 1
"$RC" convert -q --topic 'a b' examples/shop.ndjson >/dev/null 2>"$T/err"
expect_rc topic-bad-char $? 1
grep -q "byte 2 is not allowed in a Kafka topic name" "$T/err" && ok || bad "topic char: $(cat "$T/err")"
"$RC" convert -q --keys --records examples/shop.ndjson >/dev/null 2>&1
expect_rc keys-records $? 1
"$RC" convert -q --sink nowhere examples/shop.ndjson >/dev/null 2>"$T/err"
expect_rc sink-unknown $? 1
grep -q 'expected stdout, file:PATH or kafka://' "$T/err" && ok || bad "sink url: $(cat "$T/err")"

# --- the reader thread: same output and errors with one or two threads; a pipe that stays open
#     does not hold back lines already read, nor a bad line's error
for f in native canal debezium; do
    "$RC" convert -q --threads 1 --to "$f" --on-error=skip examples/shop.ndjson "$BAD" >"$T/t1" 2>"$T/e1"
    "$RC" convert -q --threads 2 --to "$f" --on-error=skip examples/shop.ndjson "$BAD" >"$T/t2" 2>"$T/e2"
    expect_eq "threads-$f-out" "$T/t1" "$T/t2"
    expect_eq "threads-$f-err" "$T/e1" "$T/e2"
done
for t in 1 2; do # many batches, interleaved tables
    "$RC" convert -q --threads $t --from canal --to native --on-error=skip $D/canal-tables.ndjson $D/canal-tables.ndjson \
        $D/canal-tables.ndjson $D/canal-tables.ndjson $D/canal-tables.ndjson $D/canal-tables.ndjson >"$T/m$t" 2>"$T/me$t"
done
awk -v N=3000 -f bench/transcode/gen-canal.awk >"$T/gen.json" # about 50 batches
for t in 1 2; do
    "$RC" convert -q --threads $t --from canal --to debezium -o debezium.flavor=upstream "$T/gen.json" >"$T/g$t"
done
expect_eq threads-generated "$T/g1" "$T/g2"
[ "$(wc -l <"$T/g2")" = 3600 ] || bad "threads-generated: expected 3600 events, got $(wc -l <"$T/g2")"
expect_eq threads-canal-batches "$T/m1" "$T/m2"
expect_eq threads-canal-batches-err "$T/me1" "$T/me2"
[ "$(wc -l <"$T/m2")" = 72 ] || bad "threads-canal-batches: expected 72 events"
"$RC" convert --threads 3 examples/shop.ndjson >/dev/null 2>"$T/err"
expect_rc threads-bad $? 1
grep -q "threads is 1 or 2, not '3'" "$T/err" && ok || bad "--threads 3: $(cat "$T/err")"
mkfifo "$T/fifo"
(head -2 examples/shop.ndjson; echo '{bad'; exec sleep 20) >"$T/fifo" 2>/dev/null &
writer=$!
timeout 10 "$RC" convert -q <"$T/fifo" >/dev/null 2>"$T/err"
expect_rc open-pipe-bad-line $? 2
kill "$writer" 2>/dev/null
(head -2 examples/shop.ndjson; exec sleep 20) >"$T/fifo" 2>/dev/null &
writer=$!
timeout 10 "$RC" convert -q <"$T/fifo" >"$T/out" 2>/dev/null &
pid=$!
# the two lines must come out while the writer still holds the pipe open: wait until they are
# there (or 8 s passed), then compare
head -2 examples/shop.ndjson >"$T/want"
wait_for 8 cmp -s "$T/want" "$T/out"
expect_eq open-pipe-lines-out "$T/want" "$T/out"
kill "$pid" "$writer" 2>/dev/null
wait "$pid" 2>/dev/null

peer_report cli
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
