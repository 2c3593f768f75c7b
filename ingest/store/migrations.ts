/**
 * The versioned schema migrations, applied by kysely's Migrator at start-up and by `ingest migrate`.
 *
 * Migrations live in code (not loaded from a folder) so they work the same under tsx, in a
 * container and in tests. Each is append-only: never edit one that has shipped, add the next.
 * They use only types and constructs SQLite and PostgreSQL share (integer, text, foreign keys
 * with ON DELETE CASCADE, plain unique indexes); the differences are chosen by the dialect where
 * a type or statement truly differs: how an id is generated (`idColumn`), a 64-bit integer, and
 * PostgreSQL's UNLOGGED for the rate-limit counters.
 */
import {
  type ColumnDefinitionBuilder,
  type Kysely,
  type Migration,
  type MigrationResultSet,
  Migrator,
  PostgresAdapter,
  sql,
} from 'kysely';
import type { SqlRunner } from './sqlite/connection.ts';

// `neverReused`: SQLite's AUTOINCREMENT, so an id is never handed out again after a delete
// (contacts and outbox ids name emails); it costs a write to sqlite_sequence per insert, which
// the high-volume newsletter table skips (its rowid alias may reuse the id of a deleted row).
function idColumn(db: Kysely<unknown>, neverReused: boolean) {
  const postgres = isPostgres(db);
  return (column: ColumnDefinitionBuilder) =>
    postgres
      ? column.primaryKey().generatedByDefaultAsIdentity()
      : neverReused
        ? column.primaryKey().autoIncrement()
        : column.primaryKey();
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('newsletter')
      .addColumn('id', 'integer', idColumn(db, false))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('privacy_consent', 'integer', (c) => c.notNull())
      .addColumn('marketing_consent', 'integer', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('privacy_version', 'text', (c) => c.notNull())
      .addColumn('consent_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('newsletter_email_lower_unique')
      .on('newsletter')
      .column('email_lower')
      .unique()
      .execute();
    // No index on created_at: export --since and purge scan a table of a few thousand rows
    // rarely, while every signup would pay for the index.

    await db.schema
      .createTable('contacts')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('phone', 'text')
      .addColumn('company_name', 'text')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contacts_email_lower').on('contacts').column('email_lower').execute();
    await db.schema.createIndex('contacts_created_at').on('contacts').column('created_at').execute();

    await db.schema
      .createTable('outbox')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('outbox_contact_id').on('outbox').column('contact_id').execute();

    await db.schema
      .createTable('captcha_nonces')
      .addColumn('nonce', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('captcha_nonces_expires_at').on('captcha_nonces').column('expires_at').execute();
  },
};

// Why the visitor wrote and where from, for the sales email. SQLite adds one column per ALTER
// TABLE, and a NOT NULL column needs a constant default there; both hold in PostgreSQL too.
const contactIntentAndSource: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('intent', 'text', (c) => c.notNull().defaultTo('general')).execute();
    await db.schema.alterTable('contacts').addColumn('source_page', 'text').execute();
  },
};

