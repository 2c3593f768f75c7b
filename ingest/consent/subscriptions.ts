/**
 * The newsletter's consent lifecycle after the signup itself (which the submission store writes):
 * a signup repeated for a stored address, the confirmation, the unsubscription, and the consent
 * texts the receipts point to. Written once on `OpsDatabase`, so it runs the same on SQLite (its
 * own connection beside the writer's, `BEGIN IMMEDIATE`) and PostgreSQL (READ COMMITTED, any
 * number of replicas); each operation is one transaction.
 *
 * Every state change happens once. A confirmation is one conditional write (`UPDATE … WHERE
 * status = 'pending' RETURNING`), an unsubscription one conditional delete (`DELETE … WHERE id,
 * address and creation time match RETURNING`), and a repeated signup first counts its mail with
 * the per-recipient cap (`store/mail-caps.ts`, a conditional upsert whose row lock makes
 * concurrent signups of one mailbox wait for each other) and then changes the row it has locked
 * (`FOR UPDATE` on PostgreSQL; SQLite's transaction holds the only write lock). Side effects —
 * outbox rows, consent events, webhook deliveries (`newsletter.confirmed`, `.unsubscribed`, with the
 * person's next sequence, `store/webhooks/queue-events.ts`) — are queued only by the request that got
 * a row back, in the same transaction: ten concurrent
 * confirmations of one link record one `confirmed` event and queue one webhook event.
 *
 * No answer tells whether an address is subscribed: a signup of a confirmed address is answered
 * like any other, and the address's owner gets a short "you are already subscribed" mail instead
 * (capped like every mail to the address).
 *
 * A signup repeated while the address is pending replaces the pending request — name, language,
 * consent choices, wording hash, policy version, `consent_at` — and mails a new confirmation link
 * bound to that request (`requestBinding`: the link signs `consent_at`). The request it replaces
 * is kept in `newsletter_requests` until its own link expires, so its link still works: a stranger
 * who signs up the victim's address again neither voids the victim's link nor gets the stranger's
 * choices recorded when the victim confirms it. Confirming a link records the choices of the
 * request that link was mailed for (and deletes the other requests); nothing else ever becomes
 * the receipt; the other requests then lose their choices and keep only what binds their links
 * (so those answer "already confirmed") until the links expire. Each new request costs one mail
 * under the cap, so a stranger can add at most three a day, and every one reaches only the
 * address's owner.
 *
 * Consent events record what happened (`subscribed`, `confirmed`, `unsubscribed`, …) with the
 * language, the wording's hash and the policy version, never an address or a name; while the
 * subscription exists they point to it, afterwards (`ON DELETE SET NULL`) they point to nothing.
 */
import type { Selectable } from 'kysely';
import { isoAt } from '../clock.ts';
import type { NewsletterSignup } from '../contract/schemas.ts';
import { capValues, chargeMailQuery } from '../store/mail-caps.ts';
import type { OpsDatabase, OpsQueries } from '../store/ops-database.ts';
import { outboxRow } from '../store/outbox/outbox-row.ts';
import type { SignupTerms } from '../store/submission-store.ts';
import type { ConsentEventKind, NewsletterRequestsTable, NewsletterTable } from '../store/tables.ts';
import { eventFor, queueEvents } from '../store/webhooks/queue-events.ts';
import { NO_WEBHOOKS, newsletterConfirmed, newsletterUnsubscribed, type WebhookRouting } from '../store/webhooks/webhook-row.ts';
import type { ConsentWording } from './consent-wording.ts';
import { type ConsentLinks, type ParsedToken, requestBinding } from './links.ts';

/**
 * What signing up again did: a new confirmation link was `queued` (pending address), the
 * "already subscribed" mail was `notified` (confirmed address), the cap refused a mail
 * (`capped`, nothing changed), or the address is not stored (`gone`: deleted meanwhile).
 */
type RepeatOutcome = 'queued' | 'notified' | 'capped' | 'gone';

/** What a confirmation link did. */
export type ConfirmOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

/**
 * What an unsubscribe link did. A genuine link whose subscription is gone counts as
 * `unsubscribed` (a second click); a forged one is `invalid` whether or not its id exists.
 */
export type UnsubscribeOutcome = 'unsubscribed' | 'invalid';

const DAY_MS = 24 * 60 * 60 * 1000;

type Subscription = Selectable<NewsletterTable>;

/** The choices of one signup request, as both tables hold them. */
type Request = Pick<NewsletterRequestsTable, 'name' | 'lang' | 'marketing_consent' | 'consent_hash' | 'privacy_version' | 'consent_at'>;

