// Benchmark peer (bench/run_kafka_source.sh): a kafkajs consume-convert-produce loop, Canal flat
// messages in, upstream Debezium (schemas off, what `rowcast convert --from canal --to debezium`
// writes) out. A consumer in group GROUP reads IN from the beginning; each batch is converted and
// sent to OUT (acks=all, the key {"pk":...}, a tombstone after each delete), and its offsets are
// committed only after the send was acknowledged (at least once, as rowcast does); it stops after
// N input messages.
//
// The conversion covers what the bench's messages hold (bench/kafka_source/gen_canal.awk):
// INSERT/UPDATE/DELETE of any number of rows, "old" merged into "before", integer and FLOAT/DOUBLE
// values written as their Canal text (so 1.0 stays 1.0, as rowcast writes it), strings, the key
// from pkNames, the source block with es/ts in ms/us/ns. Not covered: DDL, DECIMAL (Debezium's
// bytes), dates and times, binary, NULL typing rules, Canal's string escapes beyond JSON's: a
// fuller converter would be slower. `--check FILE` converts FILE's lines to stdout ("key TAB
// value", a tombstone as an empty value) instead, for run_kafka_source.sh to compare with rowcast.
// usage: node kafkajs_convert.js BOOTSTRAP IN OUT GROUP N | node kafkajs_convert.js --check FILE
'use strict';

const NUMERIC = /^(TINYINT|SMALLINT|MEDIUMINT|INT|INTEGER|BIGINT|FLOAT|DOUBLE|REAL)\b/i;
const OPS = { INSERT: 'c', UPDATE: 'u', DELETE: 'd' };

function rowJson(row, types) {
    const parts = [];
    for (const [k, v] of Object.entries(row)) {
        const val = v === null ? 'null' : NUMERIC.test(types[k] || '') ? v : JSON.stringify(v);
        parts.push(JSON.stringify(k) + ':' + val);
    }
    return '{' + parts.join(',') + '}';
}

// one Canal message -> [[key, value-or-null], ...]
function convert(text) {
    const m = JSON.parse(text);
    const op = OPS[m.type];
    if (!op || !m.data) return [];
    const types = m.mysqlType || {};
    const us = m.ts * 1000, es = m.es;
    const source = '{"version":"rowcast","connector":"mysql","name":"rowcast","ts_ms":' + es + ',"snapshot":"false","db":' +
        JSON.stringify(m.database) + ',"sequence":null,"ts_us":' + es + '000,"ts_ns":' + es + '000000,"table":' + JSON.stringify(m.table) +
        ',"server_id":0,"gtid":null,"file":"","pos":0,"row":0,"thread":null,"query":null}';
    const out = [];
    m.data.forEach((row, i) => {
        const pk = {};
        for (const k of m.pkNames || []) pk[k] = row[k];
        const key = rowJson(pk, types);
        const img = rowJson(row, types);
        const before = op === 'c' ? 'null' : op === 'd' ? img : rowJson({ ...row, ...(m.old && m.old[i]) }, types);
        const after = op === 'd' ? 'null' : img;
        out.push([key, '{"before":' + before + ',"after":' + after + ',"source":' + source + ',"transaction":null,"op":"' + op +
            '","ts_ms":' + m.ts + ',"ts_us":' + us + ',"ts_ns":' + us + '000}']);
        if (op === 'd') out.push([key, null]);
    });
    return out;
}

async function run(bootstrap, inTopic, outTopic, group, n) {
    const { Kafka, logLevel } = require('kafkajs');
    const kafka = new Kafka({ clientId: 'bench-ksrc', brokers: bootstrap.split(','), logLevel: logLevel.ERROR });
    const consumer = kafka.consumer({ groupId: group, maxBytes: 64 << 20 });
    const producer = kafka.producer();
    await Promise.all([consumer.connect(), producer.connect()]);
    await consumer.subscribe({ topic: inTopic, fromBeginning: true });
    let seen = 0, sent = 0, done;
    const finished = new Promise((resolve) => (done = resolve));
    await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
            const messages = [];
            for (const msg of batch.messages) {
                for (const [key, value] of convert(msg.value.toString())) messages.push({ key, value });
            }
            if (messages.length) await producer.send({ topic: outTopic, messages, acks: -1 });
            sent += messages.length;
            for (const msg of batch.messages) resolveOffset(msg.offset);
            await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(Number(batch.lastOffset()) + 1) }]);
            await heartbeat();
            seen += batch.messages.length;
            if (seen >= n) done();
        },
    });
    await finished;
    await consumer.disconnect();
    await producer.disconnect();
    process.stderr.write(`kafkajs: ${seen} messages consumed, ${sent} records acknowledged\n`);
}

async function main() {
    const args = process.argv.slice(2);
    if (args[0] === '--check') {
        const lines = require('fs').readFileSync(args[1], 'utf8').split('\n');
        const out = [];
        for (const line of lines) if (line) for (const [k, v] of convert(line)) out.push(k + '\t' + (v === null ? '' : v));
        process.stdout.write(out.join('\n') + '\n');
        return;
    }
    const [bootstrap, inTopic, outTopic, group, n] = args;
    await run(bootstrap, inTopic, outTopic, group, Number(n));
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
