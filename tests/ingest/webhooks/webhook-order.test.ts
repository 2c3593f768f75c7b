/**
 * Events about one person reach an endpoint in the order the changes happened, and an erasure
 * always reaches it, through the real service, a real SMTP peer and a real receiver that verifies
 * every delivery with `standardwebhooks`, on SQLite and PostgreSQL. The receiver applies events
 * as they arrive, as our guide's first receiver and listmonk's guidance did: the found bug was a
 * confirmation answered 503 once arriving after the unsubscription, leaving the person subscribed.
 * (Two replicas sending one person's events side by side is the concurrency suite's:
 * tests/concurrency/webhook-order.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../ingest/contract/webhook-events.ts';
import { eraseEmail } from '../../../ingest/ops/erase.ts';
import { exportPerson } from '../../../ingest/ops/export-person.ts';
import { personAddress } from '../../../ingest/ops/person-address.ts';
import { applyRetention } from '../../../ingest/ops/retention.ts';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { queueEvents } from '../../../ingest/store/webhooks/queue-events.ts';
import { webhookStore } from '../../../ingest/store/webhooks/webhook-store.ts';
import { sendErasureNotices } from '../../../ingest/webhooks/erasure-notices.ts';
import { lastAppliedByAddress, webhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { mailScaffold } from '../mail/scaffold.ts';
import { BACKENDS, type BackendKind, configFor, databaseEnv, eventually, postJson, rowsOf, signup } from '../fixtures.ts';

const { later, peer, folder } = mailScaffold();
const DAY = 86_400_000;
const ALL_EVENTS = { endpoints: [{ name: 'default', events: WEBHOOK_EVENT_TYPES }] };

/** A service on `kind` whose one endpoint is `receiver`; a retry comes `retryMs` later (long enough for a test to act in between). */
async function serviceWith(kind: BackendKind, receiver: WebhookReceiver, retryMs = 2_000, env: Record<string, string> = {}) {
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
    webhooks: { pollMs: 20, policy: { firstDelayMs: retryMs, maxDelayMs: retryMs, giveUpAfterMs: 60_000, jitter: 0 } },
  });
  later(running.close);
  return { running, smtp, config, store: webhookStore(running.backend.consentDb) };
}

