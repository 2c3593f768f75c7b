/**
 * The newsletter's consent lifecycle through the HTTP routes, on SQLite and PostgreSQL:
 * double opt-in (pending row, consent receipt, confirmation mail queued, resend throttling),
 * confirmation by a signed link (opening it changes nothing; expired and forged links change
 * nothing), one-click and page unsubscribes (the row and its data go, an anonymous event stays),
 * and single opt-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { exportTable } from '../../../ingest/ops/export-rows.ts';
import { BACKENDS, type BackendTestApp, postJson, SITE_CONTENT, signup, TEST_SITE_URL, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-11-23T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function subscription(email = 'ana@example.com') {
  const [row] = await t.rows(`SELECT * FROM newsletter WHERE email_lower = '${email}'`);
  return row as Record<string, unknown> & { id: number; email_lower: string; created_at: string; lang: string; expires_at: string | null };
}

const confirmMails = async () => Number((await t.rows("SELECT count(*) AS n FROM outbox WHERE kind = 'newsletter_confirm'"))[0]!.n);
const events = async () => (await t.rows('SELECT newsletter_id, event, lang, consent_hash, privacy_version FROM consent_events ORDER BY id')) as Array<Record<string, unknown>>;

function form(app: BackendTestApp['app'], url: string, fields: Record<string, string>) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
}

describe.each(BACKENDS)('newsletter double opt-in on %s', (kind) => {
  it('stores a pending signup with its consent receipt and queues one confirmation mail', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    const res = await postJson(t.app, '/api/newsletter', signup({ lang: 'de' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true, next: 'confirm_email' });
    const row = await subscription();
    const wording = testNewsletter(t.backend.consentDb).wordings.find((w) => w.lang === 'de')!;
    expect(row).toMatchObject({
      status: 'pending',
      lang: 'de',
      confirmed_at: null,
      consent_hash: wording.hash,
      privacy_version: SITE_CONTENT.privacyVersion,
      expires_at: new Date(START + 7 * DAY).toISOString(),
      consent_at: new Date(START).toISOString(),
    });
    expect(wording.wording).toContain(SITE_CONTENT.texts.de.consentLabels.privacy);
    const [text] = await t.rows(`SELECT * FROM consent_texts WHERE hash = '${wording.hash}'`);
    expect(text).toMatchObject({ lang: 'de', wording: wording.wording });
    expect(await confirmMails()).toBe(1);
    // Not a subscriber yet: the newsletter export (the mailing list) leaves it out.
    expect((await exportTable(t.backend.consentDb, { table: 'newsletter', format: 'jsonl' })).rows).toBe(0);
    expect(await events()).toEqual([{ newsletter_id: row.id, event: 'subscribed', lang: 'de', consent_hash: wording.hash, privacy_version: SITE_CONTENT.privacyVersion }]);
  });

  it('answers a repeated signup like the first, with a new mail at most every 10 minutes and 3 a day', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    const again = async () => {
      const res = await postJson(t.app, '/api/newsletter', signup({ email: 'ANA@example.com' }));
      expect([res.statusCode, res.json()]).toEqual([201, { ok: true, next: 'confirm_email' }]);
    };
    await again();
    await again();
    expect(await confirmMails()).toBe(1);
    clock.advance(10 * MINUTE);
    await again();
    expect(await confirmMails()).toBe(2);
    expect((await subscription()).expires_at).toBe(new Date(START + 10 * MINUTE + 7 * DAY).toISOString());
    clock.advance(10 * MINUTE);
    await again();
    clock.advance(10 * MINUTE);
    await again();
    expect(await confirmMails()).toBe(3);
    clock.set(Date.parse('2026-11-24T00:00:00.000Z'));
    await again();
    expect(await confirmMails()).toBe(4);
    expect(await t.count('newsletter')).toBe(1);
  });

  it('stores one row and queues one mail for 20 concurrent signups of one address, answering each 201', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postJson(t.app, '/api/newsletter', signup({ email: i % 2 === 0 ? 'race@example.com' : 'RACE@Example.com' }))),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(20).fill(201));
    expect(await t.count('newsletter')).toBe(1);
    expect(await confirmMails()).toBe(1);
  });

  it('confirms with the link: opening it changes nothing, the form post confirms and lands on the confirmed page', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ lang: 'de' }));
    const row = await subscription();
    const { links } = testNewsletter(t.backend.consentDb);
    const token = links.sign('confirm', row, Date.parse(row.expires_at!));

    const opened = await t.app.inject({ method: 'GET', url: `/api/newsletter/confirm?token=${token}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/confirm?token=${encodeURIComponent(token)}`);
    expect((await subscription()).status).toBe('pending');

    clock.advance(MINUTE);
    const confirmed = await form(t.app, `/api/newsletter/confirm?token=${token}`, { lang: 'de' });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${TEST_SITE_URL}/de/newsletter/confirmed`);
    expect(await subscription()).toMatchObject({ status: 'confirmed', confirmed_at: new Date(START + MINUTE).toISOString(), expires_at: null });
    expect((await events()).map((e) => e.event)).toEqual(['subscribed', 'confirmed']);

    // A second click (or a JSON client) is told it is confirmed; a new signup is answered like any
    // other, and the address's owner is told by mail instead.
    const json = await postJson(t.app, '/api/newsletter/confirm', { token });
    expect([json.statusCode, json.json()]).toEqual([200, { ok: true, status: 'already_confirmed' }]);
    clock.advance(10 * MINUTE);
    const repeat = await postJson(t.app, '/api/newsletter', signup());
    expect([repeat.statusCode, repeat.json()]).toEqual([201, { ok: true, next: 'confirm_email' }]);
    expect(await t.rows("SELECT kind, status FROM outbox WHERE kind = 'newsletter_already_subscribed'")).toEqual([{ kind: 'newsletter_already_subscribed', status: 'pending' }]);
  });

  it('changes nothing for an expired or forged link, and says so on a localized page or as 410/400', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ lang: 'fr' }));
    const row = await subscription();
    const { links } = testNewsletter(t.backend.consentDb);
    const token = links.sign('confirm', row, Date.parse(row.expires_at!));
    const forged = links.sign('confirm', { ...row, email_lower: 'someone@else.example' }, Date.parse(row.expires_at!));

    const bad = await postJson(t.app, '/api/newsletter/confirm', { token: forged });
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'link_invalid']);
    const badForm = await form(t.app, `/api/newsletter/confirm?token=${encodeURIComponent(forged)}`, { lang: 'fr' });
    expect(badForm.headers.location).toBe(`${TEST_SITE_URL}/fr/newsletter/link-invalid`);
    const garbage = await form(t.app, '/api/newsletter/confirm?token=%3Cscript%3E', { lang: 'xx' });
    expect([garbage.statusCode, garbage.headers.location]).toEqual([303, `${TEST_SITE_URL}/newsletter/link-invalid`]);

    clock.set(Date.parse(row.expires_at!));
    const expired = await postJson(t.app, '/api/newsletter/confirm', { token });
    expect([expired.statusCode, expired.json().error.code]).toEqual([410, 'link_expired']);
    expect((await subscription()).status).toBe('pending');
    expect((await events()).map((e) => e.event)).toEqual(['subscribed']);
  });

  it('unsubscribes with one click (RFC 8058): the row and its queued mail go, an event without personal data stays', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ lang: 'it', name: 'Ana Secret' }));
    const row = await subscription();
    const { links } = testNewsletter(t.backend.consentDb);
    const token = links.sign('unsubscribe', row, null);

    const opened = await t.app.inject({ method: 'GET', url: `/api/newsletter/unsubscribe?token=${token}` });
    expect(opened.headers.location).toBe(`${TEST_SITE_URL}/it/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await t.count('newsletter')).toBe(1);

    const oneClick = await form(t.app, `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { 'List-Unsubscribe': 'One-Click' });
    expect([oneClick.statusCode, oneClick.json()]).toEqual([200, { ok: true, status: 'unsubscribed' }]);
    expect(await t.count('newsletter')).toBe(0);
    expect(await confirmMails()).toBe(0);
    const kept = await events();
    expect(kept.map((e) => [e.newsletter_id, e.event, e.lang])).toEqual([
      [null, 'subscribed', 'it'],
      [null, 'unsubscribed', 'it'],
    ]);
    expect(JSON.stringify(await t.rows('SELECT * FROM consent_events'))).not.toMatch(/ana|secret/i);

    // The page's button after that: the wish holds, the unsubscribed page shows.
    const again = await form(t.app, `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { lang: 'it' });
    expect([again.statusCode, again.headers.location]).toEqual([303, `${TEST_SITE_URL}/it/newsletter/unsubscribed`]);
  });

  it('refuses an unsubscribe token signed for another address', async () => {
    t = await testAppOn(kind);
    await postJson(t.app, '/api/newsletter', signup());
    const row = await subscription();
    const forged = testNewsletter(t.backend.consentDb).links.sign('unsubscribe', { ...row, email_lower: 'x@example.com' }, null);
    const res = await postJson(t.app, '/api/newsletter/unsubscribe', { token: forged });
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'link_invalid']);
    expect(await t.count('newsletter')).toBe(1);
  });
});

describe.each(BACKENDS)('newsletter single opt-in on %s', (kind) => {
  it('stores the signup confirmed at once, with both events and no mail, and answers a repeat alike, mailing the owner', async () => {
    t = await testAppOn(kind, { optIn: 'single' });
    const res = await postJson(t.app, '/api/newsletter', signup());
    expect([res.statusCode, res.json()]).toEqual([201, { ok: true }]);
    expect(await subscription()).toMatchObject({ status: 'confirmed', expires_at: null });
    expect((await events()).map((e) => e.event)).toEqual(['subscribed', 'confirmed']);
    expect(await confirmMails()).toBe(0);
    const repeat = await postJson(t.app, '/api/newsletter', signup());
    expect([repeat.statusCode, repeat.json()]).toEqual([201, { ok: true }]);
    expect(await t.count('outbox')).toBe(1);
    expect((await t.rows('SELECT kind FROM outbox'))[0]!.kind).toBe('newsletter_already_subscribed');
  });
});
