/**
 * The outbox table's operations, for the worker that sends sales mail.
 *
 * A row moves `pending` → `sending` (claimed) → `sent`, or back to `pending` with a later
 * `next_attempt_at` (or due at once, when a shutdown abandoned its send), or to `failed` (the
 * SMTP server rejected it, or 48 h of retries ran out). Claiming is one UPDATE that picks the
 * oldest due row and marks it `sending` atomically, so a row is never handed out twice; a `sent`
 * row is never picked again, across restarts. A row left `sending` by a process that died
 * mid-send is handed out again once its lease has run out: the mail may then arrive twice (with
 * the same Message-ID, so the receiver can drop the copy), which is better than never.
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
  /** Records a delivered row; a `sent` row is never claimed again. */
  markSent(id: number, now: number): void;
  /** Returns a claimed row to `pending`, due at `at`, with the reason it is not sent yet. */
  reschedule(id: number, at: number, error: string): void;
  /** Records a row that will never be sent (rejected by the server, or given up), with the reason. */
  markFailed(id: number, error: string): void;
  /** Returns rows claimed before `claimedBefore` and never finished to `pending`; returns how many. */
  releaseStale(claimedBefore: number): number;
  /** Makes every pending row due later than `now` due at `now` (an outage just ended); returns how many. */
  bringForward(now: number): number;
  /** When the next pending row falls due, or null if none is pending. */
  nextDueAt(): number | null;
  /** Row counts by status (for tests, operators and `/readyz` details: `failed` rows need a look). */
  counts(): Record<OutboxStatus, number>;
}
