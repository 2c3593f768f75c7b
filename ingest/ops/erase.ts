/**
 * `ingest erase --email ADDRESS`: GDPR erasure of one person from every table, in one
 * transaction. The address matches whatever its case (`email_lower`); the outbox rows go with
 * their contacts (the foreign key cascades) and are counted first so the report is complete.
 * Mail already delivered to the sales inbox (or written to `$DATA_DIR/mail/`) is outside the
 * database and must be erased there.
 */
import { normaliseEmail } from '../contract/schemas.ts';
import type { SqliteDatabase } from '../store/sqlite/connection.ts';

/** How many rows were removed, per table. */
export interface EraseReport {
  newsletter: number;
  contacts: number;
  outbox: number;
}

/** Removes every row about `email`; e.g. `eraseEmail(db, 'Ana@Example.com')` → `{ newsletter: 1, contacts: 2, outbox: 2 }`. */
export function eraseEmail(db: SqliteDatabase, email: string): EraseReport {
  const key = normaliseEmail(email).toLowerCase();
  const { kysely, sql } = db;
  return sql.transaction(() => {
    const contactIds = kysely.selectFrom('contacts').select('id').where('email_lower', '=', key);
    const [outbox] = sql.all(
      kysely
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('contact_id', 'in', contactIds),
    );
    const contacts = sql.run(kysely.deleteFrom('contacts').where('email_lower', '=', key));
    const newsletter = sql.run(kysely.deleteFrom('newsletter').where('email_lower', '=', key));
    return { newsletter, contacts, outbox: Number(outbox?.n ?? 0) };
  });
}
