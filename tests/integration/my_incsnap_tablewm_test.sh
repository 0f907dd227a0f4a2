#!/usr/bin/env bash
# Issue 24: the table watermark (Debezium's way) of MySQL/MariaDB incremental snapshots
# (docs/sources/mysql.md, "Incremental snapshots"), on MariaDB 10.11 forced with
# -o mysql.snapshot.watermark=table (what auto picks on MySQL, which is not packaged here).
# Each chunk is framed by two rows INSERTed into the signal table; changes the stream reads
# between them drop their keys from the chunk. bf_writer loads shop.t (PRIMARY KEY (id, k2),
# 30,000 rows) and shop.tu (no primary key, UNIQUE NOT NULL id, 5,000 rows) and keeps inserting,
# updating and deleting keys of both (half its changes on the keys being read) while
# `rowcast capture --snapshot incremental` reads them in 2,000-row chunks. Run 1 is killed with
# SIGKILL once its third window opened (its low mark row written); run 2 resumes after the
# checkpoint's key (rows read twice: at most one chunk) and completes both tables. Over the
# concatenated outputs: the replay equals SELECT and DBLog holds event by event for both tables;
# the completed lines report rows "dropped by the window" (at least once: the window works);
# the watermark rows are in the signal table, never in the output. Also: the table watermark
# without a signal table is refused by name with the fix.
# usage: my_incsnap_tablewm_test.sh path/to/rowcast path/to/bf_writer
N=30000
CHUNK=2000
TABLE=shop.t
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER from the arguments; W, URL
WPID2=
trap 'for p in $WPID $WPID2 $CAP; do kill -KILL "$p" 2>/dev/null; done; my_test_stop' EXIT
SIG=shop.rowcast_signal
RUN_OPTS=(--include 'shop.t*' --checkpoint "$W/ck" --server-id 14 --to native --snapshot incremental
    -o mysql.signal.table=$SIG -o mysql.snapshot.watermark=table)

# refused without the signal table, before connecting: the option and the fix named
"$RC" capture "$URL" --include 'shop.t' --to native --snapshot incremental -o mysql.snapshot.watermark=table >"$W/out.r" 2>"$W/err.r"
expect_rc "table watermark without a signal table" $? 1
grep -q 'mysql.snapshot.watermark=table INSERTs two rows a chunk into the signal table: give it with -o mysql.signal.table=DATABASE.TABLE' "$W/err.r" &&
    ok || bad "no refusal naming the signal table: $(cat "$W/err.r")"
"$RC" capture "$URL" --include 'shop.t' --to native -o mysql.snapshot.watermark=row >"$W/out.r" 2>"$W/err.r"
expect_rc "-o mysql.snapshot.watermark=row" $? 1
grep -q 'mysql.snapshot.watermark must be one of auto|point|table' "$W/err.r" && ok || bad "a bad watermark value: $(cat "$W/err.r")"

my_sql shop -e "CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB"
load_table composite
"$WRITER" "$URL" --table shop.tu --key unique --rows 5000 --count 0 --seed 3 2>>"$W/writer.err" ||
    { bad "bf_writer could not load shop.tu: $(tail -1 "$W/writer.err")"; exit 1; }
# a user without INSERT on the signal table: the table's snapshot stops at its first chunk, the
# grant named; the capture goes on (no table left: --until caught-up ends it)
my_sql -e "CREATE USER ro@'localhost' IDENTIFIED BY 'ro'; CREATE USER ro@'127.0.0.1' IDENTIFIED BY 'ro';
    GRANT SELECT, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO ro@'localhost'; GRANT SELECT, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO ro@'127.0.0.1'"
timeout -s KILL 30 "$RC" capture "${URL/root@/ro:ro@}" --include 'shop.t' --to native --snapshot incremental --until caught-up --server-id 15 \
    -o mysql.signal.table=$SIG -o mysql.snapshot.watermark=table >"$W/out.ro" 2>"$W/err.ro"
expect_rc "without INSERT on the signal table (--until caught-up)" $? 0
grep -q "warning: incremental snapshot of shop.t: its low watermark row not written into $SIG: .*; the table watermark needs INSERT on it (GRANT INSERT ON $SIG TO the capture's user), or -o mysql.snapshot.watermark=point" "$W/err.ro" &&
    ok || bad "no INSERT privilege: not said with the grant: $(cat "$W/err.ro")"
