#!/bin/sh
# A stand-in for the rowcast binary with a small fixed help text that has every shape
# packaging/help-parse.awk knows (an item whose description starts on the next line, a list
# inside an item, an example block, a word hyphenated at a line end, a line that starts with
# a dot, a backslash, quotes), so that install_test.sh can compare gen-man.sh's and
# gen-completion.sh's output with fake-rowcast.1 and fake-rowcast.bash byte for byte whatever
# the real help says today.
case "$*" in
--help)
    cat <<'TEXT'
rowcast 9.8.7 - a test of the man page generator

usage:
  rowcast list [--all]         list things,
                               one per line
  rowcast run [OPTIONS] [FILE...]
                               run it
  rowcast show [--wide] [red|green]
  rowcast --version

Exit status: 0 success, 1 usage error.
TEXT
    ;;
"help convert")
    cat <<'TEXT'
usage: rowcast convert [OPTIONS] [FILE...]

Reads lines ('\r' removed) and writes them, tab-
separated. For example:
    rowcast convert --to canal in.ndjson
    rowcast convert -o a.b=c

  --to FMT               output format
  --mode=MODE            what to do:
                           stop       stop at once (default)
                           file:PATH  append to PATH and
                                      go on
  --level 1|2            how hard
  --wait[=SECS]          wait (default 5 seconds)
  --save PATH, -s PATH
                         store it in PATH
  --quiet, -q            say nothing
.dot at the start of a line, and 'a quote'.
TEXT
    ;;
"help capture")
    cat <<'TEXT'
usage: rowcast capture URL [OPTIONS]

  --slot NAME            the slot
  --mode=MODE            shared with convert
  -o src.depth=N         a source option

The output options are convert's (rowcast help convert): --to,
--quiet.
TEXT
    ;;
"formats --options")
    cat <<'TEXT'
FORMAT                   ENCODE DECODE DESCRIPTION

Vendor One:
alpha                    yes    yes    the first format
    (no options)

Other Vendor:
beta-2                   yes    no     the second: -o beta-2.x=y
    -o beta-2.mode=one|two
        choice; default: one
        the mode
    -o beta-2.zone=UTC|+HH:MM
        time zone; default: UTC
        a zone
gamma                    no     yes    read only
    -o gamma.flag=false|true
        boolean; default: by beta-2.mode
        a flag
vendor-gamma             no     yes    gamma as the vendor writes it
    (the options of gamma; gamma.flag is true)
TEXT
    ;;
*)
    echo "fake-rowcast: unexpected arguments: $*" >&2
    exit 1
    ;;
esac
