/**
 * Regression tests for issue 22 item 6: the subscription status could be probed. A confirmed
 * address was answered 409 `already_subscribed` (plain form: the "already subscribed" page), any
 * other 201 / "check your inbox"; an unsubscribe token with a forged signature was answered
 * "unsubscribed" when its id did not exist and "invalid" when it did; a token id with leading
 * zeros named the same row as without them. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { BACKENDS, type BackendTestApp, postJson, signup, TEST_SITE_URL, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-11-23T09:00:00.000Z');
type Row = { id: number; email_lower: string; created_at: string; consent_at: string; lang: string; expires_at: string | null };

function form(url: string, fields: Record<string, string>) {
  return t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE_URL }, payload: new URLSearchParams(fields).toString() });
}

describe.each(BACKENDS)('no subscription-status oracle on %s', (kind) => {
  it('answers a confirmed address exactly like a new one, JSON and plain form, and mails its owner "already subscribed"', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ email: 'known@example.com', lang: 'it' }));
    const [row] = (await t.rows('SELECT * FROM newsletter')) as Row[];
    const token = testNewsletter(t.backend.consentDb).links.sign('confirm', { ...row!, created_at: row!.consent_at }, Date.parse(row!.expires_at!));
    expect((await postJson(t.app, '/api/newsletter/confirm', { token })).json().status).toBe('confirmed');
    clock.advance(60 * 60_000);

    const known = await postJson(t.app, '/api/newsletter', signup({ email: 'known@example.com', lang: 'it' }));
    const unknown = await postJson(t.app, '/api/newsletter', signup({ email: 'new@example.com', lang: 'it' }));
    expect([known.statusCode, known.json()]).toEqual([unknown.statusCode, unknown.json()]);
    expect([known.statusCode, known.json()]).toEqual([201, { ok: true, next: 'confirm_email' }]);

    clock.advance(60 * 60_000);
    const fields = { name: 'Rita', privacyConsent: 'true', lang: 'it' };
    const knownPage = await form('/api/newsletter', { ...fields, email: 'known@example.com' });
    const unknownPage = await form('/api/newsletter', { ...fields, email: 'other@example.com' });
    expect([knownPage.statusCode, knownPage.headers.location]).toEqual([unknownPage.statusCode, unknownPage.headers.location]);
    expect(knownPage.headers.location).toBe(`${TEST_SITE_URL}/it/newsletter/check-inbox`);

    expect(await t.rows("SELECT newsletter_id FROM outbox WHERE kind = 'newsletter_already_subscribed'")).toEqual([
      { newsletter_id: row!.id },
      { newsletter_id: row!.id },
    ]);
    expect((await t.rows(`SELECT status, name FROM newsletter WHERE id = ${row!.id}`))[0]).toEqual({ status: 'confirmed', name: 'Ana Pérez' });
  });

  it('answers a forged unsubscribe token the same whether or not its id exists, and a genuine one for a gone row "unsubscribed"', async () => {
    t = await testAppOn(kind, { optIn: 'single' });
    await postJson(t.app, '/api/newsletter', signup());
    const [row] = (await t.rows('SELECT * FROM newsletter')) as Row[];
    const forged = (id: number) => `u.en.${id}.0.${'A'.repeat(43)}`;
    const answers = async (token: string) => {
      const json = await postJson(t.app, '/api/newsletter/unsubscribe', { token });
      const page = await form(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { lang: 'en' });
      const oneClick = await form(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { 'List-Unsubscribe': 'One-Click' });
      return [json.statusCode, json.body, page.headers.location, oneClick.statusCode, oneClick.body];
    };
    const existing = await answers(forged(row!.id));
    expect(existing).toEqual(await answers(forged(row!.id + 1000)));
    expect(existing.slice(0, 3)).toEqual([400, expect.stringContaining('link_invalid'), `${TEST_SITE_URL}/newsletter/link-invalid`]);
    expect(await t.count('newsletter')).toBe(1);

    const genuine = testNewsletter(t.backend.consentDb).links.sign('unsubscribe', row!, null);
    expect((await postJson(t.app, '/api/newsletter/unsubscribe', { token: genuine })).json()).toEqual({ ok: true, status: 'unsubscribed' });
    expect((await postJson(t.app, '/api/newsletter/unsubscribe', { token: genuine })).json()).toEqual({ ok: true, status: 'unsubscribed' });
    expect(await t.rows("SELECT event FROM consent_events WHERE event = 'unsubscribed'")).toHaveLength(1);
  });

  it('refuses a link whose id has leading zeros, and changes nothing', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    await postJson(t.app, '/api/newsletter', signup());
    const [row] = (await t.rows('SELECT * FROM newsletter')) as Row[];
    const { links } = testNewsletter(t.backend.consentDb);
    const [p, lang, id, expires, sig] = links.sign('confirm', { ...row!, created_at: row!.consent_at }, Date.parse(row!.expires_at!)).split('.');
    const padded = await postJson(t.app, '/api/newsletter/confirm', { token: [p, lang, `00${id}`, expires, sig].join('.') });
    expect([padded.statusCode, padded.json().error.code]).toEqual([400, 'link_invalid']);
    const [u, ulang, uid, uexpires, usig, utag] = links.sign('unsubscribe', row!, null).split('.');
    const paddedUnsubscribe = await postJson(t.app, '/api/newsletter/unsubscribe', { token: [u, ulang, `0${uid}`, uexpires, usig, utag].join('.') });
    expect(paddedUnsubscribe.statusCode).toBe(400);
    expect(await t.rows('SELECT status FROM newsletter')).toEqual([{ status: 'pending' }]);
  });
});
