/**
 * kill -9 of a random replica, several times, under load: every acknowledged row is present,
 * no email is lost, every outbox row's Message-ID is delivered, and mails that arrived twice
 * (a replica killed between the SMTP server's acceptance and its own "sent" record) are no more
 * than the sends a replica has in flight at once, per kill — each under its row's Message-ID, so
 * the receiving side can drop it. The supervisor here restarts a killed replica after a second, as systemd or an
 * orchestrator would.
 */
import { expect } from 'vitest';
import { SENDS_PER_CONNECTION } from '../../ingest/mail/mailer.ts';
import { startLoad } from './support/load.ts';
import { checkBooks, pause, reportFigures, scenario, stackPerTest } from './support/scenario.ts';

const startStack = stackPerTest();

scenario('loses no acknowledged row and no email when replicas are killed with SIGKILL mid-load', async () => {
  const stack = await startStack();
  const { replicas } = stack;
  const load = startLoad(() => replicas.live(), { concurrency: 9, tag: 'kill' });
  const kills = 3;
  for (let kill = 0; kill < kills; kill++) {
    await pause(2500);
    const victim = Math.floor(Math.random() * replicas.replicas.length);
    replicas.kill(victim);
    await pause(1000);
    await replicas.restart(victim);
  }
  await pause(2000);
  const report = await load.stop();

  // A visitor sees 201 or a broken connection (the killed replica), never a 5xx or a refusal.
  expect(Object.keys(report.answers).filter((answer) => answer !== '201' && answer !== 'connection')).toEqual([]);
  const books = await checkBooks(stack, report);
  reportFigures('kill -9 ×3', {
    acknowledged: books.acknowledged,
    'broken connections': report.answers.connection ?? 0,
    'mails (outbox rows)': books.outboxRows,
    delivered: books.delivered.total,
    'delivered twice': books.delivered.duplicates,
    'drain ms': books.drainMs,
  });
  expect(books.acknowledged).toBeGreaterThan(50);
  // A replica has up to SENDS_PER_CONNECTION mails in flight on its one SMTP connection (SMTP_MAX_CONNECTIONS=1).
  expect(books.delivered.duplicates).toBeLessThanOrEqual(kills * SENDS_PER_CONNECTION);
});
