// The zongji peer of bench/run_capture_mysql.sh: @vlasky/zongji (npm, installed by the script
// outside the repository) reads the binlog from FILE:POS as a replica, decodes every row event
// and counts the rows (decode only: nothing is encoded or written); it stops once it has seen
// the expected number of row changes and prints "inserts I updates U deletes D".
// usage: node zongji_count.mjs PORT FILE POS CHANGES   (ZONGJI_DIR: where node_modules is)
import { pathToFileURL } from 'node:url';
const mod = await import(pathToFileURL(process.env.ZONGJI_DIR + '/node_modules/@vlasky/zongji/index.js'));
const ZongJi = mod.default || mod;
const [port, filename, position, changes] = process.argv.slice(2);
const want = Number(changes);
const z = new ZongJi({ host: '127.0.0.1', port: Number(port), user: 'root', password: '' });
let ins = 0, upd = 0, del = 0;
z.on('binlog', (evt) => {
  const t = evt.getEventName();
  if (t === 'writerows') ins += evt.rows.length;
  else if (t === 'updaterows') upd += evt.rows.length;
  else if (t === 'deleterows') del += evt.rows.length;
  else return;
  if (ins + upd + del >= want) {
    console.log(`inserts ${ins} updates ${upd} deletes ${del}`);
    z.stop();
    process.exit(0);
  }
});
z.on('error', (err) => { console.error('zongji: ' + err.message); process.exit(1); });
z.start({ serverId: 9, filename, position: Number(position),
  includeEvents: ['tablemap', 'writerows', 'updaterows', 'deleterows'],
  includeSchema: { bench: ['orders'] } });