grep -q '"snapshot":"incremental"' "$W/out.ro" && bad "rows read without the low watermark" || ok
start_writer composite
"$WRITER" "$URL" --table shop.tu --key unique --rate 600 --bias "1:5000:60" --seed 4 --batch 2 2>>"$W/writer.err" &
WPID2=$!

# run 1: killed once its third window opened (the low mark row of its third chunk written)
start_run
wait_for 30 grep -qs 'incremental snapshot of shop.t started (--snapshot incremental, ~[0-9]* rows, by primary key)' "$W/err1" && ok ||
    bad "run 1: no started line: $(cat "$W/err1")"
wait_for 40 seen 1 "window open" 3 || bad "run 1: no third window opened in 40 s"
kill9 "third window open"
[ -n "${LAST[1]}" ] && ok || bad "run 1: the checkpoint holds no last key of shop.t"
stop_if_failed
# run 2: resumes at the next chunk, completes both tables
start_run
resumed 2
wait_for 60 grep -q "incremental snapshot of shop.tu completed" "$W/err2" || bad "run 2: shop.tu not completed in 60 s"
after 2
step "completed"
grep -q 'incremental snapshot of shop.tu started (--snapshot incremental, ~[0-9]* rows, by unique index)' "$W/err1" && ok ||
    bad "shop.tu not read by its unique index: $(grep 'shop.tu' "$W/err1")"
stop_if_failed
kill -TERM "$WPID2"
wait "$WPID2" || bad "the shop.tu writer ended with status $?"
WPID2=
finish_runs

# the window worked: rows dropped because the stream changed their key between the marks
grep -h 'dropped by the window' "$W"/err[1-9]
dropped=$(cat "$W"/err[1-9] | sed -n 's/.*incremental snapshot of shop\.tu* completed: [0-9]* rows, \([0-9]*\) dropped by the window.*/\1/p' |
    awk '{ s += $1 } END { print s + 0 }')
[ "$dropped" -gt 0 ] && ok || bad "no row dropped by the window over the run (the writer changes keys being read)"
# the watermark rows: in the signal table (Debezium's names), never in the output, never signals
opened=$(my_sql -N shop -e "SELECT COUNT(*) FROM rowcast_signal WHERE type = 'snapshot-window-open' AND id LIKE 'rowcast-wm-%-open'")
closed=$(my_sql -N shop -e "SELECT COUNT(*) FROM rowcast_signal WHERE type = 'snapshot-window-close' AND data LIKE '{\"data-collection\":\"shop.t%\",\"chunk\":%}'")
echo "watermark rows: $opened open, $closed close"
[ "${opened:-0}" -ge 15 ] && [ "${closed:-0}" -ge 15 ] && ok || bad "watermark rows in $SIG: $opened open, $closed close"
grep -q 'rowcast_signal' "$W"/out[1-9] && bad "a watermark row reached the sink" || ok
grep -q 'warning: signal' "$W"/err[1-9] && bad "a watermark row was read as a signal: $(grep 'warning: signal' "$W"/err[1-9])" || ok
# without --include (every table): the signal table is still rowcast's, neither snapshotted nor
# streamed (it held the marks of the runs above, and gets this run's)
rm -f "$W/ck.all"
"$RC" capture "$URL" --checkpoint "$W/ck.all" --server-id 15 --to native --snapshot incremental --until caught-up \
    -o mysql.signal.table=$SIG -o mysql.snapshot.watermark=table -o mysql.snapshot.chunk.rows=20000 >"$W/out.all" 2>"$W/err.all"
expect_rc "no --include: the run" $? 0
grep -q '"table":"rowcast_signal"' "$W/out.all" && bad "no --include: the signal table's rows reached the sink" || ok
grep -q 'incremental snapshot of shop.rowcast_signal' "$W/err.all" && bad "no --include: the signal table was snapshotted" || ok
grep -q 'incremental snapshot of shop.t completed' "$W/err.all" && ok || bad "no --include: shop.t not snapshotted: $(cat "$W/err.all")"
# shop.tu: replay and DBLog by its unique key (check_runs below does shop.t)
cat "$W"/out[1-9] | grep -v '"snapshot":"incremental:' >"$W/all.tu"
"$TOOLS/check_stream.sh" "$URL" shop.tu "$W/all.tu" --keys id --dblog-keys id --out "$W" 2>"$W/check.tu.err"
expect_rc "shop.tu: replay equal to SELECT, DBLog check" $? 0
cat "$W/check.tu.err"
check_runs my_incsnap_tablewm
