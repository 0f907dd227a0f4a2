# Replays a captured change stream of a table (id int PRIMARY KEY, v int, w int) whose writers
# set w = 0 on INSERT and w = w + 1 on every UPDATE, and prints the table it rebuilds ("id v w"
# lines, unsorted) for comparison with SELECT. Reads native lines or upstream Debezium values
# (payload only, with debezium.provide.transaction.metadata), one per line, each key's events
# in the order the sink holds them (a Kafka topic: partition by partition, in offset order).
# Every run of rowcast writes with its own --server rN (N = 1, 2, ...), so each event says
# which run delivered it.
#
#   awk -v acked="2=LSN 3=LSN" [-v nodup=1] -f cdc_replay.awk [pass=0 REF] pass=1 FILE pass=2 FILE
#
# acked: for run N, the slot's confirmed_flush_lsn (a number) when it started (after the
# previous run was killed), or when it lost its connection (a run that reconnects resends the
# transaction it was cut off in). REF: the same changes captured without faults in native
# (from a slot of its own), for the commit LSN of each transaction (upstream Debezium has
# none) and as the list of changes FILE must hold. The checks, each failure a line
# "FAIL: ..." on stderr (exit 1):
#  - snapshot: only the last run that read a snapshot counts (a run killed during its snapshot
#    leaves no slot, the next one reads everything again); its reads hold each key once, with
#    the markers first and last once each; no run before it streamed anything (nothing was
#    streamed before a snapshot); a key's read never follows a change of it (overlap);
#  - order per key: a change is new when its (txid, order in the transaction) was not seen
#    before; the row LSNs of a key's new changes rise strictly (PostgreSQL's row locks order
#    the changes of a row by their WAL position);
#  - duplicates: a change seen before is a re-delivery: identical to the first copy, delivered
#    by a run N that acked names, of a transaction whose commit LSN is at or after acked[N]
#    (PostgreSQL sends again exactly the transactions committed at or after the slot's
#    confirmed_flush_lsn: they were not acknowledged then); with nodup=1 there are none;
#  - with REF: every change is REF's, the same, and every change of REF committed after the
#    first one streamed is there;
#  - no gap, no overlap: an INSERT finds no row and has w = 0; an UPDATE finds the row and
#    has w = w + 1 (a missing UPDATE or one applied twice breaks the count), a DELETE finds
#    the row;
#  - transactions whole: each transaction's orders are 1..n without a hole, and a native
#    commit's count is n.

function fail(msg) {
    if (nfail++ < 20) print "FAIL: " msg > "/dev/stderr"
}

# the value after "key": in s (a string without its quotes, a number, null), or ""
function jget(s, key,    i, r) {
    i = index(s, "\"" key "\":")
    if (!i) return ""
    r = substr(s, i + length(key) + 3)
    if (substr(r, 1, 1) == "\"") { r = substr(r, 2); return substr(r, 1, index(r, "\"") - 1) }
    match(r, /^[^,}\]]*/)
    return substr(r, 1, RLENGTH)
}

# the row image after "key": ([1,2,0] or {"id":1,"v":2,"w":0}) as "1 2 0", or ""
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

function hexval(h,    i, n) {
    n = 0
    for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789ABCDEF", toupper(substr(h, i, 1))) - 1
    return n
}

# an LSN, "0/1503990" (native) or a number (Debezium), as a number
function lsnval(x,    p) {
    p = index(x, "/")
    return p ? hexval(substr(x, 1, p - 1)) * 4294967296 + hexval(substr(x, p + 1)) : x + 0
}

# parses line $0 into OP (r c u d B C, "" for a tombstone), RUN, ID V W, TX, ORD (from 1), LSN, MARK, COUNT
function parse(s,    img, f, op) {
    OP = ""
    if (s == "") return
    if (substr(s, 1, 7) == "{\"op\":\"") {
        op = jget(s, "op")
        OP = op == "read" ? "r" : op == "insert" ? "c" : op == "update" ? "u" : op == "delete" ? "d" : op == "begin" ? "B" : op == "commit" ? "C" : "?" op
        RUN = jget(s, "server")
        TX = jget(s, "txid")
        ORD = jget(s, "index") + 1
        LSN = lsnval(jget(s, "lsn"))
        COUNT = jget(s, "count")
    } else {
        OP = jget(s, "op")
        RUN = jget(s, "name")
        TX = jget(s, "txId")
        ORD = jget(s, "total_order")
        LSN = lsnval(jget(s, "lsn"))
    }
    sub(/^r/, "", RUN)
    MARK = jget(s, "snapshot")
    img = image(s, OP == "d" ? "before" : "after")
    split(img, f, " ")
    ID = f[1]; V = f[2]; W = f[3]
}

