#!/usr/bin/env bash
# Issue 24 (N1): MariaDB tables that start to match --include (docs/sources/mysql.md, "Tables
# that start to match --include"). One server, `rowcast capture --checkpoint --snapshot
# incremental`; bf_writer keeps changing shop.b (20,000 rows) all along.
#   run 1: --include shop.a (snapshotted, completes); its checkpoint's state says
#     `captured shop.a`. While it runs (B2): CREATE TABLE shop.c (matched by --include shop.c*)
#     and rows inserted right after it: every one arrives once, as an insert, no snapshot; a table
#     shop.x created out of --include, filled, then RENAMEd to shop.c2: its snapshot is queued and
#     its rows arrive once, as reads.
#   run 2: --include widened to shop.b too, restarted with the same checkpoint: shop.b (not in
#     captured) is snapshotted (said), its rows read once each; the replay of what came for
#     shop.b from run 2 on equals SELECT and the DBLog check passes; the checkpoint's captured
#     line then holds shop.b.
#   A checkpoint without a captured line (an older run's): said once, no snapshot.
# usage: my_incsnap_newtable_test.sh path/to/rowcast path/to/bf_writer
N=20000
CHUNK=2000
TABLE=shop.b
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER from the arguments; W, URL
RUN_OPTS=(--checkpoint "$W/ck" --server-id 14 --to native --snapshot incremental --include 'shop.a' --include 'shop.c*')
load_table pk
"$WRITER" "$URL" --table shop.a --key pk --rows 5000 --count 0 --seed 3 2>>"$W/writer.err" || bad "bf_writer could not load shop.a"
start_writer pk
# the read rows of TABLE T in stream files, one key a line, and how many keys come twice
reads_of() { cat "${@:2}" | awk -f "$TOOLS/native_events.awk" -v t="$1" -e '{ ne_parse($0, t) }
    NE_OP == "read" && NE_TABLE == t && NE_NA { print ne_key("a") }'; }
twice() { reads_of "$@" | sort | uniq -d | wc -l; }

# run 1: shop.a; shop.c created and filled while it runs
start_run
wait_for 30 grep -qs 'incremental snapshot of shop.a completed' "$W/err1" || bad "run 1: shop.a not snapshotted in 30 s"
wait_for 10 grep -qs '^captured shop.a$' "$W/ck" && ok || bad "run 1: the checkpoint has no 'captured shop.a': $(grep captured "$W/ck")"
my_sql shop -e 'CREATE TABLE c (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO c VALUES (1, 1), (2, 2), (3, 3);
    INSERT INTO c SELECT seq, seq FROM seq_4_to_3000'
my_sql shop -e 'CREATE TABLE x (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO x SELECT seq, seq FROM seq_1_to_4000;
    RENAME TABLE x TO c2; UPDATE c2 SET v = v + 100000 WHERE id % 7 = 0; DELETE FROM c2 WHERE id % 11 = 0;
    INSERT INTO c2 VALUES (5000, 5000); UPDATE c SET v = v + 100000 WHERE id % 5 = 0'
wait_for 30 grep -qs 'incremental snapshot of shop.c2 completed' "$W/err1" && ok || bad "run 1: shop.c2 (renamed into --include) not snapshotted"
wait_for 10 grep -qs '^captured shop.a shop.c shop.c2$' "$W/ck" && ok || bad "run 1: the checkpoint's captured line: $(grep captured "$W/ck")"
kill -TERM "$CAP"
wait "$CAP"
expect_rc "run 1 (SIGTERM: 143)" $? 143
c_ins=$(grep -c '"table":"c",.*"op":"insert"\|"op":"insert".*"table":"c"' "$W/out1")
[ "$(reads_of shop.c "$W/out1" | wc -l)" = 0 ] && [ "$c_ins" = 3000 ] && ok || bad "shop.c: $c_ins inserts (3000 expected) and $(reads_of shop.c "$W/out1" | wc -l) reads (none expected)"
[ "$(reads_of shop.c2 "$W/out1" | sort -u | wc -l)" -gt 3000 ] && [ "$(twice shop.c2 "$W/out1")" = 0 ] && ok ||
    bad "shop.c2: $(reads_of shop.c2 "$W/out1" | sort -u | wc -l) keys read (4000 less the ones changed in its windows), $(twice shop.c2 "$W/out1") twice"
step "run 1: shop.a, shop.c (created), shop.c2 (renamed in)"

# run 2: --include widened to shop.b
RUN_OPTS+=(--include 'shop.b')
start_run
wait_for 20 grep -qs 'incremental snapshot of shop.b started (newly matched by --include' "$W/err2" && ok ||
    bad "run 2: shop.b not queued: $(cat "$W/err2")"
wait_for 60 grep -qs 'incremental snapshot of shop.b completed' "$W/err2" || bad "run 2: shop.b not snapshotted in 60 s"
grep -q 'incremental snapshot of shop.\(a\|c\|c2\) started' "$W/err2" && bad "run 2 snapshotted a table captured already" || ok
wait_for 10 grep -qs '^captured shop.a shop.b shop.c shop.c2$' "$W/ck" && ok || bad "run 2: the checkpoint's captured line: $(grep captured "$W/ck")"
[ "$(twice shop.b "$W/out2")" = 0 ] && ok || bad "run 2: $(twice shop.b "$W/out2") keys of shop.b read twice"
step "run 2: shop.b snapshotted"
finish_runs
grep -q 'started' "$W/err3" && bad "run 3 snapshotted again" || ok
cat "$W"/out[2-3] | grep -v '"snapshot":"incremental:' >"$W/all"
"$TOOLS/check_stream.sh" "$URL" shop.b "$W/all" --out "$W" 2>"$W/check.err"
expect_rc "shop.b: replay of runs 2 and 3 equal to SELECT, DBLog check" $? 0
cat "$W"/out[1-3] | grep -v '"snapshot":"incremental:' >"$W/all"
for t in shop.c shop.c2; do
    "$TOOLS/check_stream.sh" "$URL" $t "$W/all" --out "$W" 2>>"$W/check.err"
    expect_rc "$t: replay of runs 1 to 3 equal to SELECT, DBLog check" $? 0
done
cat "$W/check.err"
# a checkpoint without a captured line: said, nothing snapshotted
# (an older run's: version 1, no snapshot section)
awk '/^snapshot [0-9]+$/ { exit } NR == 1 { $0 = "rowcast-mysql-checkpoint 1" } { print }' "$W/ck" >"$W/ck.old" && mv "$W/ck.old" "$W/ck"
run=4
"$RC" capture "$URL" "${RUN_OPTS[@]}" --include 'shop.x*' --until caught-up >"$W/out4" 2>"$W/err4"
expect_rc "run 4 (--until caught-up)" $? 0
[ "$(grep -c 'holds no list of the tables it captured' "$W/err4")" = 1 ] && ! grep -q started "$W/err4" && ok ||
    bad "run 4 (no captured line): $(cat "$W/err4")"
step "done"
[ "$fail" = 0 ] && echo "my_incsnap_newtable: $pass checks passed" || echo "my_incsnap_newtable: $fail of $((pass + fail)) checks failed"
exit $((fail > 0))
