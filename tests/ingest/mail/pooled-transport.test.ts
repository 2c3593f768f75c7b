/**
 * The pooled SMTP transport with several sends in flight, against a real SMTP peer and real SQLite
 * files: one connection carries many mails, `SMTP_MAX_CONNECTIONS` bounds them, and the outbox's
 * guarantees hold with sends overlapping — a 5xx fails each row at once, a 4xx backs each off,
 * a shutdown abandons every send in flight (the one on the wire and the ones queued behind it)
 * and returns their rows, and two workers on one outbox deliver each row exactly once.
 */
import { describe, expect, it } from 'vitest';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { startService } from '../../../ingest/server.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { SmtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, eventually, migratedDb, SITE_CONTENT } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();

const FAST_RETRY = { firstDelayMs: 60_000, maxDelayMs: 60_000, giveUpAfterMs: 3_600_000, jitter: 0 };
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

/** Queues `n` sales mails (one contact each) in the SQLite database of `dir`. */
async function queue(dir: string, n: number): Promise<SqliteDatabase> {
  const db = await migratedDb(dir);
  later(() => db.close());
  const store = await openSubmissionStore(db, {});
  await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const fields = { firstName: `Ana${i}`, lastName: 'Pérez', email: `ana${i}@example.com`, phone: null, companyName: null, country: 'es', message: 'Hola', captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
      return store.submitContact(fields, { value: `nonce-pool-${String(i).padStart(6, '0')}`, expiresAt: Date.now() + 60_000 }, Date.now());
    }),
  );
  await store.close();
  return db;
}

/** A worker with `concurrency` sends in flight over its own pooled mailer (closed after the test). */
function worker(db: SqliteDatabase, smtp: SmtpPeer, concurrency: number) {
  const mailer = smtpMailer(`${smtp.url}?ignoreTLS=true`);
  later(() => mailer.close());
  return outboxWorker({
    outbox: sqliteOutbox(db),
    mailer,
    envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
    clock: { now: () => Date.now() },
    policy: FAST_RETRY,
    pollMs: 20,
    concurrency,
    log: silentLog,
  });
}

const messageIds = (raws: string[]) => raws.map((raw) => /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1]);

describe('the pooled SMTP transport', () => {
  it('sends a backlog through the service over one reused connection by default, and over at most SMTP_MAX_CONNECTIONS', async () => {
    for (const [connections, max] of [[undefined, 1], ['3', 3]] as const) {
      const smtp = await peer();
      const dir = folder();
      (await queue(dir, 60)).close();
      const env = { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com', ...(connections === undefined ? {} : { SMTP_MAX_CONNECTIONS: connections }) };
      const running = await startService(configFor(dir, env), { pollMs: 20, logStream: { write: () => {} } });
      later(running.close);
      await eventually(async () => (await running.backend.outbox.counts()).sent === 60, 20_000);
      expect(smtp.messages).toHaveLength(60);
      expect(new Set(messageIds(smtp.messages)).size).toBe(60);
      // One connection for all 60 (the old transport opened one per mail); a pool of 3 opens up to 3.
      if (max === 1) expect(smtp.connections).toBe(1);
      else expect(smtp.connections).toBeLessThanOrEqual(max);
    }
  });

  it('fails every row at once on a 5xx and backs every row off on a 4xx, with sends overlapping', async () => {
    const smtp = await peer();
    smtp.answer = 550;
    const rejected = await queue(folder(), 12);
    expect(await worker(rejected, smtp, 4).runPass()).toMatchObject({ sent: 0, failed: 12, retried: 0 });
    expect(await sqliteOutbox(rejected).counts()).toMatchObject({ failed: 12, pending: 0, sending: 0 });

    smtp.answer = 451;
    const busy = await queue(folder(), 12);
    expect(await worker(busy, smtp, 4).runPass()).toMatchObject({ sent: 0, failed: 0, retried: 12 });
    expect(await sqliteOutbox(busy).counts()).toMatchObject({ pending: 12, failed: 0, sending: 0 });
  });

  it('abandons the send on the wire and those queued behind it at shutdown, and the next run sends each row once under its Message-ID', async () => {
    const smtp = await peer();
    smtp.answer = 'never';
    const db = await queue(folder(), 6);
    const first = worker(db, smtp, 4);
    first.start();
    await eventually(() => smtp.received.length === 1);
    const started = Date.now();
    await first.stop({ abandonAfterMs: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    const outbox = sqliteOutbox(db);
    expect(await outbox.counts()).toMatchObject({ pending: 6, sending: 0, sent: 0 });

    smtp.answer = 'accept';
    expect(await worker(db, smtp, 4).runPass()).toMatchObject({ sent: 6 });
    expect(new Set(messageIds(smtp.messages)).size).toBe(6);
    expect(messageIds(smtp.messages)).toContain(messageIds(smtp.received)[0]);
  });

  it('delivers every row exactly once with two workers, four sends in flight each, on one outbox', async () => {
    const smtp = await peer();
    const db = await queue(folder(), 80);
    const results = await Promise.all([worker(db, smtp, 4).runPass(), worker(db, smtp, 4).runPass()]);
    expect(results[0]!.sent + results[1]!.sent).toBe(80);
    expect(smtp.messages).toHaveLength(80);
    expect(new Set(messageIds(smtp.messages)).size).toBe(80);
    expect(await sqliteOutbox(db).counts()).toMatchObject({ sent: 80, pending: 0, sending: 0 });
  });
});