{
    parse($0)
    if (OP == "") next
    if (OP !~ /^[rcudBC]$/) { fail("line " FNR ": unexpected op " OP ": " substr($0, 1, 120)); next }
    if (OP == "B") { commitlsn[TX] = LSN; next }
    if (pass == 0) {
        if (OP ~ /^[cud]$/) { ref[TX SUBSEP ORD] = OP " " ID " " V " " W " " LSN; reftx[TX SUBSEP ORD] = TX; nref++ }
        next
    }
    if (pass == 1) {
        if (OP == "r" && RUN + 0 > lastsnap) lastsnap = RUN + 0
        next
    }
    if (OP == "C") { commits[TX] = COUNT; next }
    if (OP == "r") {
        if (RUN + 0 < lastsnap) { oldreads++; next }
        if (ID in lp) fail("key " ID ": read (snapshot) after a change of it: the snapshot overlaps the stream")
        if (ID in ex) fail("key " ID ": read twice in one snapshot")
        ex[ID] = 1; v[ID] = V; w[ID] = W
        reads++
        if (MARK != "true") marks[MARK]++
        next
    }
    if (RUN + 0 < lastsnap) fail("run " RUN " streamed a change although run " lastsnap " read the snapshot after it")
    sig = TX SUBSEP ORD
    c = OP " " ID " " V " " W " " LSN
    if (sig in seen) {
        dups++
        if (nodup) fail("txid " TX " order " ORD " (key " ID ") delivered twice")
        else if (seen[sig] != c) fail("txid " TX " order " ORD ": re-delivered as '" c "', first as '" seen[sig] "'")
        else if (!(RUN in A)) fail("txid " TX " order " ORD " (key " ID ") delivered twice by run " RUN)
        else if (!(TX in commitlsn)) fail("txid " TX ": re-delivered, its commit LSN unknown")
        else if (commitlsn[TX] < A[RUN]) fail("txid " TX " order " ORD " (key " ID ") re-delivered by run " RUN ": it commits at LSN " commitlsn[TX] ", before the slot's confirmed_flush_lsn " A[RUN] " when the run started")
        next
    }
    seen[sig] = c
    if (TX in commitlsn && (firstcommit == "" || commitlsn[TX] < firstcommit)) firstcommit = commitlsn[TX]
    if (nref && !(sig in ref)) fail("txid " TX " order " ORD " (key " ID "): '" c "' is not a change the database made")
    else if (nref && ref[sig] != c) fail("txid " TX " order " ORD ": '" c "', the database made '" ref[sig] "'")
    if ((ID in lp) && LSN <= lp[ID]) fail("key " ID ": change at LSN " LSN " after one at LSN " lp[ID] ": order per key broken")
    lp[ID] = LSN
    changes++
    n[TX]++
    if (ORD + 0 > maxord[TX]) maxord[TX] = ORD + 0
    if (OP == "c") {
        if (ID in ex) fail("key " ID ": INSERT (txid " TX ") of a row that is there: a change twice, or a snapshot overlap")
        else if (W != 0) fail("key " ID ": INSERT with w = " W)
        ex[ID] = 1; v[ID] = V; w[ID] = W
    } else if (OP == "u") {
        if (!(ID in ex)) fail("key " ID ": UPDATE (txid " TX ") of a row that is not there: a change missing")
        else if (W != w[ID] + 1) fail("key " ID ": UPDATE (txid " TX ") to w = " W " after w = " w[ID] ": " (W > w[ID] + 1 ? "a change missing" : "a change twice"))
        ex[ID] = 1; v[ID] = V; w[ID] = W
    } else {
        if (!(ID in ex)) fail("key " ID ": DELETE (txid " TX ") of a row that is not there")
        delete ex[ID]
    }
}

END {
    if (lastsnap) {
        if (marks["first"] != (reads > 1) || marks["last"] != 1)
            fail("snapshot of run " lastsnap ": markers first " marks["first"] + 0 " times, last " marks["last"] + 0 " times, want once each (first none with a single row)")
    }
    for (t in n) {
        if (maxord[t] != n[t]) fail("txid " t ": " n[t] " changes, orders up to " maxord[t] ": a change of it missing")
        if ((t in commits) && commits[t] != n[t]) fail("txid " t ": commit count " commits[t] ", " n[t] " changes delivered")
    }
    for (t in commits) if (commits[t] > 0 && !(t in n)) fail("txid " t ": a commit of " commits[t] " changes, none delivered")
    for (sig in ref)
        if (firstcommit != "" && !(sig in seen) && commitlsn[reftx[sig]] >= firstcommit && missing++ < 5)
            fail("txid " reftx[sig] ": change '" ref[sig] "' missing")
    for (id in ex) print id, v[id], w[id]
    printf "replay: snapshot of run %d: %d reads (%d of earlier runs); %d changes, %d re-delivered\n", lastsnap, reads, oldreads, changes, dups > "/dev/stderr"
    exit nfail > 0
}

BEGIN {
    k = split(acked, kv, " ")
    for (i = 1; i <= k; i++) { split(kv[i], p, "="); A[p[1]] = p[2] + 0 }
    nref = 0
}
