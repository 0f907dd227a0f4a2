#!/usr/bin/env bash
# Issue 28 §2: the MySQL/MariaDB DDL parser against a real corpus (../shared/testdata/peers,
# "Fifth set: DDL corpus" of its SOURCES.md: 299 files of antlr grammars-v4, Debezium, sqlfluff,
# skeema and Canal). One MariaDB 10.11 server; every file is split into statements
# (ddl_split.awk: the split SOURCES.md describes) and its table statements (CREATE / ALTER /
# RENAME / DROP / TRUNCATE TABLE, CREATE / DROP INDEX, databases, USE, SET NAMES) are run in
# database `corpus` (the default database of every file; a statement naming another database runs
# there when the file created it), those the server refuses counted and skipped. After each file:
#  - a capture of the whole server (`rowcast capture --until caught-up`, resuming from its
#    checkpoint) reads the file's binlog events and exits 0: no DDL stops it;
#  - the schema history in its checkpoint (kept from the DDL statements alone) equals the history
#    a new capture reads from information_schema at that point (the same text: every table's
#    columns, declared types, nullability, primary key, collation, generated and invisible;
#    history_compare.awk), but for collations the history does not know (0: a database created
#    without a charset), counted apart;
#  - Canal's sequences (ddl/table/test_N.sql, ddl/alter/test_N.sql): mysql_N.sql, the SHOW CREATE
#    TABLE text a MySQL server gave for the sequence's final tables, is run in database
#    canal_expect; where MariaDB's own result of the sequence (information_schema) equals it, the
#    history must equal it too ("agreed"); where MariaDB's result differs ("MariaDB differs") the
#    history is held to MariaDB's, above;
#  - the databases are dropped, so every file starts from an empty server.
# A statement the history cannot apply is read again from information_schema with a warning (the
# capture goes on: counted as "re-read"); a difference is a mismatch. The counts are printed at
# the end (docs/sources/mysql-schema.md quotes them). Skipped (exit 77) without ../shared.
# MY_DDL_CORPUS_FILES=REGEX keeps the files whose path matches (a quicker run by hand).
# usage: my_ddl_corpus_test.sh path/to/rowcast   (from the repository root)
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. tests/common/peers.sh
P=../shared/testdata/peers
peer_need my_ddl_corpus "$P/SOURCES.md"
case $? in 1) peer_report my_ddl_corpus; exit $PEER_ALL_SKIPPED ;; 2) exit 1 ;; esac
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1
. "$HERE/../common/check.sh"
# the corpus: the files of the fifth set's sha256 list
files=$(awk '/^# Fifth set/ { on = 1 } on && /^[0-9a-f]{64}  / { print $2 }' "$P/SOURCES.md" | grep -E "${MY_DDL_CORPUS_FILES:-.}")
[ -n "$files" ] || { bad "no corpus files listed in $P/SOURCES.md"; exit 1; }
MARK=';;;;;;'
cap() { # cap NAME CHECKPOINT [OPTION...]: one capture up to the server's current position
    local name=$1 ck=$2
    shift 2
    "$RC" capture "$MY_URL" --server-id 41 --checkpoint "$ck" --until caught-up --to native "$@" >"$W/$name.out" 2>"$W/$name.err"
}
# the tables of a checkpoint's history, one a line (the table line, then its columns), with the
# two differences docs/sources/mysql-schema.md gives reasons for taken out: integer display
# widths (kept as written), and MariaDB's JSON (the history keeps json; information_schema says
# longtext with utf8mb4_bin, 46)
# (a column's default, `=TEXT`, is left out: information_schema and the DDL write the same value
# in different texts, 1.5e3 and 1500; my_dbz_suite compares the defaults Debezium writes)
history_of() {
    awk '/^history [0-9]+$/ { on = 1; next } on && /^end\t/ { exit } on && /^table\t/ { if (l != "") print l; l = $0; next }
         on && /^column\t/ { l = l " | " $0 } END { if (l != "") print l }' "$1" |
        sed -E -e "s/\t=[^\t]*( \| column\t|$)/\1/g" -e "s/\t(tinyint|smallint|mediumint|int|bigint|year)\([0-9]+\)/\t\1/g" \
            -e "s/\tjson\t(null|not null)\t([0-9]+)\t0\t/\tlongtext\t\1\t\2\t46\t/g"
}
# reset_server: every database the corpus made dropped, an empty `corpus` made; one client run
# (corpus_tool.reset, made once below: the test's CPU is mostly its processes, ~30 a file)
reset_server() { my_sql -e 'CALL corpus_tool.reset()'; }
my_sql <<'EOF' || { bad "corpus_tool.reset not made"; exit 1; }
CREATE DATABASE corpus_tool;
DELIMITER //
CREATE PROCEDURE corpus_tool.reset()
    BEGIN
      DECLARE d VARCHAR(256);
      again: LOOP
        SET d = (SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN
                 ('mysql', 'information_schema', 'performance_schema', 'sys', 'test', 'corpus_tool') LIMIT 1);
        IF d IS NULL THEN LEAVE again; END IF;
        EXECUTE IMMEDIATE CONCAT('DROP DATABASE `', REPLACE(d, '`', '``'), '`');
      END LOOP;
      CREATE DATABASE corpus CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
    END//
