/**
 * A contact message sent without JavaScript waits for its sender to confirm the address: the
 * confirmation link (signed, expiring) marks it verified and only then queues the sales mail.
 * Written once on `OpsDatabase`, one transaction, for SQLite and PostgreSQL alike.
 *
 * The verification is one conditional write (`UPDATE … WHERE verified_at IS NULL RETURNING`), and
 * only the request that got the row back queues the sales mail and the `contact.received` webhook
 * event: ten concurrent posts of one link, on one replica or several, make one sales mail and one event.
 */
import { isoAt } from '../clock.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import { outboxRow } from '../store/outbox/outbox-row.ts';
import { webhookWaiting } from '../store/webhooks/waiting-contacts.ts';
import { NO_WEBHOOKS, type WebhookRouting } from '../store/webhooks/webhook-row.ts';
import type { ConsentLinks } from './links.ts';

/** What a contact's confirmation link did. */
export type ContactConfirmOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

/** The verification of unverified contacts on `db`. */
export function contactVerification(db: OpsDatabase, links: ConsentLinks, webhooks: WebhookRouting = NO_WEBHOOKS) {
  const { kysely } = db;
  return {
    /** Verifies the contact the token names and queues its sales mail, once; nothing changes unless the token is valid and unexpired. */
    confirmContact(token: unknown, now: number): Promise<ContactConfirmOutcome> {
      const parsed = links.parse(token, 'contact');
      if (parsed === null) return Promise.resolve('invalid');
      return db.transaction(async (tx) => {
        const [row] = await tx.all(kysely.selectFrom('contacts').selectAll().where('id', '=', parsed.id));
        if (row === undefined) return 'invalid';
        const check = links.check(parsed, row, now);
        if (check === 'forged') return 'invalid';
        if (row.verified_at !== null) return 'already_confirmed';
        if (check === 'expired') return 'expired';
        const [won] = await tx.all(
          // The lead is ready for sales now: its endpoints hear of it with the sales mail (the event waits on the row, `waiting-contacts.ts`).
          kysely
            .updateTable('contacts')
            .set({ verified_at: isoAt(now), expires_at: null, webhook_waiting: webhookWaiting(webhooks) })
            .where('id', '=', row.id)
            .where('verified_at', 'is', null)
            .returning('id'),
        );
        // Another request verified it between this one's read and its write.
        if (won === undefined) return 'already_confirmed';
        await tx.run(kysely.deleteFrom('outbox').where('contact_id', '=', row.id).where('kind', '=', 'contact_confirm').where('status', '=', 'pending'));
        await tx.run(kysely.insertInto('outbox').values({ ...outboxRow('sales', now), contact_id: row.id }));
        return 'confirmed';
      });
    },
  };
}

/** The verification a service runs. */
export type ContactVerification = ReturnType<typeof contactVerification>;
