/**
 * The values of a new outbox row, for every place that queues a mail: pending, due at once, and
 * with a `message_key` of its own, the random part of the mail's Message-ID (`mail/message-id.ts`).
 *
 * The key is made once, here, and stored with the row, so a retried send carries the same
 * Message-ID (the receiver can drop the copy), while two databases (staging and production, a
 * restore) that hand out the same row ids never send two mails under one Message-ID. A column
 * DEFAULT cannot be random in both SQLite and PostgreSQL, so every inserter takes its values here:
 *
 *   { ...outboxRow('sales', now), contact_id: 7 }
 *   → { kind: 'sales', status: 'pending', attempts: 0, next_attempt_at: '2026-…Z', created_at: '2026-…Z', message_key: '9f86d0…', contact_id: 7 }
 */
import { isoAt } from '../../clock.ts';
import { randomHex } from '../../random-hex.ts';
import type { OutboxKind } from '../tables.ts';

/** A fresh random Message-ID part: 128 bits as 32 lower-case hex digits (`newMessageKey()` → `'3f1c…'`). */
export function newMessageKey(): string {
  return randomHex(16);
}

/** The columns of a new outbox row of `kind` queued at `now`, without its subject (`contact_id` or `newsletter_id`). */
export function outboxRow<K extends OutboxKind>(kind: K, now: number) {
  const at = isoAt(now);
  return { kind, status: 'pending' as const, attempts: 0, next_attempt_at: at, created_at: at, message_key: newMessageKey() };
}
