/**
 * A data-subject request for one person: the export holds the subscription with its consent
 * receipt (the exact wording), its consent events, a pending signup's earlier requests, the
 * contacts and the outbox rows about them, and the mailbox's mail counts;
 * erasure removes all of it and leaves one `erased` event without personal data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../ingest/clock.ts';
import { erasePerson } from '../../../ingest/ops/erase.ts';
import { exportPerson } from '../../../ingest/ops/export-person.ts';
import { personAddress as address } from '../../../ingest/ops/person-address.ts';
import { BACKENDS, type BackendTestApp, contact, postJson, signup, solvedCaptcha, tempDir, testAppOn, testNewsletter } from '../fixtures.ts';

let t: BackendTestApp;
const removals: Array<() => void> = [];
afterEach(async () => {
  await t?.close();
  while (removals.length > 0) removals.pop()!();
});

const START = Date.parse('2026-11-23T09:00:00.000Z');

describe.each(BACKENDS)('export and erase of one person on %s', (kind) => {
  it('exports everything held about an address in any case, then erases it all', async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ email: 'Ana@Example.com', lang: 'pt' }));
    const [row] = await t.rows("SELECT * FROM newsletter WHERE email_lower = 'ana@example.com'");
    const setup = testNewsletter(t.backend.consentDb);
    clock.advance(60_000);
    const token = setup.links.sign('confirm', row as never, Date.parse((row as { expires_at: string }).expires_at));
    await postJson(t.app, '/api/newsletter/confirm', { token });
    await postJson(t.app, '/api/contact', contact({ email: 'ANA@example.com', captcha: await solvedCaptcha(t.app) }));
    await postJson(t.app, '/api/contact', contact({ email: 'bo@example.com', captcha: await solvedCaptcha(t.app) }));
    const mail = tempDir();
    removals.push(mail.remove);

    const person = await exportPerson(t.backend.consentDb, address(' ana@EXAMPLE.com '), mail.dir, START + 120_000);
    expect(person.email).toBe('ana@example.com');
    expect(person.newsletter).toHaveLength(1);
    expect(person.newsletter[0]).toMatchObject({ email: 'Ana@example.com', status: 'confirmed', lang: 'pt', confirmed_at: new Date(START + 60_000).toISOString() });
    const wording = setup.wordings.find((w) => w.lang === 'pt')!;
    expect(person.consentReceipts).toEqual([{ hash: wording.hash, lang: 'pt', privacyVersion: wording.privacyVersion, wording: wording.wording }]);
    expect(person.consentEvents.map((e) => e.event)).toEqual(['subscribed', 'confirmed']);
    expect(person.contacts).toHaveLength(1);
    // The confirmation mail was still queued (no worker runs here): confirming dropped it; the sales mail is there.
    expect(person.outbox.map((o) => o.kind)).toEqual(['sales']);
    expect(JSON.stringify(person)).not.toContain('bo@example.com');

    const erased = await erasePerson(t.backend.consentDb, address('ANA@example.com'), mail.dir);
    expect(erased.rows).toEqual({ newsletter: 1, contacts: 1, outbox: 1 });
    const after = await exportPerson(t.backend.consentDb, address('ana@example.com'), mail.dir, START + 180_000);
    expect([after.newsletter, after.contacts, after.outbox, after.consentEvents]).toEqual([[], [], [], []]);
    const events = await t.rows('SELECT newsletter_id, event, lang FROM consent_events ORDER BY id');
    expect(events).toEqual([
      { newsletter_id: null, event: 'subscribed', lang: 'pt' },
      { newsletter_id: null, event: 'confirmed', lang: 'pt' },
      { newsletter_id: null, event: 'erased', lang: 'pt' },
    ]);
    expect(await t.count('contacts')).toBe(1);
  });

  it("exports a pending signup's earlier request and the mailbox's mail count, and erases both", async () => {
    const clock = manualClock(START);
    t = await testAppOn(kind, { clock });
    await postJson(t.app, '/api/newsletter', signup({ name: 'Someone Else', email: 'lu@example.com', lang: 'de' }));
    // Past the cap's 10 minutes: the address's owner signs up again, which replaces the request.
    clock.advance(11 * 60_000);
    await postJson(t.app, '/api/newsletter', signup({ name: 'Lu Owner', email: 'LU@example.com', lang: 'nl' }));
    const mail = tempDir();
    removals.push(mail.remove);

    const person = await exportPerson(t.backend.consentDb, address('lu@example.com'), mail.dir, clock.now());
    expect(person.newsletter).toMatchObject([{ name: 'Lu Owner', lang: 'nl', status: 'pending' }]);
    expect(person.signupRequests).toMatchObject([{ name: 'Someone Else', lang: 'de' }]);
    expect(person.mailCounts).toMatchObject([{ mailbox: 'lu@example.com', stream: 'newsletter', mails: 2 }]);

    await erasePerson(t.backend.consentDb, address('lu@example.com'), mail.dir);
    const after = await exportPerson(t.backend.consentDb, address('lu@example.com'), mail.dir, clock.now());
    expect([after.newsletter, after.signupRequests, after.mailCounts]).toEqual([[], [], []]);
    expect(await t.count('newsletter_requests')).toBe(0);
    expect(await t.count('mail_caps')).toBe(0);
  });
});
