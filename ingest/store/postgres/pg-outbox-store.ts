/**
 * The outbox on PostgreSQL, shared by the workers of every replica: a claim takes the oldest due
 * rows with `FOR UPDATE SKIP LOCKED` (a row another worker is claiming is skipped, not waited for)
 * and starts their lease; finishes are fenced by the claim's attempt number (`outbox-queries.ts`).
 * See `OutboxStore` for the lifecycle of a row.
 *
 * The worker's lanes claim and record many mails at once, and each claim or record was a commit
 * of its own that waited for a WAL flush: two flushes per mail, more than the signup that queued it
 * (issue 45). So the claims that arrive together are one transaction (`GroupCommit`; each lane
 * still gets its own row or its own answer), and it carries the sent marks waiting: a lane records
 * its last mail and claims its next one in the same commit, one WAL flush a round instead of two.
 * A mark no claim comes to carry (the worker is stopping) goes alone after `SENT_MARK_BATCH`. Both
 * stay durable: a claim a crash of PostgreSQL forgot puts its row back to pending at once, and
 * another lane sends it again while the first still holds its mark; a mark a crash forgot sends its
 * mail again (both written behind, tried in issue 45 for 12 rows per WAL flush, sent mails twice in
 * tests/faults/postgres-restart.test.ts). A mark waits no longer than before (a lane asks for its
 * next row as soon as its mail is accepted, and the job queue sends that row only once the mark is
 * recorded), and a mark whose commit failed is tried again by the worker until the database answers.
 * Input → output, three lanes asking at once with two rows due, two of them having sent a mail:
 *
 *   markSent(7/1), markSent(8/1), claimNext() × 3 → one transaction: UPDATE … FROM unnest(…);
 *                                                    UPDATE … LIMIT 3 → true, true; job 9, job 10, null
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
 * How long a claim waits for others to share its transaction, and how many share one at most (the
 * worker runs 32 sends per SMTP connection). Each transaction is a WAL flush, and a round is now one
 * of them, so the claims wait as long as the sent marks did before they rode along (50 ms: 5 ms
 * made short rounds of 4 mails, 50 ms 8–9, in the ingest bench). While a transaction runs, the next
 * batch gathers by itself; the wait only adds to a mail's time in the outbox, never to a request's.
 */
const CLAIM_BATCH: GroupCommitOptions = { maxBatch: 64, maxDelayMs: 50 };

/**
 * How long a sent mark waits for a claim to carry it before it goes alone, and how many wait at
 * most (more than the worker's lanes, so that a round's marks all wait for the claims that follow).
 */
const SENT_MARK_BATCH: GroupCommitOptions = { maxBatch: 256, maxDelayMs: 250 };

// Marks each claim (id, attempts) sent, fenced as `fencedUpdate` fences one; ids in order, so two
// replicas' statements (a lease lost and taken over) lock shared rows in one order.
const MARK_SENT = `
UPDATE outbox SET status = 'sent', sent_at = done.at, last_error = NULL
FROM unnest($1::bigint[], $2::int[], $3::text[]) AS done(id, attempts, at)
WHERE outbox.id = done.id AND outbox.attempts = done.attempts AND outbox.status = 'sending'
RETURNING outbox.id, outbox.attempts`;

/** A sent mark waiting to be recorded. */
type SentMark = OutboxClaim & { now: number };

/** One lane's ask for a row. */
interface ClaimAsk {
  now: number;
  dueBy: number;
}

/** The PostgreSQL outbox on `kysely`'s pool; every call goes through `health.guard`. */
export function postgresOutbox(kysely: Kysely<Tables>, health: PostgresHealth): OutboxStore {
  const changed = async (query: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numUpdatedRows);

  // Marks each claim sent in `db` (the pool, or the transaction of a claim that carries them).
  const markIn = async (db: Kysely<Tables>, marks: SentMark[]): Promise<Array<JobResult<boolean>>> => {
    if (marks.length === 0) return [];
    const ordered = [...marks].sort((a, b) => a.id - b.id);
    const { rows } = await db.executeQuery<{ id: number | string; attempts: number }>(
      raw(MARK_SENT, [ordered.map((mark) => mark.id), ordered.map((mark) => mark.attempts), ordered.map((mark) => isoAt(mark.now))]),
    );
    const recorded = new Set(rows.map((row) => `${row.id}/${row.attempts}`));
    return marks.map((mark) => ({ ok: true, value: recorded.has(`${mark.id}/${mark.attempts}`) }));
  };
  // Durable (see the module comment): a mark a crash forgot would send its mail again. Only the
  // marks no claim came to carry within SENT_MARK_BATCH (the worker is stopping) run on their own.
  const sentMarks = new GroupCommit((marks: SentMark[]) => health.guard(() => markIn(kysely, marks)), SENT_MARK_BATCH);

  // One transaction for the lanes asking together, carrying the sent marks waiting (their lanes'
  // last mails): the marks first, then rows due for every lane (the earliest `dueBy`), leased from
  // the latest `now` (the moment the statement runs, give or take a few ms).
  const claimMany = async (asks: ClaimAsk[]): Promise<Array<JobResult<OutboxJob | null>>> => {
    const now = Math.max(...asks.map((ask) => ask.now));
    const dueBy = Math.min(...asks.map((ask) => ask.dueBy));
    const riders = sentMarks.takeWaiting();
    let committed: { jobs: OutboxJob[]; marked: Array<JobResult<boolean>> };
    try {
      committed = await health.guard(() => kysely.transaction().execute(async (trx) => {
        const marked = await markIn(trx, riders.jobs);
        const all = async <R>(query: Compilable<R>) => (await trx.executeQuery(query.compile())).rows;
        const found: OutboxJob[] = [];
        // A row erased between its claim and the read went with its contact or subscription: claim more for it.
        for (;;) {
          const wanted = asks.length - found.length;
          const claimed = await claimQuery(trx, { now, dueBy, limit: wanted }, true).execute();
          for (const job of await jobsFor(trx, claimed.sort((a, b) => a.id - b.id), all)) if (job !== null) found.push(job);
          if (claimed.length < wanted || found.length >= asks.length) return { jobs: found, marked };
        }
      }));
    } catch (error) {
      riders.fail(error);
      throw error;
    }
    riders.settle(committed.marked);
    return asks.map((_, index) => ({ ok: true, value: committed.jobs[index] ?? null }));
  };
  const claims = new GroupCommit(claimMany, CLAIM_BATCH);

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
