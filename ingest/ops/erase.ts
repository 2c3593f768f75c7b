/**
 * `ingest erase --email ADDRESS`: GDPR erasure of one person from every table, in one
 * transaction, and from the data at rest; an `erased` consent event without personal data
 * records that it happened. The address matches whatever its case (`email_lower`);
 * the outbox rows go with their contacts (the foreign key cascades) and are counted first so the
 * report is complete. The webhook endpoints that may hold the person's data are sent a
 * `person.erased` notice, queued in the same transaction (`pass-on-erasure.ts`), after any
 * delivery about the person that was in flight.
 *
 * Deleted rows leave no copy behind in the database (`OpsDatabase.scrubDeleted`): on SQLite every
 * connection runs with `secure_delete` (freed space is zeroed, `connection.ts`), and a
 * `wal_checkpoint(TRUNCATE)` afterwards writes the zeroed pages into the database file and
 * empties the WAL, which held older versions of them; on PostgreSQL a VACUUM removes the dead
 * row versions from the tables (its WAL segments and backups keep them until recycled). The `.eml`
 * files of the file mail sink whose visitor is the address are removed too (`erase-mail-files.ts`).
 * Mail already delivered over SMTP, and backups, are outside the service and must be erased there.
 *
 * Both functions take a `PersonAddress` (`person-address.ts`): one address that passed the forms'
 * email rule, never an empty value or a fragment that would match everyone.
 */
import { isoAt } from '../clock.ts';
import { normaliseEmail } from '../contract/schemas.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import { deletePersonalRows, type PersonalRowsReport } from './delete-personal-rows.ts';
import { eraseMailFiles } from './erase-mail-files.ts';
import type { WebhookEventType } from '../contract/webhook-events.ts';
import { type ErasurePassedOn, passOnErasure } from './pass-on-erasure.ts';
import type { PersonAddress } from './person-address.ts';

/** What erasing the rows did: the rows per table, and the erasure passed on to the webhook endpoints. */
export interface RowsErasure {
  rows: PersonalRowsReport;
  webhooks: ErasurePassedOn;
}

/** The webhook endpoints an erasure may tell, and how long a delivery in flight can take (WEBHOOK_TIMEOUT_MS; default 60 s, the longest it allows). */
export interface ErasureWebhooks {
  endpoints?: ReadonlyArray<{ name: string; events: readonly WebhookEventType[] }>;
  inFlightMs?: number;
}

/**
 * Removes every row about `email`, and queues a `person.erased` notice to each of the configured
 * webhook `endpoints` that may hold the person's data.
 *
 * @example await eraseEmail(db, 'Ana@example.com', { endpoints: [{ name: 'crm', events: ['contact.received'] }] })
 * // → { rows: { newsletter: 1, contacts: 2, outbox: 2 }, webhooks: { removed: 2, notices: [{ endpoint: 'crm', eventId: 'msg_…', … }], unconfigured: [] } }
 */
export function eraseEmail(db: OpsDatabase, email: PersonAddress, options: ErasureWebhooks & { now?: number } = {}): Promise<RowsErasure> {
  const now = options.now ?? Date.now();
  const key = normaliseEmail(email).toLowerCase();
  const { kysely } = db;
  return db.transaction(async (tx) => {
    // That an erasure happened stays on record, without the person (their earlier events lose their link).
    await tx.run(
      kysely
        .insertInto('consent_events')
        .columns(['newsletter_id', 'event', 'lang', 'consent_hash', 'privacy_version', 'at'])
        .expression(
          kysely
            .selectFrom('newsletter')
            .select((eb) => [eb.lit(null).as('newsletter_id'), eb.val('erased').as('event'), 'lang', 'consent_hash', 'privacy_version', eb.val(isoAt(now)).as('at')])
            .where('email_lower', '=', key),
        ),
    );
    // The address as the subscription spells it, for endpoints that may hold it without a record (`pass-on-erasure.ts`).
    const [subscribed] = await tx.all(kysely.selectFrom('newsletter').select('email').where('email_lower', '=', key).where('status', '=', 'confirmed'));
    const rows = await deletePersonalRows(kysely, tx, { column: 'email_lower', op: '=', value: key });
    const target = { emailLower: key, endpoints: options.endpoints ?? [], subscribedAs: subscribed?.email ?? null, inFlightMs: options.inFlightMs ?? 60_000, now };
    return { rows, webhooks: await passOnErasure(kysely, tx, target) };
  });
}

/** What `erasePerson` did: the rows per table, the erasure passed on, what old copies are left, and the mail files removed. */
export interface PersonErasure extends RowsErasure {
  /** Null when the database kept no old copy; else a line for the operator (a reader kept SQLite's WAL from being emptied). */
  leftover: string | null;
  mailFiles: string[];
}

/**
 * Erases `email` everywhere the service keeps it: the rows (`eraseEmail`), their old page
 * versions kept by the database, and the mail files in `mailDir` about it.
 *
 * @example await erasePerson(db, 'Ana@Example.com', '/data/mail')
 * // → { rows: { newsletter: 1, contacts: 2, outbox: 2 }, leftover: null, mailFiles: ['2025-…-abc.eml', …] }
 */
export async function erasePerson(db: OpsDatabase, email: PersonAddress, mailDir: string, webhooks: ErasureWebhooks = {}): Promise<PersonErasure> {
  const erased = await eraseEmail(db, email, webhooks);
  const leftover = await db.scrubDeleted();
  const mailFiles = eraseMailFiles(mailDir, email);
  return { ...erased, leftover, mailFiles };
}
