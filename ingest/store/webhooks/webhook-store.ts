/**
 * The webhook deliveries' table, for the workers that send them (one per replica) and for the
 * operator's `ingest webhooks` commands; written once on `OpsDatabase` for SQLite and PostgreSQL.
 *
 * A lead's `contact.received` event waits on its contact row until a worker queues it here
 * (`queueWaiting`, `waiting-contacts.ts`); every other event is queued as rows by the change itself.
 * A row moves `pending` → `sending` (claimed) → `delivered`, or back to `pending` with a later
 * `next_attempt_at`, or to `failed` (the receiver refused it, or the retry budget ran out: a dead
 * letter, sent again by `ingest webhooks retry`). Claims and their fencing are the outbox's: a claim
 * marks the oldest due row `sending` in one UPDATE and adds one to `attempts` (on PostgreSQL the
 * candidate is locked `FOR UPDATE SKIP LOCKED`, so replicas never wait for each other nor take the
 * same row), the worker renews it as a lease while the request runs, and every finish is fenced by
 * the claim's attempt number, so a worker whose lease ran out records nothing. A row left `sending`
 * by a process that died is handed out again once its lease has run out: the receiver may then get
 * it twice, with the same `webhook-id`.
 *
 * Events about one person reach each endpoint in order: a row is claimed only when no older row
 * (by the person's sequence, `queue-events.ts`) to the same endpoint about the same person is
 * pending or being sent, so they go one at a time, and a newer state supersedes older ones not yet
 * delivered. A row waiting behind an older one is not due for `nextDueAt` either.
 *
 * A delivered row drops its body (the receiver has it) and keeps who received what about whom, so an
 * erasure can be passed on; a delivered erasure notice drops the address too.
 */
import { type Kysely, sql, type Updateable } from 'kysely';
import { isoAt } from '../../clock.ts';
import { claimableIds } from '../claimable-ids.ts';
import type { OpsDatabase } from '../ops-database.ts';
import type { Tables, WebhookStatus } from '../tables.ts';
import { isStateEvent, STATE_TYPES_SQL } from './queue-events.ts';
import { retryFailedRows } from './retry-failed.ts';
import { queueWaitingContacts, waitingContacts } from './waiting-contacts.ts';
import type { WebhookRouting } from './webhook-row.ts';

/** Which claim of a row a worker holds. */
export interface WebhookClaim {
  id: number;
  attempts: number;
}

/** A claimed delivery: what to send, to which endpoint. */
export interface WebhookJob extends WebhookClaim {
  eventId: string;
  /** The person it is about (lower case), or null. */
  emailLower: string | null;
  endpoint: string;
  eventType: string;
  body: string;
  queuedAt: number;
}

/** What became of one claimed row: delivered (with the receiver's status), due again at `at`, or failed. */
export type WebhookOutcome = { claim: WebhookClaim & { eventType: string; emailLower: string | null }; status: number | null } & (
  | { kind: 'delivered' }
  | { kind: 'retry'; at: number; error: string }
  | { kind: 'failed'; error: string }
);

/** A row as the operator sees it (`ingest webhooks failed`). */
export interface WebhookRowView {
  id: number;
  eventId: string;
  endpoint: string;
  eventType: string;
  status: WebhookStatus;
  attempts: number;
  createdAt: string;
  finishedAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
}

