/** The outbox on SQLite: see `OutboxStore` for the lifecycle of a row, `outbox-queries.ts` for the SQL. */
import type { SqliteDatabase } from './connection.ts';
import { type OutboxStore, countsByStatus, failedByKindOf } from '../outbox/outbox-store.ts';
import {
  bringForwardQuery,
  claimQuery,
  countsQuery,
  failedByKindQuery,
  fencedUpdate,
  finishValues,
  jobsFor,
  nextDueQuery,
  releaseStaleQuery,
} from '../outbox/outbox-queries.ts';

/**
 * How long a write waits for others to share its commit, and how many share one at most. A commit
 * blocks the event loop for its fsync (0.3 ms on a quiet disk, several on a busy one); while a
 * write waits, the loop is free and the SMTP connection keeps delivering the mails in flight.
 */
const WRITE_WINDOW_MS = 15;
const MAX_WRITES_PER_COMMIT = 64;

/**
 * Runs the writes that arrive within a few milliseconds of each other in one transaction: a
 * worker with several sends in flight then pays one durable commit for the claims and outcomes of
 * all of them instead of one each, as the writer's group commit does for form posts.
 *
 *   const write = coalescedWrites(db); await Promise.all([write(() => a()), write(() => b())]) // one COMMIT
 */
function coalescedWrites(db: SqliteDatabase): <T>(write: () => T) => Promise<T> {
  type Pending = { write: () => unknown; resolve: (value: never) => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    // A failed statement is rolled back alone and fails its own caller; a failed COMMIT fails them all.
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    try {
      db.raw.transaction(() => {
        for (const { write } of batch) {
          try {
            outcomes.push({ value: write() });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      })();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) pending.reject(outcome.error);
      else pending.resolve(outcome.value as never);
    });
  };
  return <T>(write: () => T) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: never) => void, reject });
      if (queue.length >= MAX_WRITES_PER_COMMIT) setImmediate(flush);
      else timer ??= setTimeout(flush, WRITE_WINDOW_MS);
    });
}

/** The SQLite outbox (synchronous underneath; the claims and outcomes of one event-loop turn commit together). */
export function sqliteOutbox(db: SqliteDatabase): OutboxStore {
  const { kysely, sql } = db;
  const write = coalescedWrites(db);
  return {
    async claimNext(now, dueBy = now) {
      const [claimed] = await write(() => sql.all(claimQuery(kysely, { now, dueBy }, false)));
      if (claimed === undefined) return null;
      // The foreign keys cascade erasure, so a claimed row always has its contact or subscription.
      const [job] = await jobsFor(kysely, [claimed], async (query) => sql.all(query));
      return job ?? null;
    },
    async renewLease(claim, now) {
      return (await write(() => sql.run(fencedUpdate(kysely, claim, finishValues.lease(now))))) === 1;
    },
    async markSent(claim, now) {
      return (await write(() => sql.run(fencedUpdate(kysely, claim, finishValues.sent(now))))) === 1;
    },
    async reschedule(claim, at, error) {
      return (await write(() => sql.run(fencedUpdate(kysely, claim, finishValues.retry(at, error))))) === 1;
    },
    async markFailed(claim, error) {
      return (await write(() => sql.run(fencedUpdate(kysely, claim, finishValues.failed(error))))) === 1;
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
    async failedByKind() {
      return failedByKindOf(sql.all(failedByKindQuery(kysely)));
    },
  };
}
