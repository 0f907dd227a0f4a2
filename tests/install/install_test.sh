#!/usr/bin/env bash
# install_test.sh BUILD CC VERSION LIBDIR (ctest install_tree, from the source directory):
# installs BUILD into a temporary prefix and uses the installed tree as a user would: the
# file list, a program of its own built with `pkg-config --cflags --libs rowcast` against the
# installed headers and library (its messages compared byte for byte), the man page through
# man(1), and the bash completion through bash's completion variables. Also checks the man
# page and completion generators on a fixed help text (fake-rowcast.sh), byte for byte.
set -u
build=$1 cc=$2 version=$3 libdir=$4
here=tests/install
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# same WHAT EXPECTED_FILE ACTUAL_FILE
same() {
    if cmp -s "$2" "$3"; then
        echo "ok: $1"
    else
        fail "$1 differs from $2 (- expected, + actual):"
        diff -u "$2" "$3" | sed -n '3,40p'
    fi
}

# --- the generators, on a help text that does not change when rowcast's does
sh packaging/gen-man.sh "$here/fake-rowcast.sh" >"$tmp/fake.1"
same "gen-man.sh on fake-rowcast.sh" "$here/fake-rowcast.1" "$tmp/fake.1"
sh packaging/gen-completion.sh "$here/fake-rowcast.sh" >"$tmp/fake.bash"
same "gen-completion.sh on fake-rowcast.sh" "$here/fake-rowcast.bash" "$tmp/fake.bash"

# --- install
p=$tmp/prefix
if ! cmake --install "$build" --prefix "$p" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    fail "cmake --install $build --prefix $p"
    exit 1
fi
{
    echo "bin/rowcast"
    for h in include/rowcast/*.h; do echo "$h"; done
    echo "$libdir/librowcast.a"
    echo "$libdir/pkgconfig/rowcast.pc"
    echo "share/bash-completion/completions/rowcast"
    echo "share/man/man1/rowcast.1"
    echo "lib/systemd/system/rowcast@.service"
} | LC_ALL=C sort >"$tmp/files.expected"
(cd "$p" && find . -type f -o -type l) | sed 's|^\./||' | LC_ALL=C sort >"$tmp/files"
same "installed files" "$tmp/files.expected" "$tmp/files"
echo "rowcast $version" >"$tmp/version.expected"
"$p/bin/rowcast" --version >"$tmp/version" 2>&1
same "installed rowcast --version" "$tmp/version.expected" "$tmp/version"

# --- pkg-config and a program built against the installed library
export PKG_CONFIG_PATH=$p/$libdir/pkgconfig
[ "$(pkg-config --modversion rowcast 2>&1)" = "$version" ] || fail "pkg-config --modversion rowcast: $(pkg-config --modversion rowcast 2>&1)"
cflags=$(pkg-config --cflags rowcast 2>&1 | sed 's/ *$//')
[ "$cflags" = "-I$p/include" ] || fail "pkg-config --cflags rowcast: '$cflags', expected '-I$p/include'"
libs=$(pkg-config --libs rowcast 2>&1 | sed 's/ *$//')
case "$libs" in
"-L$p/$libdir -lrowcast -lm -pthread"*) ;;
*) fail "pkg-config --libs rowcast: '$libs', expected it to start with '-L$p/$libdir -lrowcast -lm -pthread'" ;;
esac
# every installed header compiles on its own, with nothing but the installed tree
for h in "$p"/include/rowcast/*.h; do
    echo "#include <rowcast/${h##*/}>" >"$tmp/h.c"
    # shellcheck disable=SC2086 # pkg-config's flags are words
    "$cc" -std=c11 -Wall -Wextra -Werror -Wpedantic $cflags -fsyntax-only "$tmp/h.c" 2>"$tmp/h.err" ||
        { fail "rowcast/${h##*/} does not compile alone:"; head -5 "$tmp/h.err"; }
