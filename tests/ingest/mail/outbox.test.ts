/**
 * The sales mail: a real SMTP server in this process, the real service or the real worker on a
 * real SQLite file. Exactly one email per contact, whatever the SMTP server or restarts do.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { contactEmail } from '../../../ingest/mail/messages/contact-email.ts';
import { smtpMailer } from '../../../ingest/mail/mailer.ts';
import { sqliteOutbox } from '../../../ingest/store/sqlite/sqlite-outbox-store.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { DEFAULT_RETRY_POLICY } from '../../../ingest/mail/retry-policy.ts';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { openSqlite } from '../../../ingest/store/sqlite/connection.ts';
import { openSubmissionStore } from '../../../ingest/store/sqlite/sqlite-submission-store.ts';
import type { SmtpPeer } from '../../helpers/smtp-peer.ts';
import { mailScaffold } from './scaffold.ts';
import { configFor, contact, eventually, migratedDb, postJson, rowsOf, SITE_CONTENT, solvedCaptcha } from '../fixtures.ts';

const FAST_RETRY = { firstDelayMs: 30, maxDelayMs: 200, giveUpAfterMs: 60_000, jitter: 0.2 };
const { later, peer, folder } = mailScaffold();

async function service(dir: string, smtp: SmtpPeer, overrides: Parameters<typeof startService>[1] = {}): Promise<RunningService> {
  const running = await startService(configFor(dir, { SMTP_URL: `${smtp.url}?ignoreTLS=true`, SALES_EMAIL: 'sales@example.com', RATE_LIMIT_MAX: '1000' }), {
    retryPolicy: FAST_RETRY,
    pollMs: 20,
    logStream: { write: () => {} },
    ...overrides,
  });
  later(running.close);
  return running;
}

async function submit(running: RunningService, overrides: Record<string, unknown>): Promise<void> {
  const res = await postJson(running.app, '/api/contact', contact({ captcha: await solvedCaptcha(running.app), ...overrides }));
  expect(res.statusCode).toBe(201);
}

// A long Message-ID is folded onto the next line (RFC 5322), so the id is read across the fold.
const messageIds = (messages: string[]) => messages.map((raw) => /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1]);
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

describe('outbox delivery', () => {
  it('delivers exactly one email per contact when the SMTP server refuses for a while, then accepts', async () => {
    const smtp = await peer();
    smtp.refusing = true;
    const running = await service(folder(), smtp);
    for (const firstName of ['Ana', 'Bruno', 'Carla']) await submit(running, { firstName, email: `${firstName.toLowerCase()}@example.com` });
    await eventually(() => smtp.refused >= 6);
    expect(smtp.messages).toHaveLength(0);
    smtp.refusing = false;
    await eventually(() => smtp.messages.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(3);
    expect(new Set(messageIds(smtp.messages)).size).toBe(3);
    expect(smtp.messages.map((raw) => /^Reply-To: .*<(\w+)@example\.com>$/m.exec(raw)?.[1]).sort()).toEqual(['ana', 'bruno', 'carla']);
    expect(await running.backend.outbox.counts()).toMatchObject({ sent: 3, pending: 0, sending: 0 });
  });

  it('still delivers after a restart between store and send, and never sends a sent row again', async () => {
    const smtp = await peer();
    const dir = folder();
    smtp.refusing = true;
    // First run: stored, one refused attempt, next try 10 s away (the real schedule); then stopped.
    const first = await service(dir, smtp, { retryPolicy: DEFAULT_RETRY_POLICY });
    await submit(first, {});
    await eventually(() => smtp.refused >= 1);
    await first.close();
    expect(smtp.messages).toHaveLength(0);

    // Second run, 11 s later by its clock, with the server accepting again.
    smtp.refusing = false;
    const second = await service(dir, smtp, { clock: { now: () => Date.now() + 11_000 } });
    await eventually(() => smtp.messages.length === 1);
    await second.close();

    // Third run: the sent row stays sent.
    const third = await service(dir, smtp);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(1);
    expect(await third.backend.outbox.counts()).toMatchObject({ sent: 1, pending: 0 });
  });

  it('sends again a row a crashed process left "sending", once its lease has run out', async () => {
    const smtp = await peer();
    const dir = folder();
    const db = await migratedDb(dir);
    const store = await openSubmissionStore(db, {});
    await store.submitContact(contactFields(), { value: 'nonce-crash-0000001', expiresAt: Date.now() + 60_000 }, Date.now());
    // What a process killed mid-send leaves behind.
    db.raw.prepare("UPDATE outbox SET status = 'sending', attempts = 1, claimed_at = ?").run(new Date(Date.now() - 10 * 60_000).toISOString());
    await store.close();
    db.close();
    const running = await service(dir, smtp);
    await eventually(async () => (await running.backend.outbox.counts()).sent === 1);
    expect(smtp.messages).toHaveLength(1);
    expect(await running.backend.outbox.counts()).toMatchObject({ sent: 1, sending: 0 });
  });

  it('never hands one row to two workers on separate connections', async () => {
    const smtp = await peer();
    const dir = folder();
    const db = await migratedDb(dir);
    const store = await openSubmissionStore(db, {});
    for (let i = 0; i < 12; i++) {
      await store.submitContact(contactFields(), { value: `nonce-parallel-${String(i).padStart(6, '0')}`, expiresAt: Date.now() + 60_000 }, Date.now());
    }
    await store.close();
    const other = openSqlite(db.path);
    later(() => db.close());
    later(() => other.close());
    const workers = [db, other].map((handle) =>
      outboxWorker({
        outbox: sqliteOutbox(handle),
        mailer: smtpMailer(`${smtp.url}?ignoreTLS=true`),
        envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
        clock: { now: () => Date.now() },
        log: silentLog,
      }),
    );
    const results = await Promise.all(workers.map((worker) => worker.runPass()));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(12);
    expect(smtp.messages).toHaveLength(12);
    expect(new Set(messageIds(smtp.messages)).size).toBe(12);
  });

  it('leases each row of a long pass from its own claim, so another worker cannot take rows the pass is still sending', async () => {
    const dir = folder();
    const db = await migratedDb(dir);
    const store = await openSubmissionStore(db, {});
    for (let i = 0; i < 5; i++) {
      await store.submitContact(contactFields(), { value: `nonce-longpass-${String(i).padStart(6, '0')}`, expiresAt: Date.now() + 60_000 }, Date.now());
    }
    await store.close();
    later(() => db.close());
    const clock = manualClock(Date.now());
    const leaseMs = 1000;
    const outbox = sqliteOutbox(db);
    // Each send takes 0.6 leases; meanwhile a worker in another replica looks for abandoned rows.
    const takenOver: number[] = [];
    const worker = outboxWorker({
      outbox,
      mailer: {
        async send() {
          clock.advance(600);
          takenOver.push(await outbox.releaseStale(clock.now() - leaseMs));
        },
        close() {},
      },
      envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
      clock,
      leaseMs,
      log: silentLog,
    });
    expect(await worker.runPass()).toMatchObject({ sent: 5, retried: 0 });
    expect(takenOver).toEqual([0, 0, 0, 0, 0]);
  });

  it('records a sent mail once the database answers again, instead of leaving it to be sent twice', async () => {
    const dir = folder();
    const db = await migratedDb(dir);
    const store = await openSubmissionStore(db, {});
    await store.submitContact(contactFields(), { value: 'nonce-record-000001', expiresAt: Date.now() + 60_000 }, Date.now());
    await store.close();
    later(() => db.close());
    const outbox = sqliteOutbox(db);
    // The database goes away right after the SMTP server took the mail, for two tries.
    let outage = 2;
    const sends: string[] = [];
    const warnings: string[] = [];
    const worker = outboxWorker({
      outbox: {
        ...outbox,
        markSent: async (claim, now) => {
          if (outage-- > 0) throw new Error('Connection terminated unexpectedly');
          return outbox.markSent(claim, now);
        },
      },
      mailer: { send: async (message) => void sends.push(message.messageId), close() {} },
      envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
      clock: { now: () => Date.now() },
      log: { ...silentLog, warn: (_details: unknown, message?: string) => void warnings.push(String(message)) },
    });
    expect(await worker.runPass()).toMatchObject({ sent: 1 });
    expect(sends).toHaveLength(1);
    expect(warnings).toEqual(['sales mail sent, but not recorded yet; trying again', 'sales mail sent, but not recorded yet; trying again']);
    expect(await outbox.counts()).toMatchObject({ sent: 1, sending: 0, pending: 0 });
  });

  it('backs off from 10 s doubling to 1 h, then gives up after 48 h and logs it', async () => {
    const dir = folder();
    const db = await migratedDb(dir);
    later(() => db.close());
    const clock = manualClock(Date.parse('2025-06-01T00:00:00Z'));
    const store = await openSubmissionStore(db, {});
    await store.submitContact(contactFields(), { value: 'nonce-giveup-000001', expiresAt: clock.now() + 60_000 }, clock.now());
    await store.close();
    const errors: string[] = [];
    let sends = 0;
    const outbox = sqliteOutbox(db);
    const worker = outboxWorker({
      outbox,
      mailer: {
        send: async () => {
          sends += 1;
          throw new Error('connection refused');
        },
        close: () => {},
      },
      envelope: { from: 'forms@example.com', to: 'sales@example.com', content: SITE_CONTENT },
      clock,
      random: () => 0.5,
      log: { ...silentLog, error: (_data: unknown, message?: string) => void errors.push(String(message)) },
    });
    const delays: number[] = [];
    for (let guard = 0; guard < 100 && (await outbox.counts()).failed === 0; guard++) {
      const result = await worker.runPass();
      expect(result.sent).toBe(0);
      const due = await outbox.nextDueAt();
      if (due === null) break;
      delays.push(due - clock.now());
      clock.set(due);
    }
    expect(delays.slice(0, 10).map((ms) => ms / 1000)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600]);
    expect(await outbox.counts()).toMatchObject({ failed: 1, pending: 0 });
    expect(clock.now()).toBe(Date.parse('2025-06-03T00:00:00Z'));
    expect(errors).toEqual(['sales mail given up after 48 h; see the outbox row']);
    const attempts = sends;
    clock.advance(24 * 3600_000);
    await worker.runPass();
    expect(sends).toBe(attempts);
  });
});

describe('graceful shutdown', () => {
  it('answers and stores every request in flight when closing, then refuses new connections', async () => {
    const smtp = await peer();
    const dir = folder();
    const running = await service(dir, smtp);
    const port = (running.app.server.address() as { port: number }).port;
    const post = (i: number) =>
      fetch(`http://127.0.0.1:${port}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'N', email: `n${i}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'en' }),
      }).then((res) => res.status);
    let received = 0;
    running.app.server.on('request', () => void (received += 1));
    const inFlight = Array.from({ length: 40 }, (_, i) => post(i).catch(() => 'failed' as const));
    await eventually(() => received === 40);
    await running.close();
    const statuses = await Promise.all(inFlight);
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 201));
    const created = 40;
    await expect(post(99)).rejects.toThrow();
    const db = await migratedDb(dir);
    later(() => db.close());
    expect(db.raw.prepare('SELECT count(*) AS n FROM newsletter').get()).toEqual({ n: created });
  });
});

describe('the sales email', () => {
  it('carries every field in text and escaped HTML, with Reply-To the visitor and the name and company in the subject', async () => {
    const smtp = await peer();
    const running = await service(folder(), smtp);
    await submit(running, {
      firstName: 'Zoë',
      lastName: '<b>Bold</b>',
      email: 'zoe@Example.ORG',
      companyName: 'Fish & Chips "Ltd"',
      phone: '+44 20 7946 0000',
      country: 'gb',
      message: 'Line one\n<script>alert(1)</script>',
      lang: 'en',
    });
    await eventually(() => smtp.messages.length === 1);
    const raw = smtp.messages[0]!;
    expect(raw).toMatch(/^Reply-To: .*<zoe@example\.org>$/m);
    expect(raw).toMatch(/^To: sales@example\.com$/m);
    expect(raw).toMatch(/^Subject: .+/m);
    const email = contactEmail(
      (await rowsOf(running.backend, 'SELECT * FROM contacts'))[0] as never,
      { from: 'f@example.com', to: 's@example.com', content: SITE_CONTENT, outbox: { id: 1, messageKey: '0123456789abcdef0123456789abcdef' } },
    );
    expect(email.subject).toBe('Question from Zoë <b>Bold</b> (Fish & Chips "Ltd")');
    for (const value of ['+44 20 7946 0000', 'United Kingdom (gb)', 'Line one\n<script>alert(1)</script>', 'zoe@example.org']) {
      expect(email.text).toContain(value);
    }
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).toContain('Fish &amp; Chips &quot;Ltd&quot;');
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<b>Bold');
  });

  it('cannot be given extra headers through any field, even by a row that skipped validation', async () => {
    const smtp = await peer();
    const dir = folder();
    const db = await migratedDb(dir);
    const store = await openSubmissionStore(db, {});
    await store.submitContact(
      {
        ...contactFields(),
        firstName: 'Eve\r\nBcc: victim1@example.com',
        lastName: 'X\nX-Injected: yes',
        companyName: 'Co\r\n\r\nbody',
        email: 'eve@example.com\r\nCc: victim2@example.com',
      } as never,
      { value: 'nonce-inject-000001', expiresAt: Date.now() + 60_000 },
      Date.now(),
    );
    await store.close();
    db.close();
    await service(dir, smtp);
    await eventually(() => smtp.messages.length === 1);
    const headers = smtp.messages[0]!.split(/\r?\n\r?\n/)[0]!;
    expect(headers).not.toMatch(/^(Bcc|Cc|X-Injected):/im);
    expect(headers.split(/\r?\n/).filter((line) => !/^\s/.test(line)).map((line) => line.split(':')[0])).toEqual([
      'Auto-Submitted', 'From', 'To', 'Reply-To', 'Subject', 'Message-ID', 'Date', 'MIME-Version', 'Content-Type',
    ]);
    expect(smtp.recipients).toEqual([['sales@example.com']]);
  });
});

function contactFields() {
  return {
    firstName: 'Ana',
    lastName: 'Pérez',
    email: 'ana@example.com',
    phone: null,
    companyName: null,
    country: 'es',
    message: 'Hola',
    captcha: { token: 'unused', answer: 0 },
    lang: 'es' as const,
  };
}
