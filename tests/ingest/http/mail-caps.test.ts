/**
 * Regression tests for issue 22 items 3 and 4: 30 contact confirmation mails reached one address
 * within a second from 3 client IPs (only per-IP limits existed), and `bomb+1…+10@` or dotted
 * variants each counted as a new address. Every mail to a visitor-typed address now counts against
 * one cap per mailbox (one per 10 minutes, three per UTC day), in the database, whatever the IP;
 * over it the visitor sees the same answer and nothing is sent. Signups also have a daily cap per
 * client IP. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { BACKENDS, type BackendTestApp, postJson, signup, TEST_SITE_URL, testAppOn } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-11-23T09:00:00.000Z');
const MINUTE = 60_000;
const count = async (text: string) => Number((await t.rows(text))[0]!.n);
const mails = (kind: string) => count(`SELECT count(*) AS n FROM outbox WHERE kind = '${kind}'`);

const CONTACT = { firstName: 'Lena', lastName: 'Vogel', email: 'victim@example.com', country: 'de', message: 'Hallo', lang: 'de' };

function plainContact(fields: Record<string, string>, ip: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/contact',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE_URL },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe.each(BACKENDS)('per-recipient mail caps on %s', (kind) => {
  it('30 contacts without JavaScript to one address from 3 client IPs: one confirmation mail, one stored message, the same page for all', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    const ips = ['192.0.2.1', '192.0.2.2', '198.51.100.7'];
    const variants = ['victim@example.com', 'Victim@Example.com', 'victim+1@example.com', 'victim+bomb@example.com'];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => plainContact({ ...CONTACT, email: variants[i % variants.length]! }, ips[i % 3]!)));
    expect(new Set(answers.map((res) => `${res.statusCode} ${res.headers.location}`))).toEqual(new Set([`303 ${TEST_SITE_URL}/de/contact/check-inbox`]));
    expect(await mails('contact_confirm')).toBe(1);
    expect(await t.count('contacts')).toBe(1);
  });

  it('bomb+1…+10@ and the dotted spellings of a Gmail address get one newsletter confirmation mail and one pending row', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    const emails = [...Array.from({ length: 10 }, (_, i) => `bomb+${i + 1}@example.com`), 'a.n.a@gmail.com', 'an.a@googlemail.com', 'ana@gmail.com'];
    for (const email of emails) {
      const res = await postJson(t.app, '/api/newsletter', signup({ email }));
      expect([res.statusCode, res.json()]).toEqual([201, { ok: true, next: 'confirm_email' }]);
    }
    expect(await mails('newsletter_confirm')).toBe(2);
    expect((await t.rows('SELECT email FROM newsletter ORDER BY id')).map((row) => row.email)).toEqual(['bomb+1@example.com', 'a.n.a@gmail.com']);
  });

  it('allows one mail per 10 minutes and three per UTC day per mailbox, then again the next day', async () => {
    const clock = manualClock(Date.parse('2026-11-23T22:00:00.000Z'));
    t = await testAppOn(kind, { clock });
    const post = async (email: string) => (await postJson(t.app, '/api/newsletter', signup({ email }))).json();
    expect(await post('ana@example.com')).toEqual({ ok: true, next: 'confirm_email' });
    clock.advance(9 * MINUTE);
    await post('ana+2@example.com');
    expect(await mails('newsletter_confirm')).toBe(1);
    clock.advance(MINUTE);
    await post('ana+2@example.com'); // a new address of the same mailbox, 10 minutes on
    clock.advance(10 * MINUTE);
    await post('ana@example.com'); // the pending address again
    expect(await mails('newsletter_confirm')).toBe(3);
    clock.advance(30 * MINUTE);
    expect(await post('ANA+3@example.com')).toEqual({ ok: true, next: 'confirm_email' });
    expect(await mails('newsletter_confirm')).toBe(3);
    expect(await t.count('newsletter')).toBe(2);
    clock.set(Date.parse('2026-11-24T00:00:00.000Z'));
    await post('ana+3@example.com');
    expect(await mails('newsletter_confirm')).toBe(4);
  });

  it('caps the newsletter and the contact form apart: a signup does not hold a contact message back', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    await postJson(t.app, '/api/newsletter', signup({ email: 'lena@example.de' }));
    await plainContact({ ...CONTACT, email: 'lena@example.de' }, '192.0.2.1');
    expect([await mails('newsletter_confirm'), await mails('contact_confirm')]).toEqual([1, 1]);
  });

  it('refuses a client IP its 4th newsletter signup of the day with RATE_LIMIT_NEWSLETTER_DAILY_MAX=3, other clients unaffected', async () => {
    t = await testAppOn(kind, { rateLimit: { max: 10_000, windowMs: MINUTE, contactDailyMax: 1_000_000, newsletterDailyMax: 3 } });
    const post = (i: number, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(signup({ email: `p${i}@example.com` })) });
    for (let i = 0; i < 3; i++) expect((await post(i, '192.0.2.1')).statusCode).toBe(201);
    const refused = await post(3, '192.0.2.1');
    expect([refused.statusCode, refused.json().error.code]).toEqual([429, 'rate_limited']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect((await post(4, '192.0.2.2')).statusCode).toBe(201);
    expect(await t.count('newsletter')).toBe(4);
  });
});
