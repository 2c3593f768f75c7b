/**
 * What the HTTP routes store: newsletter signups, and contacts together with their outbox row and
 * their captcha nonce. Implementations commit before they resolve, and let the database decide
 * duplicates (unique index, nonce key), so two concurrent requests can never both win.
 */
import type { Insertable } from 'kysely';
import { isoAt } from '../clock.ts';
import type { ContactSubmission, NewsletterSignup } from '../contract/schemas.ts';
import type { ContactsTable, NewsletterTable } from './tables.ts';

/** What storing a signup did. */
type SubscribeOutcome = 'created' | 'duplicate';

/** What storing a contact did; `captcha_reused` stores nothing. */
type ContactOutcome = 'created' | 'captcha_reused';

/** The storage the HTTP routes need. */
export interface SubmissionStore {
  subscribe(signup: NewsletterSignup, now: number): Promise<SubscribeOutcome>;
  submitContact(contact: ContactSubmission, nonce: { value: string; expiresAt: number }, now: number): Promise<ContactOutcome>;
  /** True when the database answers and its schema is current. */
  isReady(): boolean;
  /** Commits what is queued, refuses new writes and stops the writer. */
  close(): Promise<void>;
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
    intent: contact.intent ?? 'general',
    source_page: contact.sourcePage ?? null,
  };
}
