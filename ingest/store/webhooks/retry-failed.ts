/**
 * `ingest webhooks retry`: failed deliveries (dead letters) made due again, without ever bringing
 * an endpoint an older event about a person after a newer one. In one transaction, with the
 * sequence rows of the people concerned locked first (so no change can queue an event about them
 * meanwhile), each failed row is
 *
 * | when | it is |
 * |---|---|
 * | a newer state event (confirmed, unsubscribed, erased) to its endpoint about its person exists | **superseded**: never sent (its state is no longer true) |
 * | else, a newer event to its endpoint about its person is pending, being sent or delivered | due again with the person's **next sequence** (its body says so; its time stays the time of the change) |
 * | else | due again as it was |
 *
 *   await retryFailedRows(db, now)  → { due: [17, 18], superseded: [12], resequenced: [18] }
 */
import { isoAt } from '../../clock.ts';
import { STATE_EVENT_TYPES } from '../../contract/webhook-events.ts';
import type { OpsDatabase } from '../ops-database.ts';
import { isStateEvent, nextSequenceQuery } from './queue-events.ts';

/** What a retry did, by delivery id: due again (`resequenced` among them), or superseded and not sent. */
export interface RetryReport {
  due: number[];
  superseded: number[];
  resequenced: number[];
}

/** Retries the failed rows (all, or those `ids` names) on `db` at `now`. */
export function retryFailedRows(db: OpsDatabase, now: number, ids?: readonly number[]): Promise<RetryReport> {
  const { kysely } = db;
  const at = isoAt(now);
  return db.transaction(async (tx) => {
    let failed = kysely
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint', 'email_lower', 'event_type', 'seq', 'body'])
      .where('status', '=', 'failed')
      .where('body', 'is not', null);
    if (ids !== undefined) failed = failed.where('id', 'in', ids.length > 0 ? [...ids] : [-1]);
    const rows = await tx.all(failed.orderBy('id'));
    // A change queueing an event about these people takes their sequence row first: it waits for this retry, or this retry sees its row.
    const people = [...new Set(rows.flatMap((row) => (row.email_lower === null ? [] : [row.email_lower])))].sort();
    for (const person of people) await tx.run(kysely.updateTable('webhook_sequences').set((eb) => ({ seq: eb.ref('seq') })).where('email_lower', '=', person));
    const report: RetryReport = { due: [], superseded: [], resequenced: [] };
    for (const row of rows) {
      const newer = (types: 'state' | 'any', statuses: string[]) => {
        let query = kysely
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('email_lower', '=', row.email_lower)
          .where('endpoint', '=', row.endpoint)
          .where('seq', '>', row.seq)
          .where('status', 'in', statuses as never[])
          .limit(1);
        if (types === 'state') query = query.where('event_type', 'in', [...STATE_EVENT_TYPES]);
        return tx.all(query).then((found) => found.length > 0);
      };
      const fresh = { status: 'pending' as const, next_attempt_at: at, created_at: at, finished_at: null, claimed_at: null };
      const failedRow = kysely.updateTable('webhook_deliveries').where('id', '=', row.id).where('status', '=', 'failed');
      if (row.email_lower === null || row.seq === null) {
        if ((await tx.run(failedRow.set(fresh))) === 1) report.due.push(row.id);
      } else if (isStateEvent(row.event_type) && (await newer('state', ['pending', 'sending', 'delivered', 'failed']))) {
        const dropped = failedRow.set({ status: 'superseded', body: null, email_lower: null, email: null, finished_at: at, claimed_at: null });
        if ((await tx.run(dropped)) === 1) report.superseded.push(row.id);
      } else if (await newer('any', ['pending', 'sending', 'delivered'])) {
        const [next] = await tx.all(nextSequenceQuery(kysely, [{ email_lower: row.email_lower, seq: now }]));
        const seq = Number(next!.seq);
        const body = JSON.parse(row.body!) as { data: Record<string, unknown> };
        body.data.sequence = seq;
        if ((await tx.run(failedRow.set({ ...fresh, seq, body: JSON.stringify(body) }))) === 1) {
          report.due.push(row.id);
          report.resequenced.push(row.id);
        }
      } else if ((await tx.run(failedRow.set(fresh))) === 1) {
        report.due.push(row.id);
      }
    }
    // Rows named that a newer state superseded when it was queued: said so, not sent.
    if (ids !== undefined && ids.length > 0) {
      const gone = await tx.all(kysely.selectFrom('webhook_deliveries').select('id').where('id', 'in', [...ids]).where('status', '=', 'superseded'));
      report.superseded.push(...gone.map((row) => row.id));
    }
    // In id order, whatever order the database returned them in (the command lists them).
    for (const ids of [report.due, report.superseded, report.resequenced]) ids.sort((a, b) => a - b);
    return report;
  });
}
