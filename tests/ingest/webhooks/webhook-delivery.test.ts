/**
 * Webhooks through the real service, a real SMTP peer and a real HTTP receiver that verifies
 * every delivery with the `standardwebhooks` package, on SQLite and PostgreSQL: a lead, a
 * confirmed and an ended subscription, and an erasure each reach the endpoint once, signed, in
 * the contract's shape; a receiver that is down or slow gets the event later with the same
 * `webhook-id`; one that refuses it sets it aside after one try, for the operator to send again.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, webhookBody } from '../../../ingest/contract/webhook-events.ts';
import { eraseEmail } from '../../../ingest/ops/erase.ts';
import { personAddress } from '../../../ingest/ops/person-address.ts';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { webhookStore } from '../../../ingest/store/webhooks/webhook-store.ts';
import { sendErasureNotices } from '../../../ingest/webhooks/erasure-notices.ts';
import { webhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { mailScaffold } from '../mail/scaffold.ts';
import { BACKENDS, type BackendKind, configFor, contact, databaseEnv, eventually, postJson, rowsOf, signup, solvedCaptcha } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();

/** A service on `kind` whose one endpoint is `receiver`, retrying after 50 ms, with a 500 ms timeout. */
async function serviceWith(kind: BackendKind, receiver: WebhookReceiver, env: Record<string, string> = {}) {
  const smtp = await peer();
  const config = configFor(folder(), {
    SMTP_URL: `${smtp.url}?ignoreTLS=true`,
    SITE_URL: 'https://www.example.com',
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: receiver.secret,
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_TIMEOUT_MS: '1000',
    ...(await databaseEnv(kind)),
    ...env,
  });
  const running: RunningService = await startService(config, {
    pollMs: 20,
    logStream: { write: () => {} },
    webhooks: { pollMs: 20, policy: { firstDelayMs: 50, maxDelayMs: 200, giveUpAfterMs: 60_000, jitter: 0 } },
  });
  later(running.close);
  return { running, smtp, config };
}

async function postContact(running: RunningService, overrides: Record<string, unknown> = {}) {
  const captcha = await solvedCaptcha(running.app);
  const res = await postJson(running.app, '/api/contact', { ...contact(overrides), captcha });
  expect(res.statusCode).toBe(201);
}

