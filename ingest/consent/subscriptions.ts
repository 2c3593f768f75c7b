/**
 * The newsletter's consent lifecycle after the signup itself (which the submission store writes):
 * a signup repeated while pending (a new confirmation mail, throttled), the confirmation, the
 * unsubscription, and the consent texts the receipts point to. Written once on `OpsDatabase`, so
 * it runs the same on SQLite (its own connection beside the writer thread) and PostgreSQL; each
 * operation is one transaction.
 *
 * Consent events record what happened (`subscribed`, `confirmed`, `unsubscribed`, …) with the
 * language, the wording's hash and the policy version, never an address or a name; while the
 * subscription exists they point to it, afterwards (`ON DELETE SET NULL`) they point to nothing.
 */
import { isoAt } from '../clock.ts';
import type { OpsDatabase, OpsQueries } from '../store/ops-database.ts';
import { outboxRow } from '../store/outbox-row.ts';
import type { ConsentEventKind, NewsletterTable } from '../store/tables.ts';
import type { Selectable } from 'kysely';
import type { ConsentWording } from './consent-wording.ts';
import type { ConsentLinks } from './links.ts';

/** How often a pending signup may trigger a confirmation mail: one per 10 minutes, three per UTC day. */
const CONFIRM_MAIL_LIMITS = { minIntervalMs: 10 * 60 * 1000, perDay: 3 } as const;

/** What signing up again did: the address is `confirmed` already (409), a mail was `queued`, or it was `throttled` (no mail). */
type RepeatOutcome = 'confirmed' | 'queued' | 'throttled';

/** What a confirmation link did. */
export type ConfirmOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

/** What an unsubscribe link did; a valid link whose subscription is gone counts as `unsubscribed` (a second click). */
export type UnsubscribeOutcome = 'unsubscribed' | 'invalid';

const DAY_MS = 24 * 60 * 60 * 1000;

type Subscription = Selectable<NewsletterTable>;

/** The lifecycle operations on `db`; `linkDays` is how long a confirmation link works. */
export function subscriptionLifecycle(db: OpsDatabase, links: ConsentLinks, linkDays: number) {
  const { kysely } = db;
  const byId = async (tx: OpsQueries, id: number): Promise<Subscription | undefined> =>
    (await tx.all(kysely.selectFrom('newsletter').selectAll().where('id', '=', id)))[0];
  const recordEvent = (tx: OpsQueries, row: Subscription, event: ConsentEventKind, now: number, linked: boolean) =>
    tx.run(
      kysely.insertInto('consent_events').values({
        newsletter_id: linked ? row.id : null,
        event,
        lang: row.lang,
        consent_hash: row.consent_hash,
        privacy_version: row.privacy_version,
        at: isoAt(now),
      }),
    );

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
     * The address signed up again: a confirmed subscription stays as it is; a pending one gets a
     * new confirmation mail (a fresh link, the row kept until it expires) unless one went out in
     * the last 10 minutes or three went out today. A row deleted meanwhile counts as throttled.
     */
    repeatSignup(emailLower: string, now: number): Promise<RepeatOutcome> {
      return db.transaction(async (tx) => {
        const [row] = await tx.all(kysely.selectFrom('newsletter').selectAll().where('email_lower', '=', emailLower));
        if (row === undefined) return 'throttled';
        if (row.status === 'confirmed') return 'confirmed';
        const day = isoAt(now).slice(0, 10);
        const sentToday = row.confirm_mail_day === day ? row.confirm_mails : 0;
        const last = row.last_confirm_mail_at === null ? -Infinity : Date.parse(row.last_confirm_mail_at);
        if (now - last < CONFIRM_MAIL_LIMITS.minIntervalMs || sentToday >= CONFIRM_MAIL_LIMITS.perDay) return 'throttled';
        const at = isoAt(now);
        await tx.run(
          kysely
            .updateTable('newsletter')
            .set({ confirm_mails: sentToday + 1, confirm_mail_day: day, last_confirm_mail_at: at, expires_at: isoAt(now + linkDays * DAY_MS) })
            .where('id', '=', row.id),
        );
        await tx.run(
          kysely
            .insertInto('outbox')
            .values({ ...outboxRow('newsletter_confirm', now), newsletter_id: row.id, contact_id: null }),
        );
        return 'queued';
      });
    },

    /** Confirms the subscription a confirmation token names; nothing changes unless the token is valid and unexpired. */
    confirm(token: unknown, now: number): Promise<ConfirmOutcome> {
      const parsed = links.parse(token, 'confirm');
      if (parsed === null) return Promise.resolve('invalid');
      return db.transaction(async (tx) => {
        const row = await byId(tx, parsed.id);
        if (row === undefined) return 'invalid';
        const check = links.check(parsed, row, now);
        if (check === 'forged') return 'invalid';
        if (row.status === 'confirmed') return 'already_confirmed';
        if (check === 'expired') return 'expired';
        await tx.run(kysely.updateTable('newsletter').set({ status: 'confirmed', confirmed_at: isoAt(now), expires_at: null }).where('id', '=', row.id));
        // A repeated confirmation mail still waiting would only confuse: drop it.
        await tx.run(kysely.deleteFrom('outbox').where('newsletter_id', '=', row.id).where('status', '=', 'pending'));
        await recordEvent(tx, row, 'confirmed', now, true);
        return 'confirmed';
      });
    },

    /**
     * Ends the subscription an unsubscribe token names: deletes the row (its name and address;
     * its queued mail goes with it) and records an `unsubscribed` event without personal data.
     */
    unsubscribe(token: unknown, now: number): Promise<UnsubscribeOutcome> {
      const parsed = links.parse(token, 'unsubscribe');
      if (parsed === null) return Promise.resolve('invalid');
      return db.transaction(async (tx) => {
        const row = await byId(tx, parsed.id);
        // Gone already (a second click, or erased): the person's wish holds.
        if (row === undefined) return 'unsubscribed';
        if (links.check(parsed, row, now) !== 'valid') return 'invalid';
        await recordEvent(tx, row, 'unsubscribed', now, false);
        await tx.run(kysely.deleteFrom('newsletter').where('id', '=', row.id));
        return 'unsubscribed';
      });
    },
  };
}

/** The lifecycle a service runs. */
export type SubscriptionLifecycle = ReturnType<typeof subscriptionLifecycle>;
