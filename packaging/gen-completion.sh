#!/bin/sh
# gen-completion.sh ROWCAST > rowcast.bash : writes rowcast's bash completion from what the
# built binary prints, so its lists are those of that binary: the commands from --help, the
# options of convert and capture and their values from `rowcast help convert` and `rowcast help
# capture` (capture's `-o postgres.*` source options too), the formats and their -o
# options from `rowcast formats --options` (through help-parse.awk and formats-parse.awk, the
# parsers the man page uses). The completion function itself is completion.bash, appended
# after the lists. Run by the build (CMakeLists.txt); tests/install/ checks the result.
set -eu
bin=$1
here=$(dirname "$0")

# What the lists hold: words the user types as they are. A placeholder (FILE, PATH, FMT,
# +HH:MM) is left out; a choice "a|b" is offered when every alternative is a plain lower-case
# word; an entry of a list in an option's help ("file:PATH", "kafka://HOST:PORT...") is offered
# up to its first placeholder ("file:", "kafka://").
lists='
function q(s) { gsub("\047", "\047\\\\\047\047", s); return "\047" s "\047" }
function literal(w) { return w ~ /^[a-z0-9][a-z0-9._-]*$/ }
function choices(arg,    n, a, i, out) {
    n = split(arg, a, "|")
    if (n < 2) return ""
    for (i = 1; i <= n; i++) if (!literal(a[i])) return ""
    out = a[1]
    for (i = 2; i <= n; i++) out = out " " a[i]
    return out
}
function add(list, w) { return list == "" ? w : list " " w }
# words after the command in an item of --help: "[--options]", "[mysql|oracle|postgresql]"
function command_words(rest,    n, w, i, out, c) {
    n = split(rest, w, " ")
    out = ""
    for (i = 1; i <= n; i++) {
        gsub(/[][]/, "", w[i])
        if (w[i] ~ /^-[-a-z]+$/ || literal(w[i])) out = add(out, w[i])
        else if ((c = choices(w[i])) != "") out = add(out, c)
    }
    return out
}
# each record comes after the name of the text it is from: help, convert or formats
{ src = $0; sub(/\t.*/, "", src); split(substr($0, length(src) + 2), f, "\t") }
src == "help" && f[1] == "I" && f[2] ~ /^rowcast / {
    n = split(f[2], w, " ")
    rest = substr(f[2], length(w[1]) + length(w[2]) + 3)
    if ((c = command_words(rest)) != "") cmd_words[w[2]] = c
    # a command shown twice (capture postgres://..., capture mysql://...) is offered once
    if (!(w[2] in cmd_seen)) { cmd_seen[w[2]] = 1; commands = add(commands, w[2]); cmd_order[++ncmd] = w[2] }
}
# "-o postgres.streaming=true" in help capture: a source option, offered after -o with the format options
src == "capture" && f[1] == "I" && f[2] ~ /^-o / {
    key = substr(f[2], 4)
    sub(/=.*/, "", key)
    capture_keys = add(capture_keys, key "=")
    nopt = 0
    next
}
# "The output options are those of convert (...): --to, -o, --sink, ..." in help
# capture (so it says today): the paragraph names the options of convert that capture takes too
src == "capture" && f[1] == "P" && f[2] ~ /options are convert.s/ { shared_par = 1 }
src == "capture" && f[1] == "B" { shared_par = 0 }
src == "capture" && f[1] == "P" && shared_par {
    n = split(f[2], w, " ")
    for (i = 1; i <= n; i++) {
        word = w[i]
        sub(/[,.:;]$/, "", word)
        if (word !~ /^--?[a-z][-a-z]*$/) continue
        if (index(" " options " ", " " word "= ")) word = word "=" # offered as convert offers it
        if (!index(" " capture_options " ", " " word " ")) capture_options = add(capture_options, word)
    }
}
(src == "convert" || src == "capture") && f[1] == "I" && f[2] ~ /^-/ {
    n = split(f[2], names, ", ")
    nopt = 0
    for (i = 1; i <= n; i++) {
        # "--to FMT", "--on-error=MODE" (offered as "--on-error="), "--progress[=SECS]"
        match(names[i], /^-[-A-Za-z0-9]*/)
        name = substr(names[i], 1, RLENGTH)
        rest = substr(names[i], RLENGTH + 1)
        arg = rest
        sub(/^(\[?=| )/, "", arg)
        sub(/\]$/, "", arg)
        if (substr(rest, 1, 1) == "=") name = name "="
        if (src == "convert") options = add(options, name)
        else if (!index(" " capture_options " ", " " name " ")) capture_options = add(capture_options, name)
        sub(/=$/, "", name)
        opt[++nopt] = name
        if ((c = choices(arg)) != "") opt_words[name] = c
        else if (arg ~ /^(FILE|PATH)/) opt_words[name] = "@files"
        if (!(name in opt_seen)) { opt_seen[name] = 1; opt_order[++nopts] = name }
        # "--progress[=SECS]": the next word is not its value
        if (arg != "" && substr(rest, 1, 1) != "[" && !index(" " with_value " ", " " name " ")) with_value = add(with_value, name)
    }
}
(src == "convert" || src == "capture") && f[1] == "S" {
    w1 = f[2]
    sub(/[A-Z[].*$/, "", w1)
    for (i = 1; i <= nopt; i++) opt_words[opt[i]] = add(opt_words[opt[i]] == "@files" ? "" : opt_words[opt[i]], w1)
}
src == "formats" && f[1] == "F" {
    fmt = f[2]
    fmt_order[++nfmt] = fmt
    if (f[3] == "yes") encoders = add(encoders, fmt)
    if (f[4] == "yes") decoders = add(decoders, fmt)
}
# a flavour (oms-canal) takes its format'"'"'s options, listed before it
src == "formats" && f[1] == "A" { fmt_keys[fmt] = fmt_keys[f[2]] }
src == "formats" && f[1] == "O" {
    fmt_keys[fmt] = add(fmt_keys[fmt], f[2] "=")
    if (!(f[2] in key_seen)) { key_seen[f[2]] = 1; all_keys = add(all_keys, f[2] "=") }
    if ((c = choices(f[3])) != "") { key_words[f[2]] = c; key_order[++nkeys] = f[2] }
}
function case_fn(name, n, order, words,    i) {
    print name "() {"
    print "    case $1 in"
    for (i = 1; i <= n; i++) if (order[i] in words) print "    " q(order[i]) ") REPLY=" q(words[order[i]]) " ;;"
    print "    *) REPLY= ;;"
    print "    esac"
    print "}"
}
END {
    print "_rowcast_commands=" q(commands)
    case_fn("_rowcast_command_words", ncmd, cmd_order, cmd_words)
    print "_rowcast_convert_options=" q(options)
    print "_rowcast_capture_options=" q(capture_options)
    print "_rowcast_capture_keys=" q(capture_keys)
    print "_rowcast_value_options=" q(with_value)
    case_fn("_rowcast_option_words", nopts, opt_order, opt_words)
    print "_rowcast_encoders=" q(encoders)
    print "_rowcast_decoders=" q(decoders)
    print "_rowcast_all_keys=" q(all_keys)
    case_fn("_rowcast_format_keys", nfmt, fmt_order, fmt_keys)
    case_fn("_rowcast_key_words", nkeys, key_order, key_words)
}
'

echo "# bash completion for rowcast. Generated by packaging/gen-completion.sh from rowcast --help,"
echo "# rowcast help convert and rowcast formats --options: edit those, not this file."
{
    "$bin" --help | awk -f "$here/help-parse.awk" | sed 's/^/help\t/'
    "$bin" help convert | awk -f "$here/help-parse.awk" | sed 's/^/convert\t/'
    "$bin" help capture | awk -f "$here/help-parse.awk" | sed 's/^/capture\t/'
    "$bin" formats --options | awk -f "$here/formats-parse.awk" | sed 's/^/formats\t/'
} | awk "$lists"
cat "$here/completion.bash"