done
# build NAME: tests/install/NAME.c built with pkg-config's flags only, against the installed tree
build() {
    # shellcheck disable=SC2086 # pkg-config's flags are words
    "$cc" -std=c11 -Wall -Wextra -Werror $cflags "$here/$1.c" -o "$tmp/$1" $libs 2>"$tmp/cc.err" && return 0
    fail "building $1.c with pkg-config --cflags --libs rowcast:"
    head -20 "$tmp/cc.err"
    return 1
}
# the event use_rowcast builds, in native form (the first line of its output)
head -1 "$here/use_rowcast.out" >"$tmp/event.ndjson"
up="-o debezium.bigint.unsigned.handling.mode=precise"
if build use_rowcast; then
    "$tmp/use_rowcast" >"$tmp/use.out" 2>&1
    same "use_rowcast (built with pkg-config) output" "$here/use_rowcast.out" "$tmp/use.out"
    # the installed command writes the same messages for that event
    for a in "--to native" "--to oms-canal" "--to oms-canal --keys" "--to debezium $up" "--to debezium $up --keys"; do
        # shellcheck disable=SC2086
        "$p/bin/rowcast" convert -q $a "$tmp/event.ndjson" 2>&1
    done >"$tmp/cli.out"
    same "installed rowcast convert of the same event" "$here/use_rowcast.out" "$tmp/cli.out"
fi
# the opaque pipeline (rowcast/pipeline.h) end to end: a file in, messages on stdout
if build use_pipeline; then
    "$tmp/use_pipeline" "$tmp/event.ndjson" >"$tmp/pipeline.out" 2>&1
    same "use_pipeline (the public pipeline) output" "$here/use_pipeline.out" "$tmp/pipeline.out"
    for a in "--to canal" "--to debezium $up"; do
        # shellcheck disable=SC2086
        "$p/bin/rowcast" convert -q --from native $a "$tmp/event.ndjson" 2>&1
    done >"$tmp/cli.out"
    sed '$d' "$here/use_pipeline.out" >"$tmp/pipeline.expected"
    same "installed rowcast convert of the file use_pipeline converted" "$tmp/pipeline.expected" "$tmp/cli.out"
fi

# --- the man page
page=$p/share/man/man1/rowcast.1
MANWIDTH=100 man --warnings -l "$page" 2>"$tmp/man.err" >"$tmp/man.txt"
[ -s "$tmp/man.err" ] && { fail "man -l $page warns:"; head -10 "$tmp/man.err"; }
head -1 "$tmp/man.txt" | tr -s ' ' >"$tmp/man.head"
echo "ROWCAST(1) User Commands ROWCAST(1)" >"$tmp/man.head.expected"
same "man page header" "$tmp/man.head.expected" "$tmp/man.head"
printf '%s: "%s"\n' "$page" "rowcast - $("$p/bin/rowcast" --help | sed -n '1s/^rowcast [^ ]* - //p')" >"$tmp/whatis.expected"
lexgrog "$page" >"$tmp/whatis" 2>&1
same "lexgrog (the page's NAME line, as whatis reads it)" "$tmp/whatis.expected" "$tmp/whatis"
# every command, every option of convert and every -o option is on the page
{
    "$p/bin/rowcast" --help | awk -f packaging/help-parse.awk
    "$p/bin/rowcast" help convert | awk -f packaging/help-parse.awk
    "$p/bin/rowcast" help capture | awk -f packaging/help-parse.awk
    "$p/bin/rowcast" help snapshot | awk -f packaging/help-parse.awk
} | awk -F '\t' '$1 == "I" { print $2 }' >"$tmp/tags"
"$p/bin/rowcast" formats --options | awk -f packaging/formats-parse.awk | awk -F '\t' '$1 == "O" { print "-o " $2 "=" $3 }' >>"$tmp/tags"
# as one line, a list of values that the page broke after a '|' joined again
tr -s ' \n' '  ' <"$tmp/man.txt" | sed 's/| /|/g' >"$tmp/man.flat"
missing=0
while IFS= read -r t; do
    grep -qF -- "$t" "$tmp/man.flat" || { fail "the man page lacks '$t'"; missing=1; }
done <"$tmp/tags"
[ $missing = 0 ] && echo "ok: man page has all $(wc -l <"$tmp/tags") commands and options of --help, help convert, help capture, help snapshot and formats --options"

