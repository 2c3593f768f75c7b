/**
 * `pg_ctl restart -m immediate` in the middle of the load: PostgreSQL crashes and recovers under
 * three replicas. No acknowledged row is lost, visitors meanwhile get 503 (never a 500), and
 * every replica recovers by itself — same process, ready again, accepting posts — and the outbox
 * sends every mail exactly once.
 */
import { expect } from 'vitest';
import { startLoad } from './support/load.ts';
import { untilReady } from '../helpers/until-ready.ts';
import { checkBooks, pause, reportFigures, scenario, stackPerTest } from './support/scenario.ts';

const startStack = stackPerTest();

scenario('keeps every acknowledged row through a PostgreSQL crash and restart, and the replicas recover without restarting', async () => {
  // A lease longer than the outage (as production's 60 s is): a mail sent just before the crash
  // is recorded once the database is back, not sent again by another replica.
  const stack = await startStack({ OUTBOX_LEASE_MS: '20000' });
  const { cluster, replicas } = stack;
  const load = startLoad(() => replicas.live(), { concurrency: 9, tag: 'pgrestart' });
  await pause(3000);
  const before = load.acknowledged();
  const restartStarted = Date.now();
  await cluster.restartImmediate();
  const restartMs = Date.now() - restartStarted;
  await pause(4000);
  const report = await load.stop();

  expect(Object.keys(report.answers).filter((answer) => answer !== '201' && answer !== '503' && answer !== 'connection'), 'answers other than 201 and 503').toEqual([]);
  expect(report.answers.connection ?? 0, 'requests without an answer (no replica was killed)').toBe(0);
  expect(load.acknowledged(), 'submissions acknowledged after the restart').toBeGreaterThan(before);
  for (const [index, replica] of replicas.replicas.entries()) {
    await untilReady(`${replica.url}/readyz`, 15_000);
    expect(replicas.stillFirstProcess(index), `replica ${index} kept its process`).toBe(true);
  }
  const books = await checkBooks(stack, report);
  reportFigures('pg_ctl restart -m immediate', {
    acknowledged: books.acknowledged,
    'answered 503': report.answers['503'] ?? 0,
    'restart ms': restartMs,
    'mails delivered': books.delivered.total,
    'delivered twice': books.delivered.duplicates,
  });
  expect(books.delivered.duplicates).toBe(0);
});
