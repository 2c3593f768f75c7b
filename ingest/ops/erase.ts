/**
 * `ingest erase --email ADDRESS`: GDPR erasure of one person from every table, in one
 * transaction, and from the data at rest. The address matches whatever its case (`email_lower`);
 * the outbox rows go with their contacts (the foreign key cascades) and are counted first so the
 * report is complete.
 *
 * Deleted rows leave no copy behind: every connection runs with `secure_delete` (freed space is
 * zeroed, `connection.ts`), and a `wal_checkpoint(TRUNCATE)` afterwards writes the zeroed pages
 * into the database file and empties the WAL, which held older versions of them. The `.eml`
 * files of the file mail sink that mention the address are removed too. Mail already delivered
 * over SMTP, and backups, are outside the service and must be erased there.
 */
import { normaliseEmail } from '../contract/schemas.ts';
import type { SqliteDatabase } from '../store/sqlite/connection.ts';
import { deletePersonalRows, type PersonalRowsReport } from './delete-personal-rows.ts';
import { eraseMailFiles } from './erase-mail-files.ts';

/** How many rows were removed, per table. */
export type EraseReport = PersonalRowsReport;

/** Removes every row about `email`; e.g. `eraseEmail(db, 'Ana@Example.com')` → `{ newsletter: 1, contacts: 2, outbox: 2 }`. */
export function eraseEmail(db: SqliteDatabase, email: string): EraseReport {
  const key = normaliseEmail(email).toLowerCase();
  return db.sql.transaction(() => deletePersonalRows(db, { column: 'email_lower', op: '=', value: key }));
}

/** What `erasePerson` did: the rows per table, whether the WAL was emptied, and the mail files removed. */
export interface PersonErasure {
  rows: EraseReport;
  /** False when a reader of the running service kept the checkpoint from finishing within the busy timeout. */
  walCleared: boolean;
  mailFiles: string[];
}

/**
 * Erases `email` everywhere the service keeps it: the rows (`eraseEmail`), their old page
 * versions in the WAL, and the mail files in `mailDir` that mention it.
 *
 * @example erasePerson(db, 'Ana@Example.com', '/data/mail')
 * // → { rows: { newsletter: 1, contacts: 2, outbox: 2 }, walCleared: true, mailFiles: ['2025-…-abc.eml', …] }
 */
export function erasePerson(db: SqliteDatabase, email: string, mailDir: string): PersonErasure {
  const rows = eraseEmail(db, email);
  const [result] = db.raw.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
  const mailFiles = eraseMailFiles(mailDir, normaliseEmail(email));
  return { rows, walCleared: result?.busy === 0, mailFiles };
}
