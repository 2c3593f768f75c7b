/**
 * The webhook rows in the retention table, with a clock we set: a delivered event's record (the
 * address, the endpoint, the event; no content) goes 730 days after its delivery, a failed
 * delivery with its content 14 days after it failed, a delivery still waiting never by age.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isoAt } from '../../../ingest/clock.ts';
import { DATA_FACTS, yearsInDays } from '../../../ingest/contract/data-facts.ts';
import { applyRetention } from '../../../ingest/ops/retention.ts';
import { deliveryRows } from '../../../ingest/store/webhooks/webhook-row.ts';
import { BACKENDS, type BackendTestApp, testAppOn } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-01-10T12:00:00.000Z');
const DAY = 86_400_000;

describe.each(BACKENDS)('webhook retention on %s', (kind) => {
  it('deletes a delivery record after the contact period and a dead letter after its days, and keeps what still waits', async () => {
    t = await testAppOn(kind);
    const db = t.backend.consentDb;
    const event = (email: string) => ({ type: 'newsletter.unsubscribed' as const, data: { version: 1 as const, sequence: START, email, unsubscribedAt: isoAt(START) } });
    const rows = [
      { ...deliveryRows(['crm'], event('done@example.com'), 'done@example.com', START)[0]!, status: 'delivered' as const, body: null, finished_at: isoAt(START) },
      { ...deliveryRows(['crm'], event('dead@example.com'), 'dead@example.com', START)[0]!, status: 'failed' as const, finished_at: isoAt(START) },
      deliveryRows(['crm'], event('wait@example.com'), 'wait@example.com', START)[0]!,
    ];
    await db.run(db.kysely.insertInto('webhook_deliveries').values(rows));
    const at = (ms: number) => applyRetention(db, { now: ms, linkDays: 7, mailDir: null });
    const left = async () => (await t.rows('SELECT email_lower FROM webhook_deliveries ORDER BY id')).map((row) => row.email_lower);

    expect(await at(START + DATA_FACTS.webhookFailedDays * DAY - 1)).toMatchObject({ webhook_records: 0, webhook_failed: 0 });
    expect(await at(START + DATA_FACTS.webhookFailedDays * DAY + 1)).toMatchObject({ webhook_records: 0, webhook_failed: 1 });
    expect(await left()).toEqual(['done@example.com', 'wait@example.com']);
    expect(await at(START + yearsInDays(DATA_FACTS.contactYears) * DAY + 1)).toMatchObject({ webhook_records: 1, webhook_failed: 0 });
    expect(await left()).toEqual(['wait@example.com']);
  });
});