/** The lifecycle operations on `db`; `linkDays` is how long a confirmation link works. */
export function subscriptionLifecycle(db: OpsDatabase, links: ConsentLinks, linkDays: number, webhooks: WebhookRouting = NO_WEBHOOKS) {
  const { kysely } = db;
  // The row, locked until the transaction ends where rows can be locked (see `locksRows`).
  const lockedByAddress = async (tx: OpsQueries, emailLower: string): Promise<Subscription | undefined> => {
    const query = kysely.selectFrom('newsletter').selectAll().where('email_lower', '=', emailLower);
    return (await tx.all(db.locksRows ? query.forUpdate() : query))[0];
  };
  const recordEvent = (tx: OpsQueries, newsletterId: number | null, request: Pick<Request, 'lang' | 'consent_hash' | 'privacy_version'>, event: ConsentEventKind, now: number) =>
    tx.run(
      kysely.insertInto('consent_events').values({
        newsletter_id: newsletterId,
        event,
        lang: request.lang,
        consent_hash: request.consent_hash,
        privacy_version: request.privacy_version,
        at: isoAt(now),
      }),
    );


  /** The request a confirmation token was mailed for: the row's current one or a kept earlier one; null when none matches. */
  async function requestOf(tx: OpsQueries, parsed: ParsedToken, row: Subscription, now: number) {
    const current = { ...row, check: links.check(parsed, requestBinding(row), now) };
    if (current.check !== 'forged') return current;
    const earlier = await tx.all(kysely.selectFrom('newsletter_requests').selectAll().where('newsletter_id', '=', row.id).orderBy('id'));
    for (const request of earlier) {
      const check = links.check(parsed, requestBinding({ ...request, id: row.id, email_lower: row.email_lower }), now);
      if (check !== 'forged') return { ...request, check };
    }
    return null;
  }

  return {
    /** Stores each wording once (by hash), so every receipt can show its exact words. */
    recordWordings(wordings: readonly ConsentWording[], now: number): Promise<void> {
      return db.transaction(async (tx) => {
        for (const w of wordings) {
          await tx.run(
            kysely
              .insertInto('consent_texts')
              .values({ hash: w.hash, lang: w.lang, privacy_version: w.privacyVersion, wording: w.wording, recorded_at: isoAt(now) })
              .onConflict((conflict) => conflict.column('hash').doNothing()),
          );
        }
      });
    },

    /**
     * The address of `signup` is stored already and signed up again. If the per-recipient cap
     * allows a mail: a confirmed address gets the "already subscribed" mail; a pending one gets
     * `signup` as its new request (the old one kept with its link, see above), a `subscribed`
     * event and a confirmation mail for it. Over the cap nothing changes.
     */
    repeatSignup(signup: NewsletterSignup, now: number, terms: SignupTerms): Promise<RepeatOutcome> {
      const emailLower = signup.email.toLowerCase();
      return db.transaction(async (tx) => {
        const row = await lockedByAddress(tx, emailLower);
        if (row === undefined) return 'gone';
        if ((await tx.all(chargeMailQuery(kysely, capValues(row.email, 'newsletter', now)))).length === 0) return 'capped';
        if (row.status === 'confirmed') {
          await tx.run(kysely.insertInto('outbox').values({ ...outboxRow('newsletter_already_subscribed', now), newsletter_id: row.id, contact_id: null }));
          return 'notified';
        }
        await tx.run(
          kysely.insertInto('newsletter_requests').values({
            newsletter_id: row.id,
            name: row.name,
            lang: row.lang,
            marketing_consent: row.marketing_consent,
            consent_hash: row.consent_hash,
            privacy_version: row.privacy_version,
            consent_at: row.consent_at,
            expires_at: row.expires_at ?? isoAt(now),
          }),
        );
        const at = isoAt(now);
        // Two requests in one millisecond would share a link binding; the newer is one ms later.
        const consentAt = at > row.consent_at ? at : isoAt(Date.parse(row.consent_at) + 1);
        const request = {
          name: signup.name,
          lang: signup.lang,
          marketing_consent: signup.marketingConsent ? 1 : 0,
          consent_hash: terms.consentHash,
          privacy_version: terms.privacyVersion,
          consent_at: consentAt,
        };
        const day = at.slice(0, 10);
        await tx.run(
          kysely
            .updateTable('newsletter')
            .set({
              ...request,
              expires_at: isoAt(now + linkDays * DAY_MS),
              confirm_mails: row.confirm_mail_day === day ? row.confirm_mails + 1 : 1,
              confirm_mail_day: day,
              last_confirm_mail_at: at,
            })
            .where('id', '=', row.id)
            .where('status', '=', 'pending'),
        );
        await recordEvent(tx, row.id, request, 'subscribed', now);
        await tx.run(kysely.insertInto('outbox').values({ ...outboxRow('newsletter_confirm', now), newsletter_id: row.id, contact_id: null }));
        return 'queued';
      });
    },

    /**
     * Confirms the subscription a confirmation token names, with the choices of the request that
     * token was mailed for; nothing changes unless the token is valid and unexpired, and of many
     * concurrent confirmations one changes the row and records the event.
     */
    confirm(token: unknown, now: number): Promise<ConfirmOutcome> {
      const parsed = links.parse(token, 'confirm');
      if (parsed === null) return Promise.resolve('invalid');
      return db.transaction(async (tx) => {
        const [row] = await tx.all(kysely.selectFrom('newsletter').selectAll().where('id', '=', parsed.id));
        if (row === undefined) return 'invalid';
        const request = await requestOf(tx, parsed, row, now);
        if (request === null) return 'invalid';
        if (row.status === 'confirmed') return 'already_confirmed';
        if (request.check === 'expired') return 'expired';
        const [won] = await tx.all(
          kysely
            .updateTable('newsletter')
            .set({
              status: 'confirmed',
              confirmed_at: isoAt(now),
              expires_at: null,
              name: request.name,
              lang: request.lang,
              marketing_consent: request.marketing_consent,
              consent_hash: request.consent_hash,
              privacy_version: request.privacy_version,
              consent_at: request.consent_at,
              // The resend throttle's record is kept "until you confirm" (privacy policy): no longer.
              confirm_mails: 0,
              confirm_mail_day: null,
              last_confirm_mail_at: null,
            })
            .where('id', '=', row.id)
            .where('status', '=', 'pending')
            .returning('id'),
        );
        // Another request confirmed it first (this one's read came before that commit).
        if (won === undefined) return 'already_confirmed';
        // The other requests lose their choices; what binds their links stays until those expire
        // (retention), so a second mail's link answers "already confirmed" instead of "invalid".
        await tx.run(kysely.updateTable('newsletter_requests').set({ name: '', marketing_consent: 0, consent_hash: null }).where('newsletter_id', '=', row.id));
        // Confirmed through an earlier request's link: the row's own request, just overwritten, is
        // kept the same way, or the newest mail's link would find no request and answer "invalid".
        if (request.consent_at !== row.consent_at || request.lang !== row.lang) {
          await tx.run(
            kysely.insertInto('newsletter_requests').values({
              newsletter_id: row.id,
              name: '',
              lang: row.lang,
              marketing_consent: 0,
              consent_hash: null,
              privacy_version: row.privacy_version,
              consent_at: row.consent_at,
              expires_at: row.expires_at ?? isoAt(now),
            }),
          );
        }
        // Confirmation mails still waiting would only confuse: drop them.
        await tx.run(kysely.deleteFrom('outbox').where('newsletter_id', '=', row.id).where('status', '=', 'pending'));
        await recordEvent(tx, row.id, request, 'confirmed', now);
        await queueEvents(kysely, tx, [eventFor(webhooks, newsletterConfirmed({ ...request, email: row.email }, now), row.email_lower, now)]);
        return 'confirmed';
      });
    },

    /**
     * Ends the subscription an unsubscribe token names: deletes the row (its name and address;
     * its queued mail and kept requests go with it) and records an `unsubscribed` event without
     * personal data — once, whoever else sends the same link at the same moment.
     */
    unsubscribe(token: unknown, now: number): Promise<UnsubscribeOutcome> {
      const parsed = links.parse(token, 'unsubscribe');
      if (parsed === null) return Promise.resolve('invalid');
      return db.transaction(async (tx) => {
        const [row] = await tx.all(kysely.selectFrom('newsletter').selectAll().where('id', '=', parsed.id));
        // Gone already (a second click, or erased): the person's wish holds, if the link is genuine.
        if (row === undefined) return links.isGenuine(parsed) ? 'unsubscribed' : 'invalid';
        if (links.check(parsed, row, now) !== 'valid') return 'invalid';
        const [gone] = await tx.all(
          kysely
            .deleteFrom('newsletter')
            .where('id', '=', row.id)
            .where('email_lower', '=', row.email_lower)
            .where('created_at', '=', row.created_at)
            .returning(['lang', 'consent_hash', 'privacy_version']),
        );
        if (gone !== undefined) {
          await recordEvent(tx, null, gone, 'unsubscribed', now);
          // Queued after the delete, which waited for any confirmation of this row: its sequence is the later one.
          await queueEvents(kysely, tx, [eventFor(webhooks, newsletterUnsubscribed(row, now), row.email_lower, now)]);
        }
        return 'unsubscribed';
      });
    },
  };
}

/** The lifecycle a service runs. */
export type SubscriptionLifecycle = ReturnType<typeof subscriptionLifecycle>;

