#!/usr/bin/env bash
# --config FILE, --check and `rowcast config check` (docs/config.md), with convert (no server):
# - a file equal to a command line gives byte-identical output and summary: each
#   tests/integration/config/same-*.conf against its same-*.args (${SRV} from the environment);
# - the command line wins: a flag's value, a repeatable flag's whole list, an -o key (the file's
#   other -o keys kept), --no-tombstones over tombstones = true, the input FILEs;
# - `config check` of each bad file of tests/golden/stderr/config-*.args (whose run's messages
#   golden_stderr compares) says exactly the run's messages, with exit status 2;
# - `config check` of good convert and capture files says "FILE: ok" without reading input or
#   connecting (the capture's URL and Kafka cluster are closed ports); @FILE and env:NAME
#   secrets are read (a missing one is an error), and neither their values nor a URL's
#   password appear in any output;
# - no flag's name has a dot and every -o key has one (the rule that tells them apart).
# usage: config_file_test.sh ROWCAST   (from the repository root)
set -u
RC=${1:?rowcast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
D=tests/integration/config
export SRV=shop1
unset ROWCAST_CONFIG_TEST_UNSET

# run NAME [ARGS...]: rowcast ARGS, its stdout, stderr and status in $T/NAME.{out,err,rc}
run() {
    local name=$1
    shift
    "$RC" "$@" >"$T/$name.out" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
}
# same NAME: the runs NAME-file and NAME-line gave the same bytes and status
same() {
    expect_eq "$1: stdout" "$T/$1-line.out" "$T/$1-file.out"
    expect_eq "$1: stderr" "$T/$1-line.err" "$T/$1-file.err"
    expect_eq "$1: status" "$T/$1-line.rc" "$T/$1-file.rc"
}

# --- a file equal to a command line: the same output, byte for byte
for conf in "$D"/same-*.conf; do
    c=$(basename "${conf%.conf}")
    mapfile -t args <"${conf%.conf}.args"
    run "$c-file" convert --config "$conf"
    run "$c-line" convert "${args[@]}"
    same "$c"
    if [ -s "$T/$c-file.out" ] && [ "$(cat "$T/$c-file.rc")" = 0 ]; then ok; else bad "$c: no output, or a failed run"; fi
done

# --- the command line wins
base=(-q --to debezium -o debezium.bigint.unsigned.handling.mode=precise)
cat >"$T/over.conf" <<'EOF'
to = canal
debezium.bigint.unsigned.handling.mode = precise
debezium.server = from-the-file
include = shop.orders
include = shop.products
tombstones = true
quiet = true
input = examples/shop.ndjson
EOF
run to-file convert --config "$T/over.conf" --to debezium --include shop.customers
run to-line convert "${base[@]}" -o debezium.server=from-the-file --include shop.customers --tombstones examples/shop.ndjson
same to
run opt-file convert --config "$T/over.conf" --to debezium -o debezium.server=from-the-line
run opt-line convert "${base[@]}" -o debezium.server=from-the-line --include shop.orders --include shop.products --tombstones examples/shop.ndjson
same opt
grep -q from-the-line "$T/opt-file.out" && ! grep -q from-the-file "$T/opt-file.out" && ok || bad "opt: the command line's -o key did not win"
run tomb-file convert --config "$T/over.conf" --to debezium --no-tombstones
run tomb-line convert "${base[@]}" -o debezium.server=from-the-file --include shop.orders --include shop.products --no-tombstones examples/shop.ndjson
same tomb
grep -qx null "$T/opt-file.out" && ! grep -qx null "$T/tomb-file.out" && ok || bad "tomb: --no-tombstones did not win over tombstones = true"
head -3 examples/shop.ndjson >"$T/three.ndjson"
run input-file convert --config "$T/over.conf" --to debezium "$T/three.ndjson"
run input-line convert "${base[@]}" -o debezium.server=from-the-file --include shop.orders --include shop.products --tombstones "$T/three.ndjson"
same input

# --- config check: the run's messages for a bad file, exit 2
for a in tests/golden/stderr/config-*.args; do
    mapfile -t args <"$a"
    [ "${#args[@]}" = 2 ] && [ "${args[0]}" = --config ] || continue
    c=$(basename "${a%.args}")
    run "$c" config check "${args[1]}"
    expect_eq "$c: config check's messages" "${a%.args}.err" "$T/$c.err"
    expect_rc "$c: config check" "$(cat "$T/$c.rc")" 2
done

# --- config check of good files: nothing read, nothing connected to; secrets read, never shown
printf 'kafka-secret-in-a-file\n' >"$T/kafka.pw"
export ROWCAST_TEST_TOKEN=token-in-the-environment
cat >"$T/capture.conf" <<EOF
url = postgres://rowcast@127.0.0.1:9/shop
slot = rowcast_shop
include = public.orders
include = public.customers
snapshot = incremental
to = debezium
postgres.signal.table = public.rowcast_signal
postgres.snapshot.chunk.rows = 1000
sink = kafka://127.0.0.1:9/{server}.{collection}
kafka.transaction.ms = 500
kafka.sasl.password = @$T/kafka.pw
kafka.ssl.key.password = env:ROWCAST_TEST_TOKEN
EOF
run capture-ok config check "$T/capture.conf"
printf '%s: ok\n' "$T/capture.conf" >"$T/want"
expect_eq capture-ok "$T/want" "$T/capture-ok.out"
expect_rc capture-ok "$(cat "$T/capture-ok.rc")" 0
[ -s "$T/capture-ok.err" ] && bad "capture-ok: stderr: $(head -3 "$T/capture-ok.err")" || ok
run capture-check capture --config "$T/capture.conf" --check
expect_eq capture-check "$T/want" "$T/capture-check.out"
# the source's own checks run: a MySQL URL refuses the file's slot (line 2), exit 2
run capture-mysql capture --config "$T/capture.conf" mysql://rowcast@127.0.0.1:9 --check
printf 'rowcast capture: %s:2: --slot is PostgreSQL'"'"'s: MySQL and MariaDB have no slots or publications (the position is kept in --checkpoint PATH)\n(see rowcast help capture)\n' \
    "$T/capture.conf" >"$T/want"
expect_eq capture-mysql "$T/want" "$T/capture-mysql.err"
expect_rc capture-mysql "$(cat "$T/capture-mysql.rc")" 2
# a missing secret file is the -o message with the line
rm "$T/kafka.pw"
run secret-missing config check "$T/capture.conf"
printf 'rowcast capture: %s:11: -o kafka.sasl.password=@%s: cannot read %s: No such file or directory\n(see rowcast help capture; the file'"'"'s format: docs/config.md)\n' \
    "$T/capture.conf" "$T/kafka.pw" "$T/kafka.pw" >"$T/want"
expect_eq secret-missing "$T/want" "$T/secret-missing.err"
# a second URL (its password with it) is not shown: url takes one value
printf 'url = postgres://u:pw-in-url@127.0.0.1:9/a\nurl = postgres://u:pw-in-url@127.0.0.1:9/b\n' >"$T/two-urls.conf"
run two-urls config check "$T/two-urls.conf"
printf 'rowcast capture: %s:2: '"'"'url'"'"' is given twice (line 1 first); it takes one value\n(see rowcast help capture; the file'"'"'s format: docs/config.md)\n' \
    "$T/two-urls.conf" >"$T/want"
expect_eq two-urls "$T/want" "$T/two-urls.err"
if grep -l -e kafka-secret-in-a-file -e token-in-the-environment -e pw-in-url "$T"/*.out "$T"/*.err; then bad "a secret's value was printed"; else ok; fi
# convert: --check reads no input (a FIFO, which opening for reading would block on; a missing
# input is refused: config_values_test.sh)
mkfifo "$T/fifo-input"
printf 'to = maxwell\ninput = %s/fifo-input\n' "$T" >"$T/convert.conf"
run convert-ok config check "$T/convert.conf"
printf '%s: ok\n' "$T/convert.conf" >"$T/want"
expect_eq convert-ok "$T/want" "$T/convert-ok.out"
run line-ok convert --to maxwell --check
printf 'the command line: ok\n' >"$T/want"
expect_eq line-ok "$T/want" "$T/line-ok.out"
# a format refused at setup: exit 2 under check (1 when run)
run check-format convert --config "$T/convert.conf" --to debezum --check
expect_rc check-format "$(cat "$T/check-format.rc")" 2
grep -q "unknown format 'debezum': did you mean 'debezium'?" "$T/check-format.err" && ok || bad "check-format: $(cat "$T/check-format.err")"
run config-usage config chek x.conf
expect_rc config-usage "$(cat "$T/config-usage.rc")" 1

# --- a key with a dot is an -o option, one without a flag: no flag has a dot, every -o key one
for cmd in convert capture; do
    "$RC" help $cmd | grep -oE '^  --?[a-z][a-z0-9.-]*' | grep -F . && bad "$cmd: a flag's name has a dot" || ok
done
"$RC" formats --options | grep -oE '^    -o [^=]*' | grep -v '\.' && bad "an -o key without a dot" || ok

echo "config_file: $pass passed, $fail failed"
[ "$fail" = 0 ]
