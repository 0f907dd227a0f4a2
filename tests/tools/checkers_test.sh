#!/usr/bin/env bash
# replay.awk and dblog_check.awk on hand-made native streams: a good stream (reads after
# changes of their key, reads of reinserted keys, composite keys, a keyless multiset, v past
# 2^53) passes both and rebuilds the expected table; each bad stream holds one violation,
# which the checker names by its line, exactly.
# usage: checkers_test.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../common/check.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
LIB=(-f "$HERE/native_events.awk")

# ev OP TABLE KEYCOLS BEFORE AFTER: a native event of public.TABLE with columns id [k2] v pad
# (KEYCOLS: id, id,k2, or none), BEFORE and AFTER the JSON arrays or "" (absent); "key:" before
# BEFORE marks before_key_only
ev() {
    local op=$1 t=$2 keys=$3 b=$4 a=$5 cols="" c ko=""
    for c in id k2 v pad; do
        [ "$c" = k2 ] && [ "$keys" != id,k2 ] && continue
        [ "$c" = pad ] && t2=text || t2=bigint
        case ",$keys," in *",$c,"*) cols+="{\"name\":\"$c\",\"type\":\"$t2\",\"pk\":true}," ;; *) cols+="{\"name\":\"$c\",\"type\":\"$t2\"}," ;; esac
    done
    case $b in key:*) b=${b#key:}; ko=',"before_key_only":true' ;; esac
    printf '{"op":"%s","source":{"kind":"postgresql","server":"rowcast","db":"postgres","schema":"public","table":"%s"},"pos":{"lsn":"0/1"},"ts_us":1,"columns":[%s]%s%s%s}\n' \
        "$op" "$t" "${cols%,}" "${b:+,\"before\":$b}" "$ko" "${a:+,\"after\":$a}"
}

# the good stream: every case the checkers must accept
{
    ev read t id "" '[1,10,"a"]'
    ev insert t id "" '[5,20,"e"]'
    ev update t id 'key:[1,null,null]' '[1,30,"a2"]'
    ev read t id "" '[2,12,"b"]'
    ev delete t id 'key:[5,null,null]' ""
    ev read t id "" '[3,40,"c\"q\\\\ \/"]'  # a read of a key first changed after the chunk: fine
    ev update t id '[2,12,"b"]' '[2,50,"b2"]'
    ev read t id "" '[2,50,"b2"]'             # a read after the update it shows: allowed
    ev insert t id "" '[5,60,"e2"]'            # the deleted key inserted again
    ev read t id "" '[5,61,"e3"]'
    ev read t id "" '[9,9007199254740993,"big"]'
    ev read t id "" '[9,9007199254740993,"big"]'
    ev read tc id,k2 "" '[1,0,10,"x"]'
    ev update tc id,k2 'key:[1,0,null,null]' '[1,0,20,"x2"]'
    ev read tc id,k2 "" '[1,1,5,"y"]'          # (1,1) is another key than (1,0)
    ev read tn none "" '[1,10,"p"]'
    ev read tn none "" '[1,10,"p"]'            # a row twice (keyless: a multiset)
    ev insert tn none "" '[2,11,"q"]'
    ev update tn none '[1,10,"p"]' '[1,12,"r"]'
    ev delete tn none '[2,11,"q"]' ""
    echo '{"op":"commit","source":{"kind":"postgresql","server":"rowcast"},"pos":{"lsn":"0/2","txid":"1"},"ts_us":1}'
} >"$W/good"

# replay T KEYS STRICT: the rebuilt rows of public.T in "$W/rows", sorted; stderr in $W/replay.err
replay() {
    awk -v table="public.$1" -v keys="$2" -v strict="$3" "${LIB[@]}" -f "$HERE/replay.awk" "${4:-$W/good}" 2>"$W/replay.err" | LC_ALL=C sort >"$W/rows"
    st=${PIPESTATUS[0]}
}
# dblog FILE [KEYS]: dblog_check.awk's exit status in $st, stderr in $W/dblog.err
dblog() { awk -v keys="${2:-}" "${LIB[@]}" -f "$HERE/dblog_check.awk" "$1" 2>"$W/dblog.err"; st=$?; }
T=$'\t'

replay t "" 0
expect_rc "replay t" $st 0
printf '%s\n' "1${T}30${T}a2" "2${T}50${T}b2" "3${T}40${T}c\"q\\\\\\\\ /" "5${T}61${T}e3" "9${T}9007199254740993${T}big" >"$W/want"
expect_eq "replay t: rows" "$W/want" "$W/rows"
replay tc "" 0
expect_rc "replay tc" $st 0
printf '%s\n' "1${T}0${T}20${T}x2" "1${T}1${T}5${T}y" >"$W/want"
expect_eq "replay tc: rows" "$W/want" "$W/rows"
replay tn "" 0
expect_rc "replay tn" $st 0
printf '%s\n' "1${T}10${T}p" "1${T}12${T}r" >"$W/want"
expect_eq "replay tn: rows (a multiset)" "$W/want" "$W/rows"
echo "replay public.tn: 2 reads, 1 inserts, 1 updates, 1 deletes: 2 rows (no key: a multiset)" >"$W/want"
expect_eq "replay tn: counts" "$W/want" "$W/replay.err"

# strict: the reads above that follow changes of their key are what an initial snapshot must
# not hold
replay t "" 1
expect_rc "replay t strict" $st 1
grep -q '^FAIL: line 6: read of key 3 that is there' "$W/replay.err" && bad "replay t strict: key 3 was not read before" || ok
grep -q '^FAIL: line 8: read of key 2 that is there$' "$W/replay.err" && ok || bad "replay t strict: $(head -3 "$W/replay.err")"

