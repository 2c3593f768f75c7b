/**
 * Message-IDs: unique across databases (a random part stored with each outbox row), the same for
 * every send of one row, under the domain of MAIL_FROM. Real stores on both backends, the real
 * worker and composers, a mailer that records what it is given.
 */
import { join } from 'node:path';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../ingest/clock.ts';
import { contactSchema, newsletterSchema, plainContactSchema, validate } from '../../../ingest/contract/schemas.ts';
import type { OutgoingMail } from '../../../ingest/mail/mailer.ts';
import { outboxMessageId, senderDomain } from '../../../ingest/mail/messages/message-id.ts';
import { outboxWorker } from '../../../ingest/mail/outbox-worker.ts';
import { MIGRATIONS } from '../../../ingest/store/migrations.ts';
import { openBackend } from '../../../ingest/store/open-backend.ts';
import { openPostgres } from '../../../ingest/store/postgres/pg-connection.ts';
import { openSqlite } from '../../../ingest/store/sqlite/connection.ts';
import { BACKENDS, configFor, contact, databaseEnv, rowsOf, signup, SITE_CONTENT, testNewsletter, type BackendKind } from '../fixtures.ts';
import { mailScaffold } from './scaffold.ts';

const { later, folder } = mailScaffold();
const FAST_RETRY = { firstDelayMs: 20, maxDelayMs: 50, giveUpAfterMs: 60_000, jitter: 0 };
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };
const KEY = /^[0-9a-f]{32}$/;

function valid<S extends Parameters<typeof validate>[0]>(schema: S, body: unknown) {
  const result = validate(schema, body);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data as never;
}

/** A fresh database of `kind` with the service's configuration (MAIL_FROM as given), and its consent parts. */
async function freshService(kind: BackendKind, mailFrom = 'forms@mail.example.org') {
  const config = configFor(folder(), { ...(await databaseEnv(kind)), MAIL_FROM: mailFrom, SALES_EMAIL: 'sales@example.com' });
  const backend = await openBackend(config);
  later(() => backend.close());
  const newsletter = testNewsletter(backend.consentDb, { from: config.mailFrom });
  await newsletter.lifecycle.recordWordings(newsletter.wordings, Date.now());
  return { config, backend, newsletter };
}

/** The worker of `service`, sending through `send` (which may throw). */
function workerOf(service: Awaited<ReturnType<typeof freshService>>, send: (mail: OutgoingMail) => void) {
  return outboxWorker({
    outbox: service.backend.outbox,
    mailer: { send: async (mail) => send(mail), close() {} },
    envelope: { from: service.config.mailFrom, to: service.config.salesEmail, content: SITE_CONTENT },
    confirmationMail: service.newsletter.confirmationMail,
    contactConfirmationMail: service.newsletter.contactConfirmationMail,
    clock: systemClock,
    log: silentLog,
    policy: FAST_RETRY,
  });
}

/** Stores one pending signup and one contact (captcha solved), then sends both; returns the Message-IDs sent, in order. */
async function firstMails(service: Awaited<ReturnType<typeof freshService>>): Promise<string[]> {
  const now = Date.now();
  const data = valid(newsletterSchema, signup({ email: 'ana@example.com' })) as { lang: 'es' };
  expect(await service.backend.submissions.subscribe(data as never, now, service.newsletter.termsFor(data as never, now))).toBe('created');
  const nonce = { value: `nonce-${now}-0000000000001`, expiresAt: now + 600_000 };
  expect(await service.backend.submissions.submitContact(valid(contactSchema, contact({ captcha: { token: 't', answer: 0 } })), nonce, now)).toBe('created');
  const sent: string[] = [];
  await workerOf(service, (mail) => void sent.push(mail.messageId)).runPass();
  return sent;
}

