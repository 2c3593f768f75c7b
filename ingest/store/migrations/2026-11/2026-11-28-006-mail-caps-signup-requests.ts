import { type Kysely, type Migration } from 'kysely';
import { idColumn } from '../dialect-columns.ts';

/**
 * Per-recipient mail caps and replaced signups (issue 22). `mail_caps` counts the mails the
 * service sends to a visitor-typed address by the mailbox it delivers to (`mailboxKey`), per
 * stream (`newsletter`, `contact`): one conditional upsert both checks and counts, so replicas
 * share it. `newsletter_requests` keeps the earlier requests of a pending signup whose links are
 * still out (`consent/subscriptions.ts`), so a later signup of the same address does not void them.
 */
export const mailCapsAndSignupRequests: Migration = {
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
