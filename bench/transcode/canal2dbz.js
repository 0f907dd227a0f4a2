// The benchmark's transformation written for Node.js: the same as canal2dbz.jq (see there for
// the rowcast options it matches), reading Canal lines on stdin and writing one line per row.
'use strict';
const readline = require('readline');
const INT = /^(tinyint|smallint|mediumint|int|bigint)/;
function val(v, t) {
  if (v === null) return null;
  if (INT.test(t)) return Number(v);
  if (t.startsWith('datetime')) return Date.parse(v.replace(' ', 'T') + 'Z');
  return v;
}
function typed(row, types) {
  const o = {};
  for (const k of Object.keys(row)) o[k] = val(row[k], types[k]);
  return o;
}
const OPS = { INSERT: 'c', UPDATE: 'u', DELETE: 'd' };
const out = [];
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  for (let i = 0; i < m.data.length; i++) {
    const row = typed(m.data[i], m.mysqlType);
    const before = m.type === 'UPDATE' ? typed({ ...m.data[i], ...m.old[i] }, m.mysqlType) : m.type === 'DELETE' ? row : null;
    out.push(JSON.stringify({
      before, after: m.type === 'DELETE' ? null : row,
      source: { version: 'rowcast', connector: 'mysql', name: 'rowcast', ts_ms: m.es, snapshot: 'false', db: m.database,
        sequence: null, table: m.table, server_id: 0, gtid: null, file: '', pos: 0, row: i, thread: null, query: null },
      op: OPS[m.type], ts_ms: m.ts, transaction: null,
    }));
    if (out.length >= 4096) process.stdout.write(out.join('\n') + '\n'), out.length = 0;
  }
});
rl.on('close', () => { if (out.length) process.stdout.write(out.join('\n') + '\n'); });
