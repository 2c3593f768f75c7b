/**
 * `ingest webhooks retry` never brings an endpoint an older event about a person after a newer one,
 * on SQLite and PostgreSQL: a failed state superseded by a newer state is skipped (and reported),
 * a failed lead that newer events about the person overtook goes out with the person's next
 * sequence, and a failed event nothing overtook goes out as it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isoAt } from '../../../../ingest/clock.ts';
import { queueEvents } from '../../../../ingest/store/webhooks/queue-events.ts';
import { webhookStore } from '../../../../ingest/store/webhooks/webhook-store.ts';
import { newsletterConfirmed, newsletterUnsubscribed } from '../../../../ingest/store/webhooks/webhook-row.ts';
import { BACKENDS, type BackendTestApp, testAppOn } from '../../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const NOW = Date.parse('2026-12-02T10:00:00.000Z');
const lead = (email: string) => ({
  type: 'contact.received' as const,
  data: {
    version: 1 as const,
    firstName: 'Ana',
    lastName: 'Pérez',
    email,
    phone: null,
    companyName: null,
    country: 'es',
    intent: 'demo',
    message: 'Hola',
    lang: 'es',
    sourcePage: null,
    receivedAt: isoAt(NOW),
  },
});

describe.each(BACKENDS)('webhooks retry on %s', (kind) => {
  it('skips a failed state a newer state overtook, sends a failed lead after what overtook it with a newer sequence, and the rest as they were', async () => {
    t = await testAppOn(kind);
    const db = t.backend.consentDb;
    const store = webhookStore(db);
    const subscription = { name: 'Ana', email: 'Ana@example.com', lang: 'es', marketing_consent: 1, privacy_version: '1' };
    const queue = (events: Parameters<typeof queueEvents>[2]) => db.transaction((tx) => queueEvents(db.kysely, tx, events));
    const at = (offset: number) => ({ emailLower: 'ana@example.com', endpoints: ['crm'], now: NOW + offset });
    // Each event is given its outcome as it happens, as the worker would record it.
    const settle = (eventId: string, status: 'sending' | 'failed' | 'delivered') =>
      db.run(db.kysely.updateTable('webhook_deliveries').set({ status, finished_at: isoAt(NOW), ...(status === 'delivered' ? { body: null } : {}) }).where('event_id', '=', eventId));
    const [oldLead] = await queue([{ draft: lead('Ana@example.com'), ...at(0) }]);
    await settle(oldLead!.event_id, 'failed');
    const [confirmed] = await queue([{ draft: newsletterConfirmed(subscription, NOW + 1), ...at(1) }]);
    await settle(confirmed!.event_id, 'sending'); // in flight when the person left, so not superseded then
    const [left] = await queue([{ draft: newsletterUnsubscribed(subscription, NOW + 2), ...at(2) }]);
    await settle(confirmed!.event_id, 'failed'); // then refused
    await settle(left!.event_id, 'delivered');
    const [alone] = await queue([{ draft: lead('Bo@example.com'), emailLower: 'bo@example.com', endpoints: ['crm'], now: NOW }]);
    await settle(alone!.event_id, 'failed');

    const ids = async (eventId: string) => Number((await t.rows(`SELECT id FROM webhook_deliveries WHERE event_id = '${eventId}'`))[0]!.id);
    const report = await store.retryFailed(NOW + 10);
    expect(report).toEqual({ due: [await ids(oldLead!.event_id), await ids(alone!.event_id)], superseded: [await ids(confirmed!.event_id)], resequenced: [await ids(oldLead!.event_id)] });

    const rows = await t.rows('SELECT event_type, status, seq, body, email_lower FROM webhook_deliveries ORDER BY id');
    const [leadRow, confirmedRow, leftRow, aloneRow] = rows;
    expect(confirmedRow).toMatchObject({ status: 'superseded', body: null, email_lower: null });
    expect(leadRow).toMatchObject({ status: 'pending' });
    expect(Number(leadRow!.seq)).toBeGreaterThan(Number(leftRow!.seq));
    expect(JSON.parse(String(leadRow!.body)).data.sequence).toBe(Number(leadRow!.seq));
    expect(aloneRow).toMatchObject({ status: 'pending', seq: aloneRow!.seq });
    expect(JSON.parse(String(aloneRow!.body)).data.sequence).toBe(Number(aloneRow!.seq));
  });

  it('gives each event about a person a larger sequence than the last, even when the clock of the change is behind', async () => {
    t = await testAppOn(kind);
    const db = t.backend.consentDb;
    const subscription = { name: 'Ana', email: 'Ana@example.com', lang: 'es', marketing_consent: 1, privacy_version: '1' };
    const queue = (now: number) =>
      db.transaction((tx) => queueEvents(db.kysely, tx, [{ draft: newsletterConfirmed(subscription, now), emailLower: 'ana@example.com', endpoints: ['crm'], now }]));
    const [first] = await queue(NOW);
    const [second] = await queue(NOW - 5_000); // another replica, its clock five seconds behind
    const [third] = await queue(NOW + 60_000);
    expect([first!.seq, second!.seq, third!.seq]).toEqual([NOW, NOW + 1, NOW + 60_000]);
    // The older state, still pending, was superseded by each newer one.
    expect((await t.rows('SELECT status FROM webhook_deliveries ORDER BY id')).map((row) => row.status)).toEqual(['superseded', 'superseded', 'pending']);
  });
});
