/**
 * What a client cannot gain by spreading its requests over the replicas: one captcha token sent
 * to all three at once is accepted once, a rate limit of N posts per window is N in all, not N per
 * replica, and so is the daily cap on contact posts, and an IPv6 /48's multiple of the limit,
 * however many of its /64s post. Real processes on one PostgreSQL, requests
 * over real sockets at the same moment.
 */
import { afterAll, expect } from 'vitest';
import { contactBody } from '../helpers/form-bodies.ts';
import { scenario, type Stack, startStack } from './support/scenario.ts';

// One stack for all three, started by the first, behind a (simulated) proxy: the replicas believe
// X-Forwarded-For from 127.0.0.1, as they would nginx's, so each test's requests come from a
// client of their own.
let started: Promise<Stack> | undefined;
const replicaUrls = async () => {
  started ??= startStack({
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_MAX: '5',
    RATE_LIMIT_WINDOW_MS: '60000',
    RATE_LIMIT_CONTACT_DAILY_MAX: '4',
    RATE_LIMIT_IPV6_56_FACTOR: '2',
    RATE_LIMIT_IPV6_48_FACTOR: '3',
  });
  return (await started).replicas.live();
};
afterAll(async () => (await started)?.stop());

async function solvedCaptcha(url: string, from: string): Promise<{ token: string; answer: number }> {
  const challenge = (await (await fetch(`${url}/api/captcha`, { headers: { 'x-forwarded-for': from } })).json()) as { a: number; b: number; token: string };
  return { token: challenge.token, answer: challenge.a + challenge.b };
}

// Each post from another visitor unless `from` is given, so that only the token can make it fail.
async function postContact(url: string, captcha: { token: string; answer: number }, n: number, from = `198.51.100.${n + 1}`): Promise<number> {
  const res = await fetch(`${url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(contactBody(`replay-${n}@example.com`, 'One token, many posts.', captcha)),
  });
  await res.arrayBuffer();
  return res.status;
}

scenario('accepts one captcha token once when it is sent to all three replicas at the same moment', async () => {
  const urls = await replicaUrls();
  const captcha = await solvedCaptcha(urls[0]!, '198.51.100.200');
  const statuses = await Promise.all(Array.from({ length: 12 }, (_, n) => postContact(urls[n % 3]!, captcha, n)));
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.filter((status) => status === 422)).toHaveLength(11);
});

scenario('holds a rate limit of 5 posts per window across three replicas', async () => {
  const urls = await replicaUrls();
  const statuses = await Promise.all(
    Array.from({ length: 15 }, async (_, n) => {
      const res = await fetch(`${urls[n % 3]}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ name: 'Ana', email: `limit-${n}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'es' }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  expect(statuses.filter((status) => status === 201)).toHaveLength(5);
  expect(statuses.filter((status) => status === 429)).toHaveLength(10);
});

scenario('holds the daily cap of 4 contact posts across three replicas', async () => {
  const urls = await replicaUrls();
  // A fresh token for each post (fetched from elsewhere), all posted from one client at once.
  const captchas = await Promise.all(Array.from({ length: 12 }, (_, n) => solvedCaptcha(urls[n % 3]!, '198.51.100.201')));
  const statuses = await Promise.all(captchas.map((captcha, n) => postContact(urls[n % 3]!, captcha, n, '203.0.113.9')));
  // 4, not 12 (4 per replica) nor 5 (the per-window limit, which the cap's refusals never reach).
  expect(statuses.filter((status) => status === 201)).toHaveLength(4);
  expect(statuses.filter((status) => status === 429)).toHaveLength(8);
});

scenario("holds an IPv6 /48 to 3× the per-window limit across three replicas, however many of its /64s post at once", async () => {
  const urls = await replicaUrls();
  // 24 /64s of 2001:db8:48::/48, each in a /56 of its own, one post each, all at once.
  const statuses = await Promise.all(
    Array.from({ length: 24 }, async (_, n) => {
      const res = await fetch(`${urls[n % 3]}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `2001:db8:48:${(n + 1).toString(16)}00::1` },
        body: JSON.stringify({ name: 'Ana', email: `v6-${n}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'es' }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  // 5 × 3 = 15: not all 24, as each /64 alone (5 each) or 15 per replica would let through.
  expect(statuses.filter((status) => status === 201)).toHaveLength(15);
  expect(statuses.filter((status) => status === 429)).toHaveLength(9);
});
