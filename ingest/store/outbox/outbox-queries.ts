/**
 * The outbox's SQL, built once with kysely for both backends (see `outbox-store.ts` for the
 * lifecycle): SQLite runs these through its synchronous runner, PostgreSQL through the pool.
 * The only difference is how a claim picks its rows (`claimable-ids.ts`): PostgreSQL locks them
 * with `FOR UPDATE SKIP LOCKED`, so workers in other replicas skip them instead of waiting; SQLite
 * has one writer at a time and needs no lock.
 */
import type { Compilable, Kysely, Updateable } from 'kysely';
import { isoAt } from '../../clock.ts';
import { claimableIds } from '../claimable-ids.ts';
import type { OutboxClaim, OutboxJob } from './outbox-store.ts';
import type { OutboxKind, Tables } from '../tables.ts';

/**
 * Claims the oldest row due at `dueBy` (the `limit` oldest, when given): one UPDATE that marks them
 * `sending`, starts their lease at `now` and adds one to their `attempts`.
 */
export function claimQuery(kysely: Kysely<Tables>, claim: { now: number; dueBy: number; limit?: number }, locksRows: boolean) {
  const at = isoAt(claim.now);
  const due = kysely
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', isoAt(claim.dueBy))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(claim.limit ?? 1);
  return kysely
    .updateTable('outbox')
    .set((eb) => ({ status: 'sending', claimed_at: at, attempts: eb('attempts', '+', 1) }))
    .where(claimableIds(due, locksRows))
    .where('status', '=', 'pending')
    .returning(['id', 'attempts', 'created_at', 'kind', 'contact_id', 'newsletter_id', 'message_key']);
}

/** What `claimQuery` returns for a claimed row. */
type ClaimedRow = { id: number; attempts: number; created_at: string; kind: OutboxKind; contact_id: number | null; newsletter_id: number | null; message_key: string };

/** Runs one built query and returns its rows (on either backend). */
type AllRows = <R>(query: Compilable<R>) => Promise<R[]>;

const isAboutSubscription = (row: ClaimedRow) => row.kind === 'newsletter_confirm' || row.kind === 'newsletter_already_subscribed';

/**
 * The jobs for claimed rows, in their order, with the rows they are about read by `all` (one query
 * for the subscriptions, one for the contacts); null for a row whose subject is gone (erased between
 * the claim and the read: its outbox row went with it).
 */
export async function jobsFor(kysely: Kysely<Tables>, claimed: readonly ClaimedRow[], all: AllRows): Promise<Array<OutboxJob | null>> {
  const newsletterIds = claimed.filter(isAboutSubscription).flatMap((row) => (row.newsletter_id === null ? [] : [row.newsletter_id]));
  const contactIds = claimed.filter((row) => !isAboutSubscription(row)).flatMap((row) => (row.contact_id === null ? [] : [row.contact_id]));
  const subscriptions = new Map(
    newsletterIds.length === 0 ? [] : (await all(kysely.selectFrom('newsletter').selectAll().where('id', 'in', newsletterIds))).map((row) => [row.id, row]),
  );
  const contacts = new Map(contactIds.length === 0 ? [] : (await all(kysely.selectFrom('contacts').selectAll().where('id', 'in', contactIds))).map((row) => [row.id, row]));
  return claimed.map((row): OutboxJob | null => {
    const base = { id: row.id, attempts: row.attempts, queuedAt: Date.parse(row.created_at), messageKey: row.message_key };
    if (isAboutSubscription(row)) {
      const subscription = row.newsletter_id === null ? undefined : subscriptions.get(row.newsletter_id);
      return subscription === undefined ? null : { ...base, kind: row.kind as 'newsletter_confirm' | 'newsletter_already_subscribed', subscription };
    }
    const contact = row.contact_id === null ? undefined : contacts.get(row.contact_id);
    if (contact === undefined) return null;
    return row.kind === 'contact_confirm' ? { ...base, kind: 'contact_confirm', contact } : { ...base, kind: 'sales', contact };
  });
}

/** Changes a row only while `claim` is still the row's current claim (fenced by its attempt number). */
export function fencedUpdate(kysely: Kysely<Tables>, claim: OutboxClaim, values: Updateable<Tables['outbox']>) {
  return kysely
    .updateTable('outbox')
    .set(values)
    .where('id', '=', claim.id)
    .where('attempts', '=', claim.attempts)
    .where('status', '=', 'sending');
}

/** What each finish writes: `finishValues.sent(now)` etc. */
export const finishValues = {
  lease: (now: number) => ({ claimed_at: isoAt(now) }),
  sent: (now: number) => ({ status: 'sent' as const, sent_at: isoAt(now), last_error: null }),
  retry: (at: number, error: string) => ({ status: 'pending' as const, next_attempt_at: isoAt(at), claimed_at: null, last_error: error.slice(0, 500) }),
  failed: (error: string) => ({ status: 'failed' as const, last_error: error.slice(0, 500) }),
};

/** Returns rows whose lease started before `claimedBefore` to `pending`. */
export function releaseStaleQuery(kysely: Kysely<Tables>, claimedBefore: number) {
  return kysely
    .updateTable('outbox')
    .set({ status: 'pending', claimed_at: null })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', isoAt(claimedBefore));
}

/** Makes pending rows due later than `now` due at `now`. */
export function bringForwardQuery(kysely: Kysely<Tables>, now: number) {
  const at = isoAt(now);
  return kysely.updateTable('outbox').set({ next_attempt_at: at }).where('status', '=', 'pending').where('next_attempt_at', '>', at);
}

/** The earliest `next_attempt_at` of a pending row (null when none). */
export function nextDueQuery(kysely: Kysely<Tables>) {
  return kysely
    .selectFrom('outbox')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', 'pending');
}

/** Failed row counts by kind. */
export function failedByKindQuery(kysely: Kysely<Tables>) {
  return kysely.selectFrom('outbox').select((eb) => ['kind', eb.fn.countAll<number>().as('n')]).where('status', '=', 'failed').groupBy('kind');
}

/** Row counts by status. */
export function countsQuery(kysely: Kysely<Tables>) {
  return kysely.selectFrom('outbox').select((eb) => ['status', eb.fn.countAll<number>().as('n')]).groupBy('status');
}
