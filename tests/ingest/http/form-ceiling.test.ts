/**
 * Each form's hourly ceiling from all clients together: once a crowd of addresses has sent the
 * form its hour's worth, the form answers "try later" — 429 `busy` with Retry-After to the island,
 * the "not stored" page in the form's language without JavaScript — nothing is stored, the other
 * form is unaffected, and `/metrics` shows it. On SQLite and across two app instances on one
 * PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, contact, countRows, type Instance, instancesOn, signup, solvedCaptcha, TEST_SITE_URL } from '../fixtures.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const CEILINGS = { newsletter: 3, contact: 2 };

async function started(kind: (typeof BACKENDS)[number]) {
  const set = await instancesOn(kind, 2, { rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 1_000_000, newsletterDailyMax: 1_000_000, hourlyCeilings: CEILINGS } });
  close = set.close;
  // The n-th post goes to instance n % 2, from a client of its own.
  const at = (n: number) => set.instances[n % set.instances.length] as Instance;
  const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n + 1}` });
  const newsletter = (n: number) =>
    at(n).app.inject({ method: 'POST', url: '/api/newsletter', headers: { 'content-type': 'application/json', ...from(n) }, payload: JSON.stringify(signup({ email: `crowd-${n}@example.com` })) });
  const plainNewsletter = (n: number, lang: string) =>
    at(n).app.inject({
      method: 'POST',
      url: '/api/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE_URL, ...from(n) },
      payload: new URLSearchParams({ name: 'Lena Vogel', email: `plain-${n}@example.de`, privacyConsent: 'true', lang, website: '' }).toString(),
    });
  const contactPost = async (n: number) =>
    at(n).app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', ...from(n) },
      payload: JSON.stringify(contact({ email: `lead-${n}@example.com`, captcha: await solvedCaptcha(at(n).app) })),
    });
  const metrics = async (n: number) => (await at(n).app.inject({ method: 'GET', url: '/metrics' })).body;
  const count = (table: string) => countRows(set.instances[0]!.backend, table);
  return { newsletter, plainNewsletter, contactPost, metrics, count, logs: set.logs };
}

describe.each(BACKENDS)('the hourly ceiling of each form on %s (two instances on PostgreSQL)', (kind) => {
  it('regression: answers "try later" to every client once the newsletter\'s hour is spent by a crowd of addresses, and shows it in /metrics', async () => {
    const s = await started(kind);
    for (let n = 0; n < 3; n++) expect((await s.newsletter(n)).statusCode).toBe(201);
    expect(await s.metrics(0)).toMatch(/^ingest_form_ceiling_used_ratio\{form="newsletter"\} 1$/m);

    // A fourth client, on either instance: 429 busy with the rest of the hour in Retry-After.
    const refused = await s.newsletter(3);
    expect([refused.statusCode, refused.json().error.code]).toEqual([429, 'busy']);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // Without JavaScript: the "not stored, try again later" page, in the form's language.
    const plain = await s.plainNewsletter(4, 'de');
    expect([plain.statusCode, plain.headers.location]).toEqual([303, `${TEST_SITE_URL}/de/form/not-stored`]);
    expect(await s.count('newsletter')).toBe(3);

    // The contact form has a ceiling of its own, not reached.
    expect((await s.contactPost(5)).statusCode).toBe(201);

    const text = await s.metrics(1);
    expect(text).toMatch(/^ingest_form_ceiling_used_ratio\{form="newsletter"\} 1$/m);
    expect(text).toMatch(/^ingest_form_ceiling_used_ratio\{form="contact"\} 0\.5$/m);
    // Each instance counts the refusals it answered: the one app both; of two, one each.
    expect(text).toMatch(new RegExp(`^ingest_form_ceiling_refusals_total\\{form="newsletter"\\} ${kind === 'sqlite' ? 2 : 1}$`, 'm'));
    expect(s.logs.filter((line) => line.includes('form paused')).length).toBeGreaterThan(0);
  });

  it('lets exactly the ceiling through when a crowd posts the contact form at the same moment', async () => {
    const s = await started(kind);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => s.contactPost(n)));
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    expect(await s.count('contacts')).toBe(2);
  });
});
