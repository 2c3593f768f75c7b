/**
 * The SMTP server down for a while (connections refused), then up again, under load on three
 * replicas: every mail is delivered exactly once, and the backlog drains promptly once the server
 * is back (the first successful send brings every waiting row forward).
 */
import { expect } from 'vitest';
import { startLoad } from './support/load.ts';
import { checkBooks, pause, reportFigures, scenario, stackPerTest } from './support/scenario.ts';

const startStack = stackPerTest();

scenario('delivers every mail exactly once after an SMTP outage, and drains the backlog promptly', async () => {
  const stack = await startStack();
  const { smtp, replicas } = stack;
  const load = startLoad(() => replicas.live(), { concurrency: 6, tag: 'smtpdown', perSecond: 25 });
  await pause(1500);
  await smtp.down();
  const deliveredBefore = smtp.messages.length;
  await pause(6000);
  const deliveredDuring = smtp.messages.length - deliveredBefore;
  await smtp.up();
  const upAt = Date.now();
  await pause(1500);
  const report = await load.stop();

  expect(Object.keys(report.answers).filter((answer) => answer !== '201'), 'a mail outage never reaches visitors').toEqual([]);
  const checkStarted = Date.now();
  const books = await checkBooks(stack, report);
  const drainedAfterUpMs = checkStarted - upAt + books.drainMs;
  // The backlog's own pace: the mails accepted after the server came back, from the first to the last.
  const afterUp = smtp.acceptedAt.filter((at) => at >= upAt);
  const drainSeconds = afterUp.length > 1 ? (afterUp.at(-1)! - afterUp[0]!) / 1000 : 0;
  reportFigures('SMTP down 6 s', {
    acknowledged: books.acknowledged,
    'delivered while down': deliveredDuring,
    'mails delivered': books.delivered.total,
    'delivered twice': books.delivered.duplicates,
    'backlog drained (s after up)': (drainedAfterUpMs / 1000).toFixed(1),
    'mails after up': afterUp.length,
    'drain rate (mails/s)': drainSeconds > 0 ? Math.round((afterUp.length - 1) / drainSeconds) : '-',
  });
  expect(deliveredDuring).toBe(0);
  expect(books.delivered.duplicates).toBe(0);
  // The first retry falls 8–12 s after a failure; the rest follow at once.
  expect(drainedAfterUpMs).toBeLessThan(30_000);
});
