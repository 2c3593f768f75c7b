/**
 * One delivery attempt against a real receiver: what each answer means for the retry (2xx
 * delivered; 5xx, 408 and 429 worth another try; a redirect, never followed, and other 4xx not),
 * a bounded wait for an answer, a signature per secret during a rotation, and an error text that
 * is ours (the status), never the receiver's words or escape sequences, nor a private address.
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
    expect(await attempt()).toMatchObject({ ok: false, status: 302, error: 'HTTP 302 Found (redirect not followed)' });
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

  it('keeps neither the words nor the escape sequences of a receiver that echoes the visitor in its error page', async () => {
    receiver = await webhookReceiver();
    receiver.answer = [500];
    receiver.errorBody = '\u001b]0;owned\u0007\u001b[2J\u001b[31mcannot store Ana Pérez <ana@example.com>\r\nretry later';
    expect(await attempt()).toEqual({ ok: false, status: 500, retry: true, error: 'HTTP 500 Internal Server Error' });
  });

  it('refuses an IPv4-mapped IPv6 literal of a loopback address without connecting, however the URL writes it', async () => {
    receiver = await webhookReceiver();
    const port = new URL(receiver.url).port;
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]']) {
      const endpoint = { name: 'crm', url: `http://${host}:${port}/hooks`, secrets: [receiver.secret], events: [] };
      const result = await deliver(endpoint, 'msg_00000000000000000000000000000002', BODY, { timeoutMs: 2000, allowPrivate: false, now: Date.now() });
      expect([host, result]).toEqual([host, { ok: false, status: null, retry: false, error: expect.stringMatching(/is a private or loopback address/) }]);
    }
    expect(receiver.received).toHaveLength(0);
  });
});
