# What varies between two runs of the capture demo (scripts/demo.sh native), made stable for the
# comparison with its golden file (tests/golden/demo/): every LSN ("lsn", "checkpoint",
# "last_commit_lsn"), transaction id and ts_us becomes its ordinal among the distinct values of
# its kind in order of first appearance (LSN1, TX1, 1, ...), so that the values equal by design
# stay equal (a transaction's BEGIN and COMMIT, its checkpoint and the next one's
# last_commit_lsn) without the golden holding WAL positions, ids or clocks of one machine. A
# row change's own LSN becomes "LSN": it is where its WAL record starts, which equals an
# earlier position or not depending on what else the server wrote (a background record).
#   awk -f demo_normalise.awk FILE
{
    out = ""
    while (match($0, /"(lsn|checkpoint|last_commit_lsn|txid)":"[^"]*"|"ts_us":[0-9]+/)) {
        m = substr($0, RSTART, RLENGTH)
        colon = index(m, ":")
        key = substr(m, 1, colon - 1)
        val = substr(m, colon + 1)
        kind = key == "\"txid\"" ? "TX" : key == "\"ts_us\"" ? "" : "LSN"
        rest = substr($0, RSTART + RLENGTH)
        if (key == "\"lsn\"" && rest ~ /^,"txid":"[^"]*","index"/) new = "\"LSN\""
        else {
            if (!((kind, val) in seen)) seen[kind, val] = ++count[kind]
            new = kind == "" ? seen[kind, val] : "\"" kind seen[kind, val] "\""
        }
        out = out substr($0, 1, RSTART - 1) key ":" new
        $0 = rest
    }
    print out $0
}