describe.each(BACKENDS)('Message-IDs on %s', (kind) => {
  it('regression: two fresh databases gave their first mails the same Message-ID (<newsletter-1.outbox-1@ingest.invalid>)', async () => {
    const first = await firstMails(await freshService(kind));
    const second = await firstMails(await freshService(kind));
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    // The same rows (newsletter 1 / outbox 1, contact 1 / outbox 2) in both databases, and no Message-ID in common.
    expect(first[0]).toMatch(/^<[0-9a-f]{32}\.newsletter-1\.outbox-1@mail\.example\.org>$/);
    expect(second[0]).toMatch(/^<[0-9a-f]{32}\.newsletter-1\.outbox-1@mail\.example\.org>$/);
    expect(first[1]).toMatch(/^<[0-9a-f]{32}\.contact-1\.outbox-2@mail\.example\.org>$/);
    expect(new Set([...first, ...second]).size).toBe(4);
  });

  it('gives a retried row the Message-ID of its first send', async () => {
    const service = await freshService(kind, 'Forms@Example.COM');
    const now = Date.now();
    await service.backend.submissions.submitUnverifiedContact(valid(plainContactSchema, contact({ email: 'bo@example.com' })), now, now + 86_400_000);
    const attempts: string[] = [];
    const worker = workerOf(service, (mail) => {
      attempts.push(mail.messageId);
      if (attempts.length === 1) throw Object.assign(new Error('451 4.3.0 try again later'), { responseCode: 451 });
    });
    expect(await worker.runPass()).toMatchObject({ retried: 1, sent: 0 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await worker.runPass()).toMatchObject({ sent: 1 });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toBe(attempts[0]);
    expect(attempts[0]).toMatch(/^<[0-9a-f]{32}\.contact-confirm-1\.outbox-1@example\.com>$/);
  });

  it('stores a random key of its own with every outbox row, however the mail was queued', async () => {
    const service = await freshService(kind);
    const { backend, newsletter } = service;
    const now = Date.now();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const data = valid(newsletterSchema, signup({ email }));
      await backend.submissions.subscribe(data, now, newsletter.termsFor(data, now));
    }
    for (const n of [1, 2]) {
      const nonce = { value: `nonce-${n}-${now}-000000000001`, expiresAt: now + 600_000 };
      await backend.submissions.submitContact(valid(contactSchema, contact({ captcha: { token: 't', answer: 0 } })), nonce, now);
    }
    await backend.submissions.submitUnverifiedContact(valid(plainContactSchema, contact({ email: 'd@example.com' })), now, now + 86_400_000);
    const [unverified] = (await rowsOf(backend, 'SELECT * FROM contacts WHERE verified_at IS NULL')) as never[];
    expect(await newsletter.verification.confirmContact(newsletter.links.sign('contact', unverified!, now + 86_400_000), now)).toBe('confirmed');
    const keys = (await rowsOf(backend, 'SELECT message_key FROM outbox')).map((row) => row.message_key as string);
    expect(keys).toHaveLength(3 + 2 + 1);
    for (const key of keys) expect(key).toMatch(KEY);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives each outbox row from before the migration a random key of its own', async () => {
    const db = await unmigrated(kind);
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '2026-11-28-007'));
    expect((await migrator(db, before).migrateToLatest()).error).toBeUndefined();
    // Three mails queued the old way, without a key.
    await sql`insert into contacts (first_name, last_name, email, email_lower, country, message, lang, created_at) values ('A', 'B', 'a@example.com', 'a@example.com', 'es', 'm', 'es', '2026-11-01T00:00:00.000Z')`.execute(db.kysely);
    for (const status of ['sent', 'pending', 'failed']) {
      await sql`insert into outbox (kind, contact_id, status, attempts, next_attempt_at, created_at) values ('sales', 1, ${status}, 1, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`.execute(db.kysely);
    }
    expect((await migrator(db, MIGRATIONS).migrateToLatest()).error).toBeUndefined();
    const keys = (await sql<{ message_key: string }>`select message_key from outbox`.execute(db.kysely)).rows.map((row) => row.message_key);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(KEY);
    expect(new Set(keys).size).toBe(3);
  });
});

/** A fresh, empty database of `kind` with a kysely on it (closed after the test), and the schema kysely's tables go in. */
async function unmigrated(kind: BackendKind): Promise<{ kysely: Kysely<any>; schema?: string }> {
  if (kind === 'sqlite') {
    const db = openSqlite(join(folder(), 'old.sqlite'));
    later(() => db.close());
    return { kysely: db.kysely };
  }
  const db = openPostgres({ url: (await databaseEnv(kind)).DATABASE_URL!, poolMax: 1, log: { error: () => {}, info: () => {} } });
  later(() => db.close());
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
  return { kysely: db.kysely, schema: rows[0]!.schema };
}

function migrator(db: { kysely: Kysely<any>; schema?: string }, migrations: Record<string, Migration>): Migrator {
  const provider = { getMigrations: async () => ({ ...migrations }) };
  return new Migrator({ db: db.kysely, provider, ...(db.schema === undefined ? {} : { migrationTableSchema: db.schema }) });
}

describe('Message-ID parts', () => {
  it('sit under the domain of MAIL_FROM, lower-cased, and fall back to a reserved name', () => {
    expect(senderDomain('Forms@Mail.Example.ORG')).toBe('mail.example.org');
    expect(senderDomain('ingest@localhost')).toBe('localhost');
    expect(senderDomain('ops@[192.0.2.1]')).toBe('[192.0.2.1]');
    expect(senderDomain('no-domain')).toBe('ingest.invalid');
    expect(senderDomain('a@exa mple.com')).toBe('ingest.invalid');
    expect(outboxMessageId('contact-7', { id: 9, messageKey: 'abc' }, 'forms@example.com')).toBe('<abc.contact-7.outbox-9@example.com>');
  });
});
