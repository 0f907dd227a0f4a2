#!/usr/bin/env bash
# Real MySQL binlog files (../shared/testdata/peers, SOURCES.md "Third set": MySQL 5.6-9.x,
# Percona) through `rowcast convert --from mysql-binlog --to native`: every file's output and
# messages equal a reviewed golden (tests/integration/data/mysql-binlog/), every expectation
# SOURCES.md states for a file holds (values, counts, GTIDs), and no event is rejected but
# those the golden stderr names with their reason. Then corrupted input: a cut file, a flipped
# byte, a TABLE_MAP that disagrees with an earlier CREATE TABLE: the exact messages. A MariaDB
# file of the repository's own comes first; without ../shared the peers' files are skipped and
# counted (tests/common/peers.sh).
# usage: my_binlog_files_test.sh ROWCAST   (from the repository root; RC_UPDATE_GOLDEN=1
# rewrites the goldens)
set -u
R=${1:?rowcast}
P=../shared/testdata/peers
G=tests/integration/data/mysql-binlog
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0 oks=0
ok() { oks=$((oks + 1)); }
bad() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

B=blackbeam__rust_mysql_common/test-data/binlogs
O=osheroff__mysql-binlog-connector-java/src/test/resources
C=alibaba__canal/parse/src/test/resources/binlog/tsdb
A=apecloud__mysql-binlog-connector-rust/tests/parse_file_tests
PC=Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data
FILES="$B/binlog-invisible-columns.000001 $B/binlog_transaction_previous_GTID_no_tag.000001
$B/binlog_transaction_with_GTID_TAG.000001 $B/json-opaque.binlog $B/json.binlog.000001 $B/master-bin.000001
$B/minimal_row_metadata.000001 $B/mysql-enum-string-set.000001 $B/mysql_type_bit.000001
$B/rpl_unfiltered_hidden_gcol.000001 $B/time_issue.000001 $B/transaction_compression.000001 $B/vector.binlog
$B/binlog_transaction_with_anonymous_GTID.000001 $B/binlog_truncated_prev_gtid_event.000001 $B/bug27213339-bin.000001
$B/bug32407.001 $B/rpl_atomic_ddl_rollback_full.000001 $B/rpl_atomic_ddl_rollback_table.000001
$B/rpl_atomic_ddl_rollback_view.000001 $B/rpl_cross_version_default_utf8mb4_collation.000001 $B/slave-relay-bin.000001
$O/mysql-bin.compressed $O/mysql-bin.checksum-crc32 $O/mysql-bin.checksum-none $O/mysql-bin.aurora-padding
$C/mysql-bin.000002 $C/mysql-bin.000003 $A/mysql-bin.000057 $A/mysql-bin.000080
Fanduzi__BinlogVisualizer/internal/binlog/testdata/minimal.binlog rusuly__MySqlCdc/samples/MySqlCdc.Sample/mysql-bin.000001
$PC/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001 $PC/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002
$PC/data_80045_position.zip-members/data_80045_position/binlog.000001
$PC/data_80045_position.zip-members/data_80045_position/binlog.000002
go-mysql-org__go-mysql/replication/t/tcb-eval002c-bin.003320"