/** The webhook table's operations on `db`; where rows can be locked, a claim skips those another replica holds. */
export function webhookStore(db: OpsDatabase) {
  const { kysely, locksRows } = db;
  const fenced = (claim: WebhookClaim, values: Updateable<Tables['webhook_deliveries']>) =>
    kysely
      .updateTable('webhook_deliveries')
      .set(values)
      .where('id', '=', claim.id)
      .where('attempts', '=', claim.attempts)
      .where('status', '=', 'sending');
  const changed = async (query: ReturnType<typeof fenced>) => (await db.run(query)) === 1;

  return {
    /** Claims up to `limit` of the oldest rows due at `dueBy` in one statement (one commit for all), each leased from `now`. */
    async claimBatch(now: number, dueBy: number, limit: number): Promise<WebhookJob[]> {
      return jobsOf(await db.all(claimQuery(kysely, { now, dueBy, limit }, locksRows)));
    },
    /** Claims one event's pending row for `endpoint` now, due or not (`ingest erase` sends its notices at once); null when it is not pending. */
    async claimEvent(eventId: string, endpoint: string, now: number): Promise<WebhookJob | null> {
      return jobsOf(await db.all(claimQuery(kysely, { now, dueBy: ANY_TIME, limit: 1, only: { eventId, endpoint } }, locksRows)))[0] ?? null;
    },
    /** Extends a held claim's lease to start at `now`; false when the claim was lost. */
    renewLease: (claim: WebhookClaim, now: number) => changed(fenced(claim, { claimed_at: isoAt(now) })),
    /**
     * Records the outcomes of claimed rows in one transaction (one commit for a batch); each is
     * fenced by its claim, and the result says which were still held. A delivered row drops its
     * body; a delivered erasure notice drops its address too, so the table keeps no trace of an
     * erased person once the notice is through. A retried row is due again at `at`; a failed one
     * keeps its body for `retry`.
     */
    record(outcomes: readonly WebhookOutcome[], now: number): Promise<boolean[]> {
      return db.transaction(async (tx) => {
        const held: boolean[] = [];
        for (const { claim, ...outcome } of outcomes) {
          const answer = { last_status: outcome.status, last_error: outcome.kind === 'delivered' ? null : outcome.error.slice(0, 500), claimed_at: null };
          const values: Updateable<Tables['webhook_deliveries']> =
            outcome.kind === 'delivered'
              ? { ...answer, status: 'delivered', body: null, finished_at: isoAt(now), ...(claim.eventType === 'person.erased' ? { email_lower: null, email: null } : {}) }
              : outcome.kind === 'retry'
                ? { ...answer, status: 'pending', next_attempt_at: isoAt(outcome.at) }
                : { ...answer, status: 'failed', finished_at: isoAt(now) };
          const kept = (await tx.run(fenced(claim, values))) === 1;
          held.push(kept);
          // A state that was being sent when a newer one was queued, and is not through: it never will be.
          if (kept && outcome.kind !== 'delivered' && isStateEvent(claim.eventType)) await tx.run(supersededSinceQuery(kysely, claim.id, now));
          // The last erasure notice about the person through: their sequence row goes too, unless a newer event about them was queued since.
          if (kept && outcome.kind === 'delivered' && claim.eventType === 'person.erased' && claim.emailLower !== null) {
            const left = kysely.selectFrom('webhook_deliveries').select('id').where('email_lower', '=', claim.emailLower);
            await tx.run(kysely.deleteFrom('webhook_sequences').where('email_lower', '=', claim.emailLower).where((eb) => eb.not(eb.exists(left))));
          }
        }
        return held;
      });
    },
    /** Returns rows whose lease started before `claimedBefore` to `pending`; returns how many. */
    releaseStale: (claimedBefore: number) =>
      db.run(kysely.updateTable('webhook_deliveries').set({ status: 'pending', claimed_at: null }).where('status', '=', 'sending').where('claimed_at', '<', isoAt(claimedBefore))),
    /**
     * Queues the events of up to `limit` leads waiting on their contact rows to the endpoints
     * `routing` gives them (`waiting-contacts.ts`), due at once; returns how many leads it took.
     */
    queueWaiting: (routing: WebhookRouting, limit: number) => queueWaitingContacts(db, routing, { limit, skipLocked: locksRows }),
    /** When the next pending row falls due, or a lead's event waits to be queued (since it became ready), or null. */
    async nextDueAt(): Promise<number | null> {
      const [row] = await db.all(
        kysely
          .selectFrom('webhook_deliveries as candidate')
          .select((eb) => eb.fn.min('candidate.next_attempt_at').as('at'))
          .where('candidate.status', '=', 'pending')
          .where((eb) => eb.not(eb.exists(olderOnItsWay(kysely)))),
      );
      const pending = row?.at ? Date.parse(row.at) : null;
      const { oldestAt } = await waitingContacts(db);
      return pending === null ? oldestAt : oldestAt === null ? pending : Math.min(pending, oldestAt);
    },
    /** Row counts by status, and `waiting`: the leads whose event is not queued yet (metrics, tests). */
    async counts(): Promise<Record<WebhookStatus | 'waiting', number>> {
      const rows = await db.all(kysely.selectFrom('webhook_deliveries').select((eb) => ['status', eb.fn.countAll<number>().as('n')]).groupBy('status'));
      const counts: Record<WebhookStatus | 'waiting', number> = { waiting: (await waitingContacts(db)).count, pending: 0, sending: 0, delivered: 0, failed: 0, superseded: 0 };
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },
    /** The failed rows (dead letters), oldest first, or the rows of one event. */
    async list(filter: { status: 'failed' } | { eventIds: readonly string[] }): Promise<WebhookRowView[]> {
      let query = kysely.selectFrom('webhook_deliveries').select(['id', 'event_id', 'endpoint', 'event_type', 'status', 'attempts', 'created_at', 'finished_at', 'last_status', 'last_error']);
      query = 'status' in filter ? query.where('status', '=', filter.status) : query.where('event_id', 'in', filter.eventIds.length > 0 ? [...filter.eventIds] : ['']);
      const rows = await db.all(query.orderBy('id'));
      return rows.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        endpoint: row.endpoint,
        eventType: row.event_type,
        status: row.status,
        attempts: row.attempts,
        createdAt: row.created_at,
        finishedAt: row.finished_at,
        lastStatus: row.last_status,
        lastError: row.last_error,
      }));
    },
    /**
     * Makes failed rows (all, or those `ids` names) due again at `now` with a fresh retry budget,
     * unless that would bring an older event after a newer one (`retry-failed.ts`): says which
     * were due again, which were superseded, and which go out with a new sequence.
     */
    retryFailed: (now: number, ids?: readonly number[]) => retryFailedRows(db, now, ids),
  };
}

