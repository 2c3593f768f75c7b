/**
 * What a captcha attempt costs a client: one try per challenge (right or wrong), no answer sooner
 * than a person could fill the form, and a daily cap on contact posts per client address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { resolveConfig } from '../../../ingest/config.ts';
import { contact, count, postJson, signup, solvedCaptcha, type TestApp, testApp } from '../fixtures.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const T0 = Date.parse('2025-03-01T12:00:00Z');
const post = (app: TestApp, captcha: { token: string; answer: number }, headers: Record<string, string> = {}) =>
  postJson(app.app, '/api/contact', contact({ captcha }), headers);

describe('one try per challenge', () => {
  it('regression: a wrong answer spends the token, so the same token cannot be tried a second time', async () => {
    t = await testApp();
    const captcha = await solvedCaptcha(t.app);
    const wrong = await post(t, { ...captcha, answer: (captcha.answer + 1) % 19 });
    expect([wrong.statusCode, wrong.json().error?.code]).toEqual([422, 'captcha_failed']);
    const right = await post(t, captcha);
    expect([right.statusCode, right.json().error?.code]).toEqual([422, 'captcha_failed']);
    expect(count(t.db, 'contacts')).toBe(0);
    expect(count(t.db, 'captcha_nonces')).toBe(1);
    expect(t.logs.join('')).toContain('"captcha":"wrong"');
  });

  it('regression: brute-forcing one token through every sum stores nothing, not a contact on the 5th try', async () => {
    t = await testApp();
    const captcha = await solvedCaptcha(t.app);
    const statuses: number[] = [];
    // Wrong answers first, the right one last: each try finds the token already spent.
    const answers = [...Array.from({ length: 19 }, (_, sum) => sum).filter((sum) => sum !== captcha.answer), captcha.answer];
    for (const answer of answers) statuses.push((await post(t, { ...captcha, answer })).statusCode);
    expect(statuses).toEqual(Array(19).fill(422));
    expect(count(t.db, 'contacts')).toBe(0);
  });

  it('a burst of all 19 answers on one token at once is one guess: at most one contact is stored', async () => {
    t = await testApp();
    const captcha = await solvedCaptcha(t.app);
    const burst = await Promise.all(Array.from({ length: 19 }, (_, answer) => post(t!, { ...captcha, answer })));
    expect(burst.filter((res) => res.statusCode === 201).length).toBeLessThanOrEqual(1);
    expect(burst.filter((res) => res.statusCode === 422).length).toBeGreaterThanOrEqual(18);
    expect(count(t.db, 'contacts')).toBeLessThanOrEqual(1);
    expect(count(t.db, 'captcha_nonces')).toBe(1);
  });

  it('a forged token spends nothing, so it cannot fill the nonce table', async () => {
    t = await testApp();
    const { token } = await solvedCaptcha(t.app);
    const [v, , nonce, seal, sig] = token.split('.');
    const forged = `${v}.${(T0 * 2).toString(36)}.${nonce}.${seal}.${sig}`;
    expect((await post(t, { token: forged, answer: 3 })).statusCode).toBe(422);
    expect(count(t.db, 'captcha_nonces')).toBe(0);
  });
});

describe('minimum fill time', () => {
  it('is 3 s at most by default and configurable with CAPTCHA_MIN_FILL_MS', () => {
    const byDefault = resolveConfig({}, '/srv');
    expect(byDefault.ok && byDefault.config.captchaMinFillMs).toBe(3000);
    const set = resolveConfig({ CAPTCHA_MIN_FILL_MS: '1500' }, '/srv');
    expect(set.ok && set.config.captchaMinFillMs).toBe(1500);
    expect(resolveConfig({ CAPTCHA_MIN_FILL_MS: 'soon' }, '/srv')).toEqual({
      ok: false,
      errors: ['CAPTCHA_MIN_FILL_MS must be a whole number of milliseconds from 0 to 60000 (got "soon")'],
    });
  });

  it('regression: a contact posted 200 ms after its challenge was issued is refused', async () => {
    const clock = manualClock(T0);
    // No captchaMinFillMs: the app's own default, the one production runs with.
    t = await testApp({ clock, captchaMinFillMs: undefined });
    const challenge = (await t.app.inject({ method: 'GET', url: '/api/captcha' })).json() as { a: number; b: number; token: string; minFillMs: number };
    const captcha = { token: challenge.token, answer: challenge.a + challenge.b };
    clock.advance(200);
    const hurried = await post(t, captcha);
    expect([hurried.statusCode, hurried.json().error?.code]).toEqual([422, 'captcha_too_fast']);
    expect(count(t.db, 'contacts')).toBe(0);
    expect(t.logs.join('')).toContain('"captcha":"too_fast"');
    // The challenge says how long to wait, so the island can hold a quick visitor's post back.
    expect(challenge.minFillMs).toBe(3000);
    // The hurried try spent the token: waiting afterwards does not make it good again.
    clock.advance(3000);
    expect((await post(t, captcha)).json().error?.code).toBe('captcha_failed');
    // A person who takes the time gets through.
    const fresh = await solvedCaptcha(t.app);
    clock.advance(2999);
    expect((await post(t, fresh)).statusCode).toBe(422);
    const patient = await solvedCaptcha(t.app);
    clock.advance(3000);
    expect((await post(t, patient)).statusCode).toBe(201);
    expect(count(t.db, 'contacts')).toBe(1);
  });
});

describe('daily cap', () => {
  it('is 5 contact posts per client address by default and configurable with RATE_LIMIT_CONTACT_DAILY_MAX', () => {
    const byDefault = resolveConfig({}, '/srv');
    expect(byDefault.ok && byDefault.config.rateLimit).toMatchObject({ max: 10, windowMs: 60_000, contactDailyMax: 5, newsletterDailyMax: 5 });
    const set = resolveConfig({ RATE_LIMIT_CONTACT_DAILY_MAX: '12' }, '/srv');
    expect(set.ok && set.config.rateLimit.contactDailyMax).toBe(12);
    expect(resolveConfig({ RATE_LIMIT_CONTACT_DAILY_MAX: '0' }, '/srv').ok).toBe(false);
  });

  it('is 5 newsletter signups per client address by default and configurable with RATE_LIMIT_NEWSLETTER_DAILY_MAX', () => {
    const set = resolveConfig({ RATE_LIMIT_NEWSLETTER_DAILY_MAX: '200' }, '/srv');
    expect(set.ok && set.config.rateLimit.newsletterDailyMax).toBe(200);
    const refused = resolveConfig({ RATE_LIMIT_NEWSLETTER_DAILY_MAX: 'lots' }, '/srv');
    expect(!refused.ok && refused.errors.join('\n')).toMatch(/RATE_LIMIT_NEWSLETTER_DAILY_MAX.*whole number of newsletter signups/);
    expect(resolveConfig({ RATE_LIMIT_NEWSLETTER_DAILY_MAX: '0' }, '/srv').ok).toBe(false);
  });

  it('regression: the daily cap stops a client that stays under the per-minute limit', async () => {
    t = await testApp({ rateLimit: { max: 10, windowMs: 60_000, contactDailyMax: 3 } });
    const statuses: number[] = [];
    // Right, wrong, right, then one more: every post counts, stored or refused.
    statuses.push((await post(t, await solvedCaptcha(t.app))).statusCode);
    const spent = await solvedCaptcha(t.app);
    statuses.push((await post(t, { ...spent, answer: (spent.answer + 1) % 19 })).statusCode);
    statuses.push((await post(t, await solvedCaptcha(t.app))).statusCode);
    const capped = await post(t, await solvedCaptcha(t.app));
    expect(statuses).toEqual([201, 422, 201]);
    expect([capped.statusCode, capped.json().error?.code]).toEqual([429, 'rate_limited']);
    const retryAfter = Number(capped.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(count(t.db, 'contacts')).toBe(2);
    // Four posts are under the per-minute limit of 10: the newsletter still answers this client,
    // and another client still gets its contacts through.
    expect((await postJson(t.app, '/api/newsletter', signup())).statusCode).toBe(201);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '198.51.100.9',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(contact({ captcha: await solvedCaptcha(t.app) })),
    });
    expect(other.statusCode).toBe(201);
  });
});
