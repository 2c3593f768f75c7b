/**
 * Regression tests for issue 22 item 1: on PostgreSQL at READ COMMITTED (the pool gives each
 * transaction its own connection) the lifecycle read, then wrote, so ten concurrent requests with
 * one link each saw the row unchanged and each queued its side effect: 5 sales mails for one
 * contact link, 10 `confirmed` events for one subscription, 3 confirmation mails for 10 repeated
 * signups. Now each state change is a conditional write and only the request that got the row
 * back queues the effect. Ten identical requests at once, on SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { deletePersonalRows } from '../../../ingest/ops/delete-personal-rows.ts';
import { BACKENDS, type BackendTestApp, postJson, signup, TEST_SITE_URL, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
afterEach(async () => {
  await t?.close();
});

const N = 10;
const START = Date.parse('2026-11-23T09:00:00.000Z');
const count = async (text: string) => Number((await t.rows(text))[0]!.n);

type Row = { id: number; email_lower: string; created_at: string; consent_at: string; lang: string; expires_at: string };

function formPost(url: string, payload: string) {
  return t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE_URL }, payload });
}

describe.each(BACKENDS)('exactly once on %s', (kind) => {
  it('10 concurrent confirms of one newsletter link record one confirmed event and answer confirmed once', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    await postJson(t.app, '/api/newsletter', signup());
    const [row] = (await t.rows('SELECT * FROM newsletter')) as Row[];
    const token = testNewsletter(t.backend.consentDb).links.sign('confirm', { ...row!, created_at: row!.consent_at }, Date.parse(row!.expires_at));
    const answers = await Promise.all(Array.from({ length: N }, () => postJson(t.app, '/api/newsletter/confirm', { token })));
    const statuses = answers.map((res) => res.json().status as string);
    expect(statuses.filter((status) => status === 'confirmed')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'already_confirmed')).toHaveLength(N - 1);
    expect(await count("SELECT count(*) AS n FROM consent_events WHERE event = 'confirmed'")).toBe(1);
  });

  it('10 concurrent unsubscribes with one link record one unsubscribed event', async () => {
    t = await testAppOn(kind, { clock: manualClock(START), optIn: 'single' });
    await postJson(t.app, '/api/newsletter', signup());
    const [row] = (await t.rows('SELECT * FROM newsletter')) as Row[];
    const token = testNewsletter(t.backend.consentDb).links.sign('unsubscribe', row!, null);
    const answers = await Promise.all(
      Array.from({ length: N }, () => formPost(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, 'List-Unsubscribe=One-Click')),
    );
    expect(answers.map((res) => res.json())).toEqual(Array(N).fill({ ok: true, status: 'unsubscribed' }));
    expect(await t.count('newsletter')).toBe(0);
    expect(await count("SELECT count(*) AS n FROM consent_events WHERE event = 'unsubscribed'")).toBe(1);
  });

  it('10 concurrent confirms of one contact link queue one sales mail', async () => {
    t = await testAppOn(kind, { clock: manualClock(START) });
    await formPost('/api/contact', new URLSearchParams({ firstName: 'Lena', lastName: 'Vogel', email: 'lena@example.de', country: 'de', message: 'Hallo', lang: 'de' }).toString());
    const [row] = (await t.rows('SELECT * FROM contacts')) as Row[];
    const token = testNewsletter(t.backend.consentDb).links.sign('contact', row!, Date.parse(row!.expires_at));
    const answers = await Promise.all(Array.from({ length: N }, () => postJson(t.app, '/api/contact/confirm', { token })));
    expect(answers.map((res) => res.json().status).filter((status) => status === 'confirmed')).toHaveLength(1);
    expect(await count("SELECT count(*) AS n FROM outbox WHERE kind = 'sales'")).toBe(1);
  });

  it('10 concurrent repeat signups of a pending address queue one confirmation mail and one new request', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup());
    clock.advance(11 * 60_000);
    const answers = await Promise.all(Array.from({ length: N }, () => postJson(t.app, '/api/newsletter', signup({ name: 'Ana Again' }))));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(N).fill(201));
    expect(await count("SELECT count(*) AS n FROM outbox WHERE kind = 'newsletter_confirm'")).toBe(2);
    expect(await count("SELECT count(*) AS n FROM consent_events WHERE event = 'subscribed'")).toBe(2);
    expect(await t.count('newsletter_requests')).toBe(1);
    expect((await t.rows('SELECT mails FROM mail_caps'))[0]).toEqual({ mails: 2 });
  });

  it('10 concurrent signups of a confirmed address queue one "already subscribed" mail', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock, optIn: 'single' });
    await postJson(t.app, '/api/newsletter', signup());
    const answers = await Promise.all(Array.from({ length: N }, () => postJson(t.app, '/api/newsletter', signup())));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(N).fill(201));
    expect(await t.rows('SELECT kind FROM outbox')).toEqual([{ kind: 'newsletter_already_subscribed' }]);
  });

  it('erases an address while 10 signups of it run, without a deadlock (erase used to lock the mail count before the row)', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    const db = t.backend.consentDb;
    // What `ingest erase --email ana@example.com` runs.
    const erase = () => db.transaction((tx) => deletePersonalRows(db.kysely, tx, { column: 'email_lower', op: '=', value: 'ana@example.com' }));
    for (let round = 0; round < 5; round++) {
      clock.advance(11 * 60_000);
      await postJson(t.app, '/api/newsletter', signup());
      clock.advance(11 * 60_000);
      const signups = Array.from({ length: N }, () => postJson(t.app, '/api/newsletter', signup({ name: `Round ${round}` })));
      const [erased, ...answers] = await Promise.all([erase(), ...signups]);
      expect(erased.newsletter).toBeLessThanOrEqual(1);
      expect(answers.map((res) => res.statusCode)).toEqual(Array(N).fill(201));
      expect(await t.count('newsletter')).toBeLessThanOrEqual(1);
      await erase();
    }
  });
});
