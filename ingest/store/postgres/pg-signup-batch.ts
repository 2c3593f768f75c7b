/**
 * Newsletter signups stored many at a time: one transaction (one commit, one WAL flush, four
 * statements at most) holds a whole batch of concurrent signups, so their commit is shared instead
 * of paid per request (single opt-in adds three for the webhook events: the people's sequences,
 * the older states they supersede, the deliveries; `webhooks/queue-events.ts`). Each signup still
 * gets what a transaction of its own gives it: its
 * subscription, its `subscribed` (and `confirmed`) consent event and its confirmation mail are
 * committed together, the unique `email_lower` index decides duplicates (`ON CONFLICT DO NOTHING`
 * returns no row), and the per-recipient cap (`mail-caps.ts`) decides whether a new pending
 * signup's confirmation mail may go out; if not, the signup is not kept (`capped`).
 *
 * Input → output, for a batch of four where `b@x` is already subscribed and `c@x` had a mail a
 * minute ago:
 *
 *   [a@x, B@x, A@x, c+1@x] → ['created', 'duplicate', 'duplicate', 'capped']
 *
 * (the first signup of an address in a batch is the one tried; later ones of the same address,
 * whatever the case, are its duplicates, as they would be one request later).
 *
 * The batch's subscriptions go in as one column array per column (`INSERT … SELECT FROM unnest`),
 * the same statement text whatever the batch's size: a batch of 23 rows was a statement of 368
 * parameters that Kysely built and compiled, and PostgreSQL parsed and planned, anew each time
 * (issue 45).
 */
import type { Insertable, Kysely } from 'kysely';
import type { NewsletterSignup } from '../../contract/schemas.ts';
import { outboxRow } from '../outbox/outbox-row.ts';
import { capValues, chargeMailQuery } from '../mail-caps.ts';
import { newsletterRow, type SignupTerms } from '../submission-store.ts';
import type { NewsletterTable, Tables } from '../tables.ts';
import { eventFor, queueEvents } from '../webhooks/queue-events.ts';
import { NO_WEBHOOKS, newsletterConfirmed, type WebhookRouting } from '../webhooks/webhook-row.ts';
import { raw } from './pg-connection.ts';
import { opsQueriesOn } from './pg-ops-database.ts';

