#!/usr/bin/env bash
# Every command the README and docs/ show must work on the bundled sample. The commands are
# the lines of their ```sh code blocks (a block runs as one shell script, line after line, so a
# variable set on one line is there on the next) and the `scripts/demo*.sh …` spans of their
# prose (an optional argument written [FORMAT] is left out). Each runs in a work directory where
# `rowcast` and build/rowcast are the binary under test, examples/ and scripts/ are the
# repository's (the demo scripts get ROWCAST: they build nothing), and the placeholder file
# names of the docs are real inputs made from examples/shop.ndjson (table below). A command
# that exits non-zero (or runs for over 120 s) fails, named by doc, line and text. The docs and
# --help must not cite documents that are not in the repository.
# usage: docs_commands_test.sh ROWCAST MOCK   (from the repository root)
set -u
RC=$(realpath "${1:?rowcast}")
MOCK=$(realpath "${2:?rowcast-kafka-mock}")
DOCS=(README.md docs/*.md docs/formats/*.md)
. tests/integration/kafka_lib.sh
kafka_test_start "$MOCK" || exit 1 # W, and a mock cluster at $BOOTSTRAP for the Kafka commands
pass=0 fail=0 skipped=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# the work directory the commands run in
R=$W/run
mkdir -p "$R/bin" "$R/build"
ln -s "$RC" "$R/bin/rowcast"
ln -s "$RC" "$R/build/rowcast"
ln -s "$MOCK" "$R/build/rowcast-kafka-mock"
ln -s "$PWD/examples" "$PWD/scripts" "$R/"

# placeholder file name in the docs -> the input it stands for, made from the sample
make_input() { # NAME COMMAND...
    local name=$1
    shift
    (cd "$R" && "$@" >"$name" 2>"$W/make.err") || { bad "making $name ($*): $(cat "$W/make.err")"; exit 1; }
}
make_input events.ndjson cat examples/shop.ndjson
make_input input.ndjson cat examples/shop.ndjson
make_input canal-topic.jsonl "$RC" convert -q --to canal examples/shop.ndjson
# a data topic of upstream Debezium (its heartbeats go to a topic of their own)
make_input debezium-topic.jsonl "$RC" convert -q --to debezium -o debezium.flavor=upstream \
    -o debezium.bigint.unsigned.handling.mode=precise --drop heartbeat examples/shop.ndjson
# text in a command -> what the test runs instead
map_text() {
    sed -e "s|broker1:9092,broker2:9092|$BOOTSTRAP|g" \
        -e "s|/tmp/bootstrap|$R/bootstrap|g"
}
# commands not run, each with its reason
skip_reason() {
    case $1 in
    scripts/test.sh) echo "the whole test suite, which runs this test" ;;
    *) return 1 ;;
    esac
}

# extract: one record per command, DOC <tab> LINE <tab> BLOCK <tab> LINES (the command's
# lines, continuation lines included, joined by \037); a prose span is a block of its own
extract() {
    awk -v OFS='\t' '
    FNR == 1 { inb = 0; cont = 0 }
    /^[ \t]*```/ { if (inb) inb = 0; else { inb = 1; sh = ($0 ~ /^[ \t]*```(sh|bash)[ \t]*$/); blk++ } next }
    inb && sh {
        if (cont) { text = text "\037" $0 } else { start = FNR; text = $0 }
        cont = ($0 ~ /\\$/)
        if (!cont && text !~ /^[ \t]*(#|$)/) print FILENAME, start, FILENAME ":" blk, text
        next
    }
    !inb {
        s = $0
        while (match(s, /`scripts\/demo[-a-z]*\.sh[^`]*`/)) {
            c = substr(s, RSTART + 1, RLENGTH - 2)
            gsub(/ \[[A-Z]+\]/, "", c)
            print FILENAME, FNR, FILENAME ":" FNR ":" RSTART, c
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$@"
}

# run: each block as one script in $R; after each command its status is checked
n=0
demo_n=
prev=
script=
run_block() {
    [ -n "$script" ] || return 0
    echo 'kill $(jobs -p) 2>/dev/null; wait' >>"$script"
    (cd "$R" && PATH=$R/bin:$PATH ROWCAST=$RC timeout 120 bash "$script") >>"$W/results" 2>&1 ||
        echo "FAIL: the code block $prev stopped with status $? (124: it ran for over 120 s)" >>"$W/results"
    script=
}
: >"$W/results"
while IFS=$'\t' read -r doc line block text; do
    cmd=$(printf '%s' "$text" | tr '\037' '\n')
    if why=$(skip_reason "$cmd"); then
        echo "skipped: $doc:$line: $cmd ($why)"
        skipped=$((skipped + 1))
        continue
    fi
    if [ "$block" != "$prev" ]; then
        run_block
        prev=$block
        script=$W/block-$n.sh
        : >"$script"
    fi
    n=$((n + 1))
    [ "$cmd" = "scripts/demo.sh native" ] && demo_n=$n # its output is checked against its golden below
    where="$doc:$line: $(printf '%s' "$cmd" | sed -e ':a' -e '/\\$/{N;s/ *\\\n */ /;ba' -e '}')"
    {
        echo "{"
        printf '%s\n' "$cmd" | map_text
        printf '} </dev/null >%q 2>%q\n' "$W/cmd-$n.out" "$W/cmd-$n.err"
        printf 'st=$?; if [ $st = 0 ]; then echo ok; else echo %q"$st"; tail -5 %q; fi\n' \
            "FAIL: $where: exit status " "$W/cmd-$n.err"
    } >>"$script"
