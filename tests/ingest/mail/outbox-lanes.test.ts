/**
 * Regressions in how the outbox worker runs its lanes (several claims and sends at once):
 * - a lane whose claim fails (the database went away) while the pass still waits for another
 *   lane's send ended the whole process with an unhandled rejection. The pass must fail as one
 *   failed pass (the worker then backs off), and the process must see no unhandled rejection;
 * - a pass whose lanes start after `stop()` was called never ended: the process hung and ran out
 *   of memory (seen in the webhook tests on PostgreSQL, under load).
 */
import { afterEach, expect, it } from 'vitest';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import type { OutboxStore } from '../../../ingest/store/outbox/outbox-store.ts';

const unhandled: unknown[] = [];
const record = (reason: unknown) => void unhandled.push(reason);
process.on('unhandledRejection', record);
afterEach(() => {
  process.off('unhandledRejection', record);
});

/** A plain fake of the store with nothing due; each test replaces what it needs. */
function emptyOutbox(): OutboxStore {
  return {
    claimNext: async () => null,
    renewLease: async () => true,
    markSent: async () => true,
    reschedule: async () => true,
    markFailed: async () => true,
    releaseStale: async () => 0,
    bringForward: async () => 0,
    nextDueAt: async () => null,
    counts: async () => ({ pending: 0, sending: 0, sent: 0, failed: 0 }),
    failedByKind: async () => ({ sales: 0, contact_confirm: 0, newsletter_confirm: 0, newsletter_already_subscribed: 0 }),
  };
}

/** A worker on `outbox` whose sends take 100 ms each. */
function workerOn(outbox: OutboxStore, concurrency: number) {
  const mail = { from: 'a@example.com', to: 'ana@example.com', subject: 's', text: 't', html: 'h', messageId: '<m@example.com>', date: new Date(0) };
  return outboxWorker({
    outbox,
    mailer: { send: () => new Promise((resolve) => setTimeout(resolve, 100)), close: () => {} },
    envelope: { from: 'a@example.com', to: 'sales@example.com', timeZone: 'UTC', lang: 'en', content: {} as never, siteUrl: 'https://example.com' },
    confirmationMail: () => mail,
    clock: { now: () => Date.now() },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    concurrency,
  });
}

it('regression: a lane whose claim fails while another lane is sending fails the pass, not the process', async () => {
  let claims = 0;
  const subscription = { id: 1, email: 'ana@example.com', lang: 'es' } as never;
  // The first claim gets a row, the second finds the database gone.
  const outbox = emptyOutbox();
  outbox.claimNext = async () => {
    claims += 1;
    if (claims === 1) return { id: 1, attempts: 1, queuedAt: 0, messageKey: 'k', kind: 'newsletter_confirm' as const, subscription };
    throw Object.assign(new Error('database is gone'), { code: 'SQLITE_CANTOPEN' });
  };
  await expect(workerOn(outbox, 2).runPass()).rejects.toThrow('database is gone');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(unhandled).toEqual([]);
});

it('regression: a pass that starts its lanes after stop() was called ends, claiming nothing', async () => {
  // The pass looks for stale claims first; stop() arrives while it waits for that answer.
  const outbox = emptyOutbox();
  let answerStale: (released: number) => void = () => {};
  const asked = new Promise<void>((resolve) => {
    outbox.releaseStale = () => {
      resolve();
      return new Promise<number>((answer) => (answerStale = answer));
    };
  });
  let claims = 0;
  outbox.claimNext = async () => {
    claims += 1;
    return null;
  };
  const worker = workerOn(outbox, 2);
  worker.start();
  await asked;
  const stopped = worker.stop();
  answerStale(0);
  await stopped;
  expect(claims).toBe(0);
});
