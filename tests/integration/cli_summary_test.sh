#!/usr/bin/env bash
# What `rowcast convert` says on stderr, and `rowcast types`: the summary (its numbers add up,
# docs/cli.md "Counting"), --include patterns that matched nothing, the progress line (plain
# lines when stderr is not a terminal, a redrawn line on a terminal, under script(1)), a sink
# that cannot write (/dev/full), and the type table (golden file, at most 100 columns).
# Every expected text is exact; only the clock's numbers (seconds, rates, ETA) are replaced by
# letters first (norm).
# usage: cli_summary_test.sh path/to/rowcast   (run from the repository root)
set -u
RC=${1:?path to rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
# expect NAME FILE: FILE (normalised) must equal stdin
expect() {
    cat >"$T/want"
    norm <"$2" >"$T/got"
    if cmp -s "$T/want" "$T/got"; then ok; else bad "$1"; diff "$T/want" "$T/got" | head -20 >&2; fi
}
# the clock's numbers: elapsed seconds, rates, ETA
norm() {
    LC_ALL=C sed -E -e 's/^rowcast: [0-9]+\.[0-9]{3} s, [0-9]+ events\/s$/rowcast: T s, R events\/s/' \
        -e 's/progress at [0-9]+\.[0-9] s/progress at E s/g' -e 's/[0-9]+ events\/s/R events\/s/g' \
        -e 's/ETA [0-9]+(s|m[0-9]{2}s|h[0-9]{2}m)/ETA X/g'
}
# adds_up NAME FILE: in each summary line of FILE the parts add up to the total
adds_up() {
    awk -v name="$1" '
        function check(total, sum) { if (total != sum) { print "FAIL: " name ": " $0; bad = 1 } }
        /^rowcast: [0-9]+ lines? read: / {
            split($0, w, /[^0-9]+/); check(w[2], w[3] + w[4] + w[5] + (/interrupted/ ? w[6] : 0)) }
        # encoded + filtered + not expressible + transaction markers without a message + rows
        # --on-loss left out
        /^rowcast: [0-9]+ events? decoded: / { split($0, w, /[^0-9]+/)
            check(w[2], w[3] + w[4] + w[5] + (/markers/ ? w[6] : 0) + (/markers.*cannot hold/ ? w[7] : /cannot hold/ ? w[6] : 0)) }
        /^rowcast: [0-9]+ messages? written / { split($0, w, /[^0-9]+/); check(w[2], w[4] + w[5] + w[6] + w[7]) }
        END { exit bad }' "$2" >&2 && ok || fail=$((fail + 1))
}
SHOP=examples/shop.ndjson

# --- --include: a pattern without a dot names databases; one that matched no event is named
"$RC" convert --to oms-canal "$SHOP" >"$T/all" 2>/dev/null
"$RC" convert --to oms-canal --include shop "$SHOP" >"$T/out" 2>"$T/err"
expect_rc include-db $? 0
cmp -s "$T/all" "$T/out" && ok || bad "--include shop is not every table of database shop"
expect include-db-summary "$T/err" <<'EOF'
rowcast: 20 lines read: 20 converted, 0 filtered out, 0 bad
rowcast: 20 events decoded: 17 encoded, 0 filtered out, 1 not expressible in canal, 2 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 17 messages written (16909 bytes): 17 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
"$RC" convert --to oms-canal --include shop1 "$SHOP" >"$T/out" 2>"$T/err"
expect_rc include-none $? 0
[ -s "$T/out" ] && bad "--include shop1 wrote messages" || ok
expect include-none-summary "$T/err" <<'EOF'
rowcast: --include 'shop1' matched no event (as shop1.*: a pattern without a dot names databases)
rowcast: 20 lines read: 3 converted, 17 filtered out, 0 bad
rowcast: 3 events decoded: 0 encoded, 0 filtered out, 1 not expressible in canal, 2 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
"$RC" convert -q --include shop1 "$SHOP" >/dev/null 2>"$T/err"
[ -s "$T/err" ] && bad "--quiet printed: $(cat "$T/err")" || ok

# an event with a schema and no database (PostgreSQL as DataWorks writes it): the schema is DB,
# for the reader's check and for the event's
echo '{"op":"insert","source":{"kind":"postgresql","schema":"s1","table":"a"},"ts_us":1578924258597000,"columns":[{"name":"pk","type":"int4","pk":true}],"after":[1]}' >"$T/pg"
"$RC" convert -q --to oms-dataworks "$T/pg" >"$T/pg.dw"
"$RC" convert --from oms-dataworks --include s1.a "$T/pg.dw" >"$T/out" 2>"$T/err"
expect_rc include-schema $? 0
expect include-schema-summary "$T/err" <<'EOF'
rowcast: 1 line read: 1 converted, 0 filtered out, 0 bad
rowcast: 1 event decoded: 1 encoded, 0 filtered out, 0 not expressible in native
rowcast: 1 message written (235 bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

# --- a mixed input: blank and bad lines, tables --include leaves out (the native reader skips
# them before parsing rows: lines filtered out), DDL dropped (events filtered out), events canal
# has no message for (begin, commit, heartbeat)
{ sed -n 1,10p "$SHOP"; echo; echo '{"op":"insert"'; sed -n 11,20p "$SHOP"; echo 'not json'; } >"$T/mixed"
MIXED=(--to oms-canal --include 'shop.c*' --include shop.orders --include nope --include shop.nothing --drop ddl --on-error=skip)
for th in 1 2; do
    "$RC" convert "${MIXED[@]}" --threads $th "$T/mixed" >"$T/out" 2>"$T/err"
    expect_rc mixed-$th $? 0
    adds_up mixed-$th "$T/err"
    expect mixed-summary-$th "$T/err" <<EOF
rowcast: $T/mixed:12:15 (file offset 13360): syntax error: ',' or '}' expected (unexpected end of input)
rowcast: $T/mixed:23:1 (file offset 22292): syntax error: not JSON: expected true, false or null (found 'n')
rowcast: --include 'nope' matched no event (as nope.*: a pattern without a dot names databases)
rowcast: --include 'shop.nothing' matched no event
rowcast: 22 lines read: 14 converted, 6 filtered out, 2 bad (skipped)
rowcast: 14 events decoded: 9 encoded, 2 filtered out, 1 not expressible in canal, 2 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 9 messages written (10635 bytes): 9 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
done
# the counts are those of the output: 9 lines, 10635 bytes without their newlines
[ "$(wc -l <"$T/out") $(($(wc -c <"$T/out") - 9))" = "9 10635" ] && ok || bad "mixed output: $(wc -l -c <"$T/out")"

# --- the other --on-error modes name what became of the bad lines
BAD=tests/integration/data/bad-input.ndjson
"$RC" convert --on-error=dead-letter:"$T/dead" "$BAD" >/dev/null 2>"$T/err"
expect_rc dead-letter $? 0
tail -4 "$T/err" >"$T/sum"
expect dead-letter-summary "$T/sum" <<'EOF'
rowcast: 9 lines read: 3 converted, 0 filtered out, 6 bad (dead-lettered)
rowcast: 3 events decoded: 3 encoded, 0 filtered out, 0 not expressible in native
rowcast: 3 messages written (549 bytes): 3 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
"$RC" convert "$BAD" >/dev/null 2>"$T/err"
expect_rc stop $? 2
tail -4 "$T/err" >"$T/sum"
expect stop-summary "$T/sum" <<'EOF'
rowcast: 2 lines read: 1 converted, 0 filtered out, 1 bad (stopped there)
rowcast: 1 event decoded: 1 encoded, 0 filtered out, 0 not expressible in native
rowcast: 1 message written (183 bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

# --- a sink that cannot write: written (handed to the sink) is not delivered
"$RC" convert --to oms-canal --sink file:/dev/full "$SHOP" 2>"$T/err"
expect_rc dev-full $? 3
expect dev-full-message "$T/err" <<'EOF'
rowcast: writing /dev/full: No space left on device
rowcast: 17 of 17 messages written were not delivered (17 undelivered, 0 refused)
rowcast: 20 lines read: 20 converted, 0 filtered out, 0 bad
rowcast: 20 events decoded: 17 encoded, 0 filtered out, 1 not expressible in canal, 2 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 17 messages written (16909 bytes): 0 delivered, 0 dead-lettered, 0 refused, 17 undelivered
rowcast: T s, R events/s
EOF
# a sink failing in mid-run (when its 1 MiB buffer fills): that line is interrupted
for i in $(seq 80); do
    cat "$SHOP"
done >"$T/big8"
"$RC" convert --to oms-canal --sink file:/dev/full "$T/big8" 2>"$T/err"
expect_rc dev-full-mid-run $? 3
adds_up dev-full-mid-run "$T/err"
n=$(sed -n 's/^rowcast: .*big8:\([0-9]*\): writing \/dev\/full: No space left on device$/\1/p' "$T/err")
grep -q "^rowcast: $n lines read: $((n - 1)) converted, 0 filtered out, 0 bad, 1 interrupted$" "$T/err" && ok ||
    bad "dev-full-mid-run: $(cat "$T/err")"
"$RC" convert -q --to oms-canal "$SHOP" >/dev/full 2>"$T/err"
expect_rc stdout-full $? 3
expect stdout-full-message "$T/err" <<'EOF'
rowcast: writing output: No space left on device
rowcast: 17 of 17 messages written were not delivered (17 undelivered, 0 refused)
EOF

# --- progress, stderr not a terminal: --progress=0 writes a line after every batch (64 lines)
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$SHOP"; done >"$T/big"
"$RC" convert --progress=0 --to oms-canal "$T/big" >/dev/null 2>"$T/err"
expect_rc progress $? 0
expect progress-lines "$T/err" <<'EOF'
rowcast: progress at E s: 64 lines, 73.3 kB of 222.8 kB read (32%), 64 events, R events/s, 55 messages written, ETA X
rowcast: progress at E s: 128 lines, 144.2 kB of 222.8 kB read (64%), 128 events, R events/s, 109 messages written, ETA X
rowcast: progress at E s: 192 lines, 217.3 kB of 222.8 kB read (97%), 192 events, R events/s, 163 messages written, ETA X
rowcast: progress at E s: 200 lines, 222.8 kB of 222.8 kB read (100%), 200 events, R events/s, 170 messages written, ETA X
rowcast: 200 lines read: 200 converted, 0 filtered out, 0 bad
rowcast: 200 events decoded: 170 encoded, 0 filtered out, 10 not expressible in canal, 20 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 170 messages written (169090 bytes): 170 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# from a pipe the size is unknown: no total, no ETA
cat "$T/big" | "$RC" convert -q --progress=0 >/dev/null 2>"$T/err"
grep -Eq '^rowcast: progress at [0-9]+\.[0-9] s: 200 lines, 222\.8 kB read, 200 events, [0-9]+ events/s, 200 messages written$' "$T/err" &&
    ok || bad "progress from a pipe: $(cat "$T/err")"
# an interval: none is due in a run this short; a bad one is a usage error
"$RC" convert -q --progress=1m "$T/big" >/dev/null 2>"$T/err"
expect_rc progress-1m $? 0
[ -s "$T/err" ] && bad "--progress=1m printed: $(cat "$T/err")" || ok
"$RC" convert --progress=5x "$SHOP" >/dev/null 2>"$T/err"
expect_rc progress-bad $? 1
expect progress-bad-message "$T/err" <<'EOF'
rowcast convert: --progress=5x: the interval is a whole number with ms, s, m or h (10s, 500ms), or 0 for a line after every batch of lines
(see rowcast help convert)
EOF

# --- progress on a terminal (script(1) gives stderr a pty): redrawn with \r, cleared before any
# other message (here a bad line) and before the summary; the pty turns "\n" into "\r\n"
{ head -100 "$T/big"; echo 'not json'; tail -100 "$T/big"; } >"$T/tty-in"
script -qec "'$RC' convert --progress=0 --to oms-canal --on-error=skip '$T/tty-in' >/dev/null" /dev/null </dev/null >"$T/tty"
LC_ALL=C sed -e 's/\x1b\[K/<CLR>/g' -e 's/\r$//' -e 's/\r/<CR>/g' "$T/tty" >"$T/tty.txt"
expect progress-tty "$T/tty.txt" <<EOF
<CR><CLR>rowcast: 73.3 kB of 222.8 kB read (32%), 64 events, R events/s, ETA X<CR><CLR>rowcast: $T/tty-in:101:1 (file offset 111380): syntax error: not JSON: expected true, false or null (found 'n')
<CR><CLR>rowcast: 144.0 kB of 222.8 kB read (64%), 127 events, R events/s, ETA X<CR><CLR>rowcast: 217.1 kB of 222.8 kB read (97%), 191 events, R events/s, ETA X<CR><CLR>rowcast: 222.8 kB of 222.8 kB read (100%), 200 events, R events/s, ETA X<CR><CLR>rowcast: 201 lines read: 200 converted, 0 filtered out, 1 bad (skipped)
rowcast: 200 events decoded: 170 encoded, 0 filtered out, 10 not expressible in canal, 20 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 170 messages written (169090 bytes): 170 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

# by default (every 1 s, hence an input that takes longer to come): a progress line on the
# terminal, but none when the messages go to the same terminal, where they would run into it
# the second half comes 1.2 s after the first half's messages were written (so after rowcast's
# clock started: under the sanitizers its start-up alone can take longer than a fixed pause)
# (slow WAIT_FOR: the second half after the first half's messages are in file WAIT_FOR)
slow() { echo "{ cat '$SHOP'; while ! grep -qs '{' '$1'; do sleep 0.02; done; sleep 1.2; cat '$SHOP'; } | '$RC' convert --to oms-canal"; }
script -qec "$(slow "$T/slow.out") >'$T/slow.out'" /dev/null </dev/null >"$T/tty"
grep -q "^$(printf '\r\033')\[Krowcast: [0-9.]* kB read, [0-9]* events, [0-9]* events/s" "$T/tty" && ok || bad "no progress line on a terminal: $(cat -v "$T/tty")"
script -qec "$(slow "$T/tty")" /dev/null </dev/null >"$T/tty"
grep -q "$(printf '\033')" "$T/tty" && bad "a progress line among the messages on a terminal: $(cat -v "$T/tty")" || ok
[ "$(grep -c '^{' "$T/tty")" = 34 ] && ok || bad "messages on a terminal: $(grep -c '^{' "$T/tty") of 34"

# --- rowcast types: named columns and a legend, at most 100 columns wide
"$RC" types >"$T/types"
expect_rc types $? 0
cmp -s tests/integration/data/types.expected "$T/types" && ok || { bad "rowcast types"; diff tests/integration/data/types.expected "$T/types" | head -20 >&2; }
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/types")
[ "$w" -le 100 ] && ok || bad "rowcast types is $w columns wide"
"$RC" types postgresql >"$T/types-pg"
sed -n '/^postgresql: /,$p' "$T/types" >"$T/want"
cmp -s "$T/want" "$T/types-pg" && ok || bad "rowcast types postgresql is not the postgresql part of rowcast types"

# --- maxwell: a row is held until the next event; the COMMIT that releases the last row of its
# transaction ("commit":true) is a marker without a message of its own, not an encoded event
"$RC" convert --from maxwell --to maxwell -o maxwell.output_xoffset=true tests/integration/data/maxwell-tx.ndjson >"$T/mx" 2>"$T/mx.err"
expect_rc maxwell $? 0
cmp -s tests/integration/data/maxwell-tx.ndjson "$T/mx" && ok || bad "maxwell: the transactions do not come back as they were"
expect maxwell-summary "$T/mx.err" <<EOF
rowcast: 3 lines read: 3 converted, 0 filtered out, 0 bad
rowcast: 5 events decoded: 3 encoded, 0 filtered out, 0 not expressible in maxwell, 2 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 3 messages written ($(($(wc -c <"$T/mx") - $(wc -l <"$T/mx"))) bytes): 3 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up maxwell "$T/mx.err"

# --- --on-loss: rows with a value the format cannot hold (OMS Debezium's milliseconds, upstream
# Debezium's int64): stop (the default) exits 2 before the row, its checkpoint before it too;
# skip and dead-letter count them; cut writes OMS's milliseconds and counts them per column
LOSS=tests/golden/stderr/loss.ndjson
"$RC" convert --to oms-debezium --checkpoint "$T/loss.ck" "$LOSS" >"$T/out" 2>"$T/err"
expect_rc loss-stop $? 2
[ "$(wc -l <"$T/out")" = 1 ] && ok || bad "loss-stop: $(wc -l <"$T/out") messages, expected the one before the row"
expect loss-stop-summary "$T/err" <<EOF
rowcast: $LOSS:2: range error: table shop.visits: column "at" (datetime(6)): the value's fraction of a second .123456000 is finer than the milliseconds Debezium writes for it; --to debezium (upstream Debezium) writes datetime(4-6) in microseconds, --on-loss=cut OMS's milliseconds; the row is not written, and the run stops here (--on-loss=stop)
rowcast: 2 lines read: 1 converted, 0 filtered out, 0 bad, 1 interrupted
rowcast: 2 events decoded: 1 encoded, 0 filtered out, 0 not expressible in debezium, 1 row with a value it cannot hold (stopped there: --on-loss)
rowcast: 1 message written ($(($(wc -c <"$T/out") - 1)) bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up loss-stop "$T/err"
grep -qx 'line 1' "$T/loss.ck" && ok || bad "loss-stop: the checkpoint is not at line 1: $(cat "$T/loss.ck")"
# resumed with cut: from the refused row on, its value in OMS's milliseconds
"$RC" convert --to oms-debezium --on-loss=cut --checkpoint "$T/loss.ck" "$LOSS" >"$T/out" 2>"$T/err"
expect_rc loss-cut $? 0
"$RC" convert -q --to oms-debezium --on-loss=cut "$LOSS" | tail -n +2 >"$T/want"
expect_eq loss-cut-resumed "$T/want" "$T/out"
grep -q '"at":1714557600123}' "$T/out" && ok || bad "loss-cut: .123456 is not 1714557600123 ms"
expect loss-cut-summary "$T/err" <<EOF
rowcast: resuming $LOSS at line 2, byte 240 (checkpoint $T/loss.ck); stdout is not cut back: what the stopped run wrote after that is written again
rowcast: 5 lines read: 5 converted, 0 filtered out, 0 bad
rowcast: 5 events decoded: 5 encoded, 0 filtered out, 0 not expressible in debezium
rowcast: cut (--on-loss=cut): shop.visits.at 2 rows (to milliseconds)
rowcast: 5 messages written ($(($(wc -c <"$T/out") - 5)) bytes): 5 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up loss-cut "$T/err"
# upstream Debezium's bigint.unsigned.handling.mode=long: cut wraps a BIGINT UNSIGNED past int64
# as the connector does (18446744073709551615 is -1, BinlogUnsignedIntegerIT's assertBigintUnsignedLong)
"$RC" convert --to debezium -o debezium.flavor=upstream --on-loss=cut "$LOSS" >"$T/out" 2>"$T/err"
expect_rc loss-cut-wrap $? 0
grep -q '"after":{"id":-1,' "$T/out" && ok || bad "loss-cut-wrap: 18446744073709551615 is not -1"
expect loss-cut-wrap-summary "$T/err" <<EOF
rowcast: 6 lines read: 6 converted, 0 filtered out, 0 bad
rowcast: 6 events decoded: 6 encoded, 0 filtered out, 0 not expressible in debezium
rowcast: cut (--on-loss=cut): shop.counters.id 1 row (to an int64 wrapped as Debezium does)
rowcast: 6 messages written ($(($(wc -c <"$T/out") - 6)) bytes): 6 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up loss-cut-wrap "$T/err"
"$RC" convert --to oms-debezium --on-loss=skip "$LOSS" >"$T/out" 2>"$T/err"
expect_rc loss-skip $? 0
grep -v '^rowcast: tests' "$T/err" >"$T/err2"
expect loss-skip-summary "$T/err2" <<EOF
rowcast: 6 lines read: 6 converted, 0 filtered out, 0 bad
rowcast: 6 events decoded: 4 encoded, 0 filtered out, 0 not expressible in debezium, 2 rows with a value it cannot hold (skipped: --on-loss)
rowcast: 4 messages written ($(($(wc -c <"$T/out") - 4)) bytes): 4 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up loss-skip "$T/err"
# dead-letter: the refused rows as native lines, which convert again with the option that keeps
# them; --on-loss=dead-letter alone takes --on-error's file
"$RC" convert --to debezium -o debezium.flavor=upstream --on-error=dead-letter:"$T/loss.dead" --on-loss=dead-letter "$LOSS" >"$T/out" 2>"$T/err"
expect_rc loss-dead-letter $? 0
sed -n 3p "$LOSS" >"$T/want"
expect_eq loss-dead-letter-file "$T/want" "$T/loss.dead"
expect loss-dead-letter-summary "$T/err" <<EOF
rowcast: $LOSS:3: range error: table shop.counters: column "id": 18446744073709551615 does not fit an int64 (bigint.unsigned.handling.mode=long; -o debezium.bigint.unsigned.handling.mode=precise keeps it, --on-loss=cut wraps it as Debezium does); the row is not written: it goes to the dead-letter file as a native line (--on-loss=dead-letter)
rowcast: 6 lines read: 6 converted, 0 filtered out, 0 bad
rowcast: 6 events decoded: 5 encoded, 0 filtered out, 0 not expressible in debezium, 1 row with a value it cannot hold (dead-lettered: --on-loss)
rowcast: 5 messages written ($(($(wc -c <"$T/out") - 5)) bytes): 5 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
adds_up loss-dead-letter "$T/err"
"$RC" convert -q --to debezium -o debezium.flavor=upstream -o debezium.bigint.unsigned.handling.mode=precise "$T/loss.dead" >"$T/out"
expect_rc loss-dead-letter-replay $? 0

echo "cli summary: $pass passed, $fail failed"
[ "$fail" = 0 ]
