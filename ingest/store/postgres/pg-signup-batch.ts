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
 * Every statement of a batch is a fixed text whatever the batch's size, its rows given as one array
 * per column (`pg-unnest.ts`), and runs as a named prepared statement on the batch's connection
 * (`pg-transaction.ts`): the subscriptions, the mail caps' charge, and the consent events with the
 * outbox rows. A batch of 23 rows was a statement of 368 parameters that Kysely built and
 * compiled, and PostgreSQL parsed and planned, anew each time, and so were the charge and the
 * events' and mails' inserts (issue 45).
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { NewsletterSignup } from '../../contract/schemas.ts';
import { outboxRow } from '../outbox/outbox-row.ts';
import { capValues, earliestCutoff, withCapRule } from '../mail-caps.ts';
import { newsletterRow, type SignupTerms } from '../submission-store.ts';
import type { NewsletterTable, Tables } from '../tables.ts';
import { eventFor, queueEvents } from '../webhooks/queue-events.ts';
import { NO_WEBHOOKS, newsletterConfirmed, type WebhookRouting } from '../webhooks/webhook-row.ts';
import type { PostgresDatabase } from './pg-connection.ts';
import { inTransaction, type NamedStatement, opsQueriesOnClient, run } from './pg-transaction.ts';
import { columnList, type UnnestColumn, unnestArrays, unnestInsert, unnestSelect } from './pg-unnest.ts';

type ConsentEventsTable = Tables['consent_events'];
type OutboxTable = Tables['outbox'];

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
] as const satisfies ReadonlyArray<UnnestColumn<keyof Insertable<NewsletterTable>>>;

/** A consent event's columns. */
const EVENT_COLUMNS = [
  ['newsletter_id', 'int'],
  ['event', 'text'],
  ['lang', 'text'],
  ['consent_hash', 'text'],
  ['privacy_version', 'text'],
  ['at', 'text'],
] as const satisfies ReadonlyArray<UnnestColumn<keyof Insertable<ConsentEventsTable>>>;

/** A new outbox row's columns (`claimed_at`, `sent_at` and `last_error` start empty). */
const OUTBOX_COLUMNS = [
  ['kind', 'text'],
  ['status', 'text'],
  ['attempts', 'int'],
  ['next_attempt_at', 'text'],
  ['created_at', 'text'],
  ['message_key', 'text'],
  ['newsletter_id', 'int'],
  ['contact_id', 'int'],
] as const satisfies ReadonlyArray<UnnestColumn<keyof Insertable<OutboxTable>>>;

/** A mail cap's charge: the mailbox, its stream, the day and the time of the mail. */
const CHARGE_COLUMNS = [
  ['mailbox', 'text'],
  ['stream', 'text'],
  ['day', 'text'],
  ['last_mail_at', 'text'],
] as const;

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
type Unwritten<Table, Columns extends ReadonlyArray<UnnestColumn<string>>> = Exclude<keyof Insertable<Table>, 'id' | Columns[number][0]>;
const everyColumnWritten: [Unwritten<NewsletterTable, typeof SIGNUP_COLUMNS> | Unwritten<ConsentEventsTable, typeof EVENT_COLUMNS>] extends [never]
  ? true
  : Unwritten<NewsletterTable, typeof SIGNUP_COLUMNS> | Unwritten<ConsentEventsTable, typeof EVENT_COLUMNS> = true;
void everyColumnWritten;

// Inserts the rows given as one array per column, in the arrays' order (the caller's address
// order, in which the index locks are taken: see subscribeBatch); an address already stored
// returns no row.
const INSERT_SIGNUPS: NamedStatement = {
  name: 'signup-batch-insert',
  text: `${unnestInsert('newsletter', SIGNUP_COLUMNS)}
ON CONFLICT (email_lower) DO NOTHING
RETURNING id, email_lower, status, lang, consent_hash, privacy_version, created_at`,
};

// The kept subscriptions' consent events and confirmation mails, in id order: one round trip.
const INSERT_EVENTS_AND_MAILS: NamedStatement = {
  name: 'signup-batch-events-mails',
  text: `WITH events AS (${unnestInsert('consent_events', EVENT_COLUMNS)})
${unnestInsert('outbox', OUTBOX_COLUMNS, EVENT_COLUMNS.length + 1)}`,
};