/** Signs `email` up (as typed) and returns the links of its confirmation mail. */
async function signedUp(running: RunningService, smtp: { messages: string[] }, email: string) {
  const before = smtp.messages.length;
  expect((await postJson(running.app, '/api/newsletter', signup({ email, name: 'Ana', lang: 'es' }))).statusCode).toBe(201);
  await eventually(() => smtp.messages.length === before + 1);
  const raw = smtp.messages.at(-1)!.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const token = (pattern: RegExp) => decodeURIComponent(pattern.exec(raw)![1]!);
  return { confirm: token(/\/newsletter\/confirm\?token=([\w.%-]+)/), unsubscribe: token(/\/api\/newsletter\/unsubscribe\?token=([\w.%-]+)/) };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const confirm = (running: RunningService, token: string) =>
  running.app.inject({ method: 'POST', url: `/api/newsletter/confirm?token=${encodeURIComponent(token)}`, headers: FORM, payload: 'lang=es' });
const unsubscribe = (running: RunningService, token: string) =>
  running.app.inject({ method: 'POST', url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, headers: FORM, payload: 'List-Unsubscribe=One-Click' });

/** Waits until no delivery is pending or being sent. */
const settled = (running: RunningService) =>
  eventually(async () => (await rowsOf(running.backend, "SELECT id FROM webhook_deliveries WHERE status IN ('pending', 'sending')")).length === 0, 10_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('events about one person, in order, on %s', (kind) => {
  it('leaves a receiver that answered 503 once to the confirmation with "unsubscribed" when the person left at once', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp } = await serviceWith(kind, receiver);
    const links = await signedUp(running, smtp, 'ana@example.com');
    let refused = false;
    receiver.answer = (event) => (event?.type === 'newsletter.confirmed' && !refused ? ((refused = true), 503) : 204);
    expect((await confirm(running, links.confirm)).statusCode).toBeLessThan(400);
    await eventually(() => refused);
    expect((await unsubscribe(running, links.unsubscribe)).statusCode).toBeLessThan(400);
    await settled(running);
    await pause(2_300); // past the confirmation's retry, had it stayed due
    expect(lastAppliedByAddress(receiver).get('ana@example.com')).toBe('newsletter.unsubscribed');
    expect(receiver.received.map((hook) => [hook.event?.type, hook.answered])).toEqual([
      ['newsletter.confirmed', 503],
      ['newsletter.unsubscribed', 204],
    ]);
    expect(await rowsOf(running.backend, 'SELECT event_type, status, email_lower, body FROM webhook_deliveries ORDER BY id')).toEqual([
      { event_type: 'newsletter.confirmed', status: 'superseded', email_lower: null, body: null },
      { event_type: 'newsletter.unsubscribed', status: 'delivered', email_lower: 'ana@example.com', body: null },
    ]);
    // The person's export holds the sequence number their events carried, beside the deliveries.
    const exported = await exportPerson(running.backend.consentDb, personAddress('Ana@Example.com'), folder(), Date.now());
    const sent = receiver.received.filter((hook) => hook.answered === 204).map((hook) => (hook.event?.data as { sequence?: number }).sequence);
    expect(exported.webhookSequences.map((row) => [row.email_lower, Number(row.seq)])).toEqual([['ana@example.com', sent.at(-1)]]);
  });

  it('sets aside a confirmation that failed while the unsubscription waited, and `webhooks retry` says it is superseded', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp, store } = await serviceWith(kind, receiver);
    const links = await signedUp(running, smtp, 'cy@example.com');
    receiver.delayMs = 400;
    receiver.answer = (event) => (event?.type === 'newsletter.confirmed' ? 410 : 204);
    await confirm(running, links.confirm);
    await eventually(() => receiver.received.length === 1);
    await unsubscribe(running, links.unsubscribe);
    await settled(running);
    const [stale] = await rowsOf(running.backend, "SELECT id, status, email_lower, body FROM webhook_deliveries WHERE event_type = 'newsletter.confirmed'");
    expect(stale).toMatchObject({ status: 'superseded', email_lower: null, body: null });
    receiver.answer = 204;
    expect(await store.retryFailed(Date.now())).toEqual({ due: [], superseded: [], resequenced: [] });
    expect(await store.retryFailed(Date.now(), [Number(stale!.id)])).toEqual({ due: [], superseded: [Number(stale!.id)], resequenced: [] });
    await pause(300);
    expect(receiver.received.map((hook) => hook.event?.type)).toEqual(['newsletter.confirmed', 'newsletter.unsubscribed']);
    expect(lastAppliedByAddress(receiver).get('cy@example.com')).toBe('newsletter.unsubscribed');
  });

  it('gives a single opt-in confirmation the next sequence after the earlier events about the person, and supersedes a pending older state', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running } = await serviceWith(kind, receiver, 2_000, { NEWSLETTER_OPT_IN: 'single' });
    const db = running.backend.consentDb;
    // An unsubscription of an earlier subscription, still waiting for the endpoint, with a sequence from a clock ahead of this one.
    const ahead = Date.now() + 60_000;
    const draft = { type: 'newsletter.unsubscribed' as const, data: { version: 1 as const, email: 'Fay@example.com', unsubscribedAt: new Date().toISOString() } };
    await running.webhooks.stop();
    await db.transaction((tx) => queueEvents(db.kysely, tx, [{ draft, emailLower: 'fay@example.com', endpoints: ['default'], now: ahead }]));
    expect((await postJson(running.app, '/api/newsletter', signup({ email: 'Fay@example.com', name: 'Fay', lang: 'es' }))).statusCode).toBe(201);
    const rows = await rowsOf(running.backend, 'SELECT event_type, status, seq, body FROM webhook_deliveries ORDER BY id');
    expect(rows.map((row) => [row.event_type, row.status])).toEqual([
      ['newsletter.unsubscribed', 'superseded'],
      ['newsletter.confirmed', 'pending'],
    ]);
    expect(Number(rows[1]!.seq)).toBe(ahead + 1);
    expect(JSON.parse(String(rows[1]!.body)).data).toMatchObject({ sequence: ahead + 1, email: 'Fay@example.com' });
  });
});

