/**
 * The outbox table's operations, for the workers that send sales mail (one per replica).
 *
 * A row moves `pending` → `sending` (claimed) → `sent`, or back to `pending` with a later
 * `next_attempt_at` (or due at once, when a shutdown abandoned its send), or to `failed` (the
 * SMTP server rejected its recipient or content, or 48 h of retries ran out; `ingest outbox retry`
 * returns it to `pending`: `failed-rows.ts`). A claim marks the oldest due row
 * `sending` atomically and adds one to its `attempts` (on PostgreSQL with `FOR UPDATE SKIP
 * LOCKED`, so workers in several replicas never wait for each other nor take the same row); the
 * worker holds the claim as a lease, renewed while it sends (`renewLease`). Every finish is
 * fenced by the claim's attempt number: once a lease has run out and another worker has claimed
 * the row again, the first worker's late `markSent`/`reschedule`/`markFailed` changes nothing
 * (and returns false). A row left `sending` by a process that died mid-send is handed out again
 * once its lease has run out: the mail may then arrive twice (with the same Message-ID, made from
 * the row's `message_key`, so the receiver can drop the copy), which is better than never.
 */
import type { Selectable } from 'kysely';
import type { ContactsTable, NewsletterTable, OutboxKind, OutboxStatus } from '../tables.ts';

/** Which claim of a row a worker holds: the row id and the attempt number its claim set. */
export interface OutboxClaim {
  id: number;
  attempts: number;
}

/** One claimed outbox row with the row it is about: a contact (sales mail) or a subscription (its confirmation mail). */
export type OutboxJob = OutboxClaim & { queuedAt: number; /** The row's random Message-ID part (`mail/message-id.ts`). */ messageKey: string } & (
  | { kind: 'sales'; contact: Selectable<ContactsTable> }
  | { kind: 'contact_confirm'; contact: Selectable<ContactsTable> }
  | { kind: 'newsletter_confirm' | 'newsletter_already_subscribed'; subscription: Selectable<NewsletterTable> }
);

/** The operations the worker needs; each finish returns false when the claim was lost to a newer one. */
export interface OutboxStore {
  /**
   * Claims the oldest row due at `dueBy` (default `now`), its lease starting at `now`, or returns
   * null. A pass over the outbox claims rows due when it began, each with its own lease start:
   * a long pass must not hand later rows a lease that has already run out.
   */
  claimNext(now: number, dueBy?: number): Promise<OutboxJob | null>;
  /** Extends the lease of a claim still held to start at `now`; false when the claim was lost. */
  renewLease(claim: OutboxClaim, now: number): Promise<boolean>;
  /** Records a delivered row; a `sent` row is never claimed again. */
  markSent(claim: OutboxClaim, now: number): Promise<boolean>;
  /** Returns a claimed row to `pending`, due at `at`, with the reason it is not sent yet. */
  reschedule(claim: OutboxClaim, at: number, error: string): Promise<boolean>;
  /** Records a row that will never be sent (rejected by the server, or given up), with the reason. */
  markFailed(claim: OutboxClaim, error: string): Promise<boolean>;
  /** Returns rows whose lease started before `claimedBefore` and never finished to `pending`; returns how many. */
  releaseStale(claimedBefore: number): Promise<number>;
  /** Makes every pending row due later than `now` due at `now` (an outage just ended); returns how many. */
  bringForward(now: number): Promise<number>;
  /** When the next pending row falls due, or null if none is pending. */
  nextDueAt(): Promise<number | null>;
  /** Row counts by status (for tests, operators and `/readyz` details: `failed` rows need a look). */
  counts(): Promise<Record<OutboxStatus, number>>;
  /** Failed rows by kind of mail, every kind present (metrics: a failed sales mail is a lead nobody was told about). */
  failedByKind(): Promise<Record<OutboxKind, number>>;
}

/** Failed counts by kind with every kind present: `failedByKindOf([{ kind: 'sales', n: 1 }])` → `{ sales: 1, contact_confirm: 0, … }`. */
export function failedByKindOf(rows: ReadonlyArray<{ kind: OutboxKind; n: number | string | bigint }>): Record<OutboxKind, number> {
  const counts: Record<OutboxKind, number> = { sales: 0, contact_confirm: 0, newsletter_confirm: 0, newsletter_already_subscribed: 0 };
  for (const row of rows) counts[row.kind] = Number(row.n);
  return counts;
}

/** Counts by status with every status present: `countsByStatus([{ status: 'sent', n: '2' }])` → `{ pending: 0, sending: 0, sent: 2, failed: 0 }`. */
export function countsByStatus(rows: ReadonlyArray<{ status: OutboxStatus; n: number | string | bigint }>): Record<OutboxStatus, number> {
  const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
