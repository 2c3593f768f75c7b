/**
 * The per-recipient cap on the mails the service sends to an address a visitor typed: at most one
 * per 10 minutes and three per UTC day for each mailbox (`mailboxKey`: `bomb+1@x` and `bomb+2@x`
 * are one mailbox) and stream of mail, whoever asks and from whichever IP, on every replica.
 *
 * One statement both checks and counts, so two requests (in one process or two replicas) can
 * never both pass where one may: an upsert whose update only happens while the cap allows it.
 *
 *   INSERT INTO mail_caps (mailbox, stream, day, mails, last_mail_at) VALUES ($key, $stream, $day, 1, $now)
 *   ON CONFLICT (mailbox, stream) DO UPDATE SET mails = (same day ? mails + 1 : 1), day = $day, last_mail_at = $now
 *   WHERE last_mail_at <= $now - 10 min AND (day <> $day OR mails < 3)
 *   RETURNING mailbox
 *
 * A row back means "send it, counted"; none means "over the cap, send nothing". The caller runs
 * it in the transaction that queues the mail, so a mail that is not queued is not counted.
 */
import { type InsertQueryBuilder, type InsertResult, type Kysely, type RawBuilder, sql } from 'kysely';
import { isoAt } from '../clock.ts';
import { mailboxKey } from '../contract/mailbox-key.ts';
import { DATA_FACTS } from '../contract/data-facts.ts';
import type { Tables } from './tables.ts';

/** The streams of mail capped apart: a newsletter signup's mails, and a contact's confirmation mail. */
export type MailStream = 'newsletter' | 'contact';

/** One mail per 10 minutes, three per UTC day, per mailbox and stream: the numbers the privacy policy states. */
const MAIL_CAP = { minIntervalMs: DATA_FACTS.resendMinutes * 60 * 1000, perDay: DATA_FACTS.mailsPerDay } as const;

/** The values one charge binds: `capValues('Ana+x@Example.com', 'contact', now)` → `{ mailbox: 'ana@example.com', … }`. */
export function capValues(email: string, stream: MailStream, now: number) {
  const at = isoAt(now);
  return { mailbox: mailboxKey(email), stream, day: at.slice(0, 10), last_mail_at: at, cutoff: isoAt(now - MAIL_CAP.minIntervalMs) };
}

type CapValues = ReturnType<typeof capValues>;

/**
 * The conditional upsert that counts one mail to a mailbox (or to each of several distinct ones,
 * in the order given: sort them, so two transactions lock the counters in one order), returning a
 * row for each mailbox the cap allows. `values` may hold parameter names instead of values
 * (SQLite's prepared statements). With several, the earliest cutoff applies to all.
 */
export function chargeMailQuery(kysely: Kysely<Tables>, values: CapValues | readonly CapValues[]) {
  const list = Array.isArray(values) ? (values as readonly CapValues[]) : [values as CapValues];
  const counts = kysely
    .insertInto('mail_caps')
    .values(list.map((value) => ({ mailbox: value.mailbox, stream: value.stream, day: value.day, mails: sql.lit(1), last_mail_at: value.last_mail_at })));
  return withCapRule(counts, earliestCutoff(list));
}

/** The cutoff a charge of several mailboxes applies to all: the earliest of theirs (at least one). */
export function earliestCutoff(charges: ReadonlyArray<Pick<CapValues, 'cutoff'>>): string {
  return charges.reduce((earliest, charge) => (charge.cutoff < earliest ? charge.cutoff : earliest), charges[0]!.cutoff);
}

/**
 * The cap's rule on an insert of counts of one (`mails` 1) into `mail_caps`: a mailbox already
 * counted is counted again only while the cap allows it (its last mail at or before `cutoff`,
 * fewer than three today), and each mailbox counted comes back. `cutoff` is a value, or an
 * expression such as a parameter (`pg-signup-batch.ts` prepares the rule once for many rows).
 */
export function withCapRule(counts: InsertQueryBuilder<Tables, 'mail_caps', InsertResult>, cutoff: string | RawBuilder<string>) {
  return counts
    .onConflict((conflict) =>
      conflict
        .columns(['mailbox', 'stream'])
        .doUpdateSet({
          mails: sql<number>`CASE WHEN mail_caps.day = excluded.day THEN mail_caps.mails + 1 ELSE 1 END`,
          day: (eb) => eb.ref('excluded.day'),
          last_mail_at: (eb) => eb.ref('excluded.last_mail_at'),
        })
        .where('mail_caps.last_mail_at', '<=', cutoff)
        .where((eb) => eb.or([eb('mail_caps.day', '<>', eb.ref('excluded.day')), eb('mail_caps.mails', '<', sql.lit(MAIL_CAP.perDay))])),
    )
    .returning('mailbox');
}

/**
 * The counts that limit nothing any more at `now` (retention deletes them): of a past day, and
 * older than the 10 minutes. Select or delete them: `pastMailCaps(kysely.selectFrom('mail_caps'), now)`.
 */
export function pastMailCaps<Q extends WhereTarget>(query: Q, now: number): Q {
  return query.where('day', '<', isoAt(now).slice(0, 10)).where('last_mail_at', '<=', isoAt(now - MAIL_CAP.minIntervalMs)) as Q;
}

/** A query on `mail_caps` that takes a WHERE (a select or a delete). */
interface WhereTarget {
  where(column: 'day' | 'last_mail_at', op: '<' | '<=', value: string): WhereTarget;
}