# golden NAME FILE: FILE equals $G/NAME (rewritten with RC_UPDATE_GOLDEN=1)
golden() {
    if [ "${RC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$2" "$G/$1"; fi
    if cmp -s "$G/$1" "$2"; then ok; else
        bad "$1 differs from $G/$1"
        diff <(cut -c1-240 "$G/$1" 2>/dev/null) <(cut -c1-240 "$2") | head -20 >&2
    fi
}
# name FILE: the golden's name, "owner__repo.file" ("+" for the folders between)
name() {
    local f=${1#$P/}
    local owner=${f%%/*} base=${f##*/} mid=${f#*/}
    mid=${mid%/*}
    case $owner in Percona-Lab*) base=${mid##*/}.$base ;; esac
    echo "$owner.$base"
}

# --- a MariaDB 10.11 file written here (data/mariadb-10.11.binlog.sql says how): v1 rows events,
# GTID events that begin transactions, GTID_LIST, BINLOG_CHECKPOINT, ANNOTATE_ROWS, a DDL between
# rows of one table, then binlog_row_metadata=MINIMAL (names from the history) and MINIMAL images
M=tests/integration/data/mariadb-10.11.binlog
"$R" convert -q --from mysql-binlog --to native "$M" >"$W/mariadb.native" 2>"$W/mariadb.stderr"
echo "exit $?" >>"$W/mariadb.stderr"
golden mariadb-10.11.binlog.native "$W/mariadb.native"
golden mariadb-10.11.binlog.stderr "$W/mariadb.stderr"
mj() {
    local got
    got=$(jq -c -s "$1" "$W/mariadb.native" 2>&1)
    if [ "$got" = "$2" ]; then ok; else bad "$M: $1: expected $2, got $got"; fi
}
mj 'map(select(.op!="ddl"))|map(.op)|join(" ")' '"begin insert commit begin update commit begin insert delete commit begin insert commit begin update commit begin delete delete commit"'
mj 'map(select(.op=="ddl"))|map([.ddl.kind,.source.table,.pos.gtid])' '[["CREATE_DATABASE",null,"0-7-1"],["CREATE_TABLE","t2","0-7-2"],["ALTER_TABLE","t2","0-7-5"],["RENAME_TABLE","t3","0-7-7"]]'
mj 'map(select(.op=="insert"))|.[0].after|del(.[14])' '[1,"-12345678901234567890.123456789012345678901234567890",3.14,10,2155,"-838:59:59","9999-12-31 23:59:59.999999","2020-03-29T01:30:00.5Z","é","b","x,y","{\"k\": \"ü\"}","SRID=0;POINT(1 2)","AP8=","😀"]'
mj 'map(select(.op=="update"))|.[0]|[.before[2],.after[2],.after[8]]' '[3.14,null,"zz"]'
mj 'map(select(.op=="insert"))|.[2]|[.source.table,(.columns|map(.name)|join(" ")),.after[0],.after[8],.after[9],.after[16]]' '["t3","id d f b y tm dt ts c e s j g bl bn em extra",3,"x","a",5]'
mj 'map(select(.op=="update"))|.[1]|[.before[0],.before[8],.after[8],(.after|map(select(.=={"unavailable":true}))|length)]' '[3,{"unavailable":true},"m",16]'

# --- the peers' files: without ../shared the rest is skipped, each file counted as a case ---
. tests/common/peers.sh
peer_need "real binlog files" -n "$(echo $FILES | wc -w)" "$P/$B/master-bin.000001"
case $? in
1)
    peer_report my_binlog_files
    echo "my_binlog_files: $oks passed, $fails failed"
    [ $fails = 0 ]
    exit
    ;;
2) exit 1 ;;
esac
mkdir -p "$G"
for f in $FILES; do
    n=$(name "$P/$f")
    # --on-error=skip: the events documented as not capturable are named in the stderr golden
    "$R" convert -q --on-error=skip --from mysql-binlog --to native "$P/$f" >"$W/$n.native" 2>"$W/$n.stderr"
    echo "exit $?" >>"$W/$n.stderr"
    golden "$n.native" "$W/$n.native"
    golden "$n.stderr" "$W/$n.stderr"
done
# every file in one run, decoded on a thread of its own (--threads 2): the same output and messages
all=()
for f in $FILES; do all+=("$P/$f"); done
for t in 1 2; do
    "$R" convert -q --on-error=skip --from mysql-binlog --threads $t --to native "${all[@]}" >"$W/all.$t" 2>"$W/all.$t.err"
    echo "exit $?" >>"$W/all.$t.err"
done
if cmp -s "$W/all.1" "$W/all.2" && cmp -s "$W/all.1.err" "$W/all.2.err" && [ -s "$W/all.1" ]; then ok; else bad "--threads 2 differs from --threads 1"; fi

# jqf FILE FILTER EXPECTED: jq -c FILTER over FILE's native events (slurped) prints EXPECTED
jqf() {
    local got
    got=$(jq -c -s "$2" "$W/$(name "$P/$1").native" 2>&1)
    if [ "$got" = "$3" ]; then ok; else bad "$1: $2: expected $3, got $got"; fi
}
rows='map(select(.op=="insert" or .op=="update" or .op=="delete"))'
# minimal metadata: no names; the fifth column an unsigned INT, the image holds columns 1, 3, 5
jqf $B/minimal_row_metadata.000001 "$rows|map(.after)" '[[1,{"unavailable":true},"a",{"unavailable":true},3230202323]]'
jqf $B/minimal_row_metadata.000001 "$rows|.[0].columns|map(.type)" '["int","blob","char(2)","int","int unsigned"]'
# ENUM and SET with full metadata: labels for the index and the bitmask
d10="0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"
jqf $B/mysql-enum-string-set.000001 "$rows|map(.op)" '["insert","update","delete"]'
jqf $B/mysql-enum-string-set.000001 "$rows|.[0].after|[.[0],.[2],.[3],.[4]]" "[\"$d10\",\"var1\",\"one,three\",\"0123456789\"]"
jqf $B/mysql-enum-string-set.000001 "$rows|.[1].after|[.[0],.[1],.[2],.[3],(.[4]|length)]" '["field1","field_2","variant2","two,four",298]'
jqf $B/mysql-enum-string-set.000001 "$rows|(.[1].before==.[0].after) and (.[2].before==.[1].after) and (.[0].after[1]==.[1].after[4])" true
jqf $B/mysql_type_bit.000001 "$rows|map(.after)" '[[4,"foo",32]]'
jqf $B/time_issue.000001 "$rows|map(.after)" '[["-507:48:27"]]'
jqf $B/binlog_transaction_with_GTID_TAG.000001 "$rows|map([.pos.gtid,.after])" '[["55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3",[3,100,"250.00"]]]'
jqf $B/vector.binlog "$rows|map(select(.source.table==\"foo\"))|.[0:2]|map(.after)" '[[1,"[1.1,2.2,3.3]"],[2,"[1.0,-1.0,0.0]"]]'
jqf $B/json-opaque.binlog "$rows|map(.after[0])" \
    '["{\"a\": \"base64:type15:VQ==\"}","{\"b\": \"2012-03-18\"}","{\"c\": \"2012-03-18 11:30:45.000000\"}","{\"c\": \"87:31:46.654321\"}","{\"d\": 123.456}","{\"e\": 9.00}","{\"e\": [0, 1, true, false]}","{\"e\": null}"]'
jqf $B/transaction_compression.000001 'map(.op)' '["begin","insert","commit"]'
jqf $B/bug32407.001 "$rows|map(.after)" '[[1],[1]]'
# rpl_unfiltered_hidden_gcol: the schema history does not know the hidden column MySQL adds for
# the functional index, so its TABLE_MAP is refused (the stderr golden); that the image leaves
# the column out is checked without a history in unit_my_decoder
# the Percona files: ids 1-6 inserted, 1-3 updated to 101-103, 4-6 deleted; GTIDs :1-6
for v in gtid position; do
    f1=$PC/data_80045_$v.zip-members/data_80045_$v/binlog.000001 f2=$PC/data_80045_$v.zip-members/data_80045_$v/binlog.000002
    jqf "$f1" "$rows|map(.after[0])" '[1,2,3,4,5,6]'
    jqf "$f2" "$rows|map([.op,(.before//[])[0],(.after//[])[0]])" \
        '[["update",1,101],["update",2,102],["update",3,103],["delete",4,null],["delete",5,null],["delete",6,null]]'
done
jqf $PC/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001 "[.[].pos.gtid|select(.)]|unique" \
    '["396e294c-1ca4-11f1-9ae7-00155da79c6b:1","396e294c-1ca4-11f1-9ae7-00155da79c6b:2","396e294c-1ca4-11f1-9ae7-00155da79c6b:3","396e294c-1ca4-11f1-9ae7-00155da79c6b:4"]'
jqf Fanduzi__BinlogVisualizer/internal/binlog/testdata/minimal.binlog "$rows|map([.op,.before,.after])" \
    '[["insert",null,[1,"alice"]],["insert",null,[2,"bob"]],["update",[1,"alice"],[1,"alice_updated"]],["delete",[2,"bob"],null]]'
jqf $O/mysql-bin.compressed "$rows|map([.op,.before[0:5],.after[0:5]])" \
    '[["update",[1,"Once Upon a Time in the West",1968,"Italy","Western"],[1,"Once Upon a Time in the West",1968,"Italy","Western|Action"]]]'
# the event counts the peers' tests assert (binlog events read, the FDE included)
count() {
    local got
    got=$("$R" convert --from mysql-binlog --on-error=skip "$P/$1" 2>&1 >/dev/null | sed -n 's/^rowcast: \([0-9]*\) binlog events\{0,1\} read.*/\1/p')
    if [ "$got" = "$2" ]; then ok; else bad "$1: $2 events expected, $got read"; fi
}
count $O/mysql-bin.checksum-crc32 303
count $O/mysql-bin.checksum-none 191
count $O/mysql-bin.compressed 5
count $A/mysql-bin.000080 37
count $A/mysql-bin.000057 8
# rusuly's sample: the row with the script's CHAR value has the script's values (jq would read
# the BIGINT as a double: the native text is compared); the TIMESTAMP is UTC in the binlog,
# the script's text in the session's zone, which the repository does not state: left out
r3=$(grep -F '"Asd234234 234234 zdfsfsdfsdf"' "$W/$(name "$P/rusuly__MySqlCdc/samples/MySqlCdc.Sample/mysql-bin.000001").native" | sed 's/.*"after":\[[0-9]*,//; s/,"[^"]*Z"\]}$//')
want='123,12345,1234567,123456789,1234567890987654321,12345.679,1.2345678909876543E8,"1234567890112233445566778899001112223334445556667778889.9900011112","Asd234234 234234 zdfsfsdfsdf","Hello world!","EjRWRTRFRTQ=","{\"id\": 1, \"name\": \"John\"}","FSNU",129324935,"Medium","Red",1989,"1985-10-23","1988-11-27 14:12:13.345","15:22:33.67"'
if [ "$r3" = "$want" ]; then ok; else bad "rusuly row: expected $want, got $r3"; fi
# go-mysql's DECIMAL file: 17 rows of eleven DECIMAL columns
jqf go-mysql-org__go-mysql/replication/t/tcb-eval002c-bin.003320 "$rows|length" 17

# --- several files, in the order the server wrote them ---
# Canal's two files: the CREATE TABLE in the first names the second's columns, and its ALTERs
# (add col1, add col2, drop col1, add col1, add col3, drop col3) change them row by row
"$R" convert -q --from mysql-binlog --to native "$P/$C/mysql-bin.000002" "$P/$C/mysql-bin.000003" >"$W/canal23.native" 2>"$W/canal23.stderr"
echo "exit $?" >>"$W/canal23.stderr"
golden alibaba__canal.mysql-bin.000002+000003.native "$W/canal23.native"
golden alibaba__canal.mysql-bin.000002+000003.stderr "$W/canal23.stderr"
got=$(jq -c -s 'map(select(.op=="insert" and .source.table=="wanshao_test"))|.[0:5]|map([(.columns|map(.name)|join(" ")),.after[0]])' "$W/canal23.native")
want='[["id name age",34],["id name age col2",35],["id name age col2 col1",36],["id name age col2 col1 col3",37],["id name age col2 col1 col3",38]]'
if [ "$got" = "$want" ]; then ok; else bad "canal 000002+000003: expected $want, got $got"; fi
# Percona's two files: the second's events name it, and their GTIDs go on from the first's
"$R" convert -q --from mysql-binlog --to native "$P/$PC/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001" \
    "$P/$PC/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002" >"$W/pc12.native" 2>&1 || bad "Percona 000001+000002 failed"
got=$(jq -c -s 'map(select(.op=="update" or .op=="delete"))|map([.pos.file,.pos.gtid])|unique' "$W/pc12.native")
want='[["binlog.000002","396e294c-1ca4-11f1-9ae7-00155da79c6b:5"],["binlog.000002","396e294c-1ca4-11f1-9ae7-00155da79c6b:6"]]'
if [ "$got" = "$want" ]; then ok; else bad "Percona 000001+000002: expected $want, got $got"; fi
got=$(jq -c -s 'map(select(.source.table=="t1" and .op!="ddl"))|map(.columns|map(.name))|unique' "$W/pc12.native")
if [ "$got" = '[["id"]]' ]; then ok; else bad "Percona 000001+000002: the CREATE TABLE of the first file names the second's columns: $got"; fi
# --checkpoint: refused by name
"$R" convert --from mysql-binlog --checkpoint "$W/ck" "$P/$B/bug32407.001" >/dev/null 2>"$W/err"
st=$?
want="rowcast convert: --checkpoint is not supported with --from mysql-binlog: convert the files again, or capture from the server (rowcast capture mysql://...) to resume
(see rowcast help convert)"
if [ $st = 1 ] && [ "$(cat "$W/err")" = "$want" ]; then ok; else bad "--checkpoint: status $st, $(cat "$W/err")"; fi

# --- other output formats: every format writes the events of these files ---
for to in canal debezium drs-json; do
    opts=
    case $to in debezium) opts="-o debezium.flavor=upstream" ;; canal) opts="-o canal.flavor=canal" ;; esac
    n=$(name "$P/$B/mysql-enum-string-set.000001").$to
    "$R" convert -q --from mysql-binlog --to $to $opts "$P/$B/mysql-enum-string-set.000001" >"$W/$n" 2>&1
    echo "exit $?" >>"$W/$n"
    golden "$n" "$W/$n"
