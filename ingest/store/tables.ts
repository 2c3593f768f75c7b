/**
 * The database's tables as kysely types; `migrations.ts` creates them.
 *
 * Times are ISO 8601 UTC strings (`2025-01-12T10:00:00.000Z`): they sort as text and read the
 * same in SQLite and PostgreSQL. Booleans are integers 0/1 for the same reason.
 */
import type { Generated } from 'kysely';

/** One newsletter subscriber, with the proof of consent (when, in which language, to which privacy text). */
export interface NewsletterTable {
  id: Generated<number>;
  name: string;
  /** As given, trimmed, NFC, domain lower-cased. */
  email: string;
  /** `email` lower-cased entirely; its unique index makes the address unique case-insensitively. */
  email_lower: string;
  privacy_consent: number;
  marketing_consent: number;
  lang: string;
  privacy_version: string;
  /** When the visitor signed up (the consent was given). */
  consent_at: string;
  created_at: string;
  /** `pending` until the confirmation link is used (double opt-in), then `confirmed`. */
  status: Generated<SubscriptionStatus>;
  confirmed_at: string | null;
  /** The sha256 of the consent wording shown (`consent_texts.hash`); null for rows from before it was recorded. */
  consent_hash: string | null;
  /** Pending rows only: when the newest confirmation link expires; the row is deleted after that. */
  expires_at: string | null;
  /**
   * Confirmation mails queued for this row on `confirm_mail_day` (UTC date) and the newest one's
   * time (its Date header). The cap itself is per mailbox, across rows: `mail_caps`.
   */
  confirm_mails: Generated<number>;
  confirm_mail_day: string | null;
  last_confirm_mail_at: string | null;
}

/** Where a subscription is: waiting for its confirmation, or active. */
type SubscriptionStatus = 'pending' | 'confirmed';

/** One contact-form message. */
export interface ContactsTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  email: string;
  /** For erasure by address, whatever its case. */
  email_lower: string;
  phone: string | null;
  company_name: string | null;
  /** ISO 3166-1 alpha-2, lower case. */
  country: string;
  message: string;
  lang: string;
  created_at: string;
  /** Why the visitor wrote: `demo`, `sales` or `general` (rows from before the column: `general`). */
  intent: Generated<string>;
  /** The path of the site page the visitor came from (`/de/about`), or null when unknown. */
  source_page: string | null;
  /** When the sender was verified (by the captcha, or by confirming a plain form post's mail); null until then. */
  verified_at: string | null;
  /** Unverified rows only: when the confirmation link expires and the row is deleted. */
  expires_at: string | null;
  /**
   * 1 while the lead's `contact.received` webhook event waits to be queued to the endpoints (set
   * with the row, or with its verification, when an endpoint takes the event; a webhook worker
   * queues it and sets 0: `store/webhooks/waiting-contacts.ts`); 0 otherwise.
   */
  webhook_waiting: Generated<number>;
}

