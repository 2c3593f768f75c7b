/**
 * What an operator may configure as a webhook endpoint, and what the service refuses at start-up
 * with one line naming the variable: plain HTTP to a public host, any endpoint on a private or
 * loopback address unless WEBHOOK_ALLOW_PRIVATE=1, a secret that is not `whsec_…`, half of the
 * two variables, a file that is not valid. The lookup every delivery connects through refuses a
 * host name that resolves to a private address the same way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../ingest/config.ts';
import { isPrivateAddress } from '../../../ingest/config/private-address.ts';
import { guardedLookup } from '../../../ingest/webhooks/address-guard.ts';
import { newWebhookSecret } from '../../helpers/webhook-receiver.ts';
import { tempDir } from '../fixtures.ts';

const SECRET = newWebhookSecret();
const temps: Array<() => void> = [];
afterEach(() => temps.splice(0).forEach((remove) => remove()));

function resolve(env: Record<string, string>) {
  const temp = tempDir();
  temps.push(temp.remove);
  return resolveConfig(env, temp.dir);
}

function withFile(json: unknown, env: Record<string, string> = {}) {
  const temp = tempDir();
  temps.push(temp.remove);
  writeFileSync(join(temp.dir, 'webhooks.json'), typeof json === 'string' ? json : JSON.stringify(json));
  return resolveConfig({ WEBHOOKS_FILE: 'webhooks.json', ...env }, temp.dir);
}

describe('webhook configuration', () => {
  it('has no endpoint by default, and one named default, taking every event, from WEBHOOK_URL and WEBHOOK_SECRET', () => {
    const none = resolve({});
    expect(none.ok && none.config.webhooks.endpoints).toEqual([]);
    const one = resolve({ WEBHOOK_URL: 'https://crm.example.com/hooks', WEBHOOK_SECRET: SECRET });
    expect(one.ok && one.config.webhooks).toEqual({
      endpoints: [{ name: 'default', url: 'https://crm.example.com/hooks', secrets: [SECRET], events: ['contact.received', 'newsletter.confirmed', 'newsletter.unsubscribed', 'person.erased'] }],
      allowPrivate: false,
      timeoutMs: 10_000,
    });
  });

  it('refuses plain http to a public host, a private or loopback address without WEBHOOK_ALLOW_PRIVATE, and half of the pair', () => {
    const errors = (env: Record<string, string>) => {
      const result = resolve(env);
      return result.ok ? [] : result.errors;
    };
    expect(errors({ WEBHOOK_URL: 'http://crm.example.com/hooks', WEBHOOK_SECRET: SECRET })).toEqual([
      'WEBHOOK_URL must be an https:// URL (plain http is allowed only on a private or loopback address, with WEBHOOK_ALLOW_PRIVATE=1)',
    ]);
    // An IPv4-mapped IPv6 literal passed this check once (`[::ffff:127.0.0.1]`, which the URL parser writes `[::ffff:7f00:1]`).
    for (const host of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '[::1]', 'localhost', '192.168.0.10', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]']) {
      expect(errors({ WEBHOOK_URL: `https://${host}/hooks`, WEBHOOK_SECRET: SECRET })[0]).toMatch(/^WEBHOOK_URL is on a private or loopback address .*WEBHOOK_ALLOW_PRIVATE=1/);
    }
    expect(errors({ WEBHOOK_URL: 'http://127.0.0.1:9000/hooks', WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE: '1' })).toEqual([]);
    expect(errors({ WEBHOOK_URL: 'https://crm.example.com/hooks' })).toEqual(['WEBHOOK_URL and WEBHOOK_SECRET must be set together (every delivery is signed) or not at all']);
    expect(errors({ WEBHOOK_URL: 'https://crm.example.com/hooks', WEBHOOK_SECRET: 'hunter2' })[0]).toMatch(/^WEBHOOK_SECRET must be whsec_ followed by the base64/);
    // The secret is never echoed back.
    expect(errors({ WEBHOOK_URL: 'https://crm.example.com/hooks', WEBHOOK_SECRET: 'hunter2' }).join()).not.toContain('hunter2');
  });

  it('reads several endpoints from WEBHOOKS_FILE, each with its events and one or two secrets, and names the endpoint at fault', () => {
    const other = newWebhookSecret();
    const good = withFile({
      endpoints: [
        { name: 'crm', url: 'https://crm.example.com/h', secret: SECRET, events: ['contact.received', 'person.erased'] },
        { name: 'lists', url: 'https://lists.example.com/h', secrets: [other, SECRET] },
      ],
    });
    expect(good.ok && good.config.webhooks.endpoints.map((endpoint) => [endpoint.name, endpoint.secrets.length, endpoint.events.length])).toEqual([
      ['crm', 1, 2],
      ['lists', 2, 4],
    ]);
    const bad = (json: unknown) => {
      const result = withFile(json);
      return result.ok ? [] : result.errors.map((line) => line.replace(/WEBHOOKS_FILE [^:\s]+/, 'WEBHOOKS_FILE F'));
    };
    expect(bad({ endpoints: [{ name: 'crm', url: 'https://10.0.0.8/h', secret: SECRET }] })).toEqual([
      "WEBHOOKS_FILE F: endpoint crm's url is on a private or loopback address (10.0.0.8): set WEBHOOK_ALLOW_PRIVATE=1 if that is meant",
    ]);
    expect(bad({ endpoints: [{ name: 'crm', url: 'https://crm.example.com/h', secret: SECRET, events: ['contact.sent'] }] })[0]).toMatch(/^WEBHOOKS_FILE F: endpoints\.0\.events\.0 must list event types among contact\.received/);
    expect(bad({ endpoints: [{ name: 'a', url: 'https://a.example.com/h', secret: SECRET }, { name: 'a', url: 'https://b.example.com/h', secret: SECRET }] })).toEqual([
      'WEBHOOKS_FILE F: endpoints must give each endpoint its own name',
    ]);
    expect(bad('{ not json')[0]).toMatch(/^WEBHOOKS_FILE F cannot be read as JSON/);
    expect(withFile({ endpoints: [] }, { WEBHOOK_URL: 'https://a.example.com', WEBHOOK_SECRET: SECRET }).ok).toBe(false);
  });
});

describe('the address guard of every delivery', () => {
  it('knows the private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd12::1', 'fe80::1', '::ffff:10.0.0.1',
      // IPv4 inside IPv6: mapped in both spellings (a URL parser turns the first into the second), compatible, NAT64, 6to4, Teredo.
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
    }
  });

  it('refuses a host name that resolves to a loopback address unless private addresses are allowed', async () => {
    const look = (allowPrivate: boolean) =>
      new Promise<string>((resolve) => guardedLookup(allowPrivate)('localhost', { all: false }, (error, address) => resolve(error ? `refused: ${error.message}` : String(address))));
    expect(await look(false)).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a private or loopback address/);
    expect(await look(true)).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