describe.each(BACKENDS)('webhooks on %s', (kind) => {
  it('delivers a lead as contact.received, signed (standardwebhooks verifies it) and in the contract shape, and keeps no copy of it', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running } = await serviceWith(kind, receiver);
    await postContact(running, { email: 'Ana@Example.com', intent: 'demo', sourcePage: '/es/pricing' });
    await eventually(() => receiver.events().length === 1);
    const [hook] = receiver.received;
    expect(hook!.event).not.toBeNull();
    expect(hook!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(hook!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const event = webhookBody.parse(hook!.event);
    expect(event.type).toBe('contact.received');
    expect(event.data).toMatchObject({ version: 1, firstName: 'Ana', email: 'Ana@example.com', intent: 'demo', sourcePage: '/es/pricing', country: 'es', lang: 'es' });
    await eventually(async () => (await rowsOf(running.backend, "SELECT status FROM webhook_deliveries WHERE status = 'delivered'")).length === 1);
    // Delivered: the body is gone, the record of who received what about whom stays.
    expect(await rowsOf(running.backend, 'SELECT endpoint, event_type, email_lower, body, last_status FROM webhook_deliveries')).toEqual([
      { endpoint: 'default', event_type: 'contact.received', email_lower: 'ana@example.com', body: null, last_status: 204 },
    ]);
    const metrics = (await running.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('ingest_webhook_deliveries_total{event="contact.received",outcome="delivered"} 1');
    expect(metrics).toContain('ingest_webhook_rows{status="delivered"} 1');
    expect(metrics).toContain('ingest_webhook_oldest_due_age_seconds 0');
  });

  it('tells the endpoint of a confirmed subscription and of its end, once each', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp } = await serviceWith(kind, receiver);
    await postJson(running.app, '/api/newsletter', signup({ email: 'lena@example.de', name: 'Lena', lang: 'de', marketingConsent: true }));
    await eventually(() => smtp.messages.length === 1);
    const raw = smtp.messages[0]!.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const confirm = decodeURIComponent(/\/de\/newsletter\/confirm\?token=([\w.%-]+)/.exec(raw)![1]!);
    const unsubscribe = decodeURIComponent(/\/api\/newsletter\/unsubscribe\?token=([\w.%-]+)/.exec(raw)![1]!);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Confirmed twice at once: one event.
    await Promise.all([1, 2].map(() => running.app.inject({ method: 'POST', url: `/api/newsletter/confirm?token=${encodeURIComponent(confirm)}`, headers: form, payload: 'lang=de' })));
    await eventually(() => receiver.events().length === 1);
    expect(receiver.events()[0]).toMatchObject({ type: 'newsletter.confirmed', data: { version: 1, name: 'Lena', email: 'lena@example.de', lang: 'de', marketingConsent: true } });
    const left = await running.app.inject({ method: 'POST', url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(unsubscribe)}`, headers: form, payload: 'List-Unsubscribe=One-Click' });
    expect(left.statusCode).toBeLessThan(400);
    await eventually(() => receiver.events().length === 2);
    expect(receiver.events()[1]).toMatchObject({ type: 'newsletter.unsubscribed', data: { version: 1, email: 'lena@example.de' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.events()).toHaveLength(2);
  });

  it('passes an erasure on to the endpoint that had the person, and then holds no trace of the person', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, config } = await serviceWith(kind, receiver);
    await postContact(running, { email: 'zoe@example.com' });
    await postContact(running, { email: 'other@example.com' });
    await eventually(() => receiver.events().length === 2);
    await running.webhooks.stop();
    const erased = await eraseEmail(running.backend.consentDb, personAddress('ZOE@example.com'), { endpoints: [{ name: 'default', events: WEBHOOK_EVENT_TYPES }] });
    expect(erased.webhooks).toMatchObject({ removed: 1, notices: [{ endpoint: 'default', withoutRecord: false }], unconfigured: [] });
    const reports = await sendErasureNotices(running.backend.consentDb, config, erased.webhooks.notices);
    expect(reports).toEqual([{ endpoint: 'default', confirmed: true, detail: 'confirmed (HTTP 204)' }]);
    const notice = receiver.events()[2]!;
    expect(webhookBody.parse(notice)).toMatchObject({ type: 'person.erased', data: { email: 'zoe@example.com', emailNormalized: 'zoe@example.com' } });
    expect(Object.keys(notice.data).sort()).toEqual(['email', 'emailNormalized', 'erasedAt', 'sequence', 'version']);
    expect(notice.data.sequence).toBeGreaterThan(receiver.events().find((event) => event.data.email === 'zoe@example.com')!.data.sequence as number);
    const rows = await rowsOf(running.backend, 'SELECT * FROM webhook_deliveries ORDER BY id');
    expect(JSON.stringify(rows)).not.toMatch(/zoe/i);
    expect(rows.map((row) => row.event_type)).toEqual(['contact.received', 'person.erased']);
    expect(JSON.stringify(await rowsOf(running.backend, 'SELECT * FROM webhook_sequences'))).not.toMatch(/zoe/i);
  });

  it('retries a receiver that is down or answers 503, with the same webhook-id, and loses nothing', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running } = await serviceWith(kind, receiver);
    await receiver.down();
    await postContact(running, { email: 'a@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    receiver.answer = [503, 503];
    await receiver.up();
    await eventually(() => receiver.events().length === 3, 10_000);
    expect(receiver.received.map((hook) => hook.answered)).toEqual([503, 503, 204]);
    expect(new Set(receiver.received.map((hook) => hook.id)).size).toBe(1);
    await eventually(async () => (await webhookStore(running.backend.consentDb).counts()).delivered === 1);
  });

  it('retries a delivery the receiver does not answer in time', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running } = await serviceWith(kind, receiver);
    receiver.answer = ['hang'];
    await postContact(running);
    await eventually(async () => (await rowsOf(running.backend, "SELECT id FROM webhook_deliveries WHERE status = 'delivered'")).length === 1, 10_000);
    expect(receiver.received.map((hook) => hook.answered)).toEqual(['hang', 204]);
    const [row] = await rowsOf(running.backend, 'SELECT status, attempts, last_status FROM webhook_deliveries');
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status: 204 });
  });

  it('sets aside an event the receiver refuses (410) after one try, and sends it again on request', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running } = await serviceWith(kind, receiver);
    receiver.answer = [410];
    await postContact(running);
    const store = webhookStore(running.backend.consentDb);
    await eventually(async () => (await store.counts()).failed === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
    const [failed] = await store.list({ status: 'failed' });
    // The receiver's own words (which may echo the visitor's) are not kept: the status and its standard reason.
    expect(failed).toMatchObject({ endpoint: 'default', eventType: 'contact.received', attempts: 1, lastStatus: 410, lastError: 'HTTP 410 Gone' });
    expect(await store.retryFailed(Date.now())).toEqual({ due: [failed!.id], superseded: [], resequenced: [] });
    await eventually(() => receiver.events().length === 2);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
  });

  it('signs with both secrets during a rotation, so a receiver still on the old one verifies', async () => {
    const oldReceiver = await webhookReceiver();
    later(oldReceiver.close);
    const newSecret = (await webhookReceiver()).secret;
    const dir = folder();
    const file = `${dir}/webhooks.json`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify({ endpoints: [{ name: 'crm', url: oldReceiver.url, secrets: [newSecret, oldReceiver.secret], events: ['contact.received'] }] }));
    const { running } = await serviceWith(kind, oldReceiver, { WEBHOOK_URL: '', WEBHOOK_SECRET: '', WEBHOOKS_FILE: file });
    await postContact(running);
    await postJson(running.app, '/api/newsletter', signup());
    await eventually(() => oldReceiver.events().length === 1);
    expect(String(oldReceiver.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    // The endpoint takes contact.received only: the signup queued nothing for it.
    expect(await rowsOf(running.backend, 'SELECT endpoint, event_type FROM webhook_deliveries')).toEqual([{ endpoint: 'crm', event_type: 'contact.received' }]);
  });
});
