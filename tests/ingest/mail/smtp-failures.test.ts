/**
 * What the worker does with each kind of SMTP failure, against a real SMTP peer and a real
 * SQLite file: a 5xx rejection fails the row at once, a 4xx or a refused connection backs off,
 * and the end of an outage drains the whole queue at once.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { DEFAULT_RETRY_POLICY } from '../../../ingest/mail/retry-policy.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { migratedDb, SITE_CONTENT, tempDir } from '../fixtures.ts';

const { later, peer } = mailScaffold();

const T0 = Date.parse('2025-06-01T00:00:00Z');

/** A migrated database holding `n` contacts, each with its sales email queued at `T0`. */
async function queued(n: number): Promise<SqliteDatabase> {
  const temp = tempDir();
  later(temp.remove);
  const db = await migratedDb(temp.dir);
  later(() => db.close());
  const store = await openSubmissionStore(db, {});
  for (let i = 0; i < n; i++) {
    const fields = { firstName: `Ana${i}`, lastName: 'Pérez', email: `ana${i}@example.com`, phone: null, companyName: null, country: 'es', message: 'Hola', captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
    await store.submitContact(fields, { value: `nonce-smtp-fail-${String(i).padStart(4, '0')}`, expiresAt: T0 + 60_000 }, T0);
  }
  await store.close();
  return db;
}

/** A worker on `db` sending to `url` on a manual clock, with its error and warning log lines collected. */
function worker(db: SqliteDatabase, url: string, random: () => number = () => 0.5) {
  const clock = manualClock(T0);
  const errors: string[] = [];
  const warnings: string[] = [];
  const outboxWorkerInstance = outboxWorker({
    outbox: sqliteOutbox(db),
    mailer: smtpMailer(`${url}?ignoreTLS=true`),
    envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
    clock,
    policy: DEFAULT_RETRY_POLICY,
    random,
    log: {
      info: () => {},
      warn: (_data: unknown, message?: string) => void warnings.push(String(message)),
      error: (_data: unknown, message?: string) => void errors.push(String(message)),
    },
  });
  return { worker: outboxWorkerInstance, clock, errors, warnings, outbox: sqliteOutbox(db) };
}

describe('SMTP failures', () => {
  it('regression: a 550 marks the row failed at once instead of retrying for 48 h', async () => {
    const smtp = await peer();
    smtp.answer = 550;
    const { worker: w, clock, errors, outbox } = worker(await queued(1), smtp.url);

    const result = await w.runPass();
    expect(result).toMatchObject({ sent: 0, failed: 1, retried: 0 });
    expect(await outbox.counts()).toMatchObject({ failed: 1, pending: 0, sending: 0 });
    expect(await outbox.nextDueAt()).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/rejected/);

    // Nothing is sent again, however long the service runs.
    clock.advance(48 * 3600_000);
    await w.runPass();
    expect(smtp.received).toHaveLength(1);
    expect((await outbox.counts()).failed).toBe(1);
  });

  it('backs off, without failing the row, after a 451 answer and after a refused connection', async () => {
    const smtp = await peer();
    smtp.answer = 451;
    const busy = worker(await queued(1), smtp.url);
    expect(await busy.worker.runPass()).toMatchObject({ retried: 1, failed: 0 });
    expect(await busy.outbox.counts()).toMatchObject({ pending: 1, failed: 0 });
    expect(await busy.outbox.nextDueAt()).toBe(T0 + 10_000);
    expect(busy.errors).toEqual([]);

    const closed = await smtpPeer();
    await closed.close();
    const refused = worker(await queued(1), closed.url);
    expect(await refused.worker.runPass()).toMatchObject({ retried: 1, failed: 0 });
    expect(await refused.outbox.counts()).toMatchObject({ pending: 1, failed: 0 });
    expect(await refused.outbox.nextDueAt()).toBe(T0 + 10_000);
  });

  it('regression: after an outage, one successful send brings the waiting rows forward instead of each waiting out its own backoff', async () => {
    const smtp = await peer();
    smtp.refusing = true;
    // Spread jitter, as in production: each row's next try falls at a different time.
    let draw = 0;
    const { worker: w, clock, outbox } = worker(await queued(10), smtp.url, () => (draw++ % 10) / 10);
    expect(await w.runPass()).toMatchObject({ retried: 10, sent: 0 });
    clock.set((await outbox.nextDueAt())!);

    // The server is back; the first row due goes through, and takes the rest of the queue with it.
    smtp.refusing = false;
    const result = await w.runPass();
    expect(result.sent).toBe(10);
    expect(smtp.messages).toHaveLength(10);
    expect(await outbox.counts()).toMatchObject({ sent: 10, pending: 0, sending: 0 });
  });
});
