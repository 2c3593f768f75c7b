/**
 * Every route's success and failure answers, through `app.inject` on a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { SECURITY_HEADERS } from '../../../ingest/http/security-headers.ts';
import { contact, count, postJson, SITE_CONTENT, signup, solvedCaptcha, type TestApp, testApp } from '../fixtures.ts';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

// Single opt-in here: these tests are about storing and duplicates; double opt-in is newsletter-lifecycle.test.ts.
describe('POST /api/newsletter', () => {
  it('stores a signup with its consent proof and answers 201', async () => {
    t = await testApp({ optIn: 'single' });
    const res = await postJson(t.app, '/api/newsletter', signup({ email: '  Ana@Example.COM ', marketingConsent: true }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true });
    const row = t.db.raw.prepare('SELECT * FROM newsletter').get() as Record<string, unknown>;
    expect(row).toMatchObject({
      name: 'Ana Pérez',
      email: 'Ana@example.com',
      email_lower: 'ana@example.com',
      privacy_consent: 1,
      marketing_consent: 1,
      lang: 'es',
      privacy_version: SITE_CONTENT.privacyVersion,
    });
    expect(row.consent_at).toBe(row.created_at);
    expect(Date.parse(row.consent_at as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers the same address in another case like a new one (no status oracle), and stores it once', async () => {
    t = await testApp({ optIn: 'single' });
    expect((await postJson(t.app, '/api/newsletter', signup())).statusCode).toBe(201);
    const again = await postJson(t.app, '/api/newsletter', signup({ email: 'ANA@example.com', name: 'Other' }));
    expect([again.statusCode, again.json()]).toEqual([201, { ok: true }]);
    expect(t.db.raw.prepare('SELECT name FROM newsletter').all()).toEqual([{ name: 'Ana Pérez' }]);
  });

  it('stores one row for two concurrent signups of one address, answering both 201', async () => {
    t = await testApp({ optIn: 'single' });
    const [a, b] = await Promise.all([
      postJson(t.app, '/api/newsletter', signup({ email: 'race@example.com' })),
      postJson(t.app, '/api/newsletter', signup({ email: 'RACE@example.com' })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(count(t.db, 'newsletter')).toBe(1);
  });

  it('keeps the other signups of a batch when one of them is a duplicate', async () => {
    t = await testApp({ optIn: 'single' });
    await postJson(t.app, '/api/newsletter', signup({ email: 'dup@example.com' }));
    const emails = ['a@example.com', 'dup@example.com', 'b@example.com', 'c@example.com'];
    const answers = await Promise.all(emails.map((email) => postJson(t.app, '/api/newsletter', signup({ email }))));
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201, 201]);
    expect(count(t.db, 'newsletter')).toBe(4);
  });

  it('answers 400 invalid with per-field issue codes the site translates', async () => {
    t = await testApp();
    const res = await postJson(t.app, '/api/newsletter', { name: '', email: 'not-an-address', privacyConsent: false, marketingConsent: 'yes', lang: 'xx' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'invalid',
      fields: { name: 'required', email: 'email', privacyConsent: 'consent', marketingConsent: 'required', lang: 'required' },
    });
    expect(count(t.db, 'newsletter')).toBe(0);
  });

  it('answers 201 to a filled honeypot, stores nothing and logs the drop', async () => {
    t = await testApp();
    const res = await postJson(t.app, '/api/newsletter', signup({ website: 'http://spam.example' }));
    expect(res.statusCode).toBe(201);
    expect(count(t.db, 'newsletter')).toBe(0);
    expect(t.logs.some((line) => line.includes('honeypot filled'))).toBe(true);
  });

  it('accepts an empty honeypot as a real visitor', async () => {
    t = await testApp();
    expect((await postJson(t.app, '/api/newsletter', signup({ website: '' }))).statusCode).toBe(201);
    expect(count(t.db, 'newsletter')).toBe(1);
  });
});

describe('GET /api/captcha and POST /api/contact', () => {
  it('serves a challenge of two digits and a signed token', async () => {
    t = await testApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['a', 'b', 'minFillMs', 'token']);
    expect(body.a).toBeGreaterThanOrEqual(0);
    expect(body.b).toBeLessThanOrEqual(9);
    expect(body.token).toMatch(/^v2\.[0-9a-z]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('stores the contact and its outbox row together and answers 201', async () => {
    let notified = 0;
    t = await testApp({ onContactStored: () => void (notified += 1) });
    const res = await postJson(t.app, '/api/contact', contact({ phone: null, companyName: '  ', captcha: await solvedCaptcha(t.app) }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true });
    const row = t.db.raw.prepare('SELECT * FROM contacts').get() as Record<string, unknown>;
    expect(row).toMatchObject({ first_name: 'Ana', phone: null, company_name: null, country: 'es', message: 'Hola,\nquiero una demo.' });
    const outbox = t.db.raw.prepare('SELECT * FROM outbox').get() as Record<string, unknown>;
    expect(outbox).toMatchObject({ contact_id: row.id, status: 'pending', attempts: 0 });
    expect(notified).toBe(1);
  });

  it('answers 422 captcha_failed for a wrong answer and stores no contact, only the spent nonce', async () => {
    t = await testApp();
    const captcha = await solvedCaptcha(t.app);
    const res = await postJson(t.app, '/api/contact', contact({ captcha: { ...captcha, answer: (captcha.answer + 1) % 19 } }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('captcha_failed');
    expect(count(t.db, 'contacts') + count(t.db, 'outbox')).toBe(0);
    expect(count(t.db, 'captcha_nonces')).toBe(1);
  });

  it('accepts one solved token once: 20 replays give 1 success and 19 rejections', async () => {
    t = await testApp();
    const captcha = await solvedCaptcha(t.app);
    const statuses: number[] = [];
    // Sequential, then a concurrent burst: neither order nor timing lets a replay through.
    for (let i = 0; i < 10; i++) statuses.push((await postJson(t.app, '/api/contact', contact({ captcha }))).statusCode);
    const burst = await Promise.all(Array.from({ length: 10 }, () => postJson(t.app, '/api/contact', contact({ captcha }))));
    statuses.push(...burst.map((res) => res.statusCode));
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(19);
    expect(count(t.db, 'contacts')).toBe(1);
    expect(count(t.db, 'outbox')).toBe(1);
  });

  it('rejects a token after its 10 minutes and accepts it just before', async () => {
    const clock = manualClock(Date.parse('2025-03-01T12:00:00Z'));
    t = await testApp({ clock });
    const early = await solvedCaptcha(t.app);
    const late = await solvedCaptcha(t.app);
    clock.advance(10 * 60_000);
    expect((await postJson(t.app, '/api/contact', contact({ captcha: early }))).statusCode).toBe(201);
    clock.advance(1);
    const res = await postJson(t.app, '/api/contact', contact({ captcha: late }));
    expect(res.statusCode).toBe(422);
    expect(count(t.db, 'contacts')).toBe(1);
  });

  it('rejects a token signed with another secret', async () => {
    t = await testApp();
    const other = await testApp({ captchaSecret: 'another-secret-another-secret-1234' });
    const captcha = await solvedCaptcha(other.app);
    await other.close();
    expect((await postJson(t.app, '/api/contact', contact({ captcha }))).statusCode).toBe(422);
  });

  it('answers 400 invalid for a bad contact before looking at the captcha', async () => {
    t = await testApp();
    const res = await postJson(t.app, '/api/contact', contact({ country: 'xx', email: 'a@b', captcha: { token: 'x', answer: 1 } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ country: 'country', email: 'email' });
  });
});

describe('health, errors, headers, CORS, rate limit, logs', () => {
  it('answers /healthz and /readyz, and /readyz 503 once the database is gone', async () => {
    t = await testApp();
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
    t.db.raw.exec('DELETE FROM kysely_migration');
    const res = await t.app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('unavailable');
  });

  it('answers unknown routes and methods with 404 in the error shape', async () => {
    t = await testApp();
    for (const [method, url] of [['GET', '/nope'], ['GET', '/api/newsletter'], ['DELETE', '/api/contact']] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('sends the security headers on success, error and 404 answers', async () => {
    t = await testApp();
    const answers = [
      await postJson(t.app, '/api/newsletter', signup()),
      await postJson(t.app, '/api/newsletter', {}),
      await t.app.inject('/missing'),
    ];
    for (const res of answers) for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name]).toBe(value);
  });

  it('allows CORS only for origins in the allow-list', async () => {
    t = await testApp({ allowedOrigins: ['https://site.example'] });
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/newsletter',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight('https://site.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://site.example');
    expect(String(allowed.headers['access-control-allow-methods'])).toContain('POST');
    const denied = await preflight('https://evil.example');
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    const post = await postJson(t.app, '/api/newsletter', signup(), { origin: 'https://evil.example' });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 429 rate_limited with Retry-After past the per-IP limit', async () => {
    t = await testApp({ rateLimit: { max: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await postJson(t.app, '/api/newsletter', signup({ email: `r${i}@example.com` }));
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(last!.json().error.code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(count(t.db, 'newsletter')).toBe(3);
    // Another client address has its own budget; health checks are never limited.
    const other = await t.app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: '10.0.0.9', payload: signup({ email: 'x@example.com' }) });
    expect(other.statusCode).toBe(201);
    for (let i = 0; i < 5; i++) expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  });

  it('limits a client that sends a different X-Forwarded-For on every request, counting visitors behind the trusted proxy apart', async () => {
    t = await testApp({ rateLimit: { max: 2, windowMs: 60_000 }, trustProxy: ['10.0.0.2'] });
    const post = (remoteAddress: string, forwardedFor: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/newsletter',
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        payload: signup({ email: `xff${i}@example.com` }),
      });
    const direct: number[] = [];
    for (let i = 0; i < 5; i++) direct.push((await post('203.0.113.7', `198.51.100.${i}`, i)).statusCode);
    expect(direct).toEqual([201, 201, 429, 429, 429]);
    const viaProxy: number[] = [];
    for (let i = 0; i < 5; i++) viaProxy.push((await post('10.0.0.2', `198.51.100.${i}`, 10 + i)).statusCode);
    expect(viaProxy).toEqual([201, 201, 201, 201, 201]);
  });

  it('never writes the client IP address into the logs', async () => {
    t = await testApp({ trustProxy: ['10.0.0.2'] });
    await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.77' });
    await t.app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: '203.0.113.77', payload: signup() });
    await t.app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '198.51.100.23' }, payload: {} });
    await t.app.inject({ method: 'GET', url: '/missing', remoteAddress: '2001:db8::abcd' });
    expect(t.logs.length).toBeGreaterThan(6);
    const text = t.logs.join('');
    for (const address of ['203.0.113', '10.0.0.2', '198.51.100', '2001:db8']) expect(text).not.toContain(address);
  });

  it('never writes an email address, phone number or message into the logs', async () => {
    t = await testApp();
    const secret = { email: 'very.private@secret-domain.example', phone: '+34 611 222 333', message: 'my confidential message text' };
    await postJson(t.app, '/api/newsletter', signup({ email: secret.email }));
    await postJson(t.app, '/api/newsletter', signup({ email: secret.email }));
    await postJson(t.app, '/api/newsletter', signup({ email: secret.email, website: 'bot' }));
    await postJson(t.app, '/api/contact', contact({ ...secret, captcha: await solvedCaptcha(t.app) }));
    await postJson(t.app, '/api/contact', contact({ ...secret, captcha: { token: 'v1.x.y.z', answer: 3 } }));
    await postJson(t.app, '/api/contact', contact({ ...secret, country: 'zz' }));
    await t.app.inject({ method: 'POST', url: '/api/newsletter', headers: { 'content-type': 'application/json' }, payload: `{"email":"${secret.email}",` });
    await t.app.inject({ method: 'GET', url: `/api/newsletter?email=${secret.email}` });
    const text = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(10);
    for (const value of Object.values(secret)) expect(text).not.toContain(value);
    expect(text).not.toContain('secret-domain');
  });
});
