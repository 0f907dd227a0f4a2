# Replays a MySQL/MariaDB change stream of a table (id int PRIMARY KEY, v int, w int) captured
# to native (writers set w = 0 on INSERT and w = w + 1 on every UPDATE) and prints the table it
# rebuilds ("id v w" lines, unsorted) for comparison with SELECT. FILE: native lines or upstream
# Debezium values (payload only), each key's events in the order the sink holds them. Each run of rowcast writes
# with its own --server rN, so each event says which run delivered it.
#
#   awk -v acked="2=FILE:OFFSET 4=..." -f my_replay.awk pass=0 REF pass=1 FILE pass=2 FILE
#
# acked: for run N, the checkpoint's position when it started (after the previous run was
# killed). REF: the same binlog captured without faults (native, --start earliest), the list of
# changes the database made. A change is (gtid, file, offset, row). Checks (each failure a line
# "FAIL: ..." on stderr, exit 1):
#  - snapshot: only the last run that read one counts; a key once; markers first and last once;
#    no run before it streamed; a key's read never follows a change of it;
#  - every change is REF's, the same; every change of REF after the first one streamed is there;
#  - duplicates: identical to the first copy, by a run that acked names, of a transaction that
#    begins at or after acked[N] (the checkpoint never inside a transaction);
#  - order per key: the positions of a key's new changes rise; no gap, no overlap (INSERT finds
#    no row with w = 0, UPDATE finds the row with w + 1, DELETE finds the row).
function fail(msg) { if (nfail++ < 20) print "FAIL: " msg > "/dev/stderr" }
function jget(s, key,    i, r) {
    i = index(s, "\"" key "\":")
    if (!i) return ""
    r = substr(s, i + length(key) + 3)
    if (substr(r, 1, 1) == "\"") { r = substr(r, 2); return substr(r, 1, index(r, "\"") - 1) }
    match(r, /^[^,}\]]*/)
    return substr(r, 1, RLENGTH)
}
function image(s, key,    i, r) {
    i = index(s, "\"" key "\":")
    if (!i) return ""
    r = substr(s, i + length(key) + 3)
    if (r ~ /^null/) return ""
    match(r, /^[[{][^]}]*/)
    r = substr(r, 2, RLENGTH - 1)
    gsub(/"[a-z_]+":/, "", r)
    gsub(/,/, " ", r)
    return r
}
# FILE:OFFSET or the file and offset as one number (file number * 2^32 + offset)
function posval(file, off,    d) { d = file; sub(/.*\./, "", d); return (d + 0) * 4294967296 + off }
# parses a native line or an upstream Debezium value (payload only) into OP (r c u d B C), RUN,
# GTID, POS, ROW, MARK, ID V W
function parse(s,    op, f) {
    if (substr(s, 1, 7) == "{\"op\":\"") {
        op = jget(s, "op")
        OP = op == "read" ? "r" : op == "insert" ? "c" : op == "update" ? "u" : op == "delete" ? "d" : op == "begin" ? "B" : op == "commit" ? "C" : "?" op
        RUN = jget(s, "server")
        POS = posval(jget(s, "file"), jget(s, "offset"))
    } else {
        OP = jget(s, "op")
        RUN = jget(s, "name")
        POS = posval(jget(s, "file"), jget(s, "pos"))
    }
    sub(/^r/, "", RUN)
    GTID = jget(s, "gtid")
    ROW = jget(s, "row")
    MARK = jget(s, "snapshot")
    split(image(s, OP == "d" ? "before" : "after"), f, " ")
    ID = f[1]; V = f[2]; W = f[3]
}
BEGIN {
    k = split(acked, kv, " ")
    for (i = 1; i <= k; i++) { split(kv[i], p, "="); split(p[2], fo, ":"); A[p[1]] = posval(fo[1], fo[2]) }
}
{
    parse($0)
    if (OP == "?ddl" || OP == "") next # the table's CREATE (the reference starts at the binlog's start); a tombstone
    if (OP !~ /^[rcudBC]$/) { fail("line " FNR ": unexpected op " OP ": " substr($0, 1, 120)); next }
    if (OP == "B") { if (pass == 0) txbegin[GTID] = POS; next } # from REF: Debezium has no begin
    if (OP == "C") next
    if (pass == 0) { if (OP != "r") { ref[GTID SUBSEP POS SUBSEP ROW] = OP " " ID " " V " " W; nref++ } next }
    if (pass == 1) { if (OP == "r" && RUN + 0 > lastsnap) lastsnap = RUN + 0; next }
    if (OP == "r") {
        if (RUN + 0 < lastsnap) { oldreads++; next }
        if (ID in lp) fail("key " ID ": read (snapshot) after a change of it: the snapshot overlaps the stream")
        if (ID in ex) fail("key " ID ": read twice in one snapshot")
        ex[ID] = 1; v[ID] = V; w[ID] = W; reads++
        if (MARK != "true") marks[MARK]++
        next
    }
    if (RUN + 0 < lastsnap) fail("run " RUN " streamed a change although run " lastsnap " read the snapshot after it")
    sig = GTID SUBSEP POS SUBSEP ROW
    c = OP " " ID " " V " " W
    if (sig in seen) {
        dups++
        if (seen[sig] != c) fail("gtid " GTID " row " ROW ": re-delivered as '" c "', first as '" seen[sig] "'")
        else if (!(RUN in A)) fail("gtid " GTID " (key " ID ") delivered twice by run " RUN)
        else if (txbegin[GTID] < A[RUN]) fail("gtid " GTID " (key " ID ") re-delivered by run " RUN ": it begins at " txbegin[GTID] ", before the checkpoint " A[RUN] " the run started from")
        next
    }
    seen[sig] = c
    if (first == "" || POS < first) first = POS
    if (!(sig in ref)) fail("gtid " GTID " (key " ID "): '" c "' is not a change the database made")
    else if (ref[sig] != c) fail("gtid " GTID ": '" c "', the database made '" ref[sig] "'")
    if ((ID in lp) && POS < lp[ID]) fail("key " ID ": change at " POS " after one at " lp[ID] ": order per key broken")
    lp[ID] = POS
    changes++
    if (OP == "c") {
        if (ID in ex) fail("key " ID ": INSERT (gtid " GTID ") of a row that is there")
        else if (W != 0) fail("key " ID ": INSERT with w = " W)
        ex[ID] = 1; v[ID] = V; w[ID] = W
    } else if (OP == "u") {
        if (!(ID in ex)) fail("key " ID ": UPDATE (gtid " GTID ") of a row that is not there: a change missing")
        else if (W != w[ID] + 1) fail("key " ID ": UPDATE (gtid " GTID ") to w = " W " after w = " w[ID])
        ex[ID] = 1; v[ID] = V; w[ID] = W
    } else {
        if (!(ID in ex)) fail("key " ID ": DELETE (gtid " GTID ") of a row that is not there")
        delete ex[ID]
    }
}
END {
    if (lastsnap && (marks["first"] != (reads > 1) || marks["last"] != 1))
        fail("snapshot of run " lastsnap ": markers first " marks["first"] + 0 ", last " marks["last"] + 0 " times")
    for (sig in ref) {
        split(sig, q, SUBSEP)
        if (first != "" && !(sig in seen) && q[2] + 0 >= first && missing++ < 5) fail("gtid " q[1] ": change '" ref[sig] "' missing")
    }
    for (id in ex) print id, v[id], w[id]
    printf "replay: snapshot of run %d: %d reads (%d of earlier runs); %d changes, %d re-delivered\n", lastsnap, reads, oldreads, changes, dups > "/dev/stderr"
    exit nfail > 0
}
