/**
 * The retention table: how long each kind of data is kept, as the privacy policy states it. The
 * service applies it itself once a day (and at start-up); `ingest purge` applies it on demand and
 * `ingest purge --dry-run` prints what it would delete. Confirmed subscriptions are never
 * deleted by age: only an unsubscribe or an erasure removes them.
 *
 * | data | kept |
 * |---|---|
 * | newsletter signups never confirmed | until their newest confirmation link expires (CONFIRM_LINK_DAYS, 7 days), then deleted with an `expired` consent event |
 * | confirmed newsletter subscriptions | until the person unsubscribes or asks for erasure; never by age |
 * | contact messages (and their sales-mail outbox rows) | 730 days after they were received |
 * | contact messages sent without JavaScript and never confirmed by their sender | until their confirmation link expires (CONFIRM_LINK_DAYS) |
 * | earlier requests of a pending signup (name, language, choices) | until their own confirmation link expires |
 * | outbox rows of mails to visitors (the newsletter's and the contact form's confirmation, "already subscribed"), sent or failed | the link's lifetime after they were queued |
 * | per-recipient mail counts (the mailbox's normalized address) | until their UTC day is over and the 10 minutes since the last mail have passed |
 * | consent events (no personal data) | 1095 days (3 years), as evidence of how consent was handled |
 * | used captcha challenges | until the challenge expires (minutes) |
 * | mail files of the file mail sink (`$DATA_DIR/mail`) | confirmation mails (newsletter and contact): the link's lifetime; sales mails: 730 days |
 * | webhook deliveries' content | until delivered (the body is dropped then); retried for 3 days (`webhookRetryDays`) |
 * | failed webhook deliveries (dead letters, with their content) | 14 days after they failed (`webhookFailedDays`), for `ingest webhooks retry` |
 * | superseded webhook deliveries (no content, no address) | 14 days after a newer state replaced them |
 * | records of delivered webhook events (address, endpoint, event, time; no content) | 730 days after delivery; the newest per endpoint and person as long as the service keeps a subscription or a message of that person, so an erasure always reaches the endpoint |
 * | a person's webhook event sequence (address, a number) | as long as a webhook row about the person remains (and a day at least) |
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import { join } from 'node:path';
import { isoAt } from '../clock.ts';
import { DATA_FACTS, yearsInDays } from '../contract/data-facts.ts';
import { pastMailCaps } from '../store/mail-caps.ts';
import type { OpsDatabase } from '../store/ops-database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days a contact message is kept after it was received (730). */
const CONTACT_RETENTION_DAYS = yearsInDays(DATA_FACTS.contactYears);

/** The mails to visitors: their outbox rows go once their link has expired, sent or failed. */
const VISITOR_MAIL_KINDS = ['newsletter_confirm', 'newsletter_already_subscribed', 'contact_confirm'] as const;

/** Days a consent event (without personal data) is kept (1095). */
const CONSENT_EVENT_RETENTION_DAYS = yearsInDays(DATA_FACTS.consentEventYears);

/**
 * Whether a delivered webhook record past its 730 days may go: its person's data is no longer kept
 * (no subscription, no message), or a newer record of the same endpoint and person stays. So the
 * endpoints of a long-time subscriber stay known for as long as the subscription is kept.
 */
const RECORD_NOT_NEEDED = sql<boolean>`(
  (NOT EXISTS (SELECT 1 FROM newsletter WHERE newsletter.email_lower = webhook_deliveries.email_lower)
    AND NOT EXISTS (SELECT 1 FROM contacts WHERE contacts.email_lower = webhook_deliveries.email_lower))
  OR webhook_deliveries.id NOT IN (
    SELECT max(id) FROM webhook_deliveries WHERE status = 'delivered' AND email_lower IS NOT NULL GROUP BY endpoint, email_lower))`;

/** One line of the retention table, for people (docs/leads.md, `ingest purge`). */
export interface RetentionRule {
  id: RetentionRuleId;
  what: string;
  kept: string;
}

/** The rules that delete something. */
type RetentionRuleId =
  | 'pending_subscriptions'
  | 'signup_requests'
  | 'unverified_contacts'
  | 'contacts'
  | 'confirmation_mail_rows'
  | 'mail_caps'
  | 'consent_events'
  | 'captcha_nonces'
  | 'webhook_records'
  | 'webhook_failed'
  | 'mail_files';

