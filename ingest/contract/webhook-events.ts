/**
 * The events the service sends to webhook endpoints (a CRM, a newsletter tool): each body is the
 * Standard Webhooks payload `{ type, timestamp, data }`, `timestamp` being the time of the change it
 * reports, and each `data` carries a `version` (1 today; fields may be added within a version, a
 * field removed or changed in meaning gets a new version, announced in docs/webhooks.md) and only
 * what the receiver needs to act. Every event about a person carries `sequence`, a number that
 * grows with each event about the same address, in the order the changes happened (not by one:
 * compare, never count), so a receiver can discard an event older than one it has applied:
 *
 * | type | when | data |
 * |---|---|---|
 * | `contact.received` | a contact is ready for sales (after its captcha, or its sender's confirmation): the moment the sales mail is queued | the message and who sent it |
 * | `newsletter.confirmed` | a subscription became active (its link was used, or single opt-in) | the subscriber, language, marketing choice, policy version |
 * | `newsletter.unsubscribed` | a subscriber left | the address and when |
 * | `person.erased` | an operator erased an address (`ingest erase`), to every endpoint that may hold that person's data | the address as that endpoint was sent it, its normalized form, and when; nothing else |
 * | `ping` | `ingest webhooks test` | the endpoint's name |
 *
 * Browser-safe like the rest of the contract: zod/mini only, no Node imports.
 */
import * as z from 'zod/mini';

/** The event types an endpoint may subscribe to (`ping` is sent only on request, to one endpoint). */
export const WEBHOOK_EVENT_TYPES = ['contact.received', 'newsletter.confirmed', 'newsletter.unsubscribed', 'person.erased'] as const;

/** One of `WEBHOOK_EVENT_TYPES`. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The event types that report a person's state: a newer one supersedes an older one to the same
 * endpoint that is not delivered yet (`contact.received`, a message, is never superseded).
 */
export const STATE_EVENT_TYPES = ['newsletter.confirmed', 'newsletter.unsubscribed', 'person.erased'] as const satisfies readonly WebhookEventType[];

const isoTime = z.iso.datetime();
const email = z.string().check(z.minLength(3), z.maxLength(254));
const version = z.literal(1);
/** Grows with each event about the same address (added within version 1, December 2026). */
const sequence = z.int().check(z.gte(1));

/** The data of each event type (and of `ping`), version 1. */
export const WEBHOOK_EVENT_DATA = {
  'contact.received': z.strictObject({
    version,
    sequence,
    firstName: z.string(),
    lastName: z.string(),
    email,
    phone: z.nullable(z.string()),
    companyName: z.nullable(z.string()),
    /** ISO 3166-1 alpha-2, lower case. */
    country: z.string().check(z.length(2)),
    /** `demo`, `sales` or `general`. */
    intent: z.string(),
    message: z.string(),
    lang: z.string(),
    /** The site page the visitor wrote from (`/de/about`), or null. */
    sourcePage: z.nullable(z.string()),
    receivedAt: isoTime,
  }),
  'newsletter.confirmed': z.strictObject({
    version,
    sequence,
    name: z.string(),
    email,
    lang: z.string(),
    marketingConsent: z.boolean(),
    privacyVersion: z.string(),
    confirmedAt: isoTime,
  }),
  'newsletter.unsubscribed': z.strictObject({ version, sequence, email, unsubscribedAt: isoTime }),
  /** `email` as the endpoint's earlier events spelled it (`Ana.Perez@example.com`), `emailNormalized` as the service matches it (`ana.perez@example.com`). */
  'person.erased': z.strictObject({ version, sequence, email, emailNormalized: email, erasedAt: isoTime }),
  ping: z.strictObject({ version, endpoint: z.string() }),
} as const;

/** What `data` holds for an event of `type`. */
type WebhookEventData<T extends keyof typeof WEBHOOK_EVENT_DATA> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** One event before it is sent: its type and data (the body adds the timestamp). */
export type WebhookEvent = { [T in keyof typeof WEBHOOK_EVENT_DATA]: { type: T; data: WebhookEventData<T> } }[keyof typeof WEBHOOK_EVENT_DATA];

/** An event about a person as the change that causes it builds it: everything but `sequence`, which queueing it adds (`store/webhooks/queue-events.ts`). */
export type WebhookEventDraft = { [T in WebhookEventType]: { type: T; data: Omit<WebhookEventData<T>, 'sequence'> } }[WebhookEventType];

/** `draft` with its `sequence`: the event that is sent. */
export function withSequence(draft: WebhookEventDraft, sequenceNumber: number): WebhookEvent & { type: WebhookEventType } {
  return { type: draft.type, data: { ...draft.data, sequence: sequenceNumber } } as WebhookEvent & { type: WebhookEventType };
}

const bodyOf = <T extends keyof typeof WEBHOOK_EVENT_DATA>(type: T) =>
  z.strictObject({ type: z.literal(type), timestamp: isoTime, data: WEBHOOK_EVENT_DATA[type] });

/** The body of a delivery, any type: `{ type, timestamp, data }`, its data checked against its type's schema. */
export const webhookBody = z.discriminatedUnion('type', [
  bodyOf('contact.received'),
  bodyOf('newsletter.confirmed'),
  bodyOf('newsletter.unsubscribed'),
  bodyOf('person.erased'),
  bodyOf('ping'),
]);

/**
 * The JSON body of `event` at `timestamp` (ISO), validated: a body that would break the contract
 * throws here, where it is queued, instead of reaching a receiver.
 *
 * @example webhookBodyText({ type: 'newsletter.unsubscribed', data: { version: 1, sequence: 7, email: 'A@b.eu', unsubscribedAt: t } }, t)
 *   // → '{"type":"newsletter.unsubscribed","timestamp":"2026-…Z","data":{"version":1,"sequence":7,"email":"A@b.eu","unsubscribedAt":"2026-…Z"}}'
 */
export function webhookBodyText(event: WebhookEvent, timestamp: string): string {
  const body = { type: event.type, timestamp, data: event.data };
  WEBHOOK_EVENT_DATA[event.type].parse(event.data);
  return JSON.stringify(body);
}
