/**
 * The shared rate-limit counters on PostgreSQL count exactly when a replica sends the increments
 * of many concurrent requests as one statement: each request gets the count it would have got
 * alone, clients count apart, and a new window starts from the batch's own count.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type BackendTestApp, signup, testAppOn } from '../../fixtures.ts';

let t: BackendTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const post = (from: string, email: string) =>
  t!.app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: from, payload: JSON.stringify(signup({ email })), headers: { 'content-type': 'application/json' } });

describe.skipIf(inject('postgresUrl') === null)('rate-limit counters on PostgreSQL', () => {
  it('lets exactly 10 of 30 concurrent posts of one client through, and counts all 30', async () => {
    t = await testAppOn('postgres', { rateLimit: { max: 10, windowMs: 60_000, newsletterDailyMax: 1_000 } });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post('192.0.2.1', `c${i}@example.com`)));
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const [counter] = await t.rows("SELECT hits FROM rate_limit_counters WHERE key LIKE '%192.0.2.1'");
    expect(Number(counter!.hits)).toBe(30);
  });

  it('counts clients apart when their posts arrive together', async () => {
    t = await testAppOn('postgres', { rateLimit: { max: 2, windowMs: 60_000 } });
    const clients = ['192.0.2.10', '192.0.2.11', '192.0.2.12'];
    const answers = await Promise.all(clients.flatMap((client, c) => [0, 1, 2].map((i) => post(client, `k${c}-${i}@example.com`))));
    const byClient = clients.map((_, c) => answers.slice(3 * c, 3 * c + 3).map((res) => res.statusCode).sort());
    expect(byClient).toEqual(clients.map(() => [201, 201, 429]));
  });

  it('starts a new window once the old one is over, counting from the posts that open it', async () => {
    t = await testAppOn('postgres', { rateLimit: { max: 2, windowMs: 300 } });
    const first = await Promise.all([0, 1, 2].map((i) => post('192.0.2.20', `w${i}@example.com`)));
    expect(first.map((res) => res.statusCode).sort()).toEqual([201, 201, 429]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const second = await Promise.all([3, 4, 5].map((i) => post('192.0.2.20', `w${i}@example.com`)));
    expect(second.map((res) => res.statusCode).sort()).toEqual([201, 201, 429]);
  });
});
