/** The outbox on SQLite: see `OutboxStore` for the lifecycle of a row. */
import { isoAt } from '../../clock.ts';
import type { SqliteDatabase } from './connection.ts';
import type { OutboxStore } from '../outbox-store.ts';
import type { OutboxStatus } from '../tables.ts';

/** The SQLite outbox. */
export function sqliteOutbox(db: SqliteDatabase): OutboxStore {
  const { kysely, sql } = db;
  return {
    claimNext(now) {
      const at = isoAt(now);
      const due = kysely
        .selectFrom('outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1);
      const [claimed] = sql.all(
        kysely
          .updateTable('outbox')
          .set((eb) => ({ status: 'sending', claimed_at: at, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', due)
          .where('status', '=', 'pending')
          .returning(['id', 'attempts', 'created_at', 'contact_id']),
      );
      if (claimed === undefined) return null;
      const [contact] = sql.all(kysely.selectFrom('contacts').selectAll().where('id', '=', claimed.contact_id));
      // The foreign key cascades erasure, so a claimed row always has its contact.
      return { id: claimed.id, attempts: claimed.attempts, queuedAt: Date.parse(claimed.created_at), contact: contact! };
    },
    markSent(id, now) {
      sql.run(
        kysely
          .updateTable('outbox')
          .set({ status: 'sent', sent_at: isoAt(now), last_error: null })
          .where('id', '=', id)
          .where('status', '=', 'sending'),
      );
    },
    reschedule(id, at, error) {
      sql.run(
        kysely
          .updateTable('outbox')
          .set({ status: 'pending', next_attempt_at: isoAt(at), claimed_at: null, last_error: error.slice(0, 500) })
          .where('id', '=', id)
          .where('status', '=', 'sending'),
      );
    },
    markFailed(id, error) {
      sql.run(
        kysely
          .updateTable('outbox')
          .set({ status: 'failed', last_error: error.slice(0, 500) })
          .where('id', '=', id)
          .where('status', '=', 'sending'),
      );
    },
    releaseStale(claimedBefore) {
      return sql.run(
        kysely
          .updateTable('outbox')
          .set({ status: 'pending', claimed_at: null })
          .where('status', '=', 'sending')
          .where('claimed_at', '<', isoAt(claimedBefore)),
      );
    },
    bringForward(now) {
      const at = isoAt(now);
      return sql.run(
        kysely
          .updateTable('outbox')
          .set({ next_attempt_at: at })
          .where('status', '=', 'pending')
          .where('next_attempt_at', '>', at),
      );
    },
    nextDueAt() {
      const [row] = sql.all(
        kysely
          .selectFrom('outbox')
          .select((eb) => eb.fn.min('next_attempt_at').as('at'))
          .where('status', '=', 'pending'),
      );
      return row?.at ? Date.parse(row.at) : null;
    },
    counts() {
      const rows = sql.all(
        kysely.selectFrom('outbox').select((eb) => ['status', eb.fn.countAll<number>().as('n')]).groupBy('status'),
      );
      const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },
  };
}