/** Where an outbox row is in its life: `pending` → `sending` → `sent`, or back to `pending` for a retry, or `failed` after 48 h. */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * What an outbox row sends: `sales` (a contact, to sales), `newsletter_confirm` (the confirmation
 * link, to a subscriber), `newsletter_already_subscribed` (a signup of an address already
 * subscribed, to that address) or `contact_confirm` (the confirmation link, to a contact's sender).
 */
export type OutboxKind = 'sales' | 'newsletter_confirm' | 'newsletter_already_subscribed' | 'contact_confirm';

/** One email to send; the text is rendered from its subject row (a contact or a subscription) at send time. */
interface OutboxTable {
  id: Generated<number>;
  kind: Generated<OutboxKind>;
  /** Set for `sales` and `contact_confirm` rows; exactly one of `contact_id` and `newsletter_id` is set. */
  contact_id: number | null;
  newsletter_id: number | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  claimed_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
  /** The random part of the mail's Message-ID, made once when the row is queued (`outbox-row.ts`), so retries keep it and no other database repeats it. */
  message_key: string;
}

/** A captcha nonce that has been used once; the primary key rejects a second use. */
interface CaptchaNoncesTable {
  nonce: string;
  expires_at: string;
  used_at: string;
}

/** One rate-limit window shared by the replicas: `key` is the route and client, `reset_at` in ms since the epoch. */
interface RateLimitCountersTable {
  key: string;
  hits: number;
  reset_at: number | string;
}

/** A value every replica reads the same, such as `captcha_secret`; the first writer wins. */
interface SettingsTable {
  name: string;
  value: string;
  created_at: string;
}

/** What happened to a subscription's consent; kept without personal data after the subscription is gone. */
export type ConsentEventKind = 'subscribed' | 'confirmed' | 'unsubscribed' | 'expired' | 'erased';

/** One consent event: linked to its subscription while it exists (then `newsletter_id` becomes null). */
interface ConsentEventsTable {
  id: Generated<number>;
  newsletter_id: number | null;
  event: ConsentEventKind;
  lang: string | null;
  consent_hash: string | null;
  privacy_version: string | null;
  at: string;
}

/** A consent wording as shown to visitors (checkbox labels and policy version), stored once by its sha256. */
interface ConsentTextsTable {
  hash: string;
  lang: string;
  privacy_version: string;
  wording: string;
  recorded_at: string;
}

/**
 * How many mails the service sent to one mailbox (`mailboxKey` of a visitor-typed address) for one
 * stream of mail (`newsletter`: confirmation and "already subscribed" mails; `contact`: a contact's
 * confirmation mail) on `day` (UTC date), and when the last one went out. Deleted once the day is over.
 */
interface MailCapsTable {
  mailbox: string;
  stream: string;
  day: string;
  mails: number;
  last_mail_at: string;
}

/**
 * An earlier request of a pending signup whose confirmation link is still out: what that signup
 * asked for (name, language, consent choices, wording, policy version) and when (`consent_at`,
 * which its link is bound to). Confirming its link records these choices; once the subscription
 * is confirmed the choices are emptied (name '', no consents); deleted with the subscription or
 * once `expires_at` has passed.
 */
export interface NewsletterRequestsTable {
  id: Generated<number>;
  newsletter_id: number;
  name: string;
  lang: string;
  marketing_consent: number;
  consent_hash: string | null;
  privacy_version: string;
  consent_at: string;
  expires_at: string;
}

/** Where a webhook delivery is: `pending` → `sending` → `delivered`, or back to `pending` for a retry, or `failed` (dead letter), or `superseded` (a newer state of the person replaced it before it was delivered). */
export type WebhookStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'superseded';

/**
 * One event to one webhook endpoint (`webhooks/`): its signed body until it is delivered, then,
 * without the body, the record that this endpoint received data about `email_lower` (so an
 * erasure can be passed on). Queued in the transaction of the change it reports.
 */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  /** The Standard Webhooks `webhook-id` (`msg_…`): one per event, the same for every endpoint and every retry, so receivers drop copies. */
  event_id: string;
  /** The endpoint's name in the configuration. */
  endpoint: string;
  event_type: string;
  /** The person the event is about (lower case), for export and erasure; null once an erasure notice is delivered, or the row superseded. */
  email_lower: string | null;
  /** The address as the event spelled it (`Ana.Perez@example.com`), so `person.erased` spells it the same; null on rows queued before it was kept. */
  email: string | null;
  /** The event's per-person sequence (`webhook_sequences`): the order of the events about one person; the id on rows queued before it. */
  seq: number | string | null;
  /** The JSON body; null once delivered (the receiver has it). */
  body: string | null;
  status: WebhookStatus;
  attempts: number;
  next_attempt_at: string;
  claimed_at: string | null;
  created_at: string;
  /** When it was delivered, or set aside as failed. */
  finished_at: string | null;
  /** The receiver's last HTTP status, or null (no answer). */
  last_status: number | null;
  last_error: string | null;
}

/** Each address's last webhook event sequence (`store/webhooks/queue-events.ts`); bigint on PostgreSQL (read as a string). */
interface WebhookSequencesTable {
  email_lower: string;
  seq: number | string;
}

/** All tables, for `Kysely<Tables>`. */
export interface Tables {
  newsletter: NewsletterTable;
  contacts: ContactsTable;
  outbox: OutboxTable;
  captcha_nonces: CaptchaNoncesTable;
  rate_limit_counters: RateLimitCountersTable;
  settings: SettingsTable;
  consent_events: ConsentEventsTable;
  consent_texts: ConsentTextsTable;
  mail_caps: MailCapsTable;
  newsletter_requests: NewsletterRequestsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_sequences: WebhookSequencesTable;
}