# --- the bash completion: COMPREPLY for the words typed so far (the last one being completed)
cat >"$tmp/complete.sh" <<'EOF'
. "$1"
complete_words() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _rowcast
    printf '%s' "$*|"
    printf ' %q' "${COMPREPLY[@]}" # %q: a name with a space is one word
    echo
}
complete_words rowcast ''
complete_words rowcast convert --to ''
complete_words rowcast convert --from ''
complete_words rowcast convert --to deb
complete_words rowcast convert --to oms-deb
complete_words rowcast convert --qu
complete_words rowcast convert --on-error = ''
complete_words rowcast convert --sink ''
complete_words rowcast convert --to CANAL -o ''
complete_words rowcast convert --to canal -o canal.flavor = ''
complete_words rowcast convert --to oms-canal -o ''
complete_words rowcast formats ''
complete_words rowcast capture ''
complete_words rowcast capture postgres://h/db --
complete_words rowcast capture postgres://h/db --sl
complete_words rowcast capture postgres://h/db --threads ''
complete_words rowcast capture postgres://h/db -o postgres.str
complete_words rowcast capture postgres://h/db --to canal -o canal.g
EOF
cat >"$tmp/complete.expected" <<'EOF'
rowcast | formats convert capture snapshot config types help --version
rowcast convert --to | debezium canal maxwell ogg-json cloudevents oms-default oms-defaultextendcolumntype oms-canal oms-dataworks oms-shareplex oms-debezium oms-debeziumflatten oms-debeziumsmt oms-avro oms-avro-json drs-json drs-json-c drs-dds dataworks-aliyun mongo-change-stream native
rowcast convert --from | debezium canal maxwell ogg-json cloudevents oms-default oms-defaultextendcolumntype oms-canal oms-dataworks oms-shareplex oms-debezium oms-debeziumflatten drs-json drs-json-c drs-dds dataworks-aliyun mongo-change-stream native mysql-binlog
rowcast convert --to deb| debezium
rowcast convert --to oms-deb| oms-debezium oms-debeziumflatten oms-debeziumsmt
rowcast convert --qu| --quiet
rowcast convert --on-error = | stop skip dead-letter: dead-letter:kafka://
rowcast convert --sink | stdout file: kafka://
rowcast convert --to CANAL -o | canal.flavor= canal.values= canal.timezone= canal.group= canal.init=
rowcast convert --to canal -o canal.flavor = | oms canal ticdc
rowcast convert --to oms-canal -o | canal.flavor= canal.values= canal.timezone= canal.group= canal.init=
rowcast formats | --options
rowcast capture | postgres:// mysql:// mariadb://
rowcast capture postgres://h/db --| --slot --publication --snapshot --until --max-events --threads --include --metrics --ready-lag --log-format --to --sink --topic --server --exactly-once --keys --records --tombstones --no-tombstones --drop --on-error= --on-loss= --flush-timeout --progress --quiet --config --check --help --checkpoint --start --standby --takeover-after --server-id
rowcast capture postgres://h/db --sl| --slot
rowcast capture postgres://h/db --threads | 1 2
rowcast capture postgres://h/db -o postgres.str| postgres.streaming= postgres.stream.spill_bytes= postgres.stream.spill_dir= postgres.stream.max_bytes=
rowcast capture postgres://h/db --to canal -o canal.g| canal.group=
EOF
# input files, a name with a space among them
mkdir "$tmp/input"
touch "$tmp/input/shop orders.ndjson" "$tmp/input/other.ndjson"
echo "complete_words rowcast convert --to canal '$tmp/input/sh'" >>"$tmp/complete.sh"
echo "rowcast convert --to canal $tmp/input/sh| $tmp/input/shop\\ orders.ndjson" >>"$tmp/complete.expected"
bash "$tmp/complete.sh" "$p/share/bash-completion/completions/rowcast" >"$tmp/complete" 2>&1
same "bash completion" "$tmp/complete.expected" "$tmp/complete"

if [ $fails = 0 ]; then echo "install_tree: all checks passed"; else echo "install_tree: $fails checks failed"; fi
[ $fails = 0 ]
