#!/usr/bin/env bash
# The Kafka example: installs what is missing (librdkafka, kcat), builds rowcast, starts
# librdkafka's mock cluster as its own process on loopback (rowcast-kafka-mock), converts the
# sample stream to it in the chosen format and reads every topic back with kcat, then stops the
# mock. Talks TCP exactly as to a real cluster (point --sink at one to use it).
# usage: scripts/demo-kafka.sh [FORMAT] [extra convert options...]   (default: debezium, Debezium's own layout)
# Environment: ROWCAST=path/to/rowcast (and ROWCAST_KAFKA_MOCK, default: beside it) uses those
# binaries and installs and builds nothing.
set -eu
. "$(dirname "$0")/lib.sh"
if [ $# -gt 0 ]; then fmt=(--to "$1"); shift; else fmt=(--to debezium -o debezium.bigint.unsigned.handling.mode=precise); fi
rc_demo_build kcat
W=$(mktemp -d)
"$ROWCAST_KAFKA_MOCK" --bootstrap-file "$W/bootstrap" </dev/null >/dev/null &
mock=$!
trap 'kill $mock; rm -rf "$W"' EXIT
for _ in $(seq 100); do [ -s "$W/bootstrap" ] && break; sleep 0.05; done
B=$(cat "$W/bootstrap")
echo "==> mock cluster at $B"
# (the sample's edge values a format cannot hold are said and left out, as demo-convert.sh does)
"$ROWCAST" convert "${fmt[@]}" --on-loss=skip "$@" --sink "kafka://$B/{server}.{db}.{table}" --on-error=skip "$ROOT/examples/shop.ndjson"
for t in $(kcat -L -b "$B" | sed -n 's/^  topic "\(.*\)" with.*/\1/p' | sort); do
    echo "==> topic $t (partition offset key value headers)"
    kcat -C -b "$B" -t "$t" -e -q -f '%p %o %k %s %h\n'
done
