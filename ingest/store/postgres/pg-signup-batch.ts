/**
 * Newsletter signups stored many at a time: one statement (one round trip, one commit, one WAL
 * flush) holds a whole batch of concurrent signups, so their commit is shared instead of paid per
 * request. Each signup still gets what a transaction of its own gives it: its subscription, its
 * `subscribed` (and `confirmed`) consent event and its confirmation mail are committed together,
 * and the unique `email_lower` index decides duplicates (`ON CONFLICT DO NOTHING` returns no row).
 *
 * Input → output, for a batch of three where `b@x` is already subscribed:
 *
 *   [a@x, B@x, A@x] → ['created', 'duplicate', 'duplicate']
 *
 * (the first signup of an address in a batch is the one tried; later ones of the same address,
 * whatever the case, are its duplicates, as they would be one request later).
 */
import { type Kysely, sql } from 'kysely';
import type { NewsletterSignup } from '../../contract/schemas.ts';
import { newMessageKey } from '../outbox-row.ts';
import { newsletterRow, type SignupTerms } from '../submission-store.ts';
import type { Tables } from '../tables.ts';

/** One `subscribe` call waiting for its batch. */
export interface SignupJob {
  signup: NewsletterSignup;
  now: number;
  terms: SignupTerms;
}

/** What storing each signup of a batch did, in the batch's order; all of it commits at once, or none. */
export async function subscribeBatch(kysely: Kysely<Tables>, jobs: SignupJob[]): Promise<Array<'created' | 'duplicate'>> {
  const rows = jobs.map((job) => newsletterRow(job.signup, job.now, job.terms));
  const tried = new Map<string, number>();
  rows.forEach((row, index) => {
    if (!tried.has(row.email_lower)) tried.set(row.email_lower, index);
  });
  // Inserted in address order, so two batches (of two replicas) that share addresses take their
  // index locks in the same order and cannot deadlock.
  const order = [...tried.values()].sort((a, b) => (rows[a]!.email_lower < rows[b]!.email_lower ? -1 : 1));
  // The events and mails are inserted from the subscriptions the first part created, in the same
  // statement; each subscription's events in order (subscribed, then confirmed), as exports list them by id.
  const created = await kysely
    .with('created', (db) =>
      db
        .insertInto('newsletter')
        .values(order.map((index) => rows[index]!))
        .onConflict((conflict) => conflict.column('email_lower').doNothing())
        .returning(['id', 'email_lower', 'status', 'lang', 'consent_hash', 'privacy_version', 'created_at']),
    )
    .with('events', (db) =>
      db
        .insertInto('consent_events')
        .columns(['newsletter_id', 'event', 'lang', 'consent_hash', 'privacy_version', 'at'])
        .expression(
          sql`SELECT id, e.event, lang, consent_hash, privacy_version, created_at
              FROM created CROSS JOIN (VALUES (1, 'subscribed'), (2, 'confirmed')) AS e (step, event)
              WHERE e.step = 1 OR created.status = 'confirmed'
              ORDER BY created.id, e.step`,
        ),
    )
    .with('mails', (db) =>
      db
        .insertInto('outbox')
        .columns(['kind', 'newsletter_id', 'status', 'attempts', 'next_attempt_at', 'created_at', 'message_key'])
        // Each mail's Message-ID key made here (outbox-row.ts), matched to its subscription by address.
        .expression(
          sql`SELECT 'newsletter_confirm', id, 'pending', 0, created_at, created_at, keys.message_key
              FROM created JOIN unnest(${order.map((index) => rows[index]!.email_lower)}::text[], ${order.map(() => newMessageKey())}::text[]) AS keys (email_lower, message_key) USING (email_lower)
              WHERE status = 'pending' ORDER BY id`,
        ),
    )
    .selectFrom('created')
    .select('email_lower')
    .execute();
  const won = new Set(created.map((row) => tried.get(row.email_lower)!));
  return jobs.map((_, index) => (won.has(index) ? 'created' : 'duplicate'));
}
