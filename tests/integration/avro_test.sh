#!/usr/bin/env bash
# Avro checks with independent decoders: every record rowcast writes is decoded by avro-c
# (libavro) with the DTS schema files of ../shared and must equal rowcast's own avro-json view
# of the same events (which the golden tests check against the seed); a container file
# written by rowcast is read by avrocat (avro-bin) and must print the reviewed expected text.
# The avro-c checks need those schema files: without ../shared they are skipped and counted
# (tests/common/peers.sh).
# usage: avro_test.sh ROWCAST AVRO_CHECK JSON_SAME   (from the repository root)
set -u
. tests/common/peers.sh
RC=$1 CHECK=$2 SAME=$3
SCHEMAS=../shared/testdata/peers/derived
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
inputs=(examples/shop.ndjson tests/golden/oms-avro-json/*.in)
# cross-format: DRS json messages (the seed's, both layouts) read back into events
for c in seed-update seed-other-databases; do
    "$RC" convert -q --from drs-json --to native tests/golden/drs-json/$c.out >"$T/drs-$c.ndjson" || bad "drs-json $c: decode"
    inputs+=("$T/drs-$c.ndjson")
done
for in in "${inputs[@]}"; do
    for layout in seed full; do
        schema=$SCHEMAS/dts-Record.seed-layout.avsc
        [ $layout = full ] && schema=$SCHEMAS/dts-Record.full.avsc
        peer_need "$in ($layout)" "$schema" || { [ $? = 2 ] && fail=$((fail + 1)); continue; }
        "$RC" convert -q --to oms-avro -o avro.framing=length-prefixed -o avro.schema=$layout "$in" >"$T/rec.bin" || { bad "$in: convert"; continue; }
        if ! "$CHECK" "$schema" "$T/rec.bin" >"$T/decoded.json" 2>"$T/err"; then bad "$in ($layout): avro-c: $(cat "$T/err")"; continue; fi
        "$RC" convert -q --to oms-avro-json "$in" | { printf '['; paste -sd, -; printf ']'; } >"$T/view.json"
        if "$SAME" "$T/decoded.json" "$T/view.json"; then ok; else bad "$in ($layout): avro-c decodes other values than rowcast's avro-json view"; fi
    done
done
# the container file: avrocat reads it
"$RC" convert -q --to oms-avro examples/shop.ndjson >"$T/shop.avro"
if avrocat "$T/shop.avro" >"$T/avrocat.txt" 2>"$T/err"; then
    if cmp -s "$T/avrocat.txt" tests/golden/oms-avro/shop.avrocat; then ok; else bad "avrocat output differs from tests/golden/oms-avro/shop.avrocat"; diff tests/golden/oms-avro/shop.avrocat "$T/avrocat.txt" | head -5 >&2; fi
else
    bad "avrocat cannot read rowcast's container file: $(cat "$T/err")"
fi
"$RC" convert -q --to oms-avro -o avro.schema=full examples/shop.ndjson >"$T/full.avro"
[ "$(avrocat "$T/full.avro" | grep -c bornTimestamp)" = "$(wc -l <"$T/avrocat.txt")" ] && ok || bad "full layout: avrocat"
peer_report avro
echo "avro: $pass passed, $fail failed"
[ "$fail" = 0 ]