done < <(extract "${DOCS[@]}")
run_block
# the README's first command writes what its golden holds (as tests/integration/demo_test.sh
# checks it with the demo's own build, in scripts/test.sh)
if [ -n "$demo_n" ] && [ -s "$W/cmd-$demo_n.out" ]; then
    bash tests/integration/demo_same.sh tests/golden/demo/native.out "$W/cmd-$demo_n.out" >/dev/null 2>"$W/demo.diff" ||
        { echo "FAIL: README.md: scripts/demo.sh native:"; cat "$W/demo.diff"; } >>"$W/results"
fi

# the docs and the help cite documents a reader has: the vendors' by title, the rules in docs/
# (not the project's working notes outside the repository: "seed 000", "FORMATS.md §4")
cited='FORMATS\.md|[Ss]eeds? [0-9]{3}'
grep -nE "$cited" "${DOCS[@]}" | while IFS= read -r hit; do echo "FAIL: $hit: cites a document that is not in the repository"; done >>"$W/results"
for h in --help "help convert" formats "formats --options" "types"; do
    # shellcheck disable=SC2086
    "$RC" $h 2>&1 | grep -E "$cited" | while IFS= read -r hit; do echo "FAIL: rowcast $h: $hit: cites a document that is not in the repository"; done >>"$W/results"
done

# the builds docs/development.md's table shows are the ones scripts/test.sh makes: the row of
# each build directory has every -D option of its rc_build line; no doc says the normal build
# has -Werror but through RC_WERROR
grep -o 'rc_build build[a-z-]* .*' scripts/test.sh | while read -r _ dir opts; do
    row=$(grep -F "cmake -S . -B $dir " docs/development.md | head -1)
    for o in $opts; do
        case $o in -D*) [[ $row == *"$o"* ]] || echo "FAIL: docs/development.md: the row of $dir lacks $o (scripts/test.sh builds with it)" ;; esac
    done
done >>"$W/results"
grep -n -- '-Werror' README.md docs/development.md | grep -v RC_WERROR | while IFS= read -r hit; do
    echo "FAIL: $hit: -Werror is the RC_WERROR option, on in scripts/test.sh only"
done >>"$W/results"

pass=$(grep -c '^ok$' "$W/results")
fail=$((fail + $(grep -c '^FAIL: ' "$W/results")))
grep -v '^ok$' "$W/results" >&2
grep -q "^README.md" < <(extract README.md) || bad "no command found in README.md"
echo "docs commands: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