// What replicas share besides the forms: rate-limit counters and settings such as the captcha
// key (created by the first replica to start). Both backends get both tables, so the schemas stay
// the same; only PostgreSQL uses them (a SQLite service is one process: its per-minute
// counters live in memory, its daily ones in rate-limits.sqlite beside the database, its key in
// $DATA_DIR). On PostgreSQL the counters are UNLOGGED: an increment writes
// no WAL and waits for no disk flush, and a crash only empties the table, which resets the windows.
const replicaSharedState: Migration = {
  async up(db: Kysely<unknown>) {
    let counters = db.schema.createTable('rate_limit_counters');
    if (isPostgres(db)) counters = counters.modifyFront(sql`unlogged`);
    await counters
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      // Milliseconds since the epoch (bigint on PostgreSQL, where integer stops at 2^31).
      .addColumn('reset_at', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_counters_reset_at').on('rate_limit_counters').column('reset_at').execute();
    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

// The consent lifecycle (double opt-in, unsubscribe, receipts). Subscriptions gain a status
// (rows from before were single opt-in, so `confirmed` at their signup), the consent wording's
// fingerprint and the confirmation mail's throttle; the outbox carries mail of several kinds
// (sales mail about a contact, confirmation mail to a subscriber), so its subject is a contact
// or a subscription; consent events keep what happened without personal data once the
// subscription is gone (ON DELETE SET NULL); consent texts keep each wording once, by hash.
const consentLifecycle: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    await db.schema.alterTable('newsletter').addColumn('status', 'text', (c) => c.notNull().defaultTo('confirmed')).execute();
    await db.schema.alterTable('newsletter').addColumn('confirmed_at', 'text').execute();
    await db.schema.alterTable('newsletter').addColumn('consent_hash', 'text').execute();
    await db.schema.alterTable('newsletter').addColumn('expires_at', 'text').execute();
    await db.schema.alterTable('newsletter').addColumn('confirm_mails', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('newsletter').addColumn('confirm_mail_day', 'text').execute();
    await db.schema.alterTable('newsletter').addColumn('last_confirm_mail_at', 'text').execute();
    await sql`update newsletter set confirmed_at = consent_at`.execute(db);
    await db.schema.createIndex('newsletter_status_expires_at').on('newsletter').columns(['status', 'expires_at']).execute();

    if (postgres) {
      await sql`alter table outbox alter column contact_id drop not null`.execute(db);
      await db.schema.alterTable('outbox').addColumn('kind', 'text', (c) => c.notNull().defaultTo('sales')).execute();
      await db.schema
        .alterTable('outbox')
        .addColumn('newsletter_id', 'integer', (c) => c.references('newsletter.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('outbox').addCheckConstraint('outbox_one_subject', sql`(contact_id is null) <> (newsletter_id is null)`).execute();
    } else {
      // SQLite cannot drop a NOT NULL: rebuild the table (nothing references it), keeping ids and the AUTOINCREMENT sequence.
      await db.schema
        .createTable('outbox_v4')
        .addColumn('id', 'integer', idColumn(db, true))
        .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('sales'))
        .addColumn('newsletter_id', 'integer', (c) => c.references('newsletter.id').onDelete('cascade'))
        .addCheckConstraint('outbox_one_subject', sql`(contact_id is null) <> (newsletter_id is null)`)
        .execute();
      await sql`insert into outbox_v4 (id, contact_id, status, attempts, next_attempt_at, claimed_at, sent_at, last_error, created_at)
        select id, contact_id, status, attempts, next_attempt_at, claimed_at, sent_at, last_error, created_at from outbox`.execute(db);
      await db.schema.dropTable('outbox').execute();
      await db.schema.alterTable('outbox_v4').renameTo('outbox').execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('outbox_contact_id').on('outbox').column('contact_id').execute();
    }
    await db.schema.createIndex('outbox_newsletter_id').on('outbox').column('newsletter_id').execute();

    await db.schema
      .createTable('consent_events')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('newsletter_id', 'integer', (c) => c.references('newsletter.id').onDelete('set null'))
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('lang', 'text')
      .addColumn('consent_hash', 'text')
      .addColumn('privacy_version', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('consent_events_newsletter_id').on('consent_events').column('newsletter_id').execute();
    await db.schema.createIndex('consent_events_at').on('consent_events').column('at').execute();

    await db.schema
      .createTable('consent_texts')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('privacy_version', 'text', (c) => c.notNull())
      .addColumn('wording', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute();
  },
};

// Contacts sent without JavaScript carry no captcha: they wait for their sender to confirm the
// address (`verified_at` null until then; `expires_at` says when an unconfirmed one is deleted).
// Rows from before were all verified by their captcha, when they were received.
const contactVerification: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('verified_at', 'text').execute();
    await db.schema.alterTable('contacts').addColumn('expires_at', 'text').execute();
    await sql`update contacts set verified_at = created_at`.execute(db);
  },
};

// Each outbox row gets the random part of its mail's Message-ID (`message_key`): ids derived from
// row ids alone came back on every fresh database (staging and production, a restore), and a
// mailbox may drop a real mail as a duplicate. New rows get theirs from `outbox-row.ts` (a column
// DEFAULT cannot be random on both backends); rows from before get a random one each here.
// SQLite adds a NOT NULL column only with a constant default, which would let a forgotten key
// pass as '', so the column is NOT NULL on PostgreSQL alone; the types require it on both.
const outboxMessageKey: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('outbox').addColumn('message_key', 'text').execute();
    if (isPostgres(db)) {
      await sql`update outbox set message_key = md5(random()::text || clock_timestamp()::text || id::text)`.execute(db);
      await sql`alter table outbox alter column message_key set not null`.execute(db);
    } else {
      await sql`update outbox set message_key = lower(hex(randomblob(16)))`.execute(db);
    }
  },
};

// Per-recipient mail caps and replaced signups (issue 22). `mail_caps` counts the mails the
// service sends to a visitor-typed address by the mailbox it delivers to (`mailboxKey`), per
// stream (`newsletter`, `contact`): one conditional upsert both checks and counts, so replicas
// share it. `newsletter_requests` keeps the earlier requests of a pending signup whose links are
// still out (`consent/subscriptions.ts`), so a later signup of the same address does not void them.
const mailCapsAndSignupRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_caps')
      .addColumn('mailbox', 'text', (c) => c.notNull())
      .addColumn('stream', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('mails', 'integer', (c) => c.notNull())
      .addColumn('last_mail_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('mail_caps_pkey', ['mailbox', 'stream'])
      .execute();
    await db.schema.createIndex('mail_caps_day').on('mail_caps').column('day').execute();
    await db.schema
      .createTable('newsletter_requests')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('newsletter_id', 'integer', (c) => c.notNull().references('newsletter.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('marketing_consent', 'integer', (c) => c.notNull())
      .addColumn('consent_hash', 'text')
      .addColumn('privacy_version', 'text', (c) => c.notNull())
      .addColumn('consent_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('newsletter_requests_newsletter_id').on('newsletter_requests').column('newsletter_id').execute();
  },
};

// Webhook deliveries (issue 27), one row per event and endpoint; see `WebhookDeliveriesTable`.
// Claimed by due time like the outbox; found by person for export and erasure (indexed until 009);
// one row per event and endpoint, whichever replica queues it.
const webhookDeliveries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'integer', idColumn(db, true))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text')
      .addColumn('body', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('webhook_deliveries_event_endpoint').on('webhook_deliveries').columns(['event_id', 'endpoint']).unique().execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_email_lower').on('webhook_deliveries').column('email_lower').execute();
  },
};

// Queueing a webhook event is on the submission path (issue 27: at most 10 % of it), and every
// index is written with each event. The address index put each new row on a random page of it;
// the event id index served only operator commands. Export, erasure and `ingest webhooks retry
// --id`, rare operator commands, find their rows by scanning the table; the workers' claims keep
// the due index. Event ids stay unique by construction (time and 80 random bits, webhook-row.ts).
const webhookDeliveriesLean: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_email_lower').execute();
    await db.schema.dropIndex('webhook_deliveries_event_endpoint').execute();
  },
};

