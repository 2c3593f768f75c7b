/**
 * Regression tests for issue 22 item 7: a pending signup made by someone else could not be
 * corrected — the stranger's name, language and consent choices stayed on the row the address's
 * owner later confirmed. A new signup of a pending address now replaces the pending request, each
 * request's link is bound to it, and confirming a link records the choices of the request it was
 * mailed for; a later signup does not void an earlier request's link. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { applyRetention } from '../../../ingest/ops/retention.ts';
import { deletePersonalRows } from '../../../ingest/ops/delete-personal-rows.ts';
import { BACKENDS, type BackendTestApp, postJson, signup, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const START = Date.parse('2026-11-23T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
type Row = { id: number; email_lower: string; created_at: string; consent_at: string; lang: string; expires_at: string; name: string; marketing_consent: number; consent_hash: string };

const STRANGER = { name: 'Mallory', lang: 'de', marketingConsent: true };
const OWNER = { name: 'Ana Pérez', lang: 'es', marketingConsent: false };

async function current(): Promise<Row> {
  return ((await t.rows("SELECT * FROM newsletter WHERE email_lower = 'ana@example.com'")) as Row[])[0]!;
}

/** The link of the request the row holds now, as its mail carries it. */
async function linkNow(): Promise<string> {
  const row = await current();
  return testNewsletter(t.backend.consentDb).links.sign('confirm', { ...row, created_at: row.consent_at }, Date.parse(row.expires_at));
}

const hashOf = (lang: string) => testNewsletter(t.backend.consentDb).wordings.find((w) => w.lang === lang)!.hash;

