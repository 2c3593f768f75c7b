/**
 * What the HTTP routes store: newsletter signups, contacts together with their outbox row and
 * their captcha nonce, and the nonces of refused captcha attempts. Implementations commit before
 * they resolve, and let the database decide duplicates (unique index, nonce key) and whether a
 * mail to a visitor's address may go out (the per-recipient cap, `mail-caps.ts`), so two
 * concurrent requests can never both win.
 */
import type { Insertable } from 'kysely';
import { isoAt } from '../clock.ts';
import type { ContactSubmission, NewsletterSignup } from '../contract/schemas.ts';
import type { ContactsTable, NewsletterTable } from './tables.ts';
import { webhookWaiting } from './webhooks/waiting-contacts.ts';
import { NO_WEBHOOKS, type WebhookRouting } from './webhooks/webhook-row.ts';

/**
 * What storing a signup did: `created`; `duplicate` (the address is stored already); `capped`
 * (a new address whose confirmation mail the per-recipient cap refused, see `mail-caps.ts`: nothing
 * stored, as a request without a mail could never be confirmed).
 */
type SubscribeOutcome = 'created' | 'duplicate' | 'capped';

/**
 * What storing a contact sent without JavaScript did: `queued` (stored unverified, its
 * confirmation mail queued) or `capped` (the per-recipient cap refused the mail, so nothing was
 * stored: a message whose sender can never confirm it would only wait to be deleted).
 */
type UnverifiedContactOutcome = 'queued' | 'capped';

/** What storing a contact did; `captcha_reused` stores nothing. */
type ContactOutcome = 'created' | 'captcha_reused';

/**
 * How a signup is recorded: `pending` with a confirmation mail queued (double opt-in, the link
 * and the row expire at `expiresAt`) or `confirmed` at once (single opt-in), with the consent
 * wording's hash and the privacy policy's version.
 */
export type SignupTerms =
  | { status: 'pending'; expiresAt: number; consentHash: string; privacyVersion: string }
  | { status: 'confirmed'; consentHash: string; privacyVersion: string };

/** The storage the HTTP routes need. */
export interface SubmissionStore {
  /**
   * Stores a new subscription with its `subscribed` consent event (and `confirmed`, or its
   * confirmation mail, counted by the per-recipient cap); `duplicate` when the address exists.
   */
  subscribe(signup: NewsletterSignup, now: number, terms: SignupTerms): Promise<SubscribeOutcome>;
  submitContact(contact: ContactSubmission, nonce: { value: string; expiresAt: number }, now: number): Promise<ContactOutcome>;
  /**
   * Stores a contact sent without a captcha (a plain form post), unverified until `expiresAt`, with
   * its confirmation mail to the sender queued, if the per-recipient cap allows that mail.
   */
  submitUnverifiedContact(contact: UnverifiedContact, now: number, expiresAt: number): Promise<UnverifiedContactOutcome>;
  /**
   * Records a captcha nonce as used without a contact (the attempt was refused: wrong answer, too
   * fast), so the same token cannot be tried again; a nonce already recorded stays as it is.
   */
  spendNonce(nonce: { value: string; expiresAt: number }, now: number): Promise<void>;
  /** True when the database answers and its schema is current. */
  isReady(): boolean;
  /** Commits what is queued, refuses new writes and stops the writer. */
  close(): Promise<void>;
}

/** The newsletter row for a validated signup: `newsletterRow({ name, email: 'Ana@example.com', … }, now, terms)`. */
export function newsletterRow(signup: NewsletterSignup, now: number, terms: SignupTerms): Insertable<NewsletterTable> {
  const at = isoAt(now);
  const pending = terms.status === 'pending';
  return {
    name: signup.name,
    email: signup.email,
    email_lower: signup.email.toLowerCase(),
    privacy_consent: 1,
    marketing_consent: signup.marketingConsent ? 1 : 0,
    lang: signup.lang,
    privacy_version: terms.privacyVersion,
    consent_at: at,
    created_at: at,
    status: terms.status,
    confirmed_at: pending ? null : at,
    consent_hash: terms.consentHash,
    expires_at: pending ? isoAt(terms.expiresAt) : null,
    confirm_mails: pending ? 1 : 0,
    confirm_mail_day: pending ? at.slice(0, 10) : null,
    last_confirm_mail_at: pending ? at : null,
  };
}

/** A contact without its captcha (a plain HTML form post). */
export type UnverifiedContact = Omit<ContactSubmission, 'captcha'>;

/**
 * The contacts row for a validated contact submission: verified now (by its captcha), or
 * unverified until `expiresAt`. A verified lead's `contact.received` event waits on the row when
 * `webhooks` gives the event an endpoint (`webhooks/waiting-contacts.ts`); an unverified one's is
 * flagged by its verification.
 */
export function contactRow(contact: UnverifiedContact, now: number, expiresAt: number | null = null, webhooks: WebhookRouting = NO_WEBHOOKS): Insertable<ContactsTable> {
  return {
    webhook_waiting: expiresAt === null ? webhookWaiting(webhooks) : 0,
    verified_at: expiresAt === null ? isoAt(now) : null,
    expires_at: expiresAt === null ? null : isoAt(expiresAt),
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
