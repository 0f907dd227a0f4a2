# Replays a captured native stream of one table and prints the table it rebuilds: one line a
# row, the columns' values as COPY text joined by tabs, unsorted (tests/tools/check_stream.sh compares `LC_ALL=C sort` of
# it with the same of the server's rows and runs dblog_check.awk). read and insert are an
# upsert of "after", update an upsert of "after" (after removing the old key when "before"
# names another), delete removes the key of "before". A table without a key (no pk column,
# no keys given) is a multiset of rows: read and insert add "after", delete removes one copy
# of "before", update both (its "before" must be the full row: replica identity FULL).
#
#   awk -v table=SCHEMA.TABLE [-v keys=COL,COL] [-v strict=1] \
#       -f tests/tools/native_events.awk -f tests/tools/replay.awk STREAM >ROWS
#
# table: the events of that table only (PostgreSQL SCHEMA.TABLE, MySQL DB.TABLE; all when
# empty). keys: the key columns by name instead of the pk flags of the events. strict=1
# (a stream of one initial snapshot then changes, delivered once): a read or insert of a key
# that is there, an update or delete of one that is not, fails; keyless, a delete or update
# of a row that is not there fails. Keyless without strict (an incremental snapshot's stream
# from the table's start edge, which a consumer of a keyless table rebuilds from), such an
# update or delete is of a row the snapshot had not read yet: counted, not a failure. The key
# columns must stay the same through the stream (a table whose events disagree on them fails,
# unless keys names them). Each failure a line "FAIL: line N: ..." on stderr (the first 20), exit 1; the counts on stderr.
function fail(msg) { if (nfail++ < 20) print "FAIL: line " NR ": " msg > "/dev/stderr" }

# one copy of row r (keyless) out of the multiset
function take(r) {
    if (cnt[r] + 0 <= 0) {
        if (strict) fail(NE_OP " of a row that is not there: " r)
        else notyet++
        return
    }
    if (--cnt[r] == 0) delete cnt[r]
}

{
    ne_parse($0, table)
    if (NE_TABLE == "" || (table != "" && NE_TABLE != table)) next
    ops[NE_OP]++
    if (NE_OP != "delete" && NE_NA == 0) { fail(NE_OP " without after"); next }
    if (NE_OP == "delete" && NE_NB == 0) { fail("delete without before"); next }
    k = ne_key(NE_OP == "delete" ? "b" : "a", keys)
    kd = NE_KEYLESS ? "(none)" : ne_key_names(keys)
    if (!(NE_TABLE in keydesc)) { keydesc[NE_TABLE] = kd; keyline[NE_TABLE] = NR }
    else if (keydesc[NE_TABLE] != kd && !warned[NE_TABLE]++)
        fail("the key of " NE_TABLE " is " kd ", at line " keyline[NE_TABLE] " it was " keydesc[NE_TABLE] " (name it with -v keys=)")
    if (NE_KEYLESS) {
        keyless = 1
        if (NE_OP == "update" || NE_OP == "delete") {
            if (NE_BKO) { fail(NE_OP " of a table without a key carries only the key of before (replica identity FULL needed)"); next }
            take(ne_row("b"))
        }
        if (NE_OP != "delete") cnt[ne_row("a")]++
        next
    }
    if (NE_OP == "delete") {
        if (strict && !(k in row)) fail("delete of key " k " that is not there")
        delete row[k]
        next
    }
    if (NE_OP == "update") {
        old = NE_NB ? ne_key("b", keys) : k
        if (strict && !(old in row)) fail("update of key " old " that is not there")
        if (old != k) delete row[old]
    } else if (strict && (k in row))
        fail(NE_OP " of key " k " that is there")
    row[k] = ne_row("a")
}

END {
    n = 0
    for (k in row) { print row[k]; n++ }
    for (r in cnt) for (i = 0; i < cnt[r]; i++) { print r; n++ }
    printf "replay %s: %d reads, %d inserts, %d updates, %d deletes: %d rows%s%s\n", table == "" ? "(all tables)" : table,
        ops["read"], ops["insert"], ops["update"], ops["delete"], n, keyless ? " (no key: a multiset)" : "",
        notyet ? "; " notyet " updates/deletes of rows not read yet" : "" > "/dev/stderr"
    exit nfail > 0
}
