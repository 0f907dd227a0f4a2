# shellcheck shell=bash
# What the exactly-once tests (eos_kill_test.sh, eos_standby_test.sh) read from Kafka, with kcat;
# BOOTSTRAP (kafka_lib.sh), PARTS (the topics' partition count) and W set by the test.

# kafka_offsets TOPIC WHEN: the partitions' end (-1) or start (-2) offsets, summed
kafka_offsets() {
    local p args=()
    for p in $(seq 0 $((PARTS - 1))); do args+=(-t "$1:$p:$2"); done
    kcat -Q -b "$BOOTSTRAP" "${args[@]}" 2>/dev/null | awk '{ s += $NF } END { print s + 0 }'
}
past() { [ "$(kafka_offsets "$1" -1)" -ge "$2" ]; }

# changes CASE: "id v" of every row change in the topic, in partition and offset order, with
# the partition first; and "rowcast.eos" keys in $W/CASE.keys
changes() {
    kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%p\t%h\t%s\n' | sort -t "$(printf '\t')" -k1,1n -s |
        awk -F '\t' -v keys="$W/$1.keys" '
            $2 !~ /rowcast.op=(insert|update)/ { next }
            { n = split($2, h, ","); for (i = 1; i <= n; i++) if (h[i] ~ /^rowcast.eos=/) print h[i] > keys
              if (!match($3, /"after":\{"id":-?[0-9]+,"v":-?[0-9]+/)) { print "FAIL: no row in " $3 > "/dev/stderr"; next }
              s = substr($3, RSTART, RLENGTH); gsub(/[^0-9,-]/, "", s); split(s, f, ","); print $1, f[1], f[2] }'
}
