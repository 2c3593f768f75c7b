/**
 * Stores form submissions durably: newsletter signups, and contacts together with their outbox
 * row and their captcha nonce, each through group commit so a request is answered only after
 * the commit that holds its row.
 *
 * The decisions are made by the database, not by a check before the insert: `INSERT … ON
 * CONFLICT DO NOTHING RETURNING` returns no row when the unique email index (newsletter) or the
 * nonce's primary key (captcha replay) already holds the value, so two concurrent requests can
 * never both win, and a duplicate fails only its own request, never the batch.
 */
import type { ContactSubmission, NewsletterSignup } from './contract.ts';
import { isoAt } from './clock.ts';
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { schemaIsCurrent } from './migrations.ts';
import type { SqliteDatabase } from './sqlite.ts';
import type { ContactsTable, NewsletterTable } from './tables.ts';
import type { Insertable } from 'kysely';

/** What storing a signup did. */
export type SubscribeOutcome = 'created' | 'duplicate';

/** What storing a contact did; `captcha_reused` stores nothing. */
export type ContactOutcome = 'created' | 'captcha_reused';

/** The storage the HTTP routes need. */
export interface SubmissionStore {
  subscribe(signup: NewsletterSignup, now: number): Promise<SubscribeOutcome>;
  submitContact(contact: ContactSubmission, nonce: { value: string; expiresAt: number }, now: number): Promise<ContactOutcome>;
  /** True when the database answers and its schema is current. */
  isReady(): boolean;
  /** Commits what is queued and refuses new writes. */
  close(): void;
}

/** The newsletter row for a validated signup: `newsletterRow({ name, email: 'Ana@example.com', … }, now, '2025-01-12')`. */
export function newsletterRow(signup: NewsletterSignup, now: number, privacyVersion: string): Insertable<NewsletterTable> {
  const at = isoAt(now);
  return {
    name: signup.name,
    email: signup.email,
    email_lower: signup.email.toLowerCase(),
    privacy_consent: 1,
    marketing_consent: signup.marketingConsent ? 1 : 0,
    lang: signup.lang,
    privacy_version: privacyVersion,
    consent_at: at,
    created_at: at,
  };
}

/** The contacts row for a validated contact submission. */
export function contactRow(contact: ContactSubmission, now: number): Insertable<ContactsTable> {
  return {
    first_name: contact.firstName,
    last_name: contact.lastName,
    email: contact.email,
    email_lower: contact.email.toLowerCase(),
    phone: contact.phone,
    company_name: contact.companyName,
    country: contact.country,
    message: contact.message,
    lang: contact.lang,
    created_at: isoAt(now),
  };
}

/** Builds the SQLite submission store on an open, migrated database. */
export function sqliteSubmissionStore(
  db: SqliteDatabase,
  options: { privacyVersion: string; groupCommit?: GroupCommitOptions },
): SubmissionStore & { groupCommit: GroupCommit } {
  const { kysely, sql } = db;
  const groupCommit = new GroupCommit(sql, options.groupCommit);

  const insertSignup = (row: Insertable<NewsletterTable>): SubscribeOutcome => {
    const inserted = sql.all(
      kysely
        .insertInto('newsletter')
        .values(row)
        .onConflict((conflict) => conflict.column('email_lower').doNothing())
        .returning('id'),
    );
    return inserted.length === 1 ? 'created' : 'duplicate';
  };

  const insertContact = (
    row: Insertable<ContactsTable>,
    nonce: { value: string; expiresAt: number },
    now: number,
  ): ContactOutcome => {
    const at = isoAt(now);
    const claimed = sql.all(
      kysely
        .insertInto('captcha_nonces')
        .values({ nonce: nonce.value, expires_at: isoAt(nonce.expiresAt), used_at: at })
        .onConflict((conflict) => conflict.column('nonce').doNothing())
        .returning('nonce'),
    );
    if (claimed.length === 0) return 'captcha_reused';
    const [contact] = sql.all(kysely.insertInto('contacts').values(row).returning('id'));
    sql.run(
      kysely.insertInto('outbox').values({
        contact_id: contact!.id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      }),
    );
    // Expired nonces can never verify again, so their rows have done their job.
    sql.run(kysely.deleteFrom('captcha_nonces').where('expires_at', '<', at));
    return 'created';
  };

  return {
    groupCommit,
    subscribe: (signup, now) => groupCommit.submit(() => insertSignup(newsletterRow(signup, now, options.privacyVersion))),
    submitContact: (contact, nonce, now) => groupCommit.submit(() => insertContact(contactRow(contact, now), nonce, now)),
    isReady: () => db.raw.open && schemaIsCurrent(db),
    close: () => groupCommit.close(),
  };
}
