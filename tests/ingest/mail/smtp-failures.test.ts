/**
 * What the worker does with each kind of SMTP failure, against a real SMTP peer and a real
 * SQLite file: a 5xx about the message (its recipient, its content) fails the row at once; a 5xx
 * to MAIL FROM (a sending quota), a refused login, a 4xx or a refused connection backs off; and
 * the end of an outage drains the whole queue at once.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { startService } from '../../../ingest/server.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { DEFAULT_RETRY_POLICY } from '../../../ingest/mail/retry-policy.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import { type SmtpPeer, smtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, migratedDb, postJson, rowsOf, signup, SITE_CONTENT, solvedCaptcha, tempDir } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();

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

/** A worker on `db` sending to `url` (`?ignoreTLS=true` is added) on a manual clock, with its error and warning log lines collected. */
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
  it('regression: a 550 to DATA marks the row failed at once instead of retrying for 48 h', async () => {
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

  it('regression: a 550 5.4.5 to MAIL FROM (a daily sending limit) backs off every sales mail, and they go out once the relay takes mail again', async () => {
    const smtp = await peer();
    smtp.mailFromAnswer = { code: 550, text: '5.4.5 Daily user sending limit exceeded. For more information, go to https://support.google.com/a/answer/166852' };
    const { worker: w, clock, errors, warnings, outbox } = worker(await queued(3), smtp.url);

    expect(await w.runPass()).toMatchObject({ sent: 0, retried: 3, failed: 0 });
    expect(await outbox.counts()).toMatchObject({ pending: 3, failed: 0 });
    expect(errors).toEqual([]);
    expect(warnings).toEqual(Array(3).fill('sales mail failed, will retry'));
    // Still refused an hour later: still waiting, never failed.
    clock.advance(3600_000);
    expect(await w.runPass()).toMatchObject({ sent: 0, retried: 3, failed: 0 });

    // The quota is back: every lead reaches sales.
    smtp.mailFromAnswer = null;
    clock.set((await outbox.nextDueAt())!);
    expect((await w.runPass()).sent).toBe(3);
    expect(smtp.messages).toHaveLength(3);
    expect(smtp.recipients).toEqual(Array(3).fill(['sales@example.com']));
    expect(await outbox.counts()).toMatchObject({ sent: 3, pending: 0, failed: 0 });
  });

  it('fails only the mail whose recipient the relay refuses (RCPT TO 550); the sales mail queued beside it goes out', async () => {
    const smtp = await peer();
    smtp.unknownRecipients = ['nobody@example.com'];
    const running = await startService(configFor(folder(), { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com' }), {
      pollMs: 20,
      logStream: { write: () => {} },
    });
    later(running.close);
    expect((await postJson(running.app, '/api/newsletter', signup({ email: 'nobody@example.com' }))).statusCode).toBe(201);
    expect((await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app) }))).statusCode).toBe(201);

    await eventually(async () => {
      const counts = await running.backend.outbox.counts();
      return counts.sent + counts.failed === 2;
    });
    expect(await rowsOf(running.backend, 'SELECT kind, status FROM outbox ORDER BY id')).toEqual([
      { kind: 'newsletter_confirm', status: 'failed' },
      { kind: 'sales', status: 'sent' },
    ]);
    expect(smtp.recipients).toEqual([['sales@example.com']]);
  });

  it('backs off after a refused login (535), which every mail shares', async () => {
    const smtp = await smtpPeer({ auth: true });
    later(smtp.close);
    smtp.refusingLogins = true;
    const { worker: w, outbox, errors } = worker(await queued(1), smtp.url.replace('smtp://', 'smtp://forms:wrong@'));
    expect(await w.runPass()).toMatchObject({ retried: 1, failed: 0 });
    expect(smtp.logins).toEqual(['forms:wrong']);
    expect(await outbox.counts()).toMatchObject({ pending: 1, failed: 0 });
    expect(errors).toEqual([]);
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
