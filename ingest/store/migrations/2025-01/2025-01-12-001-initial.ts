import { type Kysely, type Migration } from 'kysely';
import { idColumn } from '../dialect-columns.ts';

/** Migration `2025-01-12-001-initial`. */
/** The first schema: newsletter subscriptions, contacts, the mail outbox and the captcha's spent nonces. */
export const initial: Migration = {
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
