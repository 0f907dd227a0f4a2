#!/usr/bin/env bash
# Issue 28 ("What it must show", third bullet): Maxwell's own SQL test files (zendesk/maxwell,
# src/test/resources/sql/json, run by its MaxwellIntegrationTest and BootstrapIntegrationTest)
# on one throwaway MariaDB 10.11 (mariadb_lib.sh), captured by `rowcast capture --to maxwell`.
# The cases are my_maxwell_suite.cases (their SQL and expected rows, restated in our format:
# the files themselves are not in ../shared and are not copied here). For each case:
#  - shard_1 (with Maxwell's `minimal` table) and test are created again, the other databases of
#    the previous case dropped, and the binlog position read (Maxwell's setupSchema);
#  - its SQL runs in one session whose default database is shard_1, as Maxwell's runner does;
#    `bootstrap DB.TABLE [where FILTER]` (Maxwell's INSERT INTO maxwell.bootstrap, where_clause)
#    writes an execute-snapshot signal (additional-conditions: FILTER) at that point;
#  - one capture from that position `--until caught-up --to maxwell` (and the case's options;
#    an incremental snapshot signalled is read before it ends: bootstrap-start / -insert /
#    -complete); `snapshot DB.TABLE` adds a capture `--snapshot initial_only` of the table;
#  - Maxwell's comparison (MaxwellTestJSON.assertJSON): every expected row must be, as a JSON
#    value, one of the rows written, once ts, xid, xoffset and commit are taken out (object key
#    order does not count, array order does; integers of 16 digits or more compared as text).
# A row marked `differs` is Maxwell's row that rowcast writes differently on purpose: it must
# not be found, and the `instead` row after it must. `skip` says why a row or case is not run.
# The counts are printed at the end (docs/fidelity.md quotes them).
# MY_MAXWELL_CASES=REGEX runs the cases whose name matches (a quicker run by hand).
# usage: my_maxwell_suite_test.sh path/to/rowcast   (from the repository root)
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
CASES=$HERE/my_maxwell_suite.cases
. "$HERE/mariadb_lib.sh"
# Maxwell's MysqlIsolatedServer: character-set-server=utf8, default-time-zone=+00:00
my_test_start --character-set-server=utf8mb3 --collation-server=utf8mb3_general_ci --default-time-zone=+00:00 || exit 1
. "$HERE/../common/check.sh"
SIG=rc_signal.s
my_sql -e "CREATE DATABASE rc_signal; CREATE TABLE $SIG (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data VARCHAR(2048))"

# canon: one JSON value a line to one canonical line (keys sorted, Maxwell's varying fields
# out); integers of 16 digits or more become strings first, so that jq's doubles lose nothing
canon() {
    sed -E -e 's/([:,[]) *(-?[0-9]{16,}) *([],}])/\1"#\2"\3/g' -e 's/([:,[]) *(-?[0-9]{16,}) *([],}])/\1"#\2"\3/g' |
        jq -c -S 'del(.ts, .xid, .xoffset, .commit)'
}
reset_server() {
    my_sql -e "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN
        ('mysql', 'information_schema', 'performance_schema', 'sys', 'rc_signal')" |
        while IFS= read -r d; do my_sql -e "DROP DATABASE \`$d\`"; done
    my_sql -e "SET GLOBAL binlog_row_image = FULL; CREATE DATABASE test; CREATE DATABASE shard_1;
        CREATE TABLE shard_1.minimal (id bigint(20) NOT NULL AUTO_INCREMENT, account_id int(11) NOT NULL,
            text_field varchar(96), PRIMARY KEY (id, text_field)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3"
}
# a signal's JSON text as an SQL literal: execute-snapshot of TABLE, FILTER if given
signal_sql() {
    local t=$1 f=${2:-} data
    data="{\"data-collections\": [\"$t\"], \"type\": \"incremental\""
    [ -z "$f" ] || data="$data, \"additional-conditions\": [{\"data-collection\": \"$t\", \"filter\": \"${f//\"/\\\"}\"}]"
    data="$data}"
    nsig=$((nsig + 1))
    printf "INSERT INTO %s VALUES ('suite-%d', 'execute-snapshot', '%s');\n" "$SIG" "$nsig" "${data//\'/\'\'}"
}
nsig=0 ncases=0 nrows=0 nequal=0 ndiffer=0 nskiprows=0 nskipcases=0 nmismatch=0

# run_case: the case read into NAME, SQLFILE, OPTS (array), SNAPS (array), GLOBALS, EXPECT
# (lines: KIND<TAB>JSON, KIND expect / differs / instead)
run_case() {
    ncases=$((ncases + 1))
    echo "== $NAME"
    local fail0=$fail
    reset_server
    [ -z "$GLOBALS" ] || my_sql -e "$GLOBALS"
    local pos
    pos=$(my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }')
    if ! my_sql --comments shard_1 <"$W/case.sql" >"$W/sql.out" 2>&1; then
        bad "$NAME: its SQL failed: $(cat "$W/sql.out")"
        return
    fi
    my_sql -e "SET GLOBAL binlog_row_image = FULL"
    "$RC" capture "$MY_URL" --server-id 51 --start "$pos" --until caught-up --to maxwell \
        -o mysql.signal.table=$SIG "${OPTS[@]}" >"$W/out" 2>"$W/err"
    local st=$?
    [ $st = 0 ] || { bad "$NAME: capture exit $st: $(grep -v '^replica server id\|no --checkpoint' "$W/err")"; return; }
    local t
    for t in "${SNAPS[@]}"; do
        "$RC" capture "$MY_URL" --server-id 52 --snapshot initial_only --include "$t" --to maxwell "${OPTS[@]}" \
            >>"$W/out" 2>"$W/err" || { bad "$NAME: snapshot of $t: $(cat "$W/err")"; return; }
    done
    canon <"$W/out" >"$W/got" || { bad "$NAME: rowcast wrote a line that is not JSON"; return; }
    local kind json c
    while IFS=$'\t' read -r kind json; do
        c=$(printf '%s\n' "$json" | canon) || { bad "$NAME: expected row not JSON: $json"; continue; }
        case $kind in
        expect)
            nrows=$((nrows + 1))
            if grep -qxF -- "$c" "$W/got"; then nequal=$((nequal + 1)); ok; else
                nmismatch=$((nmismatch + 1))
                bad "$NAME: Maxwell's row not written: $json"
            fi ;;
        differs)
            nrows=$((nrows + 1)) ndiffer=$((ndiffer + 1))
            if grep -qxF -- "$c" "$W/got"; then bad "$NAME: a row marked differs is now Maxwell's: $json"; else ok; fi ;;
        instead)
            if grep -qxF -- "$c" "$W/got"; then ok; else bad "$NAME: rowcast's own rendering not written: $json"; fi ;;
        esac
    done <"$W/expect"
    if [ "$fail" != "$fail0" ]; then
        echo "--- $NAME: rowcast wrote:" >&2
        head -40 "$W/out" >&2
    fi
}

