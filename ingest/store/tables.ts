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
  consent_at: string;
  created_at: string;
}

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
}

/** Where an outbox row is in its life: `pending` → `sending` → `sent`, or back to `pending` for a retry, or `failed` after 48 h. */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** One email to send to sales about a contact; the text is rendered from the contact row at send time. */
interface OutboxTable {
  id: Generated<number>;
  contact_id: number;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  claimed_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
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

/** All tables, for `Kysely<Tables>`. */
export interface Tables {
  newsletter: NewsletterTable;
  contacts: ContactsTable;
  outbox: OutboxTable;
  captcha_nonces: CaptchaNoncesTable;
  rate_limit_counters: RateLimitCountersTable;
  settings: SettingsTable;
}
