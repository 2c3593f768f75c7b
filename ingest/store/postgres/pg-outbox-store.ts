/**
 * The outbox on PostgreSQL, shared by the workers of every replica: a claim takes the oldest due
 * row with `FOR UPDATE SKIP LOCKED` (a row another worker is claiming is skipped, not waited for)
 * and starts its lease; finishes are fenced by the claim's attempt number (`outbox-queries.ts`).
 * See `OutboxStore` for the lifecycle of a row.
 */
import type { Kysely } from 'kysely';
import { type OutboxStore, countsByStatus, failedByKindOf } from '../outbox/outbox-store.ts';
import {
  bringForwardQuery,
  claimQuery,
  countsQuery,
  failedByKindQuery,
  fencedUpdate,
  finishValues,
  jobFor,
  nextDueQuery,
  releaseStaleQuery,
} from '../outbox/outbox-queries.ts';
import type { Tables } from '../tables.ts';
import type { PostgresHealth } from './pg-health.ts';

/** The PostgreSQL outbox on `kysely`'s pool; every call goes through `health.guard`. */
export function postgresOutbox(kysely: Kysely<Tables>, health: PostgresHealth): OutboxStore {
  const changed = async (query: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numUpdatedRows);
  return {
    claimNext: (now, dueBy = now) =>
      health.guard(async () => {
        // A row erased between its claim and this read went with its contact or subscription: claim the next one.
        for (;;) {
          const claimed = await claimQuery(kysely, { now, dueBy }, true).executeTakeFirst();
          if (claimed === undefined) return null;
          const job = await jobFor(kysely, claimed, async (query) => (await kysely.executeQuery(query.compile())).rows[0]);
          if (job !== null) return job;
        }
      }),
    renewLease: (claim, now) => health.guard(async () => (await changed(fencedUpdate(kysely, claim, finishValues.lease(now)))) === 1),
    markSent: (claim, now) => health.guard(async () => (await changed(fencedUpdate(kysely, claim, finishValues.sent(now)))) === 1),
    reschedule: (claim, at, error) => health.guard(async () => (await changed(fencedUpdate(kysely, claim, finishValues.retry(at, error)))) === 1),
    markFailed: (claim, error) => health.guard(async () => (await changed(fencedUpdate(kysely, claim, finishValues.failed(error)))) === 1),
    releaseStale: (claimedBefore) => health.guard(() => changed(releaseStaleQuery(kysely, claimedBefore))),
    bringForward: (now) => health.guard(() => changed(bringForwardQuery(kysely, now))),
    nextDueAt: () =>
      health.guard(async () => {
        const row = await nextDueQuery(kysely).executeTakeFirst();
        return row?.at ? Date.parse(row.at) : null;
      }),
    counts: () => health.guard(async () => countsByStatus(await countsQuery(kysely).execute())),
    failedByKind: () => health.guard(async () => failedByKindOf(await failedByKindQuery(kysely).execute())),
  };
}
