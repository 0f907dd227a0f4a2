# Splits rowcast's help text (`rowcast --help`, `rowcast help convert`) into records, one per
# line, so that the man page (gen-man.sh) and the bash completion (gen-completion.sh) read the
# help through one parser and cannot disagree about it. The help of convert and capture is
# printed from their flag tables (src/cli/flags.h: one row per flag, the layout below made by
# cli_flags_help), so the table is the one source of all three. The help's layout is the grammar:
#
#   text at column 0                 P <text>                a paragraph line
#   an empty line                    B                       paragraph break, ends a list item
#   "  TAG  description"             I <tag> <description>   a list item (TAG: an option or a
#                                                            command; the description may
#                                                            start on the next line)
#   a line at the description's      D <text>                the item's description goes on
#   column (or left of it)
#   a line right of it               S <tag> <description>   an entry of a list inside the
#                                                            item ("stdout   (default)")
#   right of such an entry           s <text>                that entry's description goes on
#   indented text outside an item    V <text>                an example, kept as it is
#
# Fields are separated by tabs. The description column is where the item's description starts
# on its first line, else the indentation of its first continuation line.

function split_tag(text, ind) {
    if (match(text, /  +/)) {
        tag = substr(text, 1, RSTART - 1)
        desc = substr(text, RSTART + RLENGTH)
        return ind + RSTART - 1 + RLENGTH
    }
    tag = text
    desc = ""
    return 0
}

{
    gsub(/\t/, " ") # tabs separate the fields of a record
    match($0, /^ */)
    ind = RLENGTH
    text = substr($0, ind + 1)
    if (text == "") {
        print "B"
        item = 0
    } else if (ind == 0) {
        print "P\t" text
        item = 0
    } else if (ind == 2) {
        desc_ind = split_tag(text, ind)
        sub_ind = 0
        item = 1
        print "I\t" tag "\t" desc
    } else if (!item) {
        print "V\t" text
    } else {
        if (!desc_ind) desc_ind = ind
        if (ind <= desc_ind) {
            sub_ind = 0
            print "D\t" text
        } else {
            if (!sub_ind) sub_ind = ind
            if (ind == sub_ind) {
                split_tag(text, ind)
                print "S\t" tag "\t" desc
            } else {
                print "s\t" text
            }
        }
    }
}
