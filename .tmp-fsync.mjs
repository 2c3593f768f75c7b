import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
const dir = mkdtempSync('/tmp/fs-');
for (const sync of ['FULL', 'NORMAL']) {
  const db = new Database(`${dir}/${sync}.db`);
  db.pragma('journal_mode = WAL'); db.pragma(`synchronous = ${sync}`);
  db.exec('create table t (v text)');
  const ins = db.prepare('insert into t values (?)');
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) ins.run('x' + i);
  const ms = (performance.now() - t0) / 300;
  console.log(sync, ms.toFixed(3), 'ms per commit');
}
