/**
 * The rows that queue a webhook event, for every place that causes one (a contact ready for sales,
 * a subscription confirmed or ended, an erasure): one row per endpoint that takes the event's type,
 * all with the same `event_id`, inserted in the transaction of the change they report, so an
 * acknowledged change always has its deliveries queued (and a rolled-back one has none). The
 * events themselves are built here as drafts; `queue-events.ts` gives each its sequence and queues it.
 *
 *   deliveryRows(['crm'], { type: 'newsletter.unsubscribed', data: { version: 1, sequence: 7, email: 'Ana@example.com', unsubscribedAt } }, 'ana@example.com', now)
 *   → [{ event_id: 'msg_2f…', endpoint: 'crm', event_type: 'newsletter.unsubscribed', email_lower: 'ana@example.com', email: 'Ana@example.com', seq: 7, body: '{"type":…}', status: 'pending', … }]
 */
import type { Insertable, Selectable } from 'kysely';
import { isoAt } from '../../clock.ts';
import { randomHex } from '../../random-hex.ts';
import { type WebhookEvent, type WebhookEventDraft, type WebhookEventType, webhookBodyText } from '../../contract/webhook-events.ts';
import type { ContactsTable, NewsletterTable, WebhookDeliveriesTable } from '../tables.ts';

/** Which configured endpoints take each event type (names, in configuration order). */
export interface WebhookRouting {
  endpointsFor(type: WebhookEventType): readonly string[];
}

/** The routing of a service with no endpoint configured: no event is queued. */
export const NO_WEBHOOKS: WebhookRouting = { endpointsFor: () => [] };

/** The routing of `endpoints`: each takes the event types it lists. */
export function routingOf(endpoints: ReadonlyArray<{ name: string; events: readonly WebhookEventType[] }>): WebhookRouting {
  return { endpointsFor: (type) => endpoints.filter((endpoint) => endpoint.events.includes(type)).map((endpoint) => endpoint.name) };
}

/**
 * A fresh Standard Webhooks message id: `msg_`, then 128 bits in hex: the time in milliseconds (48
 * bits, as in a UUIDv7) and 80 random bits, so ids are unique by construction (migration 009
 * dropped the index that held them unique) and sort in the order the events were queued.
 */
export function newEventId(now = Date.now()): string {
  return `msg_${now.toString(16).padStart(12, '0')}${randomHex(RANDOM_BYTES)}`;
}

/** The random part of an event id, in bytes. */
const RANDOM_BYTES = 10;

/** The delivery rows of `event` about `emailLower` (null: about nobody, a ping), one per endpoint in `endpoints`. */
export function deliveryRows(endpoints: readonly string[], event: WebhookEvent, emailLower: string | null, now: number): Array<Insertable<WebhookDeliveriesTable>> {
  if (endpoints.length === 0) return [];
  const at = isoAt(now);
  const eventId = newEventId(now);
  const body = webhookBodyText(event, at);
  return endpoints.map((endpoint) => ({
    event_id: eventId,
    endpoint,
    event_type: event.type,
    email_lower: emailLower,
    email: 'email' in event.data ? event.data.email : null,
    seq: 'sequence' in event.data ? event.data.sequence : null,
    body,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: at,
    claimed_at: null,
    created_at: at,
    finished_at: null,
    last_status: null,
    last_error: null,
  }));
}

/** The `contact.received` event of a contact row (as stored, or about to be); `receivedAt` is when the message came in. */
export function contactReceived(contact: Omit<Insertable<ContactsTable>, 'id'> | Selectable<ContactsTable>): WebhookEventDraft & { type: 'contact.received' } {
  return {
    type: 'contact.received',
    data: {
      version: 1,
      firstName: contact.first_name,
      lastName: contact.last_name,
      email: contact.email,
      phone: contact.phone ?? null,
      companyName: contact.company_name ?? null,
      country: contact.country,
      intent: contact.intent ?? 'general',
      message: contact.message,
      lang: contact.lang,
      sourcePage: contact.source_page ?? null,
      receivedAt: contact.created_at,
    },
  };
}

/** The `newsletter.confirmed` event of a subscription confirmed at `now` (its row, or the request its link confirmed). */
export function newsletterConfirmed(
  subscription: Pick<Insertable<NewsletterTable>, 'name' | 'email' | 'lang' | 'marketing_consent' | 'privacy_version'>,
  now: number,
): WebhookEventDraft & { type: 'newsletter.confirmed' } {
  return {
    type: 'newsletter.confirmed',
    data: {
      version: 1,
      name: subscription.name,
      email: subscription.email,
      lang: subscription.lang,
      marketingConsent: subscription.marketing_consent === 1,
      privacyVersion: subscription.privacy_version,
      confirmedAt: isoAt(now),
    },
  };
}

/** The `newsletter.unsubscribed` event of a subscription (its address as stored) ended at `now`. */
export function newsletterUnsubscribed(subscription: { email: string }, now: number): WebhookEventDraft & { type: 'newsletter.unsubscribed' } {
  return { type: 'newsletter.unsubscribed', data: { version: 1, email: subscription.email, unsubscribedAt: isoAt(now) } };
}