EOF
# the tables of db in a checkpoint's history (history_of), the database name taken out, sorted
tables_of() { history_of "$1" | awk -F'\t' -v db="$2" '$2 == db' | sed "s/^table\t[^\t]*\t/table\t\t/" | sort; }
# canal_file FILE: Canal's expected final tables of sequence FILE (test_N.sql: mysql_N.sql), when
# it has them: run in database canal_expect (before the new capture, which reads both databases)
canal_file() {
    local exp=${1%/test_*}/mysql_${1##*/test_}
    case $1 in alibaba__canal/*/test_*.sql) [ -f "$P/$exp" ] || return 1 ;; *) return 1 ;; esac
    my_sql -e 'CREATE DATABASE canal_expect CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci'
    my_sql --force canal_expect <"$P/$exp" >/dev/null 2>&1
    return 0
}
# canal_expected FILE: those tables against the new capture's (fresh.ck) and the history's
canal_expected() {
    local exp=${1%/test_*}/mysql_${1##*/test_}
    tables_of "$W/fresh.ck" canal_expect >"$W/expected"
    tables_of "$W/fresh.ck" corpus >"$W/server"
    tables_of "$W/ck" corpus >"$W/history"
    ncanal=$((ncanal + $(wc -l <"$W/expected")))
    comm -12 "$W/expected" "$W/server" >"$W/agreed"
    nagreed=$((nagreed + $(wc -l <"$W/agreed")))
    if [ -n "$(comm -23 "$W/agreed" "$W/history")" ]; then
        bad "$1: a table of $exp that MariaDB agrees with is not the history's:"
        comm -23 "$W/agreed" "$W/history" | head -5 >&2
    fi
}
reset_server
# the fallback itself, before the corpus: a statement the history cannot apply (a system-versioned
# table, which it does not model) on a captured table is read again from information_schema with
# a warning naming file:offset, the table and the parser's message; on a table not captured
# (--include another) it is ignored with a notice; the capture goes on either way
cap start "$W/ck" --snapshot never || bad "the first capture: $(cat "$W/start.err")"
cp "$W/ck" "$W/ck.other"
my_sql corpus -e 'CREATE TABLE sv (id INT PRIMARY KEY, v VARCHAR(3)) WITH SYSTEM VERSIONING; CREATE TABLE after_sv (id INT PRIMARY KEY);
    INSERT INTO after_sv VALUES (1)'
