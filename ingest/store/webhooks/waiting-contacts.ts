/**
 * A lead's `contact.received` event waits on its contact row (`webhook_waiting = 1`) until a
 * webhook worker queues it. The submission writes the flag in the row it inserts anyway (or in the
 * verification's UPDATE), in the same transaction, so an acknowledged lead always has its event,
 * and the submission pays for neither a second row nor a second copy of the message: the worker
 * builds the event's delivery rows from the contact row off the submission path, where it gives
 * way to submissions (`jobs/give-way.ts`).
 *
 * Queueing is one conditional write per batch: `UPDATE contacts SET webhook_waiting = 0 WHERE id IN
 * (…) AND webhook_waiting = 1 RETURNING …`, and only the rows that UPDATE returned get delivery
 * rows, in the same transaction. Two replicas queueing at once never queue one lead twice (on
 * PostgreSQL the candidates are locked `FOR UPDATE SKIP LOCKED`, so neither waits for the other).
 * A lead erased before its event was queued goes with its row: its event is never sent.
 *
 *   await queueWaitingContacts(db, routing, { limit: 32, skipLocked: true })
 *   → 3 (three leads' events queued, one delivery row per endpoint that takes contact.received)
 */
import { sql } from 'kysely';
import type { OpsDatabase } from '../ops-database.ts';
import { queueEvents } from './queue-events.ts';
import { contactReceived, type WebhookRouting } from './webhook-row.ts';

/** `webhook_waiting = 1` written as a literal: SQLite uses a partial index only for a condition it can see (a bound parameter is not one). */
const FLAGGED = sql.lit(1);

/** The flag a contact row is stored with: 1 when an endpoint takes `contact.received`. */
export function webhookWaiting(routing: WebhookRouting): 0 | 1 {
  return routing.endpointsFor('contact.received').length > 0 ? 1 : 0;
}

/**
 * Queues the events of up to `limit` waiting contacts (the oldest first) to the endpoints
 * `routing` gives `contact.received`, each dated when its lead became ready (`verified_at`);
 * returns how many contacts it took. An endpoint removed since the lead was stored is not sent it;
 * with none left the flags are cleared and nothing is queued.
 */
export async function queueWaitingContacts(db: OpsDatabase, routing: WebhookRouting, options: { limit: number; skipLocked: boolean }): Promise<number> {
  const { kysely } = db;
  const endpoints = routing.endpointsFor('contact.received');
  // A look through the partial index first: a worker with nothing to queue takes no write lock.
  const [any] = await db.all(kysely.selectFrom('contacts').select('id').where('webhook_waiting', '=', FLAGGED).limit(1));
  if (any === undefined) return 0;
  return db.transaction(async (tx) => {
    let candidates = kysely.selectFrom('contacts').select('id').where('webhook_waiting', '=', FLAGGED).orderBy('id').limit(options.limit);
    if (options.skipLocked) candidates = candidates.forUpdate().skipLocked();
    const taken = await tx.all(
      kysely.updateTable('contacts').set({ webhook_waiting: 0 }).where('id', 'in', candidates).where('webhook_waiting', '=', 1).returningAll(),
    );
    // Each lead's event takes its person's next sequence when it is queued here (`queue-events.ts`).
    const events = taken
      .sort((a, b) => a.id - b.id)
      .map((contact) => ({ draft: contactReceived(contact), emailLower: contact.email_lower, endpoints, now: Date.parse(contact.verified_at ?? contact.created_at) }));
    await queueEvents(kysely, tx, events);
    return taken.length;
  });
}

/** How many contacts' events wait to be queued, and since when the oldest has (null when none). */
export async function waitingContacts(db: Pick<OpsDatabase, 'kysely' | 'all'>): Promise<{ count: number; oldestAt: number | null }> {
  const [row] = await db.all(
    db.kysely
      .selectFrom('contacts')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('verified_at').as('at')])
      .where('webhook_waiting', '=', FLAGGED),
  );
  return { count: Number(row?.n ?? 0), oldestAt: row?.at ? Date.parse(row.at) : null };
}
