/**
 * Passing an erasure on (GDPR art. 17(2) and 19): inside `ingest erase`'s transaction, the
 * webhook rows about the person are deleted, and every configured endpoint that may hold the
 * person's data is queued a `person.erased` notice carrying the address as that endpoint's events
 * spelled it (`Ana.Perez@example.com`), its normalized form and the time, nothing else. An
 * endpoint may hold the data when
 *
 * - a row says it was sent (or queued) an event about the person: the records of delivered events
 *   are kept while the service holds the person's data (`retention.ts`), so a long-time
 *   subscriber's are there however old;
 * - or the person has a confirmed subscription and the endpoint takes `newsletter.confirmed` but
 *   no record says so (records an earlier version's retention purged after 730 days): it is told
 *   too, with the address as the subscription holds it, and the operator is told it had no record.
 *
 * A delivery about the person that a worker is sending right now is cancelled (its row goes, so
 * its outcome is never recorded nor retried), and the notice to that endpoint is due only once
 * that request must have ended (its claim plus `inFlightMs`, the delivery timeout, plus a second),
 * so the receiver never gets an event about the person after the notice. A lead whose event still
 * waited on its contact row (`waiting-contacts.ts`) was never queued nor sent: it goes with the row.
 *
 * A notice keeps the address until it is delivered (`webhook-store.ts` drops it then, and the
 * person's sequence row with the last one), so once every notice is through the tables hold no
 * trace of the person. An endpoint that received data but is no longer configured cannot be told:
 * it is reported, for the operator to tell by hand.
 *
 *   await passOnErasure(kysely, tx, { emailLower: 'ana@example.com', endpoints, subscribedAs: 'Ana@example.com', inFlightMs: 10_000, now })
 *   → { removed: 3, notices: [{ endpoint: 'crm', eventId: 'msg_…', dueAt: …, withoutRecord: false }], unconfigured: ['old-crm'] }
 */
import type { Kysely } from 'kysely';
import { isoAt } from '../clock.ts';
import type { WebhookEventType } from '../contract/webhook-events.ts';
import type { OpsQueries } from '../store/ops-database.ts';
import type { Tables } from '../store/tables.ts';
import { type EventToQueue, queueEvents } from '../store/webhooks/queue-events.ts';

/** What passing an erasure on did. */
export interface ErasurePassedOn {
  /** Webhook rows about the person deleted (their bodies and the records of what was sent). */
  removed: number;
  /** The `person.erased` notices queued, one per endpoint that may hold the person's data; `dueAt`: after the deliveries that were in flight. */
  notices: Array<{ endpoint: string; eventId: string; dueAt: number; withoutRecord: boolean }>;
  /** Endpoints that had the person's data but are no longer configured: to be told by hand. */
  unconfigured: string[];
}

/** Whom an erasure is passed on to, and when. */
export interface ErasureTarget {
  emailLower: string;
  /** The configured endpoints and the event types each takes. */
  endpoints: ReadonlyArray<{ name: string; events: readonly WebhookEventType[] }>;
  /** The address as the person's confirmed subscription held it (read before it was deleted), or null. */
  subscribedAs: string | null;
  /** The longest a delivery in flight can still take (the webhook timeout, ms). */
  inFlightMs: number;
  now: number;
}

/** What a clock difference between the worker's host and the command's may add to the wait for a delivery in flight. */
const CLOCK_MARGIN_MS = 1_000;

/** Deletes the webhook rows about the person and queues `person.erased` to the configured endpoints that may hold their data; run inside the erasure's transaction. */
export async function passOnErasure(kysely: Kysely<Tables>, tx: OpsQueries, target: ErasureTarget): Promise<ErasurePassedOn> {
  const { emailLower, now } = target;
  // RETURNING gives each row as it was deleted: a claim a replica committed just before included.
  const gone = await tx.all(
    kysely.deleteFrom('webhook_deliveries').where('email_lower', '=', emailLower).returning(['id', 'endpoint', 'status', 'claimed_at', 'email', 'body']),
  );
  const had = new Map<string, { spelling: string | null; dueAt: number; withoutRecord: boolean }>();
  for (const row of gone.sort((a, b) => a.id - b.id)) {
    const before = had.get(row.endpoint);
    const inFlightUntil = row.status === 'sending' && row.claimed_at !== null ? Date.parse(row.claimed_at) + target.inFlightMs + CLOCK_MARGIN_MS : now;
    had.set(row.endpoint, {
      spelling: row.email ?? spellingIn(row.body) ?? before?.spelling ?? null,
      dueAt: Math.max(before?.dueAt ?? now, inFlightUntil),
      withoutRecord: false,
    });
  }
  if (target.subscribedAs !== null) {
    for (const endpoint of target.endpoints) {
      if (endpoint.events.includes('newsletter.confirmed') && !had.has(endpoint.name)) had.set(endpoint.name, { spelling: target.subscribedAs, dueAt: now, withoutRecord: true });
    }
  }
  const configured = new Set(target.endpoints.map((endpoint) => endpoint.name));
  const told = [...had.entries()].filter(([endpoint]) => configured.has(endpoint)).sort(([a], [b]) => (a < b ? -1 : 1));
  const events: EventToQueue[] = told.map(([endpoint, { spelling, dueAt }]) => ({
    draft: { type: 'person.erased', data: { version: 1, email: spelling ?? emailLower, emailNormalized: emailLower, erasedAt: isoAt(now) } },
    emailLower,
    endpoints: [endpoint],
    now,
    dueAt,
  }));
  const rows = await queueEvents(kysely, tx, events);
  return {
    removed: gone.length,
    notices: rows.map((row, i) => ({ endpoint: row.endpoint, eventId: row.event_id, dueAt: Date.parse(row.next_attempt_at), withoutRecord: told[i]![1].withoutRecord })),
    unconfigured: [...had.keys()].filter((endpoint) => !configured.has(endpoint)).sort(),
  };
}

/** The address a queued body carried (rows queued before the spelling was kept in its own column). */
function spellingIn(body: string | null): string | null {
  if (body === null) return null;
  try {
    const email = (JSON.parse(body) as { data?: { email?: unknown } }).data?.email;
    return typeof email === 'string' ? email : null;
  } catch {
    return null;
  }
}
