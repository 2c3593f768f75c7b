/**
 * A lead's `contact.received` event waits on its contact row until a webhook worker queues it, on
 * SQLite and PostgreSQL: stored with the lead in one transaction, queued once as one delivery row
 * per endpoint that takes the event (in the contract's shape, dated when the lead came in), even
 * when many workers queue at once, and gone with the lead when the person is erased first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, webhookBody } from '../../../../ingest/contract/webhook-events.ts';
import { eraseEmail } from '../../../../ingest/ops/erase.ts';
import { personAddress } from '../../../../ingest/ops/person-address.ts';
import type { StoreBackend } from '../../../../ingest/store/backend.ts';
import { openBackend } from '../../../../ingest/store/open-backend.ts';
import { queueWaitingContacts, waitingContacts } from '../../../../ingest/store/webhooks/waiting-contacts.ts';
import { NO_WEBHOOKS, routingOf } from '../../../../ingest/store/webhooks/webhook-row.ts';
import { BACKENDS, type BackendKind, configFor, databaseEnv, rowsOf, tempDir } from '../../fixtures.ts';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const RECEIVED = Date.parse('2026-11-20T09:30:00.000Z');
/** Two endpoints take leads, a third only newsletter events. */
const ROUTING = routingOf([
  { name: 'crm', events: ['contact.received'] },
  { name: 'sheet', events: ['contact.received', 'newsletter.confirmed'] },
  { name: 'mailing', events: ['newsletter.confirmed'] },
]);

const opened: Array<{ backend: StoreBackend; remove: () => void }> = [];
afterEach(async () => {
  for (const { backend, remove } of opened.splice(0)) {
    await backend.close();
    remove();
  }
});

/** A fresh backend of `kind`, with one webhook endpoint configured when `hooked` (what the submission path sees). */
async function backendOn(kind: BackendKind, hooked: boolean): Promise<StoreBackend> {
  const temp = tempDir();
  const env: Record<string, string> = hooked ? { WEBHOOK_URL: 'https://crm.example.com/hook', WEBHOOK_SECRET: SECRET } : {};
  const backend = await openBackend(configFor(temp.dir, { ...(await databaseEnv(kind)), ...env }));
  opened.push({ backend, remove: temp.remove });
  return backend;
}

const lead = (email: string) => ({
  firstName: 'Ana',
  lastName: 'Pérez',
  email,
  phone: null,
  companyName: 'Clínica Ejemplo',
  country: 'es',
  message: 'We mask patient data; please show us the proxy mode.',
  lang: 'es' as const,
  intent: 'demo' as const,
  sourcePage: '/es/pricing',
  captcha: { token: 'answered', answer: 1 },
});

let nonce = 0;
async function storeLead(backend: StoreBackend, email: string): Promise<void> {
  nonce += 1;
  expect(await backend.submissions.submitContact(lead(email), { value: `nonce-${nonce}`, expiresAt: RECEIVED + 60_000 }, RECEIVED)).toBe('created');
}