/** The store a worker and the commands use. */
export type WebhookStore = ReturnType<typeof webhookStore>;

/** A due time later than any row's: 9999-12-31. */
const ANY_TIME = Date.UTC(9999, 11, 31);

/** The jobs of claimed rows, oldest first (each is claimed with its body; a delivered row is never pending). */
function jobsOf(
  rows: ReadonlyArray<{ id: number; attempts: number; event_id: string; endpoint: string; event_type: string; email_lower: string | null; body: string | null; created_at: string }>,
): WebhookJob[] {
  return rows
    .filter((row): row is typeof row & { body: string } => row.body !== null)
    .map((row) => ({
      id: row.id,
      attempts: row.attempts,
      eventId: row.event_id,
      emailLower: row.email_lower,
      endpoint: row.endpoint,
      eventType: row.event_type,
      body: row.body,
      queuedAt: Date.parse(row.created_at),
    }))
    .sort((a, b) => a.id - b.id);
}

/**
 * Marks row `id` superseded (dropping its body and address) if it is a pending or failed state
 * event and a newer state event to its endpoint about its person has been queued meanwhile.
 */
function supersededSinceQuery(kysely: Kysely<Tables>, id: number, now: number) {
  return kysely
    .updateTable('webhook_deliveries')
    .set({ status: 'superseded', body: null, email_lower: null, email: null, claimed_at: null, finished_at: isoAt(now) })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .where(
      sql<boolean>`EXISTS (SELECT 1 FROM webhook_deliveries newer WHERE newer.email_lower = webhook_deliveries.email_lower
        AND newer.endpoint = webhook_deliveries.endpoint AND newer.seq > webhook_deliveries.seq
        AND newer.status <> 'superseded' AND newer.event_type IN ${STATE_TYPES_SQL})`,
    );
}

/**
 * An older row to the same endpoint about the same person as `candidate` that is pending or being
 * sent: while there is one, `candidate` waits (on PostgreSQL this is read at the claim's snapshot;
 * a row only ever leaves these states, and a newer one is queued after the older, so waiting on a
 * stale read is the only mistake it can make). The partial index of unfinished rows serves it
 * (`body IS NOT NULL`, written out so SQLite sees the index applies).
 */
function olderOnItsWay(kysely: Kysely<Tables>) {
  return kysely
    .selectFrom('webhook_deliveries as older')
    .select('older.id')
    .where('older.email_lower', '=', sql.ref<string>('candidate.email_lower'))
    .where('older.endpoint', '=', sql.ref<string>('candidate.endpoint'))
    .where('older.seq', '<', sql.ref<number>('candidate.seq'))
    .where('older.body', 'is not', null)
    .where(sql<boolean>`older.status IN ('pending', 'sending')`);
}

/**
 * Claims the `limit` oldest pending rows due at `dueBy` (of one event and endpoint, with `only`):
 * one UPDATE marks them `sending`, starts their lease at `now` and adds one to their `attempts`.
 * A row behind an older one to its endpoint about its person (`olderOnItsWay`) is not claimed.
 */
function claimQuery(kysely: Kysely<Tables>, claim: { now: number; dueBy: number; limit: number; only?: { eventId: string; endpoint: string } }, locksRows: boolean) {
  const { now, dueBy, limit, only } = claim;
  let due = kysely
    .selectFrom('webhook_deliveries as candidate')
    .select('candidate.id')
    .where('candidate.status', '=', 'pending')
    .where('candidate.next_attempt_at', '<=', isoAt(dueBy))
    .where((eb) => eb.not(eb.exists(olderOnItsWay(kysely))))
    .orderBy('candidate.next_attempt_at')
    .orderBy('candidate.id')
    .limit(limit);
  if (only !== undefined) due = due.where('candidate.event_id', '=', only.eventId).where('candidate.endpoint', '=', only.endpoint);
  return kysely
    .updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'sending', claimed_at: isoAt(now), attempts: eb('attempts', '+', 1) }))
    .where(claimableIds(due, locksRows))
    .where('status', '=', 'pending')
    .returning(['id', 'attempts', 'event_id', 'endpoint', 'event_type', 'email_lower', 'body', 'created_at']);
}
