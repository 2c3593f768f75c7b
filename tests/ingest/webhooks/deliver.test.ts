/**
 * One delivery attempt against a real receiver: what each answer means for the retry (2xx
 * delivered; 5xx, 408 and 429 worth another try; a redirect, never followed, and other 4xx not),
 * a bounded wait for an answer, and a signature per secret during a rotation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../../ingest/webhooks/deliver.ts';
import { newWebhookSecret, webhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

let receiver: WebhookReceiver;
afterEach(async () => {
  await receiver?.close();
});

const BODY = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: { version: 1, endpoint: 'crm' } });
const attempt = (secrets = [receiver.secret], timeoutMs = 2000) =>
  deliver({ name: 'crm', url: receiver.url, secrets, events: [] }, 'msg_00000000000000000000000000000001', BODY, { timeoutMs, allowPrivate: true, now: Date.now() });

describe('a delivery attempt', () => {
  it('tells delivered from worth retrying from refused by the answer', async () => {
    receiver = await webhookReceiver();
    const cases: Array<[number, boolean | 'ok']> = [[200, 'ok'], [204, 'ok'], [500, true], [503, true], [408, true], [429, true], [400, false], [401, false], [410, false], [302, false]];
    for (const [status, retry] of cases) {
      receiver.answer = [status];
      const result = await attempt();
      expect([status, result.ok ? 'ok' : result.retry]).toEqual([status, retry]);
    }
    receiver.answer = [302];
    expect(await attempt()).toMatchObject({ ok: false, status: 302, error: expect.stringMatching(/^HTTP 302 \(redirect to \? not followed\)/) });
    expect(receiver.received).toHaveLength(cases.length + 1);
  });

  it('gives up waiting after its timeout, and tries a closed port again later', async () => {
    receiver = await webhookReceiver();
    receiver.answer = ['hang'];
    expect(await attempt(undefined, 300)).toEqual({ ok: false, status: null, retry: true, error: 'no complete answer within 300 ms' });
    await receiver.down();
    expect(await attempt()).toMatchObject({ ok: false, status: null, retry: true, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('signs with every secret given, so a receiver on either verifies', async () => {
    receiver = await webhookReceiver();
    const result = await attempt([newWebhookSecret(), receiver.secret]);
    expect(result).toEqual({ ok: true, status: 204 });
    expect(receiver.events()).toHaveLength(1);
    expect(String(receiver.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    receiver.received.length = 0;
    await attempt([newWebhookSecret()]);
    expect(receiver.received[0]!.event).toBeNull();
  });
});