describe.each(BACKENDS)('leads waiting for their webhook event on %s', (kind) => {
  it('stores the event with the lead, as a flag on its row, and queues it once: one delivery per endpoint that takes leads', async () => {
    const backend = await backendOn(kind, true);
    await storeLead(backend, 'Ana@Example.com');
    expect(await rowsOf(backend, 'SELECT email_lower, webhook_waiting FROM contacts')).toEqual([{ email_lower: 'ana@example.com', webhook_waiting: 1 }]);
    expect(await rowsOf(backend, 'SELECT id FROM webhook_deliveries')).toEqual([]);
    expect(await waitingContacts(backend.consentDb)).toEqual({ count: 1, oldestAt: RECEIVED });

    expect(await queueWaitingContacts(backend.consentDb, ROUTING, { limit: 32, skipLocked: kind === 'postgres' })).toBe(1);
    const rows = await rowsOf(backend, 'SELECT event_id, endpoint, event_type, email_lower, body, status, next_attempt_at FROM webhook_deliveries ORDER BY endpoint');
    expect(rows.map((row) => row.endpoint)).toEqual(['crm', 'sheet']);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(1);
    for (const row of rows) {
      expect(row).toMatchObject({ event_type: 'contact.received', email_lower: 'ana@example.com', status: 'pending', next_attempt_at: '2026-11-20T09:30:00.000Z' });
      const event = webhookBody.parse(JSON.parse(String(row.body)));
      expect(event).toMatchObject({ type: 'contact.received', timestamp: '2026-11-20T09:30:00.000Z' });
      expect(event.data).toMatchObject({ email: 'Ana@Example.com', intent: 'demo', sourcePage: '/es/pricing', receivedAt: '2026-11-20T09:30:00.000Z' });
    }
    expect(await rowsOf(backend, 'SELECT webhook_waiting FROM contacts')).toEqual([{ webhook_waiting: 0 }]);
    expect(await queueWaitingContacts(backend.consentDb, ROUTING, { limit: 32, skipLocked: kind === 'postgres' })).toBe(0);
    expect(await rowsOf(backend, 'SELECT id FROM webhook_deliveries')).toHaveLength(2);
  });

  it('queues each of 40 leads once when eight workers queue them at the same moment', async () => {
    const backend = await backendOn(kind, true);
    await Promise.all(Array.from({ length: 40 }, (_, i) => storeLead(backend, `lead-${i}@example.com`)));
    const taken = await Promise.all(Array.from({ length: 8 }, () => queueWaitingContacts(backend.consentDb, ROUTING, { limit: 7, skipLocked: kind === 'postgres' })));
    let rest = 0;
    while ((await waitingContacts(backend.consentDb)).count > 0) rest += await queueWaitingContacts(backend.consentDb, ROUTING, { limit: 7, skipLocked: kind === 'postgres' });
    expect(taken.reduce((sum, n) => sum + n, 0) + rest).toBe(40);
    const perLead = await rowsOf(backend, "SELECT email_lower, count(*) AS n, count(DISTINCT event_id) AS ids FROM webhook_deliveries WHERE endpoint = 'crm' GROUP BY email_lower");
    expect(perLead).toHaveLength(40);
    for (const row of perLead) expect({ n: Number(row.n), ids: Number(row.ids) }).toEqual({ n: 1, ids: 1 });
  });

  it('keeps no flag when no endpoint takes leads, and clears the flags of leads whose endpoints were removed since', async () => {
    const plain = await backendOn(kind, false);
    await storeLead(plain, 'no-hook@example.com');
    expect(await rowsOf(plain, 'SELECT webhook_waiting FROM contacts')).toEqual([{ webhook_waiting: 0 }]);
    const hooked = await backendOn(kind, true);
    await storeLead(hooked, 'removed@example.com');
    expect(await queueWaitingContacts(hooked.consentDb, NO_WEBHOOKS, { limit: 32, skipLocked: kind === 'postgres' })).toBe(1);
    expect(await waitingContacts(hooked.consentDb)).toEqual({ count: 0, oldestAt: null });
    expect(await rowsOf(hooked, 'SELECT id FROM webhook_deliveries')).toEqual([]);
  });

  it('sends nothing about a lead erased before its event was queued, and tells no endpoint of an erasure it never had data for', async () => {
    const backend = await backendOn(kind, true);
    await storeLead(backend, 'gone@example.com');
    const erased = await eraseEmail(backend.consentDb, personAddress('GONE@example.com'), { endpoints: [{ name: 'default', events: WEBHOOK_EVENT_TYPES }] });
    expect(erased.rows.contacts).toBe(1);
    expect(erased.webhooks).toEqual({ removed: 0, notices: [], unconfigured: [] });
    expect(await queueWaitingContacts(backend.consentDb, ROUTING, { limit: 32, skipLocked: kind === 'postgres' })).toBe(0);
    expect(await rowsOf(backend, 'SELECT id FROM webhook_deliveries')).toEqual([]);
  });
});