/** The retention table, in words; `linkDays` is CONFIRM_LINK_DAYS. */
export function retentionTable(linkDays: number): RetentionRule[] {
  return [
    { id: 'pending_subscriptions', what: 'newsletter signups never confirmed', kept: `until the newest confirmation link expires (${linkDays} days)` },
    { id: 'signup_requests', what: 'earlier requests of a pending newsletter signup', kept: `until their confirmation link expires (${linkDays} days at most)` },
    { id: 'unverified_contacts', what: 'contact messages whose sender never confirmed the address', kept: `until the confirmation link expires (${linkDays} days)` },
    { id: 'contacts', what: 'contact messages and their sales-mail rows', kept: `${CONTACT_RETENTION_DAYS} days after receipt` },
    { id: 'confirmation_mail_rows', what: 'outbox rows of mails to visitors (confirmations, already subscribed), sent or failed', kept: `${linkDays} days after queueing` },
    { id: 'mail_caps', what: 'per-recipient mail counts (by normalized address)', kept: 'until their UTC day is over' },
    { id: 'consent_events', what: 'consent events (no personal data)', kept: `${CONSENT_EVENT_RETENTION_DAYS} days` },
    { id: 'captcha_nonces', what: 'used captcha challenges', kept: 'until they expire' },
    {
      id: 'webhook_records',
      what: 'records of delivered webhook events (address, endpoint, event; no content)',
      kept: `${CONTACT_RETENTION_DAYS} days after delivery; the newest per endpoint while the person's subscription or message is kept`,
    },
    { id: 'webhook_failed', what: 'failed webhook deliveries (with their content), and superseded ones', kept: `${DATA_FACTS.webhookFailedDays} days after they failed` },
    { id: 'mail_files', what: 'mail files of the file mail sink', kept: `confirmation mails ${linkDays} days, sales mails ${CONTACT_RETENTION_DAYS} days` },
  ];
}

/** How many rows (or files) each rule deleted, or would delete. */
export type RetentionReport = Record<RetentionRuleId, number>;

/** What a purge works on. */
export interface RetentionOptions {
  now: number;
  linkDays: number;
  /** The file mail sink's folder, or null when there is none to look at. */
  mailDir: string | null;
  /** Count only, delete nothing. */
  dryRun?: boolean;
}

/**
 * Applies the retention table in one transaction (and then to the mail files); with `dryRun`,
 * counts what it would delete and changes nothing.
 *
 * @example await applyRetention(db, { now: Date.now(), linkDays: 7, mailDir: '/data/mail', dryRun: true })
 * // → { pending_subscriptions: 3, signup_requests: 1, unverified_contacts: 0, contacts: 0, confirmation_mail_rows: 5, mail_caps: 4, consent_events: 0, captcha_nonces: 12, mail_files: 8 }
 */
