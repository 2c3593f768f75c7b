/**
 * The outbox on PostgreSQL, shared by the workers of every replica: a claim takes the oldest due
 * rows with `FOR UPDATE SKIP LOCKED` (a row another worker is claiming is skipped, not waited for)
 * and starts their lease; finishes are fenced by the claim's attempt number (`outbox-queries.ts`).
 * See `OutboxStore` for the lifecycle of a row.
 *
 * The worker's lanes claim and record many mails at once, and each claim or record was a commit
 * of its own that waited for a WAL flush: two flushes per mail, more than the signup that queued it
 * (issue 45). So the claims that arrive together are one statement, and so are the sent marks
 * (`GroupCommit`; each lane still gets its own row or its own answer), and both are written behind:
 * their transactions commit with `synchronous_commit = off`, so they wait for no flush and
 * PostgreSQL's WAL writer puts them on disk together within 3 × `wal_writer_delay` (0.6 s by
 * default), or sooner with the next signup's commit. What a crash of PostgreSQL can cost is the
 * record of its last moments' claims and sends: those rows are pending or sending again, and their
 * mails go out again under their first Message-ID, as after a replica killed mid-send (at least once
 * either way; a stored submission never depends on it). Input → output, three lanes asking at once
 * with two rows due:
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
 * How long a claim or a sent mark waits for others to share its statement, and how many share one
 * at most (the worker runs 32 sends per SMTP connection). While a statement runs, the next batch
 * gathers by itself; the wait only adds to a mail's time in the outbox, never to a request's.
 */
const OUTBOX_BATCH: GroupCommitOptions = { maxBatch: 64, maxDelayMs: 5 };

// Marks each claim (id, attempts) sent, fenced as `fencedUpdate` fences one; ids in order, so two
// replicas' statements (a lease lost and taken over) lock shared rows in one order.
const MARK_SENT = `
UPDATE outbox SET status = 'sent', sent_at = done.at, last_error = NULL
FROM unnest($1::bigint[], $2::int[], $3::text[]) AS done(id, attempts, at)
WHERE outbox.id = done.id AND outbox.attempts = done.attempts AND outbox.status = 'sending'
RETURNING outbox.id, outbox.attempts`;

/** The first statement of a written-behind transaction: its commit waits for no WAL flush. */
const WRITE_BEHIND = 'SET LOCAL synchronous_commit TO off';

/** One lane's ask for a row. */
interface ClaimAsk {
  now: number;
  dueBy: number;
}

/** The PostgreSQL outbox on `kysely`'s pool; every call goes through `health.guard`. */
export function postgresOutbox(kysely: Kysely<Tables>, health: PostgresHealth, batch: GroupCommitOptions = OUTBOX_BATCH): OutboxStore {
  const changed = async (query: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numUpdatedRows);
  // Runs `work` in a transaction committed without waiting for its WAL flush (see the module comment).
  const writtenBehind = <T>(work: (trx: Kysely<Tables>) => Promise<T>) =>
    health.guard(() =>
      kysely.transaction().execute(async (trx) => {
        await trx.executeQuery(raw(WRITE_BEHIND));
        return work(trx);
      }),
    );

  // One statement for the lanes asking together: rows due for every one of them (the earliest
  // `dueBy`), leased from the latest `now` (the moment the statement runs, give or take a few ms).
  const claimMany = async (asks: ClaimAsk[]): Promise<Array<JobResult<OutboxJob | null>>> => {
    const now = Math.max(...asks.map((ask) => ask.now));
    const dueBy = Math.min(...asks.map((ask) => ask.dueBy));
    const jobs = await writtenBehind(async (trx) => {
      const all = async <R>(query: Compilable<R>) => (await trx.executeQuery(query.compile())).rows;
      const found: OutboxJob[] = [];
      // A row erased between its claim and the read went with its contact or subscription: claim more for it.
      for (;;) {
        const wanted = asks.length - found.length;
        const claimed = await claimQuery(trx, { now, dueBy, limit: wanted }, true).execute();
        for (const job of await jobsFor(trx, claimed.sort((a, b) => a.id - b.id), all)) if (job !== null) found.push(job);
        if (claimed.length < wanted || found.length >= asks.length) return found;
      }
    });
    return asks.map((_, index) => ({ ok: true, value: jobs[index] ?? null }));
  };
  const claims = new GroupCommit(claimMany, batch);

  const markManySent = async (marks: Array<OutboxClaim & { now: number }>): Promise<Array<JobResult<boolean>>> => {
    const ordered = [...marks].sort((a, b) => a.id - b.id);
    const { rows } = await writtenBehind((trx) =>
      trx.executeQuery<{ id: number | string; attempts: number }>(
        raw(MARK_SENT, [ordered.map((mark) => mark.id), ordered.map((mark) => mark.attempts), ordered.map((mark) => isoAt(mark.now))]),
      ),
    );
    const recorded = new Set(rows.map((row) => `${row.id}/${row.attempts}`));
    return marks.map((mark) => ({ ok: true, value: recorded.has(`${mark.id}/${mark.attempts}`) }));
  };
  const sentMarks = new GroupCommit(markManySent, batch);

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