// A signup whose confirmation mail the cap refused is not kept.
const DELETE_CAPPED: NamedStatement = { name: 'signup-batch-delete-capped', text: 'DELETE FROM newsletter WHERE email_lower = ANY($1::text[])' };

/** The cap's charge of many mailboxes (`mail-caps.ts`' rule, compiled once): the arrays, then the cutoff. */
let chargeMany: NamedStatement | undefined;
function chargeManyStatement(kysely: Kysely<Tables>): NamedStatement {
  if (chargeMany !== undefined) return chargeMany;
  const counts = kysely
    .insertInto('mail_caps')
    .columns(['mailbox', 'stream', 'day', 'mails', 'last_mail_at'])
    .expression(sql.raw(unnestSelect(CHARGE_COLUMNS, 1, 'mailbox, stream, day, 1, last_mail_at')));
  chargeMany = { name: 'mail-caps-charge-many', text: withCapRule(counts, sql.raw(`$${CHARGE_COLUMNS.length + 1}`)).compile().sql };
  return chargeMany;
}

/** One `subscribe` call waiting for its batch. */
export interface SignupJob {
  signup: NewsletterSignup;
  now: number;
  terms: SignupTerms;
}

/**
 * What storing each signup of a batch did, in the batch's order; all of it commits at once, or
 * none. `db.kysely` only builds the statements of the rare single opt-in events.
 */
export async function subscribeBatch(db: Pick<PostgresDatabase, 'pool' | 'kysely'>, jobs: SignupJob[], webhooks: WebhookRouting = NO_WEBHOOKS): Promise<Array<'created' | 'duplicate' | 'capped'>> {
  const rows = jobs.map((job) => newsletterRow(job.signup, job.now, job.terms));
  const tried = new Map<string, number>();
  rows.forEach((row, index) => {
    if (!tried.has(row.email_lower)) tried.set(row.email_lower, index);
  });
  // Inserted in address order, so two batches (of two replicas) that share addresses take their
  // index locks in the same order and cannot deadlock.
  const order = [...tried.values()].sort((a, b) => (rows[a]!.email_lower < rows[b]!.email_lower ? -1 : 1));
  return inTransaction(db.pool, async (client) => {
    const created = await run<CreatedRow>(client, INSERT_SIGNUPS, unnestArrays(SIGNUP_COLUMNS, order.map((index) => rows[index]!)));
    const pending = created.filter((row) => row.status === 'pending').map((row) => jobs[tried.get(row.email_lower)!]!);
    const capped = await chargeConfirmMails(client, db.kysely, pending);
    if (capped.size > 0) await run(client, DELETE_CAPPED, [[...capped]]);
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
      await run(client, INSERT_EVENTS_AND_MAILS, [...unnestArrays(EVENT_COLUMNS, events), ...unnestArrays(OUTBOX_COLUMNS, mails)]);
      // Single opt-in: a subscription active at once is reported to the endpoints now.
      const hooks = kept
        .filter((row) => row.status === 'confirmed')
        .map((row) => eventFor(webhooks, newsletterConfirmed(rows[tried.get(row.email_lower)!]!, Date.parse(row.created_at)), row.email_lower, Date.parse(row.created_at)));
      await queueEvents(db.kysely, opsQueriesOnClient(client), hooks);
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
 * the cap allows one mail per 10 minutes anyway. With several, the earliest cutoff applies to all.
 */
async function chargeConfirmMails(client: pg.ClientBase, kysely: Kysely<Tables>, jobs: SignupJob[]): Promise<Set<string>> {
  const refused = new Set<string>();
  const byMailbox = new Map<string, ReturnType<typeof capValues> & { email: string }>();
  for (const job of jobs) {
    const values = capValues(job.signup.email, 'newsletter', job.now);
    if (byMailbox.has(values.mailbox)) refused.add(job.signup.email.toLowerCase());
    else byMailbox.set(values.mailbox, { ...values, email: job.signup.email });
  }
  if (byMailbox.size === 0) return refused;
  const charges = [...byMailbox.keys()].sort().map((mailbox) => byMailbox.get(mailbox)!);
  const allowed = new Set((await run<{ mailbox: string }>(client, chargeManyStatement(kysely), [...unnestArrays(CHARGE_COLUMNS, charges), earliestCutoff(charges)])).map((row) => row.mailbox));
  for (const charge of charges) if (!allowed.has(charge.mailbox)) refused.add(charge.email.toLowerCase());
  return refused;
}