export async function applyRetention(db: OpsDatabase, options: RetentionOptions): Promise<RetentionReport> {
  const { kysely } = db;
  const { now, linkDays } = options;
  const at = isoAt(now);
  const linkCutoff = isoAt(now - linkDays * DAY_MS);
  const contactCutoff = isoAt(now - CONTACT_RETENTION_DAYS * DAY_MS);
  const eventCutoff = isoAt(now - CONSENT_EVENT_RETENTION_DAYS * DAY_MS);

  const expiredPending = kysely.selectFrom('newsletter').where('status', '=', 'pending').where('expires_at', '<=', at);
  const unverifiedContacts = kysely.selectFrom('contacts').where('verified_at', 'is', null).where('expires_at', '<=', at);
  const oldContacts = kysely.selectFrom('contacts').where('created_at', '<', contactCutoff);
  const expiredRequests = kysely.selectFrom('newsletter_requests').where('expires_at', '<=', at);
  const doneMailCaps = pastMailCaps(kysely.selectFrom('mail_caps'), now);
  const doneConfirmMails = kysely
    .selectFrom('outbox')
    .where('kind', 'in', VISITOR_MAIL_KINDS)
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', linkCutoff);
  const oldEvents = kysely.selectFrom('consent_events').where('at', '<', eventCutoff);
  const usedNonces = kysely.selectFrom('captcha_nonces').where('expires_at', '<', at);
  const oldWebhookRecords = kysely.selectFrom('webhook_deliveries').where('status', '=', 'delivered').where('finished_at', '<', contactCutoff).where(RECORD_NOT_NEEDED);
  const failedCutoff = isoAt(now - DATA_FACTS.webhookFailedDays * DAY_MS);
  const oldDeadLetters = kysely.selectFrom('webhook_deliveries').where('status', 'in', ['failed', 'superseded']).where('finished_at', '<', failedCutoff);

  const first = (rows: ReadonlyArray<{ n: number | string | bigint }>) => Number(rows[0]?.n ?? 0);
  const rows = await db.transaction(async (tx) => {
    const counts = {
      pending_subscriptions: first(await tx.all(expiredPending.select((eb) => eb.fn.countAll<number>().as('n')))),
      signup_requests: first(await tx.all(expiredRequests.select((eb) => eb.fn.countAll<number>().as('n')))),
      unverified_contacts: first(await tx.all(unverifiedContacts.select((eb) => eb.fn.countAll<number>().as('n')))),
      contacts: first(await tx.all(oldContacts.select((eb) => eb.fn.countAll<number>().as('n')))),
      confirmation_mail_rows: first(await tx.all(doneConfirmMails.select((eb) => eb.fn.countAll<number>().as('n')))),
      mail_caps: first(await tx.all(doneMailCaps.select((eb) => eb.fn.countAll<number>().as('n')))),
      consent_events: first(await tx.all(oldEvents.select((eb) => eb.fn.countAll<number>().as('n')))),
      captcha_nonces: first(await tx.all(usedNonces.select((eb) => eb.fn.countAll<number>().as('n')))),
      webhook_records: first(await tx.all(oldWebhookRecords.select((eb) => eb.fn.countAll<number>().as('n')))),
      webhook_failed: first(await tx.all(oldDeadLetters.select((eb) => eb.fn.countAll<number>().as('n')))),
    };
    if (options.dryRun) return counts;
    // What the expired signups consented to stays on record, without the person.
    await tx.run(
      kysely.insertInto('consent_events').columns(['newsletter_id', 'event', 'lang', 'consent_hash', 'privacy_version', 'at']).expression(
        expiredPending.select((eb) => [
          eb.lit(null).as('newsletter_id'),
          eb.val('expired').as('event'),
          'lang',
          'consent_hash',
          'privacy_version',
          eb.val(at).as('at'),
        ]),
      ),
    );
    await tx.run(kysely.deleteFrom('newsletter').where('status', '=', 'pending').where('expires_at', '<=', at));
    await tx.run(kysely.deleteFrom('newsletter_requests').where('expires_at', '<=', at));
    await tx.run(pastMailCaps(kysely.deleteFrom('mail_caps'), now));
    await tx.run(kysely.deleteFrom('contacts').where('verified_at', 'is', null).where('expires_at', '<=', at));
    await tx.run(kysely.deleteFrom('contacts').where('created_at', '<', contactCutoff));
    await tx.run(
      kysely
        .deleteFrom('outbox')
        .where('kind', 'in', VISITOR_MAIL_KINDS)
        .where('status', 'in', ['sent', 'failed'])
        .where('created_at', '<', linkCutoff),
    );
    await tx.run(kysely.deleteFrom('consent_events').where('at', '<', eventCutoff));
    await tx.run(kysely.deleteFrom('captcha_nonces').where('expires_at', '<', at));
    await tx.run(kysely.deleteFrom('webhook_deliveries').where('status', '=', 'delivered').where('finished_at', '<', contactCutoff).where(RECORD_NOT_NEEDED));
    await tx.run(kysely.deleteFrom('webhook_deliveries').where('status', 'in', ['failed', 'superseded']).where('finished_at', '<', failedCutoff));
    // A sequence with no row about its person left; one taken within the last day is kept, so a
    // change queueing about the person right now (its row not visible to this statement) keeps it.
    await tx.run(
      kysely
        .deleteFrom('webhook_sequences')
        .where('seq', '<', now - DAY_MS)
        .where((eb) => eb.not(eb.exists(kysely.selectFrom('webhook_deliveries').select('id').where('webhook_deliveries.email_lower', '=', sql.ref<string>('webhook_sequences.email_lower'))))),
    );
    return counts;
  });
  const mailFiles = options.mailDir === null ? 0 : purgeMailFiles(options.mailDir, now, linkDays, options.dryRun ?? false);
  return { ...rows, mail_files: mailFiles };
}

// The file sink names each file `<time>-<message id>.eml`; the id says which mail it is.
function purgeMailFiles(dir: string, now: number, linkDays: number, dryRun: boolean): number {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const days = name.includes('newsletter-') || name.includes('contact-confirm-') ? linkDays : CONTACT_RETENTION_DAYS;
    const file = join(dir, name);
    if (statSync(file).mtimeMs >= now - days * DAY_MS) continue;
    if (!dryRun) rmSync(file, { force: true });
    removed += 1;
  }
  return removed;
}
