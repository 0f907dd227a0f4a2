// Benchmark peer (bench/run_kafka.sh): produces "key<TAB>value" lines from stdin to TOPIC with
// kafkajs: acks=all (-1), the default Java-compatible murmur2 partitioner, batches of BATCH
// messages awaited in order, and the headers given as NAME=VALUE arguments on every message
// (the same five rowcast and kcat send). Not idempotent: kafkajs sends InitProducerId to the
// controller, which librdkafka's mock cluster reports as broker 0, a broker it does not have
// (KafkaJSBrokerNotFound). That spares kafkajs the idempotence bookkeeping rowcast and kcat do.
// usage: node kafkajs_produce.js BOOTSTRAP TOPIC [BATCH [NAME=VALUE...]]
'use strict';
const fs = require('fs');
const { Kafka, logLevel } = require('kafkajs');

async function main() {
    const [bootstrap, topic, batchArg, ...headerArgs] = process.argv.slice(2);
    const batch = Number(batchArg || 5000);
    const headers = {};
    for (const h of headerArgs) {
        const eq = h.indexOf('=');
        headers[h.slice(0, eq)] = h.slice(eq + 1);
    }
    const withHeaders = headerArgs.length > 0;
    const lines = fs.readFileSync(0, 'utf8').split('\n');
    const kafka = new Kafka({ clientId: 'bench', brokers: bootstrap.split(','), logLevel: logLevel.ERROR });
    const producer = kafka.producer();
    await producer.connect();
    let sent = 0;
    for (let i = 0; i < lines.length; i += batch) {
        const messages = [];
        for (const line of lines.slice(i, i + batch)) {
            if (!line) continue;
            const tab = line.indexOf('\t');
            const m = { key: line.slice(0, tab), value: line.slice(tab + 1) };
            if (withHeaders) m.headers = headers;
            messages.push(m);
        }
        if (messages.length) await producer.send({ topic, messages, acks: -1 });
        sent += messages.length;
    }
    await producer.disconnect();
    process.stderr.write(`kafkajs: ${sent} messages acknowledged\n`);
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
