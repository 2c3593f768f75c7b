/**
 * Newsletter signups on PostgreSQL share commits: concurrent signups are stored by a few
 * transactions (one WAL flush each), not one per request, and each signup keeps what a
 * transaction of its own would give it. A row's `xmin` names the transaction that inserted it,
 * so the tests count transactions in the database itself.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type NewsletterSignup, newsletterSchema } from '../../../../ingest/contract/schemas.ts';
import { type BackendTestApp, CONFIRMED, postJson, signup, testAppOn } from '../../fixtures.ts';

let t: BackendTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A validated signup, as the route hands it to the store. */
const validSignup = (email: string): NewsletterSignup => newsletterSchema.parse(signup({ email }));

const transactions = async (table: string) => Number((await t!.rows(`SELECT count(DISTINCT xmin::text) AS n FROM ${table}`))[0]!.n);

describe.skipIf(inject('postgresUrl') === null)('newsletter signups on PostgreSQL', () => {
  it('stores 40 concurrent signups with far fewer than 40 commits, each with its consent event and mail in its own row’s transaction', async () => {
    t = await testAppOn('postgres');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => postJson(t!.app, '/api/newsletter', signup({ email: `burst${i}@example.com` }))));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(40).fill(201));
    expect(await t.count('newsletter')).toBe(40);
    expect(await transactions('newsletter')).toBeLessThanOrEqual(10);
    // Never a subscription without its `subscribed` event or its confirmation mail, whatever the batch.
    const apart = await t.rows(`
      SELECT n.id FROM newsletter n
      LEFT JOIN consent_events e ON e.newsletter_id = n.id AND e.event = 'subscribed' AND e.xmin = n.xmin
      LEFT JOIN outbox o ON o.newsletter_id = n.id AND o.kind = 'newsletter_confirm' AND o.xmin = n.xmin
      WHERE e.id IS NULL OR o.id IS NULL`);
    expect(apart).toEqual([]);
    const { batches, jobs } = t.backend.groupCommitStats;
    expect(jobs).toBe(40);
    expect(batches).toBe(await transactions('newsletter'));
  });

  it('decides duplicates inside a batch and against stored rows: the first signup of an address wins, in any case', async () => {
    t = await testAppOn('postgres');
    const store = t.backend.submissions;
    const now = Date.now();
    expect(await store.subscribe(validSignup('b@example.com'), now, CONFIRMED)).toBe('created');
    const emails = ['a@example.com', 'B@example.com', 'A@Example.com', 'c@example.com', 'b@example.com'];
    const outcomes = await Promise.all(emails.map((email) => store.subscribe(validSignup(email), now, CONFIRMED)));
    expect(outcomes).toEqual(['created', 'duplicate', 'duplicate', 'created', 'duplicate']);
    const rows = await t.rows('SELECT email FROM newsletter ORDER BY email');
    expect(rows.map((row) => row.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    // Single opt-in: `subscribed` then `confirmed` for each stored address (exports list them by id), nothing for the duplicates.
    const events = await t.rows('SELECT n.email, e.event FROM consent_events e JOIN newsletter n ON n.id = e.newsletter_id ORDER BY e.id');
    expect(events.filter((row) => row.email !== 'b@example.com')).toEqual([
      { email: 'a@example.com', event: 'subscribed' },
      { email: 'a@example.com', event: 'confirmed' },
      { email: 'c@example.com', event: 'subscribed' },
      { email: 'c@example.com', event: 'confirmed' },
    ]);
    expect(events).toHaveLength(6);
  });

  it('fails only the signup whose row the database refuses, and stores the others of its batch', async () => {
    t = await testAppOn('postgres');
    const store = t.backend.submissions;
    const now = Date.now();
    // A NUL character is not valid text for PostgreSQL (22021): the contract never lets one through, the store is called directly here.
    const names = ['Ana', 'Bad\u0000Name', 'Eva'];
    const outcomes = await Promise.allSettled(names.map((name, i) => store.subscribe({ ...validSignup(`n${i}@example.com`), name }, now, CONFIRMED)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await t.count('newsletter')).toBe(2);
    expect(t.backend.isReady()).toBe(true);
  });

  it('commits the signups still queued when the store closes', async () => {
    t = await testAppOn('postgres', {}, { groupCommit: { maxBatch: 512, maxDelayMs: 1_000 } });
    const pending = Promise.all([0, 1, 2].map((i) => t!.backend.submissions.subscribe(validSignup(`late${i}@example.com`), Date.now(), CONFIRMED)));
    await t.backend.submissions.close();
    expect(await pending).toEqual(['created', 'created', 'created']);
    expect(await t.count('newsletter')).toBe(3);
  });

  it('counts the confirmation mails of a batch against the per-recipient cap: one mail per mailbox, refused signups not kept', async () => {
    t = await testAppOn('postgres');
    const store = t.backend.submissions;
    const now = Date.now();
    const pending = { status: 'pending' as const, expiresAt: now + 7 * 86_400_000, consentHash: 'h', privacyVersion: '2026-11-23' };
    expect(await store.subscribe(validSignup('c@example.com'), now, pending)).toBe('created');
    // In one batch: two addresses of one mailbox, a third of a mailbox mailed a moment ago, and a plain new one.
    const emails = ['ana+1@example.com', 'ana+2@example.com', 'c+x@example.com', 'd@example.com'];
    const outcomes = await Promise.all(emails.map((email) => store.subscribe(validSignup(email), now, pending)));
    expect(outcomes).toEqual(['created', 'capped', 'capped', 'created']);
    expect((await t.rows('SELECT email FROM newsletter ORDER BY email')).map((row) => row.email)).toEqual(['ana+1@example.com', 'c@example.com', 'd@example.com']);
    expect(await t.rows('SELECT mailbox, mails FROM mail_caps ORDER BY mailbox')).toEqual([
      { mailbox: 'ana@example.com', mails: 1 },
      { mailbox: 'c@example.com', mails: 1 },
      { mailbox: 'd@example.com', mails: 1 },
    ]);
    // Every kept subscription has its event and its mail; the refused ones left nothing behind.
    expect(Number((await t.rows("SELECT count(*) AS n FROM outbox WHERE kind = 'newsletter_confirm'"))[0]!.n)).toBe(3);
    expect(Number((await t.rows("SELECT count(*) AS n FROM consent_events WHERE event = 'subscribed'"))[0]!.n)).toBe(3);
    expect(t.backend.groupCommitStats.batches).toBeLessThanOrEqual(3);
  });
});