# keyless: a delete of a row not there (strict: a failure; without: a row the incremental
# snapshot had not read yet, counted); an update without the full before
{ ev read tn none "" '[1,10,"p"]'; ev delete tn none '[1,11,"p"]' ""; } >"$W/bad1"
replay tn "" 1 "$W/bad1"
expect_rc "replay keyless missing row" $st 1
echo "FAIL: line 2: delete of a row that is not there: 1${T}11${T}p" >"$W/want"
head -1 "$W/replay.err" >"$W/got"
expect_eq "replay keyless missing row: message" "$W/want" "$W/got"
replay tn "" 0 "$W/bad1"
expect_rc "replay keyless row not read yet" $st 0
echo "replay public.tn: 1 reads, 0 inserts, 0 updates, 1 deletes: 1 rows (no key: a multiset); 1 updates/deletes of rows not read yet" >"$W/want"
expect_eq "replay keyless row not read yet: counts" "$W/want" "$W/replay.err"
{ ev read tn none "" '[1,10,"p"]'; ev update tn none 'key:[null,null,null]' '[1,11,"p"]'; } >"$W/bad2"
replay tn "" 0 "$W/bad2"
expect_rc "replay keyless update without FULL" $st 1
# the events of a table disagree on its key (MariaDB: a snapshot without the pk flags of a
# UNIQUE NOT NULL index, the binlog's events with them)
{ ev read tn none "" '[1,10,"p"]'; ev update tn id '[1,10,"p"]' '[1,11,"p"]'; } >"$W/bad3"
replay tn "" 0 "$W/bad3"
expect_rc "replay: the key changes" $st 1
echo "FAIL: line 2: the key of public.tn is id, at line 1 it was (none) (name it with -v keys=)" >"$W/want"
head -1 "$W/replay.err" >"$W/got"
expect_eq "replay: the key changes: message" "$W/want" "$W/got"
replay tn id 0 "$W/bad3"
expect_rc "replay: the key changes, keys=id" $st 0
# keys= makes a keyless table keyed
replay tn id 0 "$W/bad2"
expect_rc "replay keys=id" $st 0
printf '%s\n' "1${T}11${T}p" >"$W/want"
expect_eq "replay keys=id: rows" "$W/want" "$W/rows"

# DBLog: the good stream passes (tn keyed by its unique id... which repeats there: a stream
# of tn alone is checked with keys)
grep -v '"table":"tn"' "$W/good" >"$W/good-keyed"
dblog "$W/good-keyed"
expect_rc "dblog good" $st 0
echo "dblog: 9 reads, 6 changes, 7 keys: no read older than a change of its key" >"$W/want"
expect_eq "dblog good: counts" "$W/want" "$W/dblog.err"
dblog "$W/good"
expect_rc "dblog keyless without keys" $st 2
echo "line 16: table public.tn has no key: name its unique columns with -v keys=" >"$W/want"
expect_eq "dblog keyless without keys: message" "$W/want" "$W/dblog.err"

# bad_dblog NAME KEYS MESSAGE: the stream on stdin fails dblog_check.awk with exactly MESSAGE
bad_dblog() {
    cat >"$W/$1"
    dblog "$W/$1" "$2"
    expect_rc "dblog $1" $st 1
    echo "$3" >"$W/want"
    expect_eq "dblog $1: message" "$W/want" "$W/dblog.err"
}
{ ev insert t id "" '[7,1,"x"]'; ev update t id 'key:[1,null,null]' '[1,30,"a2"]'; ev read t id "" '[1,10,"a"]'; ev read t id "" '[7,0,"x"]'; } |
    bad_dblog older "" "DBLOG VIOLATION: line 3: read of public.t key 1 with v=10, older than v=30 emitted at line 2 (update)"
{ ev read t id "" '[5,20,"e"]'; ev update t id '[5,20,"e"]' '[5,21,"e"]'; ev delete t id 'key:[5,null,null]' ""; ev read t id "" '[5,21,"e"]'; } |
    bad_dblog deleted "" "DBLOG VIOLATION: line 4: read of public.t key 5 with v=21, the row deleted at line 3 (its v 21 emitted at line 2)"
{ ev read t id "" '[1,30,"a"]'; ev read t id "" '[1,29,"a"]'; } |
    bad_dblog read-after-read "" "DBLOG VIOLATION: line 2: read of public.t key 1 with v=29, older than v=30 emitted at line 1 (read)"
{ ev update t id '[4,4,"d"]' '[4,9007199254740993,"d"]'; ev read t id "" '[4,9007199254740992,"d"]'; } |
    bad_dblog past-2-53 "" "DBLOG VIOLATION: line 2: read of public.t key 4 with v=9007199254740992, older than v=9007199254740993 emitted at line 1 (update)"
{ ev read tc id,k2 "" '[1,1,5,"y"]'; ev update tc id,k2 'key:[1,0,null,null]' '[1,0,20,"x2"]'; ev insert tc id,k2 "" '[2,1,21,"z"]'; ev read tc id,k2 "" '[1,0,10,"x"]'; } |
    bad_dblog composite "" "DBLOG VIOLATION: line 4: read of public.tc key 1${T}0 with v=10, older than v=20 emitted at line 2 (update)"
{ ev insert tn none "" '[3,7,"n"]'; ev delete tn none '[3,7,"n"]' ""; ev read tn none "" '[3,7,"n"]'; } |
    bad_dblog keyless-unique id "DBLOG VIOLATION: line 3: read of public.tn key 3 with v=7, the row deleted at line 2 (its v 7 emitted at line 1)"

echo "checkers: $pass passed, $fail failed"
[ "$fail" = 0 ]
