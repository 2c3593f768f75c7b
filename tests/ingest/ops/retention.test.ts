/**
 * The retention table at its boundaries, with a clock we set: an unconfirmed signup goes when its
 * newest link expires (leaving an `expired` event without personal data), a confirmed one never
 * goes by age, a contact goes 730 days after it was received; a dry run changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { applyRetention } from '../../../ingest/ops/retention.ts';
import { BACKENDS, type BackendTestApp, contact, postJson, signup, solvedCaptcha, TEST_SITE_URL, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-01-10T12:00:00.000Z');
const DAY = 86_400_000;

describe.each(BACKENDS)('retention on %s', (kind) => {
  it('deletes a pending signup exactly when its newest link expires, and never a confirmed one', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ email: 'pending@example.com', lang: 'nl' }));
    await postJson(t.app, '/api/newsletter', signup({ email: 'confirmed@example.com' }));
    const [row] = await t.rows("SELECT * FROM newsletter WHERE email_lower = 'confirmed@example.com'");
    const { links } = testNewsletter(t.backend.consentDb);
    const token = links.sign('confirm', row as never, Date.parse((row as { expires_at: string }).expires_at));
    expect((await postJson(t.app, '/api/newsletter/confirm', { token })).statusCode).toBe(200);

    const db = t.backend.consentDb;
    const at = (ms: number, dryRun = false) => applyRetention(db, { now: ms, linkDays: 7, mailDir: null, dryRun });
    expect((await at(START + 7 * DAY - 1)).pending_subscriptions).toBe(0);
    expect((await at(START + 7 * DAY, true)).pending_subscriptions).toBe(1);
    expect(await t.count('newsletter')).toBe(2);
    expect((await at(START + 7 * DAY)).pending_subscriptions).toBe(1);
    const left = await t.rows('SELECT email_lower, status FROM newsletter');
    expect(left).toEqual([{ email_lower: 'confirmed@example.com', status: 'confirmed' }]);
    const expired = await t.rows("SELECT newsletter_id, lang FROM consent_events WHERE event = 'expired'");
    expect(expired).toEqual([{ newsletter_id: null, lang: 'nl' }]);

    // Ten years on, the confirmed subscription is still there.
    await at(START + 3650 * DAY);
    expect(await t.count('newsletter')).toBe(1);
  });

  it('keeps a contact for 730 days after it was received, then deletes it with its outbox row', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    expect((await postJson(t.app, '/api/contact', contact({ captcha: await solvedCaptcha(t.app) }))).statusCode).toBe(201);
    const db = t.backend.consentDb;
    expect((await applyRetention(db, { now: START + 730 * DAY, linkDays: 7, mailDir: null })).contacts).toBe(0);
    expect((await applyRetention(db, { now: START + 730 * DAY + 1, linkDays: 7, mailDir: null })).contacts).toBe(1);
    expect(await t.count('contacts')).toBe(0);
    expect(await t.count('outbox')).toBe(0);
  });

  it("regression: a confirmed no-JS contact's confirmation mail row stayed 730 days with the contact; it goes when its link has expired", async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    const form = new URLSearchParams({ firstName: 'Lena', lastName: 'Vogel', email: 'lena@example.de', country: 'de', message: 'Hallo', lang: 'de', intent: 'demo', privacyConsent: 'true', website: '' });
    const posted = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE_URL }, payload: form.toString() });
    expect(posted.statusCode).toBe(303);
    // The worker sent the confirmation mail, then the sender clicked its link.
    await t.rows("UPDATE outbox SET status = 'sent', sent_at = created_at WHERE kind = 'contact_confirm'");
    const [row] = (await t.rows('SELECT * FROM contacts')) as Array<{ expires_at: string }>;
    const token = testNewsletter(t.backend.consentDb).links.sign('contact', row as never, Date.parse(row!.expires_at));
    clock.advance(60_000);
    await t.app.inject({ method: 'POST', url: `/api/contact/confirm?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'lang=de' });
    expect(await t.rows('SELECT kind FROM outbox ORDER BY id')).toEqual([{ kind: 'contact_confirm' }, { kind: 'sales' }]);

    const db = t.backend.consentDb;
    expect((await applyRetention(db, { now: START + 7 * DAY - 1, linkDays: 7, mailDir: null })).confirmation_mail_rows).toBe(0);
    expect((await applyRetention(db, { now: START + 7 * DAY + 1, linkDays: 7, mailDir: null })).confirmation_mail_rows).toBe(1);
    expect(await t.rows('SELECT kind FROM outbox ORDER BY id')).toEqual([{ kind: 'sales' }]);
    expect(await t.count('contacts')).toBe(1);
  });
});
