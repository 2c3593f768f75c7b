/**
 * The outbox on PostgreSQL, shared by the workers of every replica: a claim takes the oldest due
 * rows with `FOR UPDATE SKIP LOCKED` (a row another worker is claiming is skipped, not waited for)
 * and starts their lease; finishes are fenced by the claim's attempt number (`outbox-queries.ts`).
 * See `OutboxStore` for the lifecycle of a row.
 *
 * The worker's lanes claim and record many mails at once, and each claim or record was a commit
 * of its own that waited for a WAL flush: two flushes per mail, more than the signup that queued it
 * (issue 45). So the claims that arrive together are one statement, and so are the sent marks
 * (`GroupCommit`; each lane still gets its own row or its own answer), each a durable commit. Both
 * stay durable: a claim a crash of PostgreSQL forgot puts its row back to pending at once, and
 * another lane sends it again while the first still holds its mark; a mark a crash forgot sends its
 * mail again (both written behind, tried in issue 45 for 12 rows per WAL flush, sent mails twice in
 * tests/faults/postgres-restart.test.ts). The marks wait longer for each other than the claims
 * (`SENT_MARK_BATCH`): a mail the relay accepted loses nothing by being recorded 50 ms later.
 * Input → output, three lanes asking at once with two rows due:
 *
 *   claimNext(), claimNext(), claimNext() → one UPDATE … LIMIT 3 → job 7, job 8, null
 *   markSent(7/1), markSent(8/1)          → one UPDATE … FROM unnest(…) → true, true
 *
 * The rarer writes (a lease renewed, a retry, a failure, stale claims released) stay one durable
 * statement each.
 */
import type { Compilable, Kysely } from 'kysely';
import { isoAt } from '../../clock.ts';
import { GroupCommit, type GroupCommitOptions, type JobResult } from '../group-commit.ts';
import { type OutboxClaim, type OutboxJob, type OutboxStore, countsByStatus, failedByKindOf } from '../outbox/outbox-store.ts';
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
import type { Tables } from '../tables.ts';
import { raw } from './pg-connection.ts';
import type { PostgresHealth } from './pg-health.ts';

/**
 * How long a claim waits for others to share its statement, and how many share one
 * at most (the worker runs 32 sends per SMTP connection). While a statement runs, the next batch
 * gathers by itself; the wait only adds to a mail's time in the outbox, never to a request's.
 */
const CLAIM_BATCH: GroupCommitOptions = { maxBatch: 64, maxDelayMs: 5 };

/**
 * The sent marks wait longer for each other: each statement is a WAL flush of its own, and a mail
 * already accepted by the relay loses nothing by being recorded a little later (a mark that fails
 * is tried again until the database answers, so a lane holds its mark, never drops it).
 */
const SENT_MARK_BATCH: GroupCommitOptions = { maxBatch: 32, maxDelayMs: 50 };

// Marks each claim (id, attempts) sent, fenced as `fencedUpdate` fences one; ids in order, so two
// replicas' statements (a lease lost and taken over) lock shared rows in one order.
const MARK_SENT = `
UPDATE outbox SET status = 'sent', sent_at = done.at, last_error = NULL
FROM unnest($1::bigint[], $2::int[], $3::text[]) AS done(id, attempts, at)
WHERE outbox.id = done.id AND outbox.attempts = done.attempts AND outbox.status = 'sending'
RETURNING outbox.id, outbox.attempts`;

/** One lane's ask for a row. */
interface ClaimAsk {
  now: number;
  dueBy: number;
}

/** The PostgreSQL outbox on `kysely`'s pool; every call goes through `health.guard`. */
export function postgresOutbox(kysely: Kysely<Tables>, health: PostgresHealth): OutboxStore {
  const changed = async (query: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numUpdatedRows);

  // One statement for the lanes asking together: rows due for every one of them (the earliest
  // `dueBy`), leased from the latest `now` (the moment the statement runs, give or take a few ms).
  const claimMany = async (asks: ClaimAsk[]): Promise<Array<JobResult<OutboxJob | null>>> => {
    const now = Math.max(...asks.map((ask) => ask.now));
    const dueBy = Math.min(...asks.map((ask) => ask.dueBy));
    const jobs = await health.guard(() => kysely.transaction().execute(async (trx) => {
      const all = async <R>(query: Compilable<R>) => (await trx.executeQuery(query.compile())).rows;
      const found: OutboxJob[] = [];
      // A row erased between its claim and the read went with its contact or subscription: claim more for it.
      for (;;) {
        const wanted = asks.length - found.length;
        const claimed = await claimQuery(trx, { now, dueBy, limit: wanted }, true).execute();
        for (const job of await jobsFor(trx, claimed.sort((a, b) => a.id - b.id), all)) if (job !== null) found.push(job);
        if (claimed.length < wanted || found.length >= asks.length) return found;
      }
    }));
    return asks.map((_, index) => ({ ok: true, value: jobs[index] ?? null }));
  };
  const claims = new GroupCommit(claimMany, CLAIM_BATCH);

  const markManySent = async (marks: Array<OutboxClaim & { now: number }>): Promise<Array<JobResult<boolean>>> => {
    const ordered = [...marks].sort((a, b) => a.id - b.id);
    // Durable (see the module comment): a mark a crash forgot would send its mail again.
    const { rows } = await health.guard(() =>
      kysely.executeQuery<{ id: number | string; attempts: number }>(
        raw(MARK_SENT, [ordered.map((mark) => mark.id), ordered.map((mark) => mark.attempts), ordered.map((mark) => isoAt(mark.now))]),
      ),
    );
    const recorded = new Set(rows.map((row) => `${row.id}/${row.attempts}`));
    return marks.map((mark) => ({ ok: true, value: recorded.has(`${mark.id}/${mark.attempts}`) }));
  };
  const sentMarks = new GroupCommit(markManySent, SENT_MARK_BATCH);

  return {
    claimNext: (now, dueBy = now) => claims.submit({ now, dueBy }),
    renewLease: (claim, now) => health.guard(async () => (await changed(fencedUpdate(kysely, claim, finishValues.lease(now)))) === 1),
    markSent: (claim, now) => sentMarks.submit({ id: claim.id, attempts: claim.attempts, now }),
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
