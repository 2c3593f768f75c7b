import { type Kysely, type Migration, sql } from 'kysely';
import { idColumn, isPostgres } from '../dialect-columns.ts';

/**
 * The consent lifecycle (double opt-in, unsubscribe, receipts). Subscriptions gain a status
 * (rows from before were single opt-in, so `confirmed` at their signup), the consent wording's
 * fingerprint and the confirmation mail's throttle; the outbox carries mail of several kinds
 * (sales mail about a contact, confirmation mail to a subscriber), so its subject is a contact
 * or a subscription; consent events keep what happened without personal data once the
 * subscription is gone (ON DELETE SET NULL); consent texts keep each wording once, by hash.
 */
export const consentLifecycle: Migration = {
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
