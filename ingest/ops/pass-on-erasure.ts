/**
 * Passing an erasure on (GDPR art. 17(2) and 19): inside `ingest erase`'s transaction, the
 * webhook rows about the person are deleted, and every endpoint that was sent (or queued) an
 * event about them is queued a `person.erased` notice carrying the address and the time, nothing
 * else. A lead whose event still waited on its contact row (`waiting-contacts.ts`) was never
 * queued nor sent: it goes with the row, and no endpoint is told of it. The notice keeps the
 * address until it is delivered (`webhook-store.ts` drops it then), so once every notice is through
 * the table holds no trace of the person. An endpoint that received data but is no longer
 * configured cannot be told: it is reported, for the operator to tell by hand.
 *
 *   await passOnErasure(kysely, tx, 'ana@example.com', ['crm'], now)
 *   → { removed: 3, notices: [{ endpoint: 'crm', eventId: 'msg_…' }], unconfigured: ['old-crm'] }
 */
import type { Kysely } from 'kysely';
import { isoAt } from '../clock.ts';
import type { OpsQueries } from '../store/ops-database.ts';
import type { Tables } from '../store/tables.ts';
import { deliveryRows } from '../store/webhooks/webhook-row.ts';

/** What passing an erasure on did. */
export interface ErasurePassedOn {
  /** Webhook rows about the person deleted (their bodies and the records of what was sent). */
  removed: number;
  /** The `person.erased` notices queued, one per endpoint that had the person's data. */
  notices: Array<{ endpoint: string; eventId: string }>;
  /** Endpoints that had the person's data but are no longer configured: to be told by hand. */
  unconfigured: string[];
}

/** Deletes the webhook rows about `emailLower` and queues `person.erased` to the configured endpoints among those that had them; run inside the erasure's transaction. */
export async function passOnErasure(kysely: Kysely<Tables>, tx: OpsQueries, emailLower: string, configured: readonly string[], now: number): Promise<ErasurePassedOn> {
  const had = await tx.all(kysely.selectFrom('webhook_deliveries').select('endpoint').distinct().where('email_lower', '=', emailLower).orderBy('endpoint'));
  const removed = await tx.run(kysely.deleteFrom('webhook_deliveries').where('email_lower', '=', emailLower));
  const endpoints = had.map((row) => row.endpoint);
  const told = endpoints.filter((endpoint) => configured.includes(endpoint));
  const event = { type: 'person.erased' as const, data: { version: 1 as const, email: emailLower, erasedAt: isoAt(now) } };
  const rows = deliveryRows(told, event, emailLower, now);
  if (rows.length > 0) await tx.run(kysely.insertInto('webhook_deliveries').values(rows));
  return {
    removed,
    notices: rows.map((row) => ({ endpoint: row.endpoint, eventId: row.event_id })),
    unconfigured: endpoints.filter((endpoint) => !configured.includes(endpoint)),
  };
}