done

# --- corrupted input ---
# expect_err NAME EXPECTED FILE...: the stderr of converting FILEs (the summary aside) and the exit status
expect_err() {
    local n=$1 want=$2
    shift 2
    "$R" convert -q --from mysql-binlog "$@" >/dev/null 2>"$W/err"
    echo "exit $?" >>"$W/err"
    if [ "$(cat "$W/err")" = "$want" ]; then ok; else
        bad "$n: expected"
        echo "$want" >&2
        echo "got:" >&2
        cat "$W/err" >&2
    fi
}
src=$P/Fanduzi__BinlogVisualizer/internal/binlog/testdata/minimal.binlog
head -c 1000 "$src" >"$W/cut.binlog"
expect_err truncated "rowcast: $W/cut.binlog at offset 962: value error: the event is cut off: its header says 74 bytes, the file has 38 (a truncated file, or one still being written)
exit 2" "$W/cut.binlog"
# a byte of the first INSERT's row image flipped: its CRC32 no longer matches
perl -0777 -pe 'substr($_, 580, 1) ^= "\xff"' "$src" >"$W/flip.binlog"
expect_err checksum "rowcast: $W/flip.binlog at offset 553: value error: checksum mismatch in WRITE_ROWS_EVENT (stored 08dfe051, computed 148c09db): the event is corrupted
exit 2" "$W/flip.binlog"
nb=$W/$(name "$src").native
expect_err not-a-binlog "rowcast convert: $nb is not a binlog file: it does not start with the binlog magic bytes fe 62 69 6e (\\xfebin)
exit 2" "$nb"
# a TABLE_MAP that disagrees with the CREATE TABLE before it: minimal.binlog's CREATE TABLE
# (id INT, name VARCHAR(100)) rewritten in place to a DATETIME name, the QUERY's CRC32 made anew
perl -MCompress::Zlib -0777 -ne '
    my $d = $_; my $o = 4;
    while ($o + 19 <= length $d) {
        my $n = unpack("V", substr($d, $o + 9, 4));
        my $e = substr($d, $o, $n);
        if ($e =~ s/name VARCHAR\(100\)/name DATETIME(6) /) {
            substr($e, -4) = pack("V", crc32(substr($e, 0, -4)));
            substr($d, $o, $n) = $e;
        }
        $o += $n;
    }
    print $d' "$src" >"$W/ddl.binlog"
expect_err tablemap-vs-history "rowcast: $W/ddl.binlog at offset 500: schema error: TABLE_MAP of testdb.users: column 2 (name) is VARCHAR in the binlog but datetime(6) in the schema history; binlog (LONG, VARCHAR), history (id int, name datetime(6))
exit 2" "$W/ddl.binlog"

echo "my_binlog_files: $oks passed, $fails failed"
[ $fails = 0 ]