at=$(my_sql -e 'SHOW BINLOG EVENTS' | awk -F'\t' '$6 ~ /WITH SYSTEM VERSIONING/ { print $1 ":" $2 }')
cap sv "$W/ck" || bad "the capture stopped at a system-versioned table: $(cat "$W/sv.err")"
# (information_schema.TABLES says SYSTEM VERSIONED, not BASE TABLE: the table leaves the history)
grep -q "^rowcast: warning: $at: the schema history cannot apply the statement on corpus.sv: .*read again from information_schema.*system-versioned tables (WITH SYSTEM VERSIONING) are not supported" "$W/sv.err" ||
    bad "no warning naming $at and corpus.sv: $(cat "$W/sv.err")"
grep -q '"op":"insert".*"table":"after_sv"' "$W/sv.out" || bad "the row after it was not captured: $(cat "$W/sv.out")"
cap sv.other "$W/ck.other" --include corpus.other || bad "the capture of another table stopped: $(cat "$W/sv.other.err")"
grep -q "^rowcast: $at: the schema history cannot apply the statement on corpus.sv, a table not captured: ignored" "$W/sv.other.err" ||
    bad "no notice naming $at and corpus.sv as not captured: $(cat "$W/sv.other.err")"
my_sql corpus -e 'DROP TABLE sv, after_sv'
cap sv "$W/ck" || bad "the capture after the system-versioned table: $(cat "$W/sv.err")"
nunknown=0 ncanal=0 nagreed=0 nfiles=0 nread=0 nrun=0 nrefused=0 nreread=0 nmismatch=0 nstopped=0
for f in $files; do
    nfiles=$((nfiles + 1))
    gawk -v RS_MARK="$MARK" -f "$HERE/ddl_split.awk" "$P/$f" >"$W/stmts" 2>"$W/split"
    read -r _ r _ k <"$W/split"
    nread=$((nread + r)) nrun=$((nrun + k))
    { echo "DELIMITER $MARK"; cat "$W/stmts"; } >"$W/run.sql"
    my_sql --force corpus <"$W/run.sql" >/dev/null 2>"$W/refused"
    e=$(grep -c '^ERROR ' "$W/refused")
    nrefused=$((nrefused + e))
    if ! cap run "$W/ck"; then
        nstopped=$((nstopped + 1))
        bad "$f: the capture stopped: $(tail -3 "$W/run.err")"
        rm -f "$W/ck"
        reset_server
        cap start "$W/ck" --snapshot never || bad "capture after $f: $(cat "$W/start.err")"
        continue
    fi
    # the statements the parser could not read (the capture went on): listed, counted
    grep 'read again from information_schema' "$W/run.err" | sed "s|^|re-read in $f: |" | cut -c1-400
    nreread=$((nreread + $(grep -c 'read again from information_schema' "$W/run.err")))
    rm -f "$W/fresh.ck"
    canal=0
    canal_file "$f" && canal=1
    cap fresh "$W/fresh.ck" --snapshot never || bad "$f: a new capture: $(cat "$W/fresh.err")"
    awk -f "$HERE/history_compare.awk" <(history_of "$W/fresh.ck" | awk -F'\t' '$2 != "canal_expect"') <(history_of "$W/ck") >"$W/diff"
    nunknown=$((nunknown + $(grep -c '^unknown-collation' "$W/diff")))
    if grep -q '^[<>]' "$W/diff"; then
        nmismatch=$((nmismatch + $(grep '^[<>] table' "$W/diff" | cut -f2,3 | sort -u | wc -l)))
        bad "$f: the history differs from information_schema (< information_schema, > history):"
        grep '^[<>]' "$W/diff" | head -20 >&2
    fi
    [ $canal = 0 ] || canal_expected "$f"
    reset_server
done
echo "my_ddl_corpus: $nfiles files, $nread statements read, $nrun run ($nrefused refused by the server, $((nrun - nrefused)) accepted), $nreread re-read from information_schema, $nmismatch tables differing ($nunknown more only where the history does not know the database's default collation), $nstopped captures stopped; Canal's expected tables: $ncanal, MariaDB agrees on $nagreed (the history equals those), differs on $((ncanal - nagreed))"
[ "$fail" = 0 ] || exit 1