// A lead's `contact.received` event rides on its contact row until a webhook worker queues it
// (`store/webhooks/waiting-contacts.ts`): the submission writes one flag in the row it inserts
// anyway, not a delivery row with a second copy of the message, and the worker expands the flagged
// rows into delivery rows off the submission path. The partial index holds only the flagged rows,
// a handful at any time, so the worker finds them without reading the table.
const contactWebhookWaiting: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('contacts').addColumn('webhook_waiting', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('contacts_webhook_waiting').on('contacts').column('id').where(sql.ref('webhook_waiting'), '=', 1).execute();
  },
};

// Events about one person reach each endpoint in order (issue 40). Each delivery row gets the
// event's per-person sequence (`seq`; the rows queued before it take their id, which is smaller than
// any sequence queued since) and the address as that event spelled it (`email`, for `person.erased`
// after the body is gone). `webhook_sequences` holds each address's last sequence: the conditional
// upsert that takes the next one also locks it, so two replicas queueing about one person take
// turns. The partial index holds the rows not yet finished (they have a body): the claim's "is an
// older event to this endpoint about this person still on its way" and a newer state's supersession
// look there, a handful of rows, without reading the delivered records.
const webhookOrder: Migration = {
  async up(db: Kysely<unknown>) {
    const bigint = isPostgres(db) ? 'bigint' : 'integer';
    await db.schema.alterTable('webhook_deliveries').addColumn('seq', bigint).execute();
    await db.schema.alterTable('webhook_deliveries').addColumn('email', 'text').execute();
    await db.updateTable('webhook_deliveries' as never).set({ seq: sql.ref('id') } as never).execute();
    await db.schema
      .createIndex('webhook_deliveries_unfinished')
      .on('webhook_deliveries')
      .columns(['email_lower', 'endpoint', 'seq'])
      .where(sql.ref('body'), 'is not', null)
      .execute();
    await db.schema
      .createTable('webhook_sequences')
      .addColumn('email_lower', 'text', (c) => c.primaryKey())
      .addColumn('seq', bigint, (c) => c.notNull())
      .execute();
  },
};

/** Every migration by name; names sort in the order they apply. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '2025-01-12-001-initial': initial,
  '2026-11-24-002-contact-intent-source': contactIntentAndSource,
  '2026-11-25-003-replica-shared-state': replicaSharedState,
  '2026-11-26-004-consent-lifecycle': consentLifecycle,
  '2026-11-27-005-contact-verification': contactVerification,
  '2026-11-28-006-mail-caps-signup-requests': mailCapsAndSignupRequests,
  '2026-11-28-007-outbox-message-key': outboxMessageKey,
  '2026-11-29-008-webhook-deliveries': webhookDeliveries,
  '2026-11-30-009-webhook-deliveries-lean': webhookDeliveriesLean,
  '2026-12-01-010-contact-webhook-waiting': contactWebhookWaiting,
  '2026-12-02-011-webhook-order': webhookOrder,
};

/**
 * Applies every pending migration in order; returns kysely's result set, never throws for a failed
 * migration. `schema` names the PostgreSQL schema that holds kysely's own tables (the current one),
 * so a table of that name in another schema is never mistaken for it.
 */
export function migrateToLatest(db: Kysely<any>, schema?: string): Promise<MigrationResultSet> {
  const provider = { getMigrations: async () => ({ ...MIGRATIONS }) };
  return new Migrator({ db, provider, ...(schema === undefined ? {} : { migrationTableSchema: schema }) }).migrateToLatest();
}

/** True when `applied` (names from `kysely_migration`) holds every migration. */
export function allApplied(applied: Iterable<string>): boolean {
  const names = new Set(applied);
  return Object.keys(MIGRATIONS).every((name) => names.has(name));
}

/** Tells synchronously whether every migration has been applied (for `/readyz`); false when the database cannot be read. */
export function schemaIsCurrent(db: { kysely: Kysely<any>; sql: SqlRunner }): boolean {
  try {
    const rows = db.sql.all<{ name: string }>(db.kysely.selectFrom('kysely_migration').select('name'));
    return allApplied(rows.map((row) => row.name));
  } catch {
    return false;
  }
}
