/**
 * `ingest export --email ADDRESS`: everything the service holds about one person, as one JSON
 * document, for a data-subject access request: the subscription with its consent receipt (the
 * exact wording agreed to, the policy version, when it was given and confirmed, and the events
 * since), the earlier requests of a pending signup whose links are still out, the contact
 * messages, the outbox rows of mails about them, the per-mailbox mail counts (stored under the
 * address's mailbox key, `mailboxKey`), the webhook deliveries about the address (what each
 * endpoint was sent, and when) with the last sequence number its events carried, and the mail files of the
 * file mail sink whose visitor is the address (`erase-mail-files.ts`). The address matches
 * whatever its case; it is a `PersonAddress`, one address that passed the forms' email rule.
 */
import { mailFilesAbout } from './erase-mail-files.ts';
import type { PersonAddress } from './person-address.ts';
import { mailboxKey } from '../contract/mailbox-key.ts';
import { normaliseEmail } from '../contract/schemas.ts';
import type { OpsDatabase } from '../store/ops-database.ts';

/** The export of one person. */
export interface PersonExport {
  email: string;
  exportedAt: string;
  newsletter: Array<Record<string, unknown>>;
  consentReceipts: Array<{ hash: string; lang: string; privacyVersion: string; wording: string }>;
  consentEvents: Array<Record<string, unknown>>;
  /** Earlier requests of a pending signup, each with the choices its own link would confirm. */
  signupRequests: Array<Record<string, unknown>>;
  contacts: Array<Record<string, unknown>>;
  outbox: Array<Record<string, unknown>>;
  /** How many mails went to the address's mailbox today, per stream (the per-recipient cap). */
  mailCounts: Array<Record<string, unknown>>;
  /** What was sent, or is queued, to the webhook endpoints about the address (the body until delivered). */
  webhooks: Array<Record<string, unknown>>;
  /** The last sequence number the address's events carried (`webhook_sequences`), while any event about it is kept. */
  webhookSequences: Array<Record<string, unknown>>;
  mailFiles: string[];
}

/** Reads everything about `email`; `mailDir` is the file mail sink's folder. */
export async function exportPerson(db: OpsDatabase, email: PersonAddress, mailDir: string, now: number): Promise<PersonExport> {
  const { kysely } = db;
  const key = normaliseEmail(email).toLowerCase();
  const newsletter = await db.all(kysely.selectFrom('newsletter').selectAll().where('email_lower', '=', key).orderBy('id'));
  const subscriptionIds = newsletter.map((row) => row.id);
  const contacts = await db.all(kysely.selectFrom('contacts').selectAll().where('email_lower', '=', key).orderBy('id'));
  const contactIds = contacts.map((row) => row.id);
  const hashes = newsletter.map((row) => row.consent_hash).filter((hash): hash is string => hash !== null);
  const receipts = hashes.length === 0 ? [] : await db.all(kysely.selectFrom('consent_texts').selectAll().where('hash', 'in', hashes));
  const events = subscriptionIds.length === 0 ? [] : await db.all(kysely.selectFrom('consent_events').selectAll().where('newsletter_id', 'in', subscriptionIds).orderBy('id'));
  const requests =
    subscriptionIds.length === 0 ? [] : await db.all(kysely.selectFrom('newsletter_requests').selectAll().where('newsletter_id', 'in', subscriptionIds).orderBy('id'));
  const mailCounts = await db.all(kysely.selectFrom('mail_caps').selectAll().where('mailbox', '=', mailboxKey(email)).orderBy('stream'));
  const webhooks = await db.all(kysely.selectFrom('webhook_deliveries').selectAll().where('email_lower', '=', key).orderBy('id'));
  const webhookSequences = await db.all(kysely.selectFrom('webhook_sequences').selectAll().where('email_lower', '=', key));
  const outbox =
    subscriptionIds.length + contactIds.length === 0
      ? []
      : await db.all(
          kysely
            .selectFrom('outbox')
            .selectAll()
            .where((eb) =>
              eb.or([
                ...(contactIds.length === 0 ? [] : [eb('contact_id', 'in', contactIds)]),
                ...(subscriptionIds.length === 0 ? [] : [eb('newsletter_id', 'in', subscriptionIds)]),
              ]),
            )
            .orderBy('id'),
        );
  return {
    email: normaliseEmail(email),
    exportedAt: new Date(now).toISOString(),
    newsletter,
    consentReceipts: receipts.map((row) => ({ hash: row.hash, lang: row.lang, privacyVersion: row.privacy_version, wording: row.wording })),
    consentEvents: events,
    signupRequests: requests,
    contacts,
    outbox,
    mailCounts,
    webhooks,
    webhookSequences,
    mailFiles: mailFilesAbout(mailDir, email),
  };
}
