# Functions that read rowcast's native JSON lines (one event a line) without jq, values kept as
# text (a bigint never passes through a double): the library of replay.awk and dblog_check.awk,
# loaded first (awk -f native_events.awk -f replay.awk ...).
#
# ne_parse(line[, only]) sets (only: a table's name; the events of other tables set NE_TABLE
# and nothing after it), for a row event (read, insert, update, delete):
#   NE_OP     read, insert, update, delete; begin, commit and others as they are; "" for a
#             line that is not an event
#   NE_TABLE  SCHEMA.TABLE (PostgreSQL) or DB.TABLE (MySQL/MariaDB), from "source"
#   NE_NC, NE_COL[1..NE_NC], NE_PK[1..NE_NC]  the columns and whether each is in the key
#   NE_NB, NE_B[1..NE_NB] / NE_NA, NE_A[1..NE_NA]  "before" / "after", 0 when absent
#   NE_BKO    1 when the event says before_key_only (PostgreSQL identity default: only the
#             key columns of "before" are values)
# Values are COPY text (what psql's COPY ... TO STDOUT and mariadb --batch print): null is \N,
# a string its characters with \\ \t \n \r escaped as JSON escapes them already, \" and \/
# unescaped; a number, true, false as written. Values must be scalars (a JSON array or object
# as a column value is not read) and \uXXXX escapes are kept as they are.
# ne_key(side, keys) / ne_row(side): of "before" (side "b") or "after" (side "a"), the key columns' (the pk flags, or the comma-separated
# column names keys when given) / all columns' values of arr joined by tabs; ne_key returns ""
# when the table has no key (then NE_KEYLESS is 1). ne_value(side, name): the value of the
# column named name, or "" when there is none. ne_icmp(a, b): -1, 0 or 1 comparing two
# integers written as decimal text, of any length.

# the value after "key": in s, the first such (a string without its quotes, a number, null)
function ne_get(s, key,    i, r) {
    i = index(s, "\"" key "\":")
    if (!i) return ""
    r = substr(s, i + length(key) + 3)
    if (substr(r, 1, 1) == "\"") {
        match(r, /^"([^"\\]|\\.)*"/)
        return ne_text(substr(r, 2, RLENGTH - 2))
    }
    match(r, /^[^,}\]]*/)
    return substr(r, 1, RLENGTH)
}

# a JSON string's inside as COPY text
function ne_text(t) {
    if (index(t, "\\") == 0) return t
    gsub(/\\"/, "\"", t)
    gsub(/\\\//, "/", t)
    return t
}

# the scalars of the array after "key": in s into arr[1..n]; returns n (0: no such array)
function ne_array(s, key, arr,    i, r, n, c) {
    i = index(s, "\"" key "\":[")
    if (!i) return 0
    r = substr(s, i + length(key) + 4)
    n = 0
    if (substr(r, 1, 1) == "]") return 0
    while (r != "") {
        if (substr(r, 1, 1) == "\"") {
            match(r, /^"([^"\\]|\\.)*"/)
            arr[++n] = ne_text(substr(r, 2, RLENGTH - 2))
        } else {
            match(r, /^[^,\]]*/)
            arr[++n] = substr(r, 1, RLENGTH)
            if (arr[n] == "null") arr[n] = "\\N"
        }
        c = substr(r, RLENGTH + 1, 1)
        r = substr(r, RLENGTH + 2)
        if (c != ",") break
    }
    return n
}

# the columns' names and key flags into NE_COL and NE_PK; returns their number
function ne_columns(s,    i, r, n, obj, raw) {
    i = index(s, "\"columns\":[")
    if (!i) return 0
    r = substr(s, i + 11)
    raw = substr(r, 1, index(r, "}]"))
    if (raw == ne_cols_raw) return ne_cols_n # the same columns as the last event's
    ne_cols_raw = raw
    n = 0
    while (match(r, /^\{("([^"\\]|\\.)*"|[^}"])*\}/)) {
        obj = substr(r, 1, RLENGTH)
        r = substr(r, RLENGTH + 1)
        NE_COL[++n] = ne_get(obj, "name")
        NE_PK[n] = index(obj, "\"pk\":true") > 0
        if (substr(r, 1, 1) != ",") break
        r = substr(r, 2)
    }
    return ne_cols_n = n
}

function ne_parse(s, only,    src) {
    NE_OP = NE_TABLE = ""
    NE_NC = NE_NB = NE_NA = NE_BKO = 0
    if (substr(s, 1, 7) != "{\"op\":\"") return
    NE_OP = ne_get(s, "op")
    if (NE_OP != "read" && NE_OP != "insert" && NE_OP != "update" && NE_OP != "delete") return
    src = substr(s, index(s, "\"source\":{"))
    src = substr(src, 1, index(src, "}"))
    NE_TABLE = ne_get(src, "schema")
    if (NE_TABLE == "") NE_TABLE = ne_get(src, "db")
    NE_TABLE = NE_TABLE "." ne_get(src, "table")
    if (only != "" && NE_TABLE != only) return
    NE_NC = ne_columns(s)
    NE_NB = ne_array(s, "before", NE_B)
    NE_NA = ne_array(s, "after", NE_A)
    NE_BKO = index(s, "\"before_key_only\":true") > 0
}

function ne_key_of(arr, n, keys,    i, k, sep, want, names, m) {
    k = sep = ""
    NE_KEYLESS = 1
    if (keys != "") {
        m = split(keys, names, ",")
        for (i = 1; i <= m; i++) want[names[i]] = 1
    }
    for (i = 1; i <= n && i <= NE_NC; i++)
        if (keys != "" ? (NE_COL[i] in want) : NE_PK[i]) { k = k sep arr[i]; sep = "\t"; NE_KEYLESS = 0 }
    return k
}

function ne_row_of(arr, n,    i, r) {
    r = arr[1]
    for (i = 2; i <= n; i++) r = r "\t" arr[i]
    return r
}

function ne_value_of(arr, n, name,    i) {
    for (i = 1; i <= n && i <= NE_NC; i++) if (NE_COL[i] == name) return arr[i]
    return ""
}

function ne_icmp(a, b,    na, nb) {
    a = a ""; b = b ""
    na = substr(a, 1, 1) == "-"; nb = substr(b, 1, 1) == "-"
    if (na != nb) return na ? -1 : 1
    if (na) return ne_icmp(substr(b, 2), substr(a, 2))
    sub(/^0+/, "", a); sub(/^0+/, "", b)
    if (length(a) != length(b)) return length(a) < length(b) ? -1 : 1
    return a < b ? -1 : a > b ? 1 : 0
}

# the same of "before" (side "b") or "after" (side "a")
function ne_key(side, keys) { return side == "b" ? ne_key_of(NE_B, NE_NB, keys) : ne_key_of(NE_A, NE_NA, keys) }
function ne_row(side) { return side == "b" ? ne_row_of(NE_B, NE_NB) : ne_row_of(NE_A, NE_NA) }
function ne_value(side, name) { return side == "b" ? ne_value_of(NE_B, NE_NB, name) : ne_value_of(NE_A, NE_NA, name) }
# the key columns' names (the pk flags, or keys) joined by commas
function ne_key_names(keys,    i, r, sep) {
    if (keys != "") return keys
    r = sep = ""
    for (i = 1; i <= NE_NC; i++) if (NE_PK[i]) { r = r sep NE_COL[i]; sep = "," }
    return r
}