describe.each(BACKENDS)('an erasure passed on, on %s', (kind) => {
  it('reaches the endpoint of a subscriber whose delivery records are past 730 days, with the address spelled as the events spelled it', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp, config } = await serviceWith(kind, receiver);
    const links = await signedUp(running, smtp, 'Ana.Perez@Example.com');
    await confirm(running, links.confirm);
    await eventually(() => receiver.events().length === 1);
    await settled(running);
    const typed = receiver.events()[0]!.data.email;
    expect(typed).toBe('Ana.Perez@example.com');
    // Three years on, the daily retention has run: the subscription is kept, and so is the record of who received it.
    const report = await applyRetention(running.backend.consentDb, { now: Date.now() + 3 * 365 * DAY, linkDays: 7, mailDir: null });
    expect(report.webhook_records).toBe(0);
    await running.webhooks.stop();
    const erased = await eraseEmail(running.backend.consentDb, personAddress('ana.perez@example.com'), { ...ALL_EVENTS, inFlightMs: 1000 });
    expect(erased.webhooks).toMatchObject({ removed: 1, notices: [{ endpoint: 'default', withoutRecord: false }], unconfigured: [] });
    expect(await sendErasureNotices(running.backend.consentDb, config, erased.webhooks.notices)).toEqual([{ endpoint: 'default', confirmed: true, detail: 'confirmed (HTTP 204)' }]);
    expect(receiver.events()[1]).toMatchObject({ type: 'person.erased', data: { email: typed, emailNormalized: 'ana.perez@example.com' } });
  });

  it('reaches an endpoint that takes confirmations when an earlier version purged the records of a subscriber, and says it had no record', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp, config } = await serviceWith(kind, receiver);
    const links = await signedUp(running, smtp, 'Dee.Old@example.com');
    await confirm(running, links.confirm);
    await eventually(() => receiver.events().length === 1);
    await settled(running);
    await running.webhooks.stop();
    // What the retention before this fix did 730 days after the delivery.
    await running.backend.consentDb.run(running.backend.consentDb.kysely.deleteFrom('webhook_deliveries'));
    const erased = await eraseEmail(running.backend.consentDb, personAddress('dee.old@example.com'), ALL_EVENTS);
    expect(erased.webhooks).toMatchObject({ removed: 0, notices: [{ endpoint: 'default', withoutRecord: true }] });
    await sendErasureNotices(running.backend.consentDb, config, erased.webhooks.notices);
    expect(receiver.events()[1]).toMatchObject({ type: 'person.erased', data: { email: 'Dee.Old@example.com', emailNormalized: 'dee.old@example.com' } });
  });

  it('sends person.erased only after a delivery about the person that was in flight has ended', async () => {
    const receiver = await webhookReceiver();
    later(receiver.close);
    const { running, smtp, config } = await serviceWith(kind, receiver);
    const links = await signedUp(running, smtp, 'eli@example.com');
    receiver.answer = (event) => (event?.type === 'newsletter.confirmed' ? 'hang' : 204);
    await confirm(running, links.confirm);
    await eventually(() => receiver.received.length === 1);
    const erased = await eraseEmail(running.backend.consentDb, personAddress('eli@example.com'), { ...ALL_EVENTS, inFlightMs: 1000 });
    expect(erased.webhooks.notices).toHaveLength(1);
    expect(erased.webhooks.notices[0]!.dueAt).toBeGreaterThan(Date.now());
    const [report] = await sendErasureNotices(running.backend.consentDb, config, erased.webhooks.notices);
    await eventually(() => receiver.received.some((hook) => hook.event?.type === 'person.erased'), 10_000);
    const notice = receiver.received.find((hook) => hook.event?.type === 'person.erased')!;
    // The hanging confirmation was cut off by its timeout before the notice came; it was not retried.
    expect(notice.othersOpen).toBe(0);
    await pause(2_300);
    expect(receiver.received.map((hook) => hook.event?.type)).toEqual(['newsletter.confirmed', 'person.erased']);
    expect(report!.detail).toMatch(/delivery about the person that was in flight|being sent by the service/);
  });
});
