/**
 * An IPv6 party with many /64s cannot multiply its allowance: the /56 and the /48 the client's
 * address belongs to share a multiple of a /64's, for the per-window limit and the daily caps,
 * on SQLite and across two app instances on one PostgreSQL. Clients are told apart by the
 * X-Forwarded-For a trusted proxy sends, as behind nginx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { networkOf } from '../../../ingest/http/limits/ipv6-networks.ts';
import { BACKENDS, type Instance, instancesOn, NO_CEILINGS, signup } from '../fixtures.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const HIGH = 1_000_000;
const FACTORS = { per56: 2, per48: 3 };

/** `count` instances on `kind` with `limits`; posts go round them in turn. */
async function started(kind: (typeof BACKENDS)[number], limits: { max: number; newsletterDailyMax: number }) {
  const set = await instancesOn(kind, 2, { rateLimit: { windowMs: 60_000, contactDailyMax: HIGH, ipv6Factors: FACTORS, hourlyCeilings: NO_CEILINGS, ...limits } });
  close = set.close;
  let turn = 0;
  const post = async (client: string) => {
    const { app } = set.instances[turn++ % set.instances.length] as Instance;
    const res = await app.inject({
      method: 'POST',
      url: '/api/newsletter',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      payload: JSON.stringify(signup({ email: `v6-${turn}@example.com` })),
    });
    return { status: res.statusCode, code: res.statusCode === 201 ? null : (res.json() as { error: { code: string } }).error.code, retryAfter: Number(res.headers['retry-after'] ?? 0) };
  };
  return { post, logs: set.logs };
}

// /64s of 2001:db8:a::/48, each in a /56 of its own: 2001:db8:a:100::1, 2001:db8:a:200::2, …
const acrossOne48 = (n: number) => Array.from({ length: n }, (_, i) => `2001:db8:a:${(i + 1).toString(16)}00::${i + 1}`);

describe('the wider networks of an IPv6 client', () => {
  it('finds the /56 and /48 of an address, and none for an IPv4 client', () => {
    expect([networkOf('2001:db8:a:1234:5::1', 56), networkOf('2001:DB8:A:1234::9', 48)]).toEqual(['2001:db8:a:1200::', '2001:db8:a::']);
    expect([networkOf('192.0.2.1', 48), networkOf('::ffff:192.0.2.1', 56)]).toEqual([null, null]);
  });
});

describe.each(BACKENDS)('IPv6 network limits on %s (two instances on PostgreSQL)', (kind) => {
  it('regression: refuses fresh /64s of one /48 once the /48 has spent 3× a /64\'s per-window allowance', async () => {
    const { post, logs } = await started(kind, { max: 2, newsletterDailyMax: HIGH });
    const answers = [];
    for (const client of acrossOne48(9)) answers.push(await post(client));
    // Each /64 posts once (well within its 2), but the /48 allows 2 × 3 = 6.
    expect(answers.map((a) => a.status)).toEqual([...Array(6).fill(201), 429, 429, 429]);
    expect(answers[6]).toMatchObject({ code: 'rate_limited' });
    expect(answers[6]!.retryAfter).toBeGreaterThan(0);
    expect(answers[6]!.retryAfter).toBeLessThanOrEqual(60);
    // Another /48, and an IPv4 client, are counted apart.
    expect((await post('2001:db8:b:100::1')).status).toBe(201);
    expect((await post('198.51.100.7')).status).toBe(201);
    expect(logs.some((line) => line.includes('"network":"/48"'))).toBe(true);
    // The log line names the limit, never the address.
    expect(logs.some((line) => line.includes('2001:db8:a'))).toBe(false);
  });

  it('lets exactly the /48\'s allowance through when 20 of its /64s post at the same moment, on both instances', async () => {
    const { post } = await started(kind, { max: 2, newsletterDailyMax: HIGH });
    const answers = await Promise.all(acrossOne48(20).map((client) => post(client)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(6);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(14);
  });

  it('refuses fresh /64s of one /56 once the /56 has spent 2× a /64\'s per-window allowance', async () => {
    const { post } = await started(kind, { max: 2, newsletterDailyMax: HIGH });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(`2001:db8:c:12${i.toString(16).padStart(2, '0')}::1`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    // A /64 in the next /56 of the same /48 still has room (the /48 allows 6).
    expect((await post('2001:db8:c:1300::1')).status).toBe(201);
  });

  it('counts against the networks only what the /64 itself was allowed: one noisy /64 leaves its neighbours their share', async () => {
    const { post } = await started(kind, { max: 2, newsletterDailyMax: HIGH });
    const noisy = [];
    for (let i = 0; i < 10; i++) noisy.push((await post('2001:db8:d:100::1')).status);
    expect(noisy.filter((status) => status === 201)).toHaveLength(2);
    const others = [];
    for (const client of ['2001:db8:d:200::1', '2001:db8:d:300::1', '2001:db8:d:400::1', '2001:db8:d:500::1', '2001:db8:d:600::1']) others.push((await post(client)).status);
    expect(others).toEqual([201, 201, 201, 201, 429]);
  });

  it("regression: refuses fresh /64s of one /48 once the /48 has spent 3× a /64's daily newsletter cap", async () => {
    const { post, logs } = await started(kind, { max: HIGH, newsletterDailyMax: 1 });
    const answers = [];
    for (const client of acrossOne48(5)) answers.push(await post(client));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429]);
    expect(answers[3]).toMatchObject({ code: 'rate_limited' });
    // The daily window: the hours left of the day, not a minute.
    expect(answers[3]!.retryAfter).toBeGreaterThan(23 * 3600);
    expect(logs.some((line) => line.includes('"limit":"daily"') && line.includes('"network":"/48"'))).toBe(true);
    expect((await post('2001:db8:e:100::1')).status).toBe(201);
  });
});
