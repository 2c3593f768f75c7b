/**
 * Shutdown against an SMTP server that takes a message and never answers: bounded SMTP waits, a
 * send in flight abandoned and its row returned to `pending`, and one Message-ID per row however
 * often it is sent, so the receiver can drop a copy. A real SMTP peer, real SQLite files.
 */
import { describe, expect, it } from 'vitest';
import { SMTP_TIMEOUTS, smtpMailer } from '../../../ingest/mail/mailer.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { type RunningService, startService } from '../../../ingest/server.ts';
import type { SqliteDatabase } from '../../../ingest/store/sqlite/connection.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { SmtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, migratedDb, postJson, SITE_CONTENT, solvedCaptcha } from '../fixtures.ts';

// `serve()` in ingest/server.ts exits 1 if shutting down takes longer than this.
const SHUTDOWN_GRACE_MS = 15_000;
const FAST_RETRY = { firstDelayMs: 30, maxDelayMs: 200, giveUpAfterMs: 60_000, jitter: 0.2 };
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

const { later, peer, folder } = mailScaffold();

async function service(dir: string, smtp: SmtpPeer): Promise<RunningService> {
  const running = await startService(configFor(dir, { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com', RATE_LIMIT_MAX: '1000' }), {
    retryPolicy: FAST_RETRY,
    pollMs: 20,
    logStream: { write: () => {} },
  });
  later(running.close);
  return running;
}

async function submit(running: RunningService): Promise<void> {
  const res = await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app) }));
  expect(res.statusCode).toBe(201);
}

/** A migrated database holding one contact whose sales email is due now. */
async function queuedOne(): Promise<SqliteDatabase> {
  const db = await migratedDb(folder());
  later(() => db.close());
  const store = await openSubmissionStore(db, {});
  const fields = { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.com', phone: null, companyName: null, country: 'es', message: 'Hola', captcha: { token: 'unused', answer: 0 }, lang: 'es' as const };
  await store.submitContact(fields, { value: 'nonce-hang-00000001', expiresAt: Date.now() + 60_000 }, Date.now());
  await store.close();
  return db;
}

function workerOn(db: SqliteDatabase, smtp: SmtpPeer, mailerOptions: Record<string, unknown> = {}) {
  return outboxWorker({
    outbox: sqliteOutbox(db),
    mailer: smtpMailer(`${smtp.url}?ignoreTLS=true`, mailerOptions),
    envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
    clock: { now: () => Date.now() },
    policy: FAST_RETRY,
    pollMs: 20,
    log: silentLog,
  });
}

// A long Message-ID is folded onto the next line (RFC 5322), so the id is read across the fold.
const messageId = (raw: string | undefined) => /^Message-ID:\s*(<[^>]+>)/im.exec(raw ?? '')?.[1];
const lastError = (db: SqliteDatabase) => (db.raw.prepare('SELECT last_error FROM outbox').get() as { last_error: string | null }).last_error;

describe('shutdown while the SMTP server hangs', () => {
  it('regression: SMTP connect, greeting and socket (DATA answer) timeouts are shorter than the 15 s shutdown grace', () => {
    expect(SMTP_TIMEOUTS.connectionTimeout).toBeLessThan(SHUTDOWN_GRACE_MS);
    expect(SMTP_TIMEOUTS.greetingTimeout).toBeLessThan(SHUTDOWN_GRACE_MS);
    expect(SMTP_TIMEOUTS.socketTimeout).toBeLessThan(SHUTDOWN_GRACE_MS);
  });

  it('fails a send whose DATA is never answered once the socket timeout runs out, and retries it', async () => {
    const smtp = await peer();
    smtp.answer = 'never';
    const db = await queuedOne();
    const result = await workerOn(db, smtp, { socketTimeout: 200 }).runPass();
    expect(result).toMatchObject({ sent: 0, retried: 1 });
    expect(await sqliteOutbox(db).counts()).toMatchObject({ pending: 1, sending: 0 });
    expect(lastError(db)).toMatch(/timeout/i);
  });

  it('regression: stop() abandons a send the server never answers and returns its row to pending, instead of waiting for it', async () => {
    const smtp = await peer();
    smtp.answer = 'never';
    const db = await queuedOne();
    const worker = workerOn(db, smtp);
    worker.start();
    await eventually(() => smtp.received.length === 1);

    await worker.stop({ abandonAfterMs: 100 });
    const outbox = sqliteOutbox(db);
    expect(await outbox.counts()).toMatchObject({ pending: 1, sending: 0, sent: 0 });
    expect(await outbox.nextDueAt()).toBeLessThanOrEqual(Date.now());
    expect(lastError(db)).toMatch(/abandoned at shutdown/);

    // The next run sends it at once, under the Message-ID the hung server already has.
    smtp.answer = 'accept';
    expect(await workerOn(db, smtp).runPass()).toMatchObject({ sent: 1 });
    expect(messageId(smtp.messages[0])).toBeDefined();
    expect(messageId(smtp.messages[0])).toBe(messageId(smtp.received[0]));
  }, 10_000);

  it('regression: the service shuts down inside its grace while the server sits on DATA, and the next start sends the row at once, not after the 5-minute lease', async () => {
    const smtp = await peer();
    smtp.answer = 'never';
    const dir = folder();
    const first = await service(dir, smtp);
    await submit(first);
    await eventually(() => smtp.received.length === 1);
    // server.ts's close() → worker.stop(): the default abandonment (5 s) fits in the 15 s grace.
    await first.close();
    const db = await migratedDb(dir);
    expect(await sqliteOutbox(db).counts()).toMatchObject({ pending: 1, sending: 0 });
    expect(lastError(db)).toMatch(/abandoned at shutdown/);
    db.close();

    smtp.answer = 'accept';
    const second = await service(dir, smtp);
    await eventually(async () => (await second.backend.outbox.counts()).sent === 1);
    expect(smtp.messages).toHaveLength(1);
    expect(messageId(smtp.messages[0])).toBe(messageId(smtp.received[0]));
  }, SHUTDOWN_GRACE_MS);

  it('keeps one Message-ID for a row across retries and a restart', async () => {
    const smtp = await peer();
    smtp.refusing = true;
    const dir = folder();
    const first = await service(dir, smtp);
    await submit(first);
    await eventually(() => smtp.refused >= 2);
    await first.close();

    smtp.refusing = false;
    const second = await service(dir, smtp);
    await eventually(async () => (await second.backend.outbox.counts()).sent === 1);
    expect(smtp.received.length).toBeGreaterThanOrEqual(3);
    const ids = new Set(smtp.received.map(messageId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^<.+@.+>$/);
  });
});
