/** The outbox on SQLite: see `OutboxStore` for the lifecycle of a row, `outbox-queries.ts` for the SQL. */
import type { SqliteDatabase } from './connection.ts';
import { type OutboxStore, countsByStatus } from '../outbox/outbox-store.ts';
import {
  bringForwardQuery,
  claimQuery,
  countsQuery,
  fencedUpdate,
  finishValues,
  jobFor,
  nextDueQuery,
  releaseStaleQuery,
} from '../outbox/outbox-queries.ts';

/** The SQLite outbox (synchronous underneath; each call settles at once). */
export function sqliteOutbox(db: SqliteDatabase): OutboxStore {
  const { kysely, sql } = db;
  return {
    async claimNext(now, dueBy = now) {
      const [claimed] = sql.all(claimQuery(kysely, { now, dueBy }, false));
      if (claimed === undefined) return null;
      // The foreign keys cascade erasure, so a claimed row always has its contact or subscription.
      return jobFor(kysely, claimed, async (query) => sql.all(query)[0]);
    },
    async renewLease(claim, now) {
      return sql.run(fencedUpdate(kysely, claim, finishValues.lease(now))) === 1;
    },
    async markSent(claim, now) {
      return sql.run(fencedUpdate(kysely, claim, finishValues.sent(now))) === 1;
    },
    async reschedule(claim, at, error) {
      return sql.run(fencedUpdate(kysely, claim, finishValues.retry(at, error))) === 1;
    },
    async markFailed(claim, error) {
      return sql.run(fencedUpdate(kysely, claim, finishValues.failed(error))) === 1;
    },
    async releaseStale(claimedBefore) {
      return sql.run(releaseStaleQuery(kysely, claimedBefore));
    },
    async bringForward(now) {
      return sql.run(bringForwardQuery(kysely, now));
    },
    async nextDueAt() {
      const [row] = sql.all(nextDueQuery(kysely));
      return row?.at ? Date.parse(row.at) : null;
    },
    async counts() {
      return countsByStatus(sql.all(countsQuery(kysely)));
    },
  };
}