/** The columns a signup writes, with their PostgreSQL types (the arrays' element types). */
const SIGNUP_COLUMNS = [
  ['name', 'text'],
  ['email', 'text'],
  ['email_lower', 'text'],
  ['privacy_consent', 'int'],
  ['marketing_consent', 'int'],
  ['lang', 'text'],
  ['privacy_version', 'text'],
  ['consent_at', 'text'],
  ['created_at', 'text'],
  ['status', 'text'],
  ['confirmed_at', 'text'],
  ['consent_hash', 'text'],
  ['expires_at', 'text'],
  ['confirm_mails', 'int'],
  ['confirm_mail_day', 'text'],
  ['last_confirm_mail_at', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof Insertable<NewsletterTable>, 'text' | 'int']>;

/** What the insert returns for each subscription it created. */
interface CreatedRow {
  id: number;
  email_lower: string;
  status: 'pending' | 'confirmed';
  lang: string;
  consent_hash: string | null;
  privacy_version: string;
  created_at: string;
}

/** Every column of the table but its id, or the compile fails: a column added to the table is written here too. */
type UnwrittenColumns = Exclude<keyof Insertable<NewsletterTable>, 'id' | (typeof SIGNUP_COLUMNS)[number][0]>;
const everyColumnWritten: [UnwrittenColumns] extends [never] ? true : UnwrittenColumns = true;
void everyColumnWritten;

const COLUMN_LIST = SIGNUP_COLUMNS.map(([column]) => column).join(', ');

// Inserts the rows given as one array per column, in the arrays' order (the caller's address
// order, in which the index locks are taken: see subscribeBatch); an address already stored
// returns no row.
const INSERT_SIGNUPS = `
INSERT INTO newsletter (${COLUMN_LIST})
SELECT ${COLUMN_LIST} FROM unnest(${SIGNUP_COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
  WITH ORDINALITY AS t(${COLUMN_LIST}, position)
ORDER BY position
ON CONFLICT (email_lower) DO NOTHING
RETURNING id, email_lower, status, lang, consent_hash, privacy_version, created_at`;

/** One `subscribe` call waiting for its batch. */
export interface SignupJob {
  signup: NewsletterSignup;
  now: number;
  terms: SignupTerms;
}

/** What storing each signup of a batch did, in the batch's order; all of it commits at once, or none. */
export async function subscribeBatch(kysely: Kysely<Tables>, jobs: SignupJob[], webhooks: WebhookRouting = NO_WEBHOOKS): Promise<Array<'created' | 'duplicate' | 'capped'>> {
  const rows = jobs.map((job) => newsletterRow(job.signup, job.now, job.terms));
  const tried = new Map<string, number>();
  rows.forEach((row, index) => {
    if (!tried.has(row.email_lower)) tried.set(row.email_lower, index);
  });
  // Inserted in address order, so two batches (of two replicas) that share addresses take their
  // index locks in the same order and cannot deadlock.
  const order = [...tried.values()].sort((a, b) => (rows[a]!.email_lower < rows[b]!.email_lower ? -1 : 1));
  return kysely.transaction().execute(async (trx) => {
    const triedRows = order.map((index) => rows[index]!);
    const { rows: created } = await trx.executeQuery<CreatedRow>(
      raw(INSERT_SIGNUPS, SIGNUP_COLUMNS.map(([column]) => triedRows.map((row) => row[column] ?? null))),
    );
    const capped = await chargeConfirmMails(trx, created.filter((row) => row.status === 'pending').map((row) => jobs[tried.get(row.email_lower)!]!));
    // A request whose mail the cap refused could never be confirmed: it is not kept.
    if (capped.size > 0) await trx.deleteFrom('newsletter').where('email_lower', 'in', [...capped]).execute();
    const kept = created.filter((row) => !capped.has(row.email_lower)).sort((a, b) => a.id - b.id);
    if (kept.length > 0) {
      // Each subscription's events in order (subscribed, then confirmed), as exports list them by id.
      const events = kept.flatMap((row) =>
        (row.status === 'confirmed' ? (['subscribed', 'confirmed'] as const) : (['subscribed'] as const)).map((event) => ({
          newsletter_id: row.id,
          event,
          lang: row.lang,
          consent_hash: row.consent_hash,
          privacy_version: row.privacy_version,
          at: row.created_at,
        })),
      );
      const mails = kept
        .filter((row) => row.status === 'pending')
        .map((row) => ({ ...outboxRow('newsletter_confirm', Date.parse(row.created_at)), newsletter_id: row.id, contact_id: null }));
      // The events and mails in one statement: one round trip.
      if (mails.length === 0) await trx.insertInto('consent_events').values(events).execute();
      else await trx.with('events', (db) => db.insertInto('consent_events').values(events)).insertInto('outbox').values(mails).execute();
      // Single opt-in: a subscription active at once is reported to the endpoints now.
      const hooks = kept
        .filter((row) => row.status === 'confirmed')
        .map((row) => eventFor(webhooks, newsletterConfirmed(rows[tried.get(row.email_lower)!]!, Date.parse(row.created_at)), row.email_lower, Date.parse(row.created_at)));
      await queueEvents(trx, opsQueriesOn(trx), hooks);
    }
    const won = new Set(created.map((row) => tried.get(row.email_lower)!));
    const refused = new Set([...capped].map((email) => tried.get(email)!));
    return jobs.map((_, index) => (refused.has(index) ? 'capped' : won.has(index) ? 'created' : 'duplicate'));
  });
}

/**
 * Counts the confirmation mails of new pending signups against the per-recipient cap, in mailbox
 * order (two batches lock the same counters in the same order); returns the addresses refused. Of
 * several new addresses of one mailbox in a batch (`ana+1@`, `ana+2@`), the first is the one tried:
 * the cap allows one mail per 10 minutes anyway.
 */
async function chargeConfirmMails(trx: Kysely<Tables>, jobs: SignupJob[]): Promise<Set<string>> {
  const refused = new Set<string>();
  const byMailbox = new Map<string, SignupJob>();
  for (const job of jobs) {
    const values = capValues(job.signup.email, 'newsletter', job.now);
    if (byMailbox.has(values.mailbox)) refused.add(job.signup.email.toLowerCase());
    else byMailbox.set(values.mailbox, job);
  }
  if (byMailbox.size === 0) return refused;
  const mailboxes = [...byMailbox.keys()].sort();
  const charges = mailboxes.map((mailbox) => capValues(byMailbox.get(mailbox)!.signup.email, 'newsletter', byMailbox.get(mailbox)!.now));
  const allowed = new Set((await chargeMailQuery(trx, charges).execute()).map((row) => row.mailbox));
  for (const mailbox of mailboxes) if (!allowed.has(mailbox)) refused.add(byMailbox.get(mailbox)!.signup.email.toLowerCase());
  return refused;
}
