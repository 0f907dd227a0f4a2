# Splits `rowcast formats --options` into records for gen-man.sh and gen-completion.sh (one
# parser for both, as help-parse.awk is for the help text). The table is a header line, then
# for each format "NAME ENCODE DECODE SUMMARY" at column 0, followed by its options as
# "    -o KEY=VALUES", its type and default on the next line ("        TYPE; default: DEFAULT")
# and its help on the lines after that ("        HELP"):
#
#   G <vendor>                                     a heading line "VENDOR:" (blank line before)
#   F <name> <encode: yes|no> <decode: yes|no> <summary>
#   O <key> <values> <help> <type and default>    one -o option of the format above
#   A <format>                                     the format above takes <format>'s options
#                                                  (a flavour: "    (the options of canal; ...)")
#
# Fields are separated by tabs.

function flush_opt() {
    if (key != "") print "O\t" key "\t" values "\t" help "\t" meta
    key = ""
}
NR == 1 || /^$/ { next }
# a vendor's heading, "Debezium:": the formats below it are that vendor's tools' outputs
/^[^ ].*:$/ {
    flush_opt()
    print "G\t" substr($0, 1, length($0) - 1)
    next
}
/^[^ ]/ {
    flush_opt()
    name = $1; enc = $2; dec = $3
    sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, "")
    print "F\t" name "\t" enc "\t" dec "\t" $0
    next
}
/^    [(]the options of [^ ;]+;/ {
    flush_opt()
    of = substr($0, 21)
    sub(/;.*/, "", of)
    print "A\t" of
    next
}
/^    -o / {
    flush_opt()
    opt = substr($0, 8)
    eq = index(opt, "=")
    key = substr(opt, 1, eq - 1)
    values = substr(opt, eq + 1)
    help = ""
    meta = ""
    next
}
/^        / {
    t = $0
    sub(/^ +/, "", t)
    if (meta == "") meta = t
    else help = help == "" ? t : help " " t
}
END { flush_opt() }
