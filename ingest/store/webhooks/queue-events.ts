/**
 * Queueing the webhook events of a change, inside its transaction, so that each endpoint gets the
 * events about one person in the order the changes happened:
 *
 * 1. Each event takes the person's next sequence from `webhook_sequences` in one conditional upsert
 *    (`nextSequenceQuery`): the time in milliseconds, or one more than the person's last sequence
 *    if that is later (another replica's clock ran ahead). On PostgreSQL the upsert locks the
 *    person's row until the transaction ends, so two replicas queueing about one person take turns
 *    and the later commit always has the larger sequence; SQLite's single writer does the same.
 * 2. A state event (`STATE_EVENT_TYPES`: confirmed, unsubscribed, erased) supersedes the older state
 *    events to the same endpoints about the person that are still pending or failed
 *    (`supersedeQuery`): they will never be sent, and keep nothing about the person.
 * 3. The delivery rows go in with their sequence; the claim (`webhook-store.ts`) sends a row only
 *    when no older row to its endpoint about its person is pending or being sent.
 *
 *   await queueEvents(kysely, tx, [eventFor(routing, newsletterUnsubscribed(row, now), 'ana@example.com', now)])
 *   → [{ event_id: 'msg_…', endpoint: 'crm', seq: 1764669600123, … }]  (and the pending confirmation to crm, if any, superseded)
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import { isoAt } from '../../clock.ts';
import { STATE_EVENT_TYPES, type WebhookEventDraft, withSequence } from '../../contract/webhook-events.ts';
import type { OpsQueries } from '../ops-database.ts';
import type { Tables, WebhookDeliveriesTable } from '../tables.ts';
import { deliveryRows, type WebhookRouting } from './webhook-row.ts';

/** One event to queue: what it says, about whom (lower case), to which endpoints, when; `dueAt` delays its first attempt. */
export interface EventToQueue {
  draft: WebhookEventDraft;
  emailLower: string;
  endpoints: readonly string[];
  now: number;
  dueAt?: number;
}

/** `draft` about `emailLower` to the endpoints `routing` gives its type. */
export function eventFor(routing: WebhookRouting, draft: WebhookEventDraft, emailLower: string, now: number): EventToQueue {
  return { draft, emailLower, endpoints: routing.endpointsFor(draft.type), now };
}

/** Queues `events` (those with an endpoint) through `tx`, in the caller's transaction; returns the rows inserted. */
export async function queueEvents(kysely: Kysely<Tables>, tx: OpsQueries, events: readonly EventToQueue[]): Promise<Array<Insertable<WebhookDeliveriesTable>>> {
  const wanted = events.filter((event) => event.endpoints.length > 0);
  if (wanted.length === 0) return [];
  const sequences = await nextSequences(kysely, tx, wanted);
  const rows = wanted.flatMap((event, i) => {
    const made = deliveryRows(event.endpoints, withSequence(event.draft, sequences[i]!), event.emailLower, event.now);
    return event.dueAt === undefined ? made : made.map((row) => ({ ...row, next_attempt_at: isoAt(Math.max(event.now, event.dueAt!)) }));
  });
  // Before the new rows go in, so only older rows are superseded: one statement per set of endpoints (usually one in all).
  const superseding = new Map<string, { endpoints: readonly string[]; people: Set<string>; now: number }>();
  for (const event of wanted) {
    if (!isStateEvent(event.draft.type)) continue;
    const key = event.endpoints.join('\n');
    const group = superseding.get(key) ?? { endpoints: event.endpoints, people: new Set<string>(), now: event.now };
    group.people.add(event.emailLower);
    group.now = Math.max(group.now, event.now);
    superseding.set(key, group);
  }
  for (const group of superseding.values()) {
    await tx.run(supersedeQuery(kysely, { emailLower: [...group.people].sort(), endpoints: group.endpoints, at: isoAt(group.now) }));
  }
  await tx.run(kysely.insertInto('webhook_deliveries').values(rows));
  return rows;
}

/** `('newsletter.confirmed', …)`: the state event types as an SQL list of literals. */
export const STATE_TYPES_SQL = sql`(${sql.join(STATE_EVENT_TYPES.map((type) => sql.lit(type)))})`;

/** Whether events of `type` report a person's state (and so supersede older ones). */
export function isStateEvent(type: string): boolean {
  return (STATE_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The next sequence of each event's person, in the events' order: one upsert statement per
 * round, each round taking one event of every person (usually one round). Persons go in address
 * order, so two transactions lock their sequence rows in the same order and cannot deadlock.
 */
async function nextSequences(kysely: Kysely<Tables>, tx: OpsQueries, events: readonly EventToQueue[]): Promise<number[]> {
  const result: number[] = new Array<number>(events.length);
  const rounds: Array<Map<string, number>> = [];
  const seen = new Map<string, number>();
  for (const [i, event] of events.entries()) {
    const round = seen.get(event.emailLower) ?? 0;
    seen.set(event.emailLower, round + 1);
    (rounds[round] ??= new Map()).set(event.emailLower, i);
  }
  for (const round of rounds) {
    const people = [...round.keys()].sort();
    const values = people.map((emailLower) => ({ email_lower: emailLower, seq: events[round.get(emailLower)!]!.now }));
    const taken = await tx.all(nextSequenceQuery(kysely, values));
    for (const row of taken) result[round.get(row.email_lower)!] = Number(row.seq);
  }
  return result;
}

/**
 * The conditional upsert that takes each person's next sequence: `seq` (the time in ms) for a
 * person without one, else the larger of `seq` and the last one plus one; returns the sequences.
 */
export function nextSequenceQuery(kysely: Kysely<Tables>, values: ReadonlyArray<{ email_lower: string; seq: number | string }>) {
  return kysely
    .insertInto('webhook_sequences')
    .values([...values])
    .onConflict((conflict) =>
      conflict.column('email_lower').doUpdateSet((eb) => ({
        seq: eb
          .case()
          .when(eb.ref('excluded.seq'), '>', eb.ref('webhook_sequences.seq'))
          .then(eb.ref('excluded.seq'))
          .else(sql<number>`${eb.ref('webhook_sequences.seq')} + 1`)
          .end(),
      })),
    )
    .returning(['email_lower', 'seq']);
}

/**
 * Marks the state events about `emailLower` (one address or several) to `endpoints` that are
 * pending or failed as superseded, dropping their body and the address; run before the newer
 * state's rows are inserted.
 * Constants are literals, so the statement can be prepared with named values (the SQLite writer).
 */
export function supersedeQuery(kysely: Kysely<Tables>, target: { emailLower: string | readonly string[]; endpoints: readonly string[]; at: string }) {
  return kysely
    .updateTable('webhook_deliveries')
    .set({ status: sql.lit('superseded'), body: sql`NULL`, email_lower: sql`NULL`, email: sql`NULL`, claimed_at: sql`NULL`, finished_at: target.at } as never)
    .where('email_lower', 'in', typeof target.emailLower === 'string' ? [target.emailLower] : [...target.emailLower])
    .where('endpoint', 'in', [...target.endpoints])
    .where('body', 'is not', null)
    .where(sql<boolean>`status IN ('pending', 'failed')`)
    .where(sql<boolean>`event_type IN ${STATE_TYPES_SQL}`);
}
