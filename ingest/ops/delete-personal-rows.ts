/**
 * The deletion of `ingest erase`: the newsletter and contact rows matching one condition on a
 * column both tables have, and the outbox rows of those contacts and subscriptions, which the
 * foreign keys delete with them and which are therefore counted first so the report is complete.
 * The earlier requests of a pending signup go with their subscription (foreign key) too. Erasing
 * one address also deletes the per-recipient mail count of its mailbox (`mail_caps`, keyed by the
 * normalized address): a counter, not a record about the person, so the report does not list it.
 */
import type { Kysely } from 'kysely';
import { mailboxKey } from '../contract/mailbox-key.ts';
import type { OpsQueries } from '../store/ops-database.ts';
import type { Tables } from '../store/tables.ts';

/** Which rows to delete: `{ column: 'email_lower', op: '=', value: 'ana@example.com' }`. */
export interface PersonalRowsFilter {
  column: 'email_lower' | 'created_at';
  op: '=' | '<';
  value: string;
}

/** How many rows were removed, per table. */
export interface PersonalRowsReport {
  newsletter: number;
  contacts: number;
  outbox: number;
}

/**
 * Deletes the newsletter and contact rows matching `filter` (and so their outbox rows); run it
 * inside the caller's transaction, through its `tx`.
 *
 * @example await deletePersonalRows(db.kysely, tx, { column: 'created_at', op: '<', value: '2023-01-01T00:00:00.000Z' })
 * // → { newsletter: 1, contacts: 1, outbox: 1 }
 */
export async function deletePersonalRows(kysely: Kysely<Tables>, tx: OpsQueries, filter: PersonalRowsFilter): Promise<PersonalRowsReport> {
  const { column, op, value } = filter;
  const contactIds = kysely.selectFrom('contacts').select('id').where(column, op, value);
  const subscriptionIds = kysely.selectFrom('newsletter').select('id').where(column, op, value);
  const [outbox] = await tx.all(
    kysely
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('contact_id', 'in', contactIds), eb('newsletter_id', 'in', subscriptionIds)])),
  );
  const report = {
    newsletter: await tx.run(kysely.deleteFrom('newsletter').where(column, op, value)),
    contacts: await tx.run(kysely.deleteFrom('contacts').where(column, op, value)),
    outbox: Number(outbox?.n ?? 0),
  };
  // After the rows, as a repeated signup locks them (subscription, then its mailbox's count): in
  // the other order the two transactions would each wait for the other on PostgreSQL.
  if (column === 'email_lower' && op === '=') await tx.run(kysely.deleteFrom('mail_caps').where('mailbox', '=', mailboxKey(value)));
  return report;
}