describe.each(BACKENDS)('replaced signup requests on %s', (kind) => {
  /** On a fresh app whose clock the test moves: the owner signs up, a stranger signs up the same address 11 minutes later; each request's link. */
  async function ownerThenStranger() {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    const ownerLink = await linkNow();
    clock.advance(11 * MINUTE);
    await postJson(t.app, '/api/newsletter', signup(STRANGER));
    return { clock, ownerLink, strangerLink: await linkNow() };
  }

  it("records the owner's choices when the owner signs up after a stranger and confirms the newest link", async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup(STRANGER));
    clock.advance(11 * MINUTE);
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    const ownerLink = await linkNow();
    clock.advance(MINUTE);
    expect((await postJson(t.app, '/api/newsletter/confirm', { token: ownerLink })).json().status).toBe('confirmed');
    expect(await current()).toMatchObject({ status: 'confirmed', name: 'Ana Pérez', lang: 'es', marketing_consent: 0, consent_hash: hashOf('es') });
    const events = await t.rows('SELECT event, lang, consent_hash FROM consent_events ORDER BY id');
    expect(events).toEqual([
      { event: 'subscribed', lang: 'de', consent_hash: hashOf('de') },
      { event: 'subscribed', lang: 'es', consent_hash: hashOf('es') },
      { event: 'confirmed', lang: 'es', consent_hash: hashOf('es') },
    ]);
    // The earlier request keeps only what binds its link: its choices are gone.
    expect(await t.rows('SELECT name, marketing_consent, consent_hash FROM newsletter_requests')).toEqual([{ name: '', marketing_consent: 0, consent_hash: null }]);
  });

  it("regression: the resend throttle's record (mails sent today, the last one's time) stayed on a confirmed subscription; it is cleared at confirmation", async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    clock.advance(11 * MINUTE);
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    expect(await t.rows('SELECT confirm_mails, confirm_mail_day, last_confirm_mail_at FROM newsletter')).toEqual([
      { confirm_mails: 2, confirm_mail_day: '2026-11-23', last_confirm_mail_at: new Date(START + 11 * MINUTE).toISOString() },
    ]);
    expect((await postJson(t.app, '/api/newsletter/confirm', { token: await linkNow() })).json().status).toBe('confirmed');
    expect(await t.rows('SELECT confirm_mails, confirm_mail_day, last_confirm_mail_at FROM newsletter')).toEqual([{ confirm_mails: 0, confirm_mail_day: null, last_confirm_mail_at: null }]);
  });

  it("keeps the owner's link working after a stranger's signup, and records the owner's choices, not the stranger's", async () => {
    const { clock, ownerLink } = await ownerThenStranger();
    expect(await current()).toMatchObject({ name: 'Mallory', lang: 'de', marketing_consent: 1 });
    expect(Number((await t.rows("SELECT count(*) AS n FROM outbox WHERE kind = 'newsletter_confirm'"))[0]!.n)).toBe(2);
    clock.advance(MINUTE);
    expect((await postJson(t.app, '/api/newsletter/confirm', { token: ownerLink })).json().status).toBe('confirmed');
    expect(await current()).toMatchObject({ status: 'confirmed', name: 'Ana Pérez', lang: 'es', marketing_consent: 0, consent_hash: hashOf('es') });
    expect((await t.rows("SELECT lang FROM consent_events WHERE event = 'confirmed'"))).toEqual([{ lang: 'es' }]);
  });

  it('regression: the newest link answered "link invalid" after an earlier request\'s link had confirmed; it answers "already confirmed"', async () => {
    const { clock, ownerLink, strangerLink } = await ownerThenStranger();
    clock.advance(MINUTE);
    expect((await postJson(t.app, '/api/newsletter/confirm', { token: ownerLink })).json().status).toBe('confirmed');
    const newest = await postJson(t.app, '/api/newsletter/confirm', { token: strangerLink });
    expect([newest.statusCode, newest.json().status]).toEqual([200, 'already_confirmed']);
    // The owner's choices stand; the newest request kept only what binds its link.
    expect(await current()).toMatchObject({ status: 'confirmed', name: 'Ana Pérez', lang: 'es' });
    expect(await t.rows('SELECT name, lang, marketing_consent, consent_hash FROM newsletter_requests ORDER BY id')).toEqual([
      { name: '', lang: 'es', marketing_consent: 0, consent_hash: null },
      { name: '', lang: 'de', marketing_consent: 0, consent_hash: null },
    ]);
    expect(await t.rows("SELECT event FROM consent_events WHERE event = 'confirmed'")).toEqual([{ event: 'confirmed' }]);
  });

  it('confirms with the choices of the request whose link was used, and with one request only', async () => {
    const { clock, ownerLink, strangerLink } = await ownerThenStranger();
    const [first, second] = await Promise.all([
      postJson(t.app, '/api/newsletter/confirm', { token: strangerLink }),
      postJson(t.app, '/api/newsletter/confirm', { token: ownerLink }),
    ]);
    expect([first.json().status, second.json().status].sort()).toEqual(['already_confirmed', 'confirmed']);
    const row = await current();
    const won = first.json().status === 'confirmed' ? STRANGER : OWNER;
    expect(row).toMatchObject({ name: won.name, lang: won.lang, marketing_consent: won.marketingConsent ? 1 : 0 });
    expect(await t.rows("SELECT lang FROM consent_events WHERE event = 'confirmed'")).toEqual([{ lang: won.lang }]);
  });

  it("changes nothing for a stranger's signup within the owner's 10 minutes (no mail, no new request)", async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    clock.advance(5 * MINUTE);
    await postJson(t.app, '/api/newsletter', signup(STRANGER));
    expect(await current()).toMatchObject({ name: 'Ana Pérez', lang: 'es' });
    expect(await t.count('newsletter_requests')).toBe(0);
  });

  it('deletes an earlier request once its link has expired, and erasing the address deletes its requests and mail counts', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    clock.advance(DAY);
    await postJson(t.app, '/api/newsletter', signup(STRANGER));
    expect(await t.count('newsletter_requests')).toBe(1);
    const report = await applyRetention(t.backend.consentDb, { now: START + 7 * DAY, linkDays: 7, mailDir: null });
    expect([report.signup_requests, report.pending_subscriptions, report.mail_caps]).toEqual([1, 0, 1]);
    expect([await t.count('newsletter_requests'), await t.count('newsletter'), await t.count('mail_caps')]).toEqual([0, 1, 0]);

    clock.set(START + 7 * DAY);
    await postJson(t.app, '/api/newsletter', signup(OWNER));
    expect([await t.count('newsletter_requests'), await t.count('mail_caps')]).toEqual([1, 1]);
    // What `ingest erase --email ana@example.com` deletes.
    const db = t.backend.consentDb;
    await db.transaction((tx) => deletePersonalRows(db.kysely, tx, { column: 'email_lower', op: '=', value: 'ana@example.com' }));
    expect([await t.count('newsletter'), await t.count('newsletter_requests'), await t.count('mail_caps')]).toEqual([0, 0, 0]);
  });
});
