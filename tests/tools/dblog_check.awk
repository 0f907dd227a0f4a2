# The DBLog guarantee over a captured native stream, event by event: every read of a key
# carries a v at least the largest v already emitted for that key (by a read, insert, update
# or delete with v in its before), and larger than it when the key's last change emitted was
# a delete (a read of the deleted row itself). The writer (tests/tools/bf_writer) takes v from
# one increasing counter, so every change of a key has a larger v than the one before.
#
#   awk [-v table=SCHEMA.TABLE] [-v keys=COL,COL] [-v vcol=v] \
#       -f tests/tools/native_events.awk -f tests/tools/dblog_check.awk STREAM
#
# table: that table only (else every table, each key with its table); keys: the key columns by
# name (a table without a primary key: its unique column) instead of the pk flags; vcol: the
# column holding v (default v). Prints the first violation with its line number and the line
# that emitted the larger v, exit 1; else the counts, exit 0. A table with neither key nor
# keys, or an event without v, is an error too (exit 2).
function stop(code, msg) { print msg > "/dev/stderr"; done = code; exit code }

BEGIN { if (vcol == "") vcol = "v" }

{
    ne_parse($0, table)
    if (NE_TABLE == "" || (table != "" && NE_TABLE != table)) next
    del = NE_OP == "delete"
    k = NE_TABLE "\t" ne_key(del ? "b" : "a", keys)
    if (NE_KEYLESS) stop(2, "line " NR ": table " NE_TABLE " has no key: name its unique columns with -v keys=")
    v = del ? (NE_BKO ? "" : ne_value("b", vcol)) : ne_value("a", vcol)
    if (v == "" && !del) stop(2, "line " NR ": " NE_OP " of " NE_TABLE " without a column " vcol)
    if (NE_OP == "read") {
        reads++
        if (k in maxv) {
            c = ne_icmp(v, maxv[k])
            if (c < 0 || (c == 0 && gone[k]))
                stop(1, "DBLOG VIOLATION: line " NR ": read of " NE_TABLE " key " substr(k, length(NE_TABLE) + 2) " with " vcol "=" v \
                     (c < 0 ? ", older than " vcol "=" maxv[k] " emitted at line " at[k] " (" how[k] ")" \
                            : ", the row deleted at line " gonel[k] " (its " vcol " " maxv[k] " emitted at line " at[k] ")"))
        }
    } else
        changes++
    if (del) { gone[k] = 1; gonel[k] = NR }
    else gone[k] = 0
    if (v != "" && (!(k in maxv) || ne_icmp(v, maxv[k]) > 0)) { maxv[k] = v; at[k] = NR; how[k] = NE_OP }
    else if (!(k in maxv)) { maxv[k] = ""; at[k] = NR; how[k] = NE_OP }
}

END {
    if (done) exit done
    n = 0
    for (k in maxv) n++
    printf "dblog%s: %d reads, %d changes, %d keys: no read older than a change of its key\n", table == "" ? "" : " " table, reads, changes, n > "/dev/stderr"
}
