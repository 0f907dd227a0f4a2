# shellcheck shell=bash
# Runs rowcast-kafka-mock (librdkafka's mock cluster, its own process on loopback) for a test.
# mock_start MOCK_BIN DIR [BROKERS]: starts it; sets BOOTSTRAP. mock_cmd "CMD": sends one
# command (tools/kafka_mock.c) and fails unless the mock answers "ok". mock_stop: stops it.
. "$(dirname "${BASH_SOURCE[0]}")/../common/nap.sh"

mock_start() {
    local bin=$1 dir=$2 brokers=${3:-3}
    MOCK_DIR=$dir
    rm -f "$dir/mock.ctl" "$dir/bootstrap" "$dir/mock.out"
    mkfifo "$dir/mock.ctl"
    "$bin" --brokers "$brokers" --bootstrap-file "$dir/bootstrap" <"$dir/mock.ctl" >"$dir/mock.out" 2>&1 &
    MOCK_PID=$!
    exec {MOCK_FD}>"$dir/mock.ctl"
    local i
    for i in $(seq 100); do
        [ -s "$dir/bootstrap" ] && break
        nap 0.05
    done
    [ -s "$dir/bootstrap" ] || { echo "mock cluster did not start" >&2; cat "$dir/mock.out" >&2; return 1; }
    BOOTSTRAP=$(cat "$dir/bootstrap")
    MOCK_ANSWERS=1 # the bootstrap line
}

mock_cmd() {
    echo "$*" >&"$MOCK_FD"
    MOCK_ANSWERS=$((MOCK_ANSWERS + 1))
    local i
    for i in $(seq 200); do
        [ "$(wc -l <"$MOCK_DIR/mock.out")" -ge "$MOCK_ANSWERS" ] && break
        nap 0.02
    done
    local answer
    answer=$(sed -n "${MOCK_ANSWERS}p" "$MOCK_DIR/mock.out")
    [ "$answer" = ok ] || { echo "mock: '$*' -> ${answer:-no answer}" >&2; return 1; }
}

mock_stop() {
    [ -n "${MOCK_PID:-}" ] || return 0
    exec {MOCK_FD}>&-
    kill "$MOCK_PID" 2>/dev/null || true
    local i
    for i in $(seq 100); do kill -0 "$MOCK_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$MOCK_PID" 2>/dev/null && echo "mock cluster did not stop on SIGTERM within 10 s" >&2
    wait "$MOCK_PID" 2>/dev/null || true
    MOCK_PID=
}

# kafka_test_start MOCK_BIN: what every Kafka test script begins with: a work directory W
# (removed at exit, with the mock stopped), fail=0 and bad MESSAGE to count a failure, and a
# 3-broker mock cluster at $BOOTSTRAP.
kafka_test_start() {
    W=$(mktemp -d)
    trap 'mock_stop; rm -rf "$W"' EXIT
    fail=0
    mock_start "$1" "$W" 3 || return 1
    echo "mock cluster at $BOOTSTRAP"
}
bad() { echo "FAIL: $*" >&2; fail=1; }

# kcat_all TOPIC... : every record of the topics, as records_check reads them
kcat_all() {
    local t
    for t in "$@"; do
        kcat -C -b "$BOOTSTRAP" -t "$t" -o beginning -e -q -f '%p\t%t\t%K\t%k\t%S\t%s\t%h\n'
    done
}

# kcat_count TOPIC: how many records the topic holds (acknowledged by the cluster)
kcat_count() { kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f 'x\n' 2>/dev/null | wc -l; }

# ck_line FILE: the line a checkpoint file stores (0 when there is none yet)
ck_line() { local l; l=$(sed -n 's/^line //p' "$1" 2>/dev/null); echo "${l:-0}"; }

# wait_until SECS CMD...: polls CMD every 20 ms until it succeeds; fails after SECS seconds. The
# point a test acts at is what CMD observes; SECS only bounds a wait that went wrong.
wait_until() {
    local secs=$1 i
    shift
    for i in $(seq $((secs * 50))); do
        "$@" && return 0
        nap 0.02
    done
    return 1
}

# feed_until FD FILE FROM CHUNK CMD...: writes FILE's lines from line FROM on to FD, CHUNK lines
# every 20 ms, until CMD succeeds, then the rest at once; fails when CMD has not succeeded 30 s
# after the last line. (rowcast serves its Kafka sink between the lines it reads, not while it
# waits for a pipe, so what it has to say about a fault comes while its input flows.)
feed_until() {
    local fd=$1 file=$2 from=$3 chunk=$4 n
    shift 4
    n=$(wc -l <"$file")
    while [ "$from" -le "$n" ] && ! "$@"; do
        sed -n "${from},$((from + chunk - 1))p" "$file" >&"$fd"
        from=$((from + chunk))
        nap 0.02
    done
    [ "$from" -le "$n" ] && tail -n +"$from" "$file" >&"$fd"
    wait_until 30 "$@"
}
