/**
 * Both forms posted as plain HTML (JavaScript off): urlencoded fields, the same contract, and
 * every answer a 303 to a localized result page of the site — or, from another website, a 403
 * page in the form's language. Never a JSON body, a 405 or a 5xx. A contact without its captcha
 * waits for its sender to confirm the address before it goes to sales, and counts against the
 * daily contact cap like the island's posts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { applyRetention } from '../../../ingest/ops/retention.ts';
import { BACKENDS, type BackendTestApp, contact, postJson, SITE_CONTENT, solvedCaptcha, TEST_SITE_URL, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const FIELDS = { name: 'Lena Vogel', email: 'lena@example.de', privacyConsent: 'true', lang: 'de', website: '' };

function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = { origin: TEST_SITE_URL }) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

const post = (fields: Record<string, string>, headers?: Record<string, string>) => postForm('/api/newsletter', fields, headers);

describe.each(BACKENDS)('the newsletter as a plain HTML form on %s', (kind) => {
  it('stores the signup and sends the visitor to "check your inbox" in their language', async () => {
    t = await testAppOn(kind);
    const res = await post(FIELDS);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/check-inbox`);
    expect(res.body).toBe('');
    const [row] = await t.rows('SELECT email, name, lang, status, marketing_consent FROM newsletter');
    expect(row).toEqual({ email: 'lena@example.de', name: 'Lena Vogel', lang: 'de', status: 'pending', marketing_consent: 0 });
  });

  it('reads a checked marketing box, and sends a confirmed address to the same page as a new one (no status oracle)', async () => {
    t = await testAppOn(kind, { optIn: 'single' });
    expect((await post({ ...FIELDS, marketingConsent: 'true', lang: 'it' })).headers.location).toBe(`${TEST_SITE_URL}/it/newsletter/confirmed`);
    expect((await t.rows('SELECT marketing_consent FROM newsletter'))[0]).toEqual({ marketing_consent: 1 });
    const again = await post({ ...FIELDS, lang: 'it' });
    expect([again.statusCode, again.headers.location]).toEqual([303, `${TEST_SITE_URL}/it/newsletter/confirmed`]);
  });

  it('sends bad input to the page that names the reason, and stores nothing', async () => {
    t = await testAppOn(kind);
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...FIELDS, privacyConsent: '' }, '/de/form/not-accepted/consent'],
      [{ ...FIELDS, email: 'lena-at-example' }, '/de/form/not-accepted/email'],
      [{ ...FIELDS, name: '' }, '/de/form/not-accepted/required'],
      [{ ...FIELDS, name: 'x'.repeat(101) }, '/de/form/not-accepted/too-long'],
      [{ ...FIELDS, name: 'Lena\u0007Vogel' }, '/de/form/not-accepted/invalid-characters'],
      [{ ...FIELDS, lang: 'xx' }, '/form/not-accepted/required'],
    ];
    for (const [fields, path] of cases) {
      const res = await post(fields);
      expect([res.statusCode, res.headers.location], JSON.stringify(fields)).toEqual([303, `${TEST_SITE_URL}${path}`]);
    }
    expect(await t.count('newsletter')).toBe(0);
  });

  it('refuses a post from another website with a 403 page in the form language, and stores nothing', async () => {
    t = await testAppOn(kind);
    const refused: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/form.html' }, {}, { origin: 'null' }];
    for (const headers of refused) {
      const res = await post({ ...FIELDS, lang: 'fr' }, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<html lang="fr">');
      expect(res.body).toContain(SITE_CONTENT.texts.fr.formRefused.title);
    }
    expect(await t.count('newsletter')).toBe(0);
    // A browser that sends only a Referer from the site itself is fine.
    expect((await post(FIELDS, { referer: `${TEST_SITE_URL}/de` })).statusCode).toBe(303);
  });

  it('sends a filled honeypot to "check your inbox" and drops it', async () => {
    t = await testAppOn(kind);
    expect((await post({ ...FIELDS, website: 'http://spam.example' })).headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/check-inbox`);
    expect(await t.count('newsletter')).toBe(0);
  });

  it('sends a visitor over the rate limit to "too many attempts", and an unreadable body to "not accepted"', async () => {
    t = await testAppOn(kind, { rateLimit: { max: 2, windowMs: 60_000 } });
    await post(FIELDS);
    await post(FIELDS);
    // Refused by a limit (which counts only posts whose origin passed): the page is in the form's language.
    const limited = await post(FIELDS, { origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de` });
    expect([limited.statusCode, limited.headers.location, limited.body]).toEqual([303, `${TEST_SITE_URL}/de/form/too-many-attempts`, '']);
    await t.close();
    t = await testAppOn(kind);
    const huge = await post({ ...FIELDS, name: 'x'.repeat(40_000) });
    // The page nginx and npm start's proxy send a body over the limit to.
    expect([huge.statusCode, huge.headers.location]).toEqual([303, `${TEST_SITE_URL}/form/not-accepted/too-long`]);
  });
});

const CONTACT_FIELDS = {
  firstName: 'Lena',
  lastName: 'Vogel',
  email: 'lena@example.de',
  phone: '',
  companyName: '',
  country: 'de',
  message: 'Wir nutzen MariaDB und brauchen maskierte Kopien.',
  intent: 'demo',
  lang: 'de',
  website: '',
};

const postContact = (fields: Record<string, string>, headers?: Record<string, string>) => postForm('/api/contact', fields, headers);

describe.each(BACKENDS)('the contact form as a plain HTML form on %s', (kind) => {
  it('stores the message unverified with a confirmation mail to the sender, and no sales mail until the link is used', async () => {
    const clock = manualClock(Date.parse('2026-11-23T09:00:00.000Z'));
    t = await testAppOn(kind, { clock });
    const res = await postContact(CONTACT_FIELDS);
    expect([res.statusCode, res.headers.location]).toEqual([303, `${TEST_SITE_URL}/de/contact/check-inbox`]);
    const [row] = (await t.rows('SELECT * FROM contacts')) as Array<Record<string, unknown> & { id: number; email_lower: string; created_at: string; lang: string; expires_at: string }>;
    expect(row).toMatchObject({ first_name: 'Lena', phone: null, company_name: null, intent: 'demo', verified_at: null, expires_at: '2026-11-30T09:00:00.000Z' });
    expect(await t.rows('SELECT kind, contact_id FROM outbox')).toEqual([{ kind: 'contact_confirm', contact_id: row!.id }]);

    const { links } = testNewsletter(t.backend.consentDb);
    const token = links.sign('contact', row!, Date.parse(row!.expires_at));
    const opened = await t.app.inject({ method: 'GET', url: `/api/contact/confirm?token=${token}` });
    expect(opened.headers.location).toBe(`${TEST_SITE_URL}/de/contact/confirm?token=${encodeURIComponent(token)}`);
    expect(await t.rows("SELECT kind FROM outbox WHERE kind = 'sales'")).toEqual([]);

    clock.advance(60_000);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/contact/confirm?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'lang=de',
    });
    expect([confirmed.statusCode, confirmed.headers.location]).toEqual([303, `${TEST_SITE_URL}/de/contact/confirmed`]);
    expect((await t.rows('SELECT verified_at, expires_at FROM contacts'))[0]).toEqual({ verified_at: '2026-11-23T09:01:00.000Z', expires_at: null });
    expect(await t.rows('SELECT kind FROM outbox ORDER BY id')).toEqual([{ kind: 'sales' }]);
    // A second click changes nothing: still one sales mail.
    await t.app.inject({ method: 'POST', url: `/api/contact/confirm?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'lang=de' });
    expect(await t.count('outbox')).toBe(1);
  });

  it('sends an expired or forged contact link to the contact link-invalid page, and sends nothing', async () => {
    const clock = manualClock(Date.parse('2026-11-23T09:00:00.000Z'));
    t = await testAppOn(kind, { clock });
    await postContact({ ...CONTACT_FIELDS, lang: 'es' });
    const [row] = (await t.rows('SELECT * FROM contacts')) as Array<{ id: number; email_lower: string; created_at: string; lang: string; expires_at: string }>;
    const { links } = testNewsletter(t.backend.consentDb);
    const forged = links.sign('contact', { ...row!, email_lower: 'other@example.com' }, Date.parse(row!.expires_at));
    const form = (token: string) =>
      t.app.inject({ method: 'POST', url: `/api/contact/confirm?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'lang=es' });
    expect((await form(forged)).headers.location).toBe(`${TEST_SITE_URL}/es/contact/link-invalid`);
    clock.set(Date.parse(row!.expires_at));
    expect((await form(links.sign('contact', row!, Date.parse(row!.expires_at)))).headers.location).toBe(`${TEST_SITE_URL}/es/contact/link-invalid`);
    expect(await t.rows("SELECT kind FROM outbox WHERE kind = 'sales'")).toEqual([]);
    // The retention purge deletes the unconfirmed message once its link has expired.
    expect((await applyRetention(t.backend.consentDb, { now: clock.now(), linkDays: 7, mailDir: null })).unverified_contacts).toBe(1);
    expect(await t.count('contacts')).toBe(0);
  });

  it('sends bad input and foreign origins where the newsletter form does', async () => {
    t = await testAppOn(kind);
    expect((await postContact({ ...CONTACT_FIELDS, country: 'zz' })).headers.location).toBe(`${TEST_SITE_URL}/de/form/not-accepted/country`);
    expect((await postContact({ ...CONTACT_FIELDS, message: '' })).headers.location).toBe(`${TEST_SITE_URL}/de/form/not-accepted/required`);
    expect((await postContact({ ...CONTACT_FIELDS, email: 'nope' })).headers.location).toBe(`${TEST_SITE_URL}/de/form/not-accepted/email`);
    expect((await postContact(CONTACT_FIELDS, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(await t.count('contacts')).toBe(0);
  });

  it('records the page the form was posted from (the Referer\'s `from`, else its path, checked as the JSON route checks sourcePage), else no source page', async () => {
    t = await testAppOn(kind);
    const cases: Array<[Record<string, string>, string | null]> = [
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de/contact?intent=demo#contact-form` }, '/de/contact'],
      // The demo and sales buttons name the page they were on: the form's page carries it in its address.
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de/contact/demo?from=/de/about#contact-form` }, '/de/about'],
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/contact/sales?from=/` }, '/'],
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/contact/demo?from=https://evil.example/` }, null],
      [{ origin: TEST_SITE_URL, referer: 'https://evil.example/contact/demo?from=/about' }, null],
      [{ origin: TEST_SITE_URL }, null],
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/` }, null], // all a browser sends to a service on another origin
      [{ origin: TEST_SITE_URL, referer: 'https://evil.example/de/contact' }, null],
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de/contact%20now` }, '/de/contact%20now'],
      [{ origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de/${'x'.repeat(200)}` }, null],
      [{ origin: TEST_SITE_URL, referer: 'not a url' }, null],
    ];
    for (const [index, [headers]] of cases.entries()) {
      const res = await postContact({ ...CONTACT_FIELDS, email: `sender${index}@example.com` }, headers);
      expect(res.headers.location).toBe(`${TEST_SITE_URL}/de/contact/check-inbox`);
    }
    const stored = await t.rows('SELECT email, source_page FROM contacts ORDER BY id');
    expect(stored).toEqual(cases.map(([, page], index) => ({ email: `sender${index}@example.com`, source_page: page })));
  });

  it('counts plain form posts against the daily contact cap, with the island\'s posts, and sends a visitor over it to "too many attempts"', async () => {
    t = await testAppOn(kind, { rateLimit: { max: 10_000, windowMs: 60_000, contactDailyMax: 3 } });
    const fromPage = { origin: TEST_SITE_URL, referer: `${TEST_SITE_URL}/de/contact` };
    expect((await postContact(CONTACT_FIELDS, fromPage)).headers.location).toBe(`${TEST_SITE_URL}/de/contact/check-inbox`);
    expect((await postJson(t.app, '/api/contact', contact({ captcha: await solvedCaptcha(t.app) }))).statusCode).toBe(201);
    // Another sender (the same one would be held by the per-recipient mail cap: mail-caps.test.ts).
    expect((await postContact({ ...CONTACT_FIELDS, email: 'bea@example.com' }, fromPage)).headers.location).toBe(`${TEST_SITE_URL}/de/contact/check-inbox`);
    // Refused by a limit (which counts only posts whose origin passed): the page is in the form's language.
    const capped = await postContact(CONTACT_FIELDS, fromPage);
    expect([capped.statusCode, capped.headers.location, capped.headers['retry-after'], capped.body]).toEqual([303, `${TEST_SITE_URL}/de/form/too-many-attempts`, undefined, '']);
    expect((await postJson(t.app, '/api/contact', contact({ captcha: await solvedCaptcha(t.app) }))).statusCode).toBe(429);
    expect(await t.count('contacts')).toBe(3);
    expect(await t.rows("SELECT kind FROM outbox WHERE kind = 'contact_confirm'")).toHaveLength(2);
    // The newsletter is not capped by it.
    expect((await post(FIELDS)).headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/check-inbox`);
  });
});

describe.each(BACKENDS)('posts from another website on %s', (kind) => {
  // The production limits: 10 posts a minute per client, 50 contacts a day (and whatever daily caps the routes add).
  const productionLimits = { rateLimit: { max: 10, windowMs: 60_000 } };
  const foreign = { origin: 'https://evil.example', referer: 'https://evil.example/' };
  const postForeignJson = (url: string, body: unknown) => postJson(t.app, url, body, { origin: 'https://evil.example' });

  it('regression: 60 refused cross-site posts spend none of the visitor\'s allowance: a genuine newsletter signup after them is accepted', async () => {
    t = await testAppOn(kind, productionLimits);
    for (let i = 0; i < 60; i++) {
      const form = await post({ ...FIELDS, email: `lena+${i}@example.de` }, foreign);
      expect([form.statusCode, form.body.includes(SITE_CONTENT.texts.de.formRefused.title)], `form ${i}`).toEqual([403, true]);
      const json = await postForeignJson('/api/newsletter', { name: 'Eve', email: `eve${i}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'en' });
      expect([json.statusCode, json.json().error.code], `json ${i}`).toEqual([403, 'origin_not_allowed']);
    }
    expect(await t.count('newsletter')).toBe(0);
    expect((await post(FIELDS)).headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/check-inbox`);
    const island = await postJson(t.app, '/api/newsletter', { name: 'Lena', email: 'lena.island@example.de', privacyConsent: true, marketingConsent: false, lang: 'de' }, { origin: TEST_SITE_URL });
    expect(island.statusCode).toBe(201);
  });

  it('regression: 60 refused cross-site posts spend none of the visitor\'s allowance: a genuine contact after them is accepted', async () => {
    t = await testAppOn(kind, { rateLimit: { ...productionLimits.rateLimit, contactDailyMax: 50 } });
    for (let i = 0; i < 60; i++) {
      expect((await postContact(CONTACT_FIELDS, foreign)).statusCode, `form ${i}`).toBe(403);
      const json = await postForeignJson('/api/contact', contact({ captcha: { token: 'x', answer: 1 } }));
      expect([json.statusCode, json.json().error.code], `json ${i}`).toEqual([403, 'origin_not_allowed']);
    }
    expect(await t.count('contacts')).toBe(0);
    expect((await postContact(CONTACT_FIELDS)).headers.location).toBe(`${TEST_SITE_URL}/de/contact/check-inbox`);
    expect((await postJson(t.app, '/api/contact', contact({ captcha: await solvedCaptcha(t.app) }), { origin: TEST_SITE_URL })).statusCode).toBe(201);
  });

  it('lets JSON through from the site, ALLOWED_ORIGINS, its own host, or a program that sends no Origin; a refused one stores nothing', async () => {
    t = await testAppOn(kind, { allowedOrigins: ['https://partner.example'] });
    const body = (i: number) => ({ name: 'Ana', email: `ana${i}@example.com`, privacyConsent: true, marketingConsent: false, lang: 'es' });
    const allowed: Array<Record<string, string>> = [{ origin: TEST_SITE_URL }, { origin: 'https://partner.example' }, {}, { origin: 'http://forms.site.test', host: 'forms.site.test' }];
    for (const [i, headers] of allowed.entries()) expect((await postJson(t.app, '/api/newsletter', body(i), headers)).statusCode, JSON.stringify(headers)).toBe(201);
    for (const origin of ['null', 'https://site.test.evil.example', 'http://site.test']) {
      const res = await postJson(t.app, '/api/newsletter', body(9), { origin });
      expect([res.statusCode, res.json().error.code], origin).toEqual([403, 'origin_not_allowed']);
    }
    expect(await t.count('newsletter')).toBe(4);
  });
});
