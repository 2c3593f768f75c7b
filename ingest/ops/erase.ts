/**
 * `ingest erase --email ADDRESS`: GDPR erasure of one person from every table, in one
 * transaction. The address matches whatever its case (`email_lower`); the outbox rows go with
 * their contacts (the foreign key cascades) and are counted first so the report is complete.
 * Mail already delivered to the sales inbox (or written to `$DATA_DIR/mail/`) is outside the
 * database and must be erased there.
 */
import { normaliseEmail } from '../contract/schemas.ts';
import type { SqliteDatabase } from '../store/sqlite/connection.ts';
import { deletePersonalRows, type PersonalRowsReport } from './delete-personal-rows.ts';

/** How many rows were removed, per table. */
export type EraseReport = PersonalRowsReport;

/** Removes every row about `email`; e.g. `eraseEmail(db, 'Ana@Example.com')` → `{ newsletter: 1, contacts: 2, outbox: 2 }`. */
export function eraseEmail(db: SqliteDatabase, email: string): EraseReport {
  const key = normaliseEmail(email).toLowerCase();
  return db.sql.transaction(() => deletePersonalRows(db, { column: 'email_lower', op: '=', value: key }));
}
