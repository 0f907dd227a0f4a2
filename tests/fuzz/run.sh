#!/usr/bin/env bash
# Runs every fuzz target for a bounded time, seeded with one file per line of the examples,
# the golden inputs and the integration test data. A crash or a failed check is a failure;
# the crashing input is left in BUILD/crash-* and printed.
# Every input, the seeds and tests/fuzz/regressions included, has UNIT_SECS to run: one that
# runs longer fails like a crash (libFuzzer's -timeout; a slow path would otherwise only show
# as a low count of runs, as fuzz_sniff's did: issue 22, item 6).
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS   (from the repository root)
set -u
B=${1:?build dir}
SECS=${2:-20}
UNIT_SECS=3
seeds="$B/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
i=0
# the golden outputs are what the decoders read back (JSON formats; binary Avro is skipped)
for f in examples/*.ndjson tests/golden/*/*.in tests/golden/*/*.out tests/integration/data/*.ndjson; do
    case $f in tests/golden/oms-avro/*) continue ;; esac
    while IFS= read -r line; do
        i=$((i + 1))
        printf '%s' "$line" >"$seeds/seed-$i"
    done <"$f"
done
# real messages of other tools (../shared, beside the repository in CI) seed the decoders
for f in ../shared/testdata/peers/apache__flink/flink-formats/flink-json/src/test/resources/*.txt \
    ../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/debezium/table/schema/alltype/*.txt \
    ../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/canal/table/*/*.txt \
    ../shared/testdata/peers/apache__seatunnel/seatunnel-e2e/seatunnel-connector-v2-e2e/connector-kafka-e2e/src/test/resources/canal/canal_data.txt \
    ../shared/testdata/peers/pingcap__tiflow/extracted/pkg/sink/codec/canal/*.jsonl \
    ../shared/testdata/peers/risingwavelabs__risingwave/extracted/src/connector/src/parser/*.jsonl \
    ../shared/testdata/peers/risingwavelabs__risingwave/extracted/src/connector/src/parser/debezium/*.jsonl \
    ../shared/testdata/peers/risingwavelabs__risingwave/e2e_test/source_legacy/basic/scripts/test_data/debezium_mongo_json_* \
    ../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/debezium-bson/table/event/*.txt \
    ../shared/testdata/peers/zeromicro__cds/extracted/cmd/rtu/*/*.jsonl \
    ../shared/testdata/peers/gh-mlfowler__mongo-cdc-demo/extracted/kstreams/src/test/java/com/github/gh_mlfowler/mongocdcdemo/*.jsonl \
    ../shared/testdata/peers/vanus-labs__vanus-connect/extracted/connectors/mongodb/src/test/java/com/linkall/connector/mongodb/*.jsonl \
    ../shared/testdata/peers/mongodb__mongo-kafka/extracted/src/test/java/com/mongodb/kafka/connect/source/producer/*.jsonl; do
    [ -f "$f" ] || continue
    while IFS= read -r line; do
        i=$((i + 1))
        printf '%s' "$line" >"$seeds/seed-$i"
    done <"$f"
done
# the DDL parser's dialect cases, one statement each (fuzz_my_ddl)
while IFS= read -r line; do
    case $line in "> "*) i=$((i + 1)); printf '%s' "${line#> }" >"$seeds/seed-$i" ;; esac
done <tests/unit/data/my_ddl_cases.txt
# the DDL corpus of ../shared (its fifth set: MySQL and MariaDB table statements), split as the
# corpus test splits it (tests/integration/ddl_split.awk), one statement a seed (fuzz_my_ddl)
if [ -f ../shared/testdata/peers/SOURCES.md ] && command -v gawk >/dev/null; then
    for f in $(awk '/^# Fifth set/ { on = 1 } on && /^[0-9a-f]{64}  / { print $2 }' ../shared/testdata/peers/SOURCES.md); do
        gawk -v RS_MARK=';;;;;;' -f tests/integration/ddl_split.awk "../shared/testdata/peers/$f" 2>/dev/null
    done | gawk -v dir="$seeds" 'BEGIN { RS = "\n;;;;;;\n" } { n++; printf "%s", $0 > (dir "/ddl-" n); close(dir "/ddl-" n) }'
fi
# real binlog files seed fuzz_my_event: the flags byte 1 (checksums rewritten), then the events
for f in ../shared/testdata/peers/*/test-data/binlogs/* ../shared/testdata/peers/*/src/test/resources/mysql-bin.* \
    ../shared/testdata/peers/*/tests/parse_file_tests/* tests/integration/data/*.binlog; do
    [ -f "$f" ] && [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = fe62696e ] || continue
    i=$((i + 1))
    { printf '\001'; tail -c +5 "$f"; } >"$seeds/binlog-$i"
done
[ -d ../shared ] || echo "fuzz: peer data not found at $(cd .. && pwd)/shared/testdata/peers: the decoders are seeded without it"
# inputs that once crashed or hung a target stay in every run; hand-made seeds (checkpoint
# files and topic templates for fuzz_sink_text)
cp tests/fuzz/regressions/* tests/fuzz/seeds/* "$seeds"/ 2>/dev/null
# the messages the error-message goldens reject (tests/golden/stderr: ogg-json's among them)
for f in tests/golden/stderr/*.json; do
    while IFS= read -r line; do
        i=$((i + 1))
        printf '%s' "$line" >"$seeds/seed-$i"
    done <"$f"
done
# config files for fuzz_config: the good and the bad ones of the tests
for f in tests/integration/config/*.conf tests/golden/stderr/config-*.conf; do cp "$f" "$seeds/$(basename "$f")"; done
# time zone files for fuzz_tzif (tzdata's, read where the system keeps them)
for z in America/New_York Europe/Dublin Australia/Lord_Howe Asia/Shanghai UTC; do
    [ -f "/usr/share/zoneinfo/$z" ] && cp "/usr/share/zoneinfo/$z" "$seeds/tzif-${z//\//-}"
done
# whole streams for the decoders that read several lines together (fuzz_decode_dataworks_aliyun:
# an UPDATE_BEFORE and its UPDATE_AFTER), and Paimon's DataWorks message without its indent
for f in tests/golden/dataworks-aliyun/*.out; do cp "$f" "$seeds/stream-$(basename "$f")"; done
P=../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/aliyun/table/event/event-update-in-one.txt
[ -f "$P" ] && sed -n 's/^ *{/{/p' "$P" >"$seeds/peer-dataworks-aliyun"
# one target: its verdict and summary in $B/$name.verdict (read in order below)
fuzz_one() {
    local t=$1 name corpus
    name=$(basename "$t")
    corpus="$B/corpus-$name"
    mkdir -p "$corpus"
    if ! ASAN_OPTIONS=detect_leaks=1 "$t" -max_total_time="$SECS" -timeout="$UNIT_SECS" -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$B/crash-$name-" -print_final_stats=1 "$corpus" "$seeds" >"$B/$name.log" 2>&1; then
        {
            echo "FAIL: $name found a problem:"
            grep -aq 'libFuzzer: timeout' "$B/$name.log" && echo "FAIL: $name: an input ran for over ${UNIT_SECS}s"
            tail -40 "$B/$name.log"
        } >"$B/$name.verdict"
    else
        echo "ok $(grep -aE 'Done [0-9]+ runs' "$B/$name.log" | tail -1), slowest input $(grep -a 'slowest_unit_time_sec' "$B/$name.log" | awk '{print $2}')s" >"$B/$name.verdict"
    fi
}
# FUZZ_JOBS targets at a time (default: one per CPU core, at most 2): each still has SECS of
# wall time on a core of its own, so a run finds what a serial one does in half the time
jobs_max=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs_max" -gt 2 ] && jobs_max=2
targets=()
for t in "$B"/tests/fuzz/fuzz_*; do [ -x "$t" ] && targets+=("$t"); done
echo "fuzz: ${#targets[@]} targets, ${SECS}s each, $jobs_max at a time"
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    rm -f "$B/$(basename "$t").verdict"
    fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
    name=$(basename "$t")
    v="$B/$name.verdict"
    if [ -f "$v" ] && head -c 3 "$v" | grep -q '^ok '; then
        echo "--- $name: ${SECS}s: $(cut -c4- "$v")"
    else
        [ -f "$v" ] && cat "$v" >&2 || echo "FAIL: $name: no verdict (the run was killed?)" >&2
        status=1
    fi
done
if [ $status = 0 ]; then echo "fuzz: $(ls "$B"/tests/fuzz/fuzz_* | wc -l) passed, 0 failed"; fi
exit $status