# read the cases: `case NAME`, `sql STATEMENT`, `bootstrap DB.TABLE [where FILTER]`,
# `snapshot DB.TABLE`, `option ARG...`, `global SQL`, `expect JSON`, `differs REASON` + `expect JSON`
# + `instead JSON`, `skip REASON` (before a case's first sql: the case; before an expect: the row)
NAME=
flush_case() {
    [ -n "$NAME" ] || return 0
    if [ -n "$SKIPCASE" ]; then
        nskipcases=$((nskipcases + 1)) nskiprows=$((nskiprows + $(grep -c '^expect' "$W/expect")))
        echo "skipped $NAME: $SKIPCASE"
    elif [[ $NAME =~ ${MY_MAXWELL_CASES:-.} ]]; then
        run_case
    fi
}
new_case() {
    NAME=$1 OPTS=() SNAPS=() GLOBALS='' SKIPCASE='' pending=''
    : >"$W/case.sql"
    : >"$W/expect"
}
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    '' | '#'*) continue ;;
    'case '*) flush_case; new_case "${line#case }" ;;
    'sql '*) printf '%s;\n' "${line#sql }" >>"$W/case.sql" ;;
    'bootstrap '*)
        rest=${line#bootstrap }
        if [[ $rest == *' where '* ]]; then signal_sql "${rest%% where *}" "${rest#* where }"; else signal_sql "$rest"; fi >>"$W/case.sql" ;;
    'snapshot '*) SNAPS+=("${line#snapshot }") ;;
    'option '*) read -r -a o <<<"${line#option }"; OPTS+=("${o[@]}") ;;
    'global '*) GLOBALS="$GLOBALS ${line#global };" ;;
    'skip '*)
        if [ ! -s "$W/case.sql" ] && [ ! -s "$W/expect" ]; then SKIPCASE=${line#skip }; else pending=skip; fi ;;
    'differs '*) pending=differs ;;
    'expect '*)
        if [ -n "$SKIPCASE" ]; then printf 'expect\t\n' >>"$W/expect"
        elif [ "$pending" = skip ]; then nskiprows=$((nskiprows + 1))
        elif [ "$pending" = differs ]; then printf 'differs\t%s\n' "${line#expect }" >>"$W/expect"
        else printf 'expect\t%s\n' "${line#expect }" >>"$W/expect"; fi
        pending= ;;
    'instead '*) printf 'instead\t%s\n' "${line#instead }" >>"$W/expect" ;;
    *) bad "my_maxwell_suite.cases: a line not understood: $line" ;;
    esac
done <"$CASES"
flush_case

echo "Maxwell's suite: $ncases cases run, $nskipcases skipped; $nrows expected rows compared: $nequal equal," \
    "$ndiffer different on purpose, $nmismatch not written; $nskiprows rows skipped"
echo "my_maxwell_suite: $pass passed, $fail failed"
[ "$fail" = 0 ]
