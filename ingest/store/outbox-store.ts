/**
 * The outbox table's operations, for the worker that sends sales mail.
 *
 * A row moves `pending` → `sending` (claimed) → `sent`, or back to `pending` with a later
 * `next_attempt_at`, or to `failed`. Claiming is one UPDATE that picks the oldest due row and
 * marks it `sending` atomically, so a row is never handed out twice; a `sent` row is never
 * picked again, across restarts. A row left `sending` by a process that died mid-send is handed
 * out again once its lease has run out: the mail may then arrive twice (with the same Message-ID),
 * which is better than never.
 */
import type { Selectable } from 'kysely';
import type { ContactsTable, OutboxStatus } from './tables.ts';

/** One claimed outbox row with the contact it is about. */
export interface OutboxJob {
  id: number;
  attempts: number;
  queuedAt: number;
  contact: Selectable<ContactsTable>;
}

/** The operations the worker needs. */
export interface OutboxStore {
  /** Claims the oldest row due at `now`, or returns null. */
  claimNext(now: number): OutboxJob | null;
  markSent(id: number, now: number): void;
  reschedule(id: number, at: number, error: string): void;
  markFailed(id: number, error: string): void;
  /** Returns rows claimed before `claimedBefore` and never finished to `pending`; returns how many. */
  releaseStale(claimedBefore: number): number;
  /** When the next pending row falls due, or null if none is pending. */
  nextDueAt(): number | null;
  /** Row counts by status (for tests and operators). */
  counts(): Record<OutboxStatus, number>;
}
