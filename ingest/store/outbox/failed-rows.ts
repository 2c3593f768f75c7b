/**
 * The outbox's failed rows for the operator (`ingest outbox failed | retry`), on either backend:
 * the mails rejected for their recipient or content, or given up after 48 h of retries. A retry is
 * one conditional UPDATE of failed rows back to `pending`, due at once, so two operators (or two
 * replicas' commands) retrying at the same time queue each row once; the worker never touches a
 * failed row. Failed rows stay subject to retention and erasure as every other row (they go with
 * their contact or subscription, and the visitors' mails `CONFIRM_LINK_DAYS` after queueing).
 */
import { isoAt } from '../../clock.ts';
import type { OpsDatabase } from '../ops-database.ts';
import type { OutboxKind, OutboxStatus } from '../tables.ts';

/** A failed row as the operator sees it: what it is about is named by row id, never by address. */
export interface FailedOutboxRow {
  id: number;
  kind: OutboxKind;
  /** `contact 7` or `subscription 3`. */
  about: string;
  attempts: number;
  queuedAt: string;
  /** When its last attempt started (null for a row that was never claimed). */
  lastTryAt: string | null;
  lastError: string | null;
}

/** Which failed rows a retry takes: all, those of one kind, or those with these ids. */
export type OutboxRetrySelection = { all: true } | { kind: OutboxKind } | { ids: readonly number[] };

/** What a retry did: the ids queued again, and for each id asked for that was not failed, its status (null: no such row). */
export interface OutboxRetryResult {
  retried: number[];
  notFailed: Array<{ id: number; status: OutboxStatus | null }>;
}

/** The failed rows, oldest first. */
export async function failedOutboxRows(db: OpsDatabase): Promise<FailedOutboxRow[]> {
  const rows = await db.all(
    db.kysely
      .selectFrom('outbox')
      .select(['id', 'kind', 'contact_id', 'newsletter_id', 'attempts', 'created_at', 'claimed_at', 'last_error'])
      .where('status', '=', 'failed')
      .orderBy('id'),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    about: row.contact_id === null ? `subscription ${row.newsletter_id}` : `contact ${row.contact_id}`,
    attempts: row.attempts,
    queuedAt: row.created_at,
    lastTryAt: row.claimed_at,
    lastError: row.last_error,
  }));
}

/**
 * Queues the selected failed rows again at `now`: pending, due at once, and counted as queued at
 * `now`, so they get a fresh 48 h of retries (`attempts` keeps counting: it fences the claims).
 *
 * @example await retryFailedOutbox(db, Date.now(), { ids: [17, 18] }) // → { retried: [17], notFailed: [{ id: 18, status: 'sent' }] }
 */
export async function retryFailedOutbox(db: OpsDatabase, now: number, which: OutboxRetrySelection): Promise<OutboxRetryResult> {
  const at = isoAt(now);
  let update = db.kysely
    .updateTable('outbox')
    .set({ status: 'pending', next_attempt_at: at, created_at: at, claimed_at: null })
    .where('status', '=', 'failed');
  if ('kind' in which) update = update.where('kind', '=', which.kind);
  if ('ids' in which) update = update.where('id', 'in', which.ids.length > 0 ? [...which.ids] : [-1]);
  const retried = (await db.all(update.returning('id'))).map((row) => row.id).sort((a, b) => a - b);
  if (!('ids' in which)) return { retried, notFailed: [] };
  const others = which.ids.filter((id) => !retried.includes(id));
  // Read after the write, only to tell the operator why: the write alone decided.
  const statuses = others.length === 0 ? [] : await db.all(db.kysely.selectFrom('outbox').select(['id', 'status']).where('id', 'in', others));
  return { retried, notFailed: others.map((id) => ({ id, status: statuses.find((row) => row.id === id)?.status ?? null })) };
}
