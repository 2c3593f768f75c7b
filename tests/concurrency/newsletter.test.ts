/**
 * The newsletter's state changes under N identical requests at once: a signup (JSON and the plain
 * form), a repeat signup of a pending address and of a confirmed one, the confirmation (with one
 * link, with the links of two requests, against strangers' signups), the unsubscribe form, the
 * RFC 8058 one-click unsubscribe, signups of N spellings of one mailbox, and `ingest erase` of a
 * subscriber who keeps signing up. Each must have one effect, counted in the database (rows,
 * consent events, outbox rows) and at the SMTP peer (mails delivered), and the N answers must look
 * alike. Some scenarios build on the one before: one address signs up, signs up again, confirms,
 * signs up once more and unsubscribes; another signs up by the plain form and leaves by one click.
 * (One file, so that one cluster and one pair of replicas serve them all.)
 */
import { expect, it } from 'vitest';
import { signupBody } from '../helpers/form-bodies.ts';
import { execute, query } from '../helpers/ledger.ts';
import { type Books, books, grew, linkTokens, newestOneClick, newestToken, settled } from './support/books.ts';
import { type Answer, form, json } from './support/burst.ts';
import { type Erasure, holdSubscription, runErase, subscriptionRecords, untilWaiting } from './support/operator.ts';
import { atMost, count, exactly, fact, noServerError, sameShape, verdict } from './support/report.ts';
import { mailboxVariants, N, sendAtOnce, sendEachAtOnce, sendOnce, stackLabel } from './support/requests.ts';
import { onEachBackend, type Stack } from './support/stack.ts';

const JSON_SIGNUP = 'json-signup@example.com';
const FORM_SIGNUP = 'form-signup@example.com';
const TWO_REQUESTS = 'two-requests@example.com';
const STRANGER_RACE = 'stranger-race@example.com';
const CONFIRM_OR_LEAVE = 'confirm-or-leave@example.com';
const VARIANTS = mailboxVariants('signupbomb');
const ERASED = 'erase-me@example.com';
const ERASED_WHILE_HELD = 'erase-held@example.com';
const CHECK_INBOX = '201 {next,ok}';

// Moves the address's last mail 11 minutes into the past, as if the visitor had waited: the
// per-address throttle (one mail per 10 minutes) then lets one more mail out, and only one of N
// concurrent requests may take it. The throttle is kept on the subscription (last_confirm_mail_at)
// and, where the service has one, in the per-mailbox cap (mail_caps; for example.com the mailbox
// is the address itself).
async function waitedTenMinutes(stack: Stack, address: string): Promise<void> {
  const at = new Date(Date.now() - 11 * 60 * 1000).toISOString();
  await execute(stack.databaseUrl, `UPDATE newsletter SET last_confirm_mail_at = '${at}' WHERE email_lower = '${address}'`);
  await execute(stack.databaseUrl, `UPDATE mail_caps SET last_mail_at = '${at}' WHERE mailbox = '${address}'`).catch((error: unknown) => {
    if (!/mail_caps/.test((error as Error).message)) throw error;
  });
}

onEachBackend((stack) => {
  it(`signs up once when ${N} identical JSON signups of a new address arrive at once`, async () => {
    const before = await books(stack(), JSON_SIGNUP);
    const answers = await sendAtOnce(stack(), '/api/newsletter', json(signupBody(JSON_SIGNUP)));
    await settled(stack());
    const after = await books(stack(), JSON_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} JSON signups of a new address`, [
      sameShape(answers, CHECK_INBOX),
      count('subscriptions', after.subscriptions, exactly(1)),
      count('`subscribed` events', grew(before.events, after.events, 'subscribed'), exactly(1)),
      count('outbox rows', total(after.outbox) - total(before.outbox), exactly(1)),
      count('confirmation mails delivered', after.mails.confirmation, exactly(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });

  it(`signs up once when ${N} identical plain form signups of a new address arrive at once`, async () => {
    const before = await books(stack(), FORM_SIGNUP);
    const fields = { name: 'Ana Form', email: FORM_SIGNUP, privacyConsent: 'on', lang: 'es' };
    const answers = await sendAtOnce(stack(), '/api/newsletter', form(fields));
    await settled(stack());
    const after = await books(stack(), FORM_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} plain form signups of a new address`, [
      sameShape(answers, '303 → /es/newsletter/check-inbox'),
      count('subscriptions', after.subscriptions, exactly(1)),
      count('`subscribed` events', grew(before.events, after.events, 'subscribed'), exactly(1)),
      count('outbox rows', total(after.outbox) - total(before.outbox), exactly(1)),
      count('confirmation mails delivered', after.mails.confirmation, exactly(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });

  it(`sends at most one new confirmation mail when ${N} repeat signups of a pending address arrive at once`, async () => {
    await waitedTenMinutes(stack(), JSON_SIGNUP);
    const before = await books(stack(), JSON_SIGNUP);
    const answers = await sendAtOnce(stack(), '/api/newsletter', json(signupBody(JSON_SIGNUP, 'Ana Again')));
    await settled(stack());
    const after = await books(stack(), JSON_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} repeat signups of a pending address (last mail 11 min ago)`, [
      sameShape(answers, CHECK_INBOX),
      count('subscriptions', after.subscriptions, exactly(1)),
      // A repeat signup that may mail again may also record itself as the new request (issue 22 item 7): once at most.
      count('new `subscribed` events', grew(before.events, after.events, 'subscribed'), atMost(1)),
      count('new outbox rows', total(after.outbox) - total(before.outbox), atMost(1)),
      count('new confirmation mails delivered', after.mails.confirmation - before.mails.confirmation, atMost(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });

  it(`confirms once when ${N} confirmations with one link arrive at once`, async () => {
    const token = newestToken(stack(), JSON_SIGNUP, 'newsletterConfirm');
    expect(token, 'the confirmation mail has a confirmation link').toBeDefined();
    const before = await books(stack(), JSON_SIGNUP);
    const answers = await sendAtOnce(stack(), '/api/newsletter/confirm', json({ token: token! }));
    await settled(stack());
    const after = await books(stack(), JSON_SIGNUP);
    const confirmedAnswers = answers.filter((answer) => answer.body.includes('"status":"confirmed"')).length;
    verdict(`${stackLabel(stack())} · ${N} confirmations with one link`, [
      sameShape(answers, '200 {ok,status}'),
      fact('answers saying "confirmed" (now)', String(confirmedAnswers), 'reported', true),
      count('confirmed subscriptions', after.confirmed, exactly(1)),
      count('`confirmed` events', grew(before.events, after.events, 'confirmed'), exactly(1)),
      count('mails delivered', total(after.mails) - total(before.mails), exactly(0)),
      count('newsletter.confirmed webhook events', grew(before.webhooks, after.webhooks, 'newsletter.confirmed'), exactly(1)),
    ]);
  });

  // A repeated signup of a pending address replaces the request, and both mails' links work
  // (issue 22 item 7): N confirmations with each link, at once, still confirm once.
  it(`confirms once when ${N} confirmations with each of two requests' links arrive at once`, async () => {
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(TWO_REQUESTS, 'Ana First')))).status).toBe(201);
    await settled(stack());
    await waitedTenMinutes(stack(), TWO_REQUESTS);
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(TWO_REQUESTS, 'Ana Second')))).status).toBe(201);
    await settled(stack());
    const tokens = linkTokens(stack(), TWO_REQUESTS, 'newsletterConfirm');
    expect(tokens.length, 'two confirmation mails, one per request').toBe(2);
    const before = await books(stack(), TWO_REQUESTS);
    const answers = await sendEachAtOnce(
      stack(),
      Array.from({ length: 2 * N }, (_, i) => ({ path: '/api/newsletter/confirm', ...json({ token: tokens[i % 2]! }) })),
    );
    await settled(stack());
    const after = await books(stack(), TWO_REQUESTS);
    // Whichever link wins, the other one's posts are answered "already confirmed", as the service's
    // confirm() intends (subscriptions.ts keeps what binds the other requests' links for that).
    verdict(`${stackLabel(stack())} · ${N} confirmations with each of two requests' links`, [
      sameShape(answers, '200 {ok,status}'),
      count('confirmed subscriptions', after.confirmed, exactly(1)),
      count('`confirmed` events', grew(before.events, after.events, 'confirmed'), exactly(1)),
      count('mails delivered', total(after.mails) - total(before.mails), exactly(0)),
    ]);
  });

  // The visitor confirms while a stranger signs the same address up N times with other choices
  // (issue 22 item 7): whichever comes first, the confirmed subscription holds what the visitor
  // agreed to, and the address gets at most one more mail.
  it(`records the confirming visitor's choices when a confirmation and ${N} strangers' signups arrive at once`, async () => {
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(STRANGER_RACE, 'Ana Visitor')))).status).toBe(201);
    await settled(stack());
    const token = newestToken(stack(), STRANGER_RACE, 'newsletterConfirm');
    await waitedTenMinutes(stack(), STRANGER_RACE);
    const before = await books(stack(), STRANGER_RACE);
    const stranger = { ...signupBody(STRANGER_RACE, 'Mallory Stranger'), marketingConsent: true, lang: 'de' };
    const posts = [{ path: '/api/newsletter/confirm', ...json({ token: token! }) }, ...Array.from({ length: N }, () => ({ path: '/api/newsletter', ...json(stranger) }))];
    const [confirmed, ...signups] = await sendEachAtOnce(stack(), posts);
    await settled(stack());
    const after = await books(stack(), STRANGER_RACE);
    const [row] = await query<{ name: string; marketing_consent: number | string; lang: string }>(
      stack().databaseUrl,
      `SELECT name, marketing_consent, lang FROM newsletter WHERE email_lower = '${STRANGER_RACE}'`,
    );
    const choices = row === undefined ? 'none' : `${row.name}, marketing ${Number(row.marketing_consent)}, ${row.lang}`;
    verdict(`${stackLabel(stack())} · a confirmation and ${N} strangers' signups of the address at once`, [
      fact('confirmation answer', `${confirmed!.status} ${confirmed!.body.includes('"confirmed"') ? 'confirmed' : confirmed!.body.slice(0, 40)}`, '200 confirmed', confirmed!.status === 200 && confirmed!.body.includes('"status":"confirmed"')),
      sameShape(signups, CHECK_INBOX),
      count('confirmed subscriptions', after.confirmed, exactly(1)),
      count('`confirmed` events', grew(before.events, after.events, 'confirmed'), exactly(1)),
      fact('the subscription\'s choices', choices, 'Ana Visitor, marketing 0, es', choices === 'Ana Visitor, marketing 0, es'),
      count('new mails to the address', total(after.mails) - total(before.mails), atMost(1)),
    ]);
  });

  it(`answers ${N} signups of a confirmed address at once like any other, with at most one notice mail`, async () => {
    await waitedTenMinutes(stack(), JSON_SIGNUP);
    const before = await books(stack(), JSON_SIGNUP);
    const answers = await sendAtOnce(stack(), '/api/newsletter', json(signupBody(JSON_SIGNUP)));
    await settled(stack());
    const after = await books(stack(), JSON_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} signups of a confirmed address (last mail 11 min ago)`, [
      sameShape(answers, CHECK_INBOX),
      count('subscriptions (confirmed)', after.confirmed, exactly(1)),
      count('consent events', total(after.events) - total(before.events), exactly(0)),
      count('new confirmation mails delivered', after.mails.confirmation - before.mails.confirmation, exactly(0)),
      count('"already subscribed" mails delivered', after.mails.notice - before.mails.notice, atMost(1)),
    ]);
  });

  it(`unsubscribes once when ${N} unsubscribe form posts with one link arrive at once`, async () => {
    const token = newestToken(stack(), JSON_SIGNUP, 'newsletterUnsubscribe');
    expect(token, 'the mail has an unsubscribe link').toBeDefined();
    const before = await books(stack(), JSON_SIGNUP);
    // The unsubscribe page's button: a form posted back to its own address, which the host forwards to the API.
    const answers = await sendAtOnce(stack(), `/api/newsletter/unsubscribe?token=${encodeURIComponent(token!)}`, form({ lang: 'es' }));
    await settled(stack());
    const after = await books(stack(), JSON_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} unsubscribe form posts with one link`, [
      sameShape(answers, '303 → /es/newsletter/unsubscribed'),
      count('subscriptions', after.subscriptions, exactly(0)),
      count('`unsubscribed` events', grew(before.events, after.events, 'unsubscribed'), exactly(1)),
      count('mails delivered', total(after.mails) - total(before.mails), exactly(0)),
      count('newsletter.unsubscribed webhook events', grew(before.webhooks, after.webhooks, 'newsletter.unsubscribed'), exactly(1)),
    ]);
  });

  it(`unsubscribes once when ${N} RFC 8058 one-click posts arrive at once`, async () => {
    const confirm = newestToken(stack(), FORM_SIGNUP, 'newsletterConfirm');
    expect((await sendOnce(stack(), '/api/newsletter/confirm', json({ token: confirm! }))).status).toBe(200);
    const oneClick = newestOneClick(stack(), FORM_SIGNUP);
    expect(oneClick, 'the mail has a List-Unsubscribe address').toBeDefined();
    const before = await books(stack(), FORM_SIGNUP);
    const answers = await sendAtOnce(stack(), oneClick!, form({ 'List-Unsubscribe': 'One-Click' }));
    await settled(stack());
    const after = await books(stack(), FORM_SIGNUP);
    verdict(`${stackLabel(stack())} · ${N} one-click unsubscribes (List-Unsubscribe=One-Click)`, [
      sameShape(answers, '200 {ok,status}'),
      count('subscriptions', after.subscriptions, exactly(0)),
      count('`unsubscribed` events', grew(before.events, after.events, 'unsubscribed'), exactly(1)),
      count('mails delivered', total(after.mails) - total(before.mails), exactly(0)),
      count('newsletter.unsubscribed webhook events', grew(before.webhooks, after.webhooks, 'newsletter.unsubscribed'), exactly(1)),
    ]);
  });

  // The two links of one mail used at once (a mail program's one-click unsubscribe while the
  // visitor confirms): the subscription ends either way, with one unsubscribed event and no more
  // than one confirmed event before it.
  it(`ends the subscription once when ${N} confirmations and ${N} one-click unsubscribes of it arrive at once`, async () => {
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(CONFIRM_OR_LEAVE)))).status).toBe(201);
    await settled(stack());
    const token = newestToken(stack(), CONFIRM_OR_LEAVE, 'newsletterConfirm');
    const oneClick = newestOneClick(stack(), CONFIRM_OR_LEAVE);
    const before = await books(stack(), CONFIRM_OR_LEAVE);
    const confirm = { path: '/api/newsletter/confirm', ...json({ token: token! }) };
    const leave = { path: oneClick!, ...form({ 'List-Unsubscribe': 'One-Click' }) };
    const answers = await sendEachAtOnce(stack(), Array.from({ length: 2 * N }, (_, i) => (i % 2 === 0 ? confirm : leave)));
    await settled(stack());
    const after = await books(stack(), CONFIRM_OR_LEAVE);
    verdict(`${stackLabel(stack())} · ${N} confirmations and ${N} one-click unsubscribes at once`, [
      noServerError(answers),
      sameShape(answers.filter((_, i) => i % 2 === 1), '200 {ok,status}', 'one-click answers'),
      count('subscriptions', after.subscriptions, exactly(0)),
      count('`unsubscribed` events', grew(before.events, after.events, 'unsubscribed'), exactly(1)),
      count('`confirmed` events', grew(before.events, after.events, 'confirmed'), atMost(1)),
      count('mails delivered', total(after.mails) - total(before.mails), exactly(0)),
    ]);
  });

  it(`mails one mailbox at most once when ${N} signups of its variants (dots, +tags) arrive at once`, async () => {
    const before = await books(stack(), VARIANTS);
    const answers = await sendEachAtOnce(stack(), VARIANTS.map((email) => ({ path: '/api/newsletter', ...json(signupBody(email)) })));
    await settled(stack());
    const after = await books(stack(), VARIANTS);
    verdict(`${stackLabel(stack())} · ${N} signups of ${N} spellings of one Gmail mailbox`, [
      sameShape(answers, CHECK_INBOX),
      fact('subscriptions stored', String(after.subscriptions - before.subscriptions), 'reported', true),
      count('confirmation mails to the mailbox', after.mails.confirmation - before.mails.confirmation, atMost(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });

  // The operator's command meets bursts of N signups of the address it erases. Whatever the order
  // in which they meet, the result must be one the two could have made one after the other (see
  // erasureVerdict below).
  it(`erases an address once and leaves a whole subscription or none while ${N} signups of it arrive at once, again and again`, async () => {
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(ERASED)))).status).toBe(201);
    await settled(stack());
    const before = await books(stack(), ERASED);

    // Bursts of N signups from before the command starts until after it ended, with a pause
    // between them that leaves the two cores to the command too.
    const answers: Answer[] = [];
    let erasing = true;
    const started = Date.now();
    let tookMs = 0;
    const erasure = runErase(stack(), ERASED).finally(() => {
      erasing = false;
      tookMs = Date.now() - started;
    });
    let bursts = 0;
    while (erasing || bursts === 0) {
      answers.push(...(await sendAtOnce(stack(), '/api/newsletter', json(signupBody(ERASED)))));
      bursts += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    answers.push(...(await sendAtOnce(stack(), '/api/newsletter', json(signupBody(ERASED)))));
    const erased = await erasure;
    const title = `${stackLabel(stack())} · ingest erase against ${bursts + 1} bursts of ${N} signups of the same address`;
    await erasureVerdict(stack(), ERASED, title, { erased, tookMs, answers, before });
  });

  // The order that once deadlocked on PostgreSQL (the erase took the mailbox's mail count, then
  // waited for the subscription, which a repeat signup held while it waited for that count): N
  // repeat signups queue for the subscription's row behind a lock the test holds, the erase
  // queues after them, then the lock goes. Neither may fail; the erase must not die.
  it(`erases while ${N} repeat signups hold the subscription, without a deadlock (PostgreSQL)`, async ({ skip }) => {
    if (stack().backend !== 'postgres') skip();
    expect((await sendOnce(stack(), '/api/newsletter', json(signupBody(ERASED_WHILE_HELD)))).status).toBe(201);
    await settled(stack());
    const before = await books(stack(), ERASED_WHILE_HELD);
    const held = await holdSubscription(stack(), ERASED_WHILE_HELD);
    const started = Date.now();
    const burst = sendAtOnce(stack(), '/api/newsletter', json(signupBody(ERASED_WHILE_HELD)));
    const signupsWaiting = await untilWaiting(stack(), N, 10_000);
    let tookMs = 0;
    const erasure = runErase(stack(), ERASED_WHILE_HELD).finally(() => (tookMs = Date.now() - started));
    const allWaiting = await untilWaiting(stack(), signupsWaiting + 1, 30_000);
    await held.release();
    const [answers, erased] = await Promise.all([burst, erasure]);
    const title = `${stackLabel(stack())} · ingest erase queued behind ${N} repeat signups holding the subscription`;
    const lineUp = fact('sessions waiting for the row (signups, then with the erase)', `${signupsWaiting}, ${allWaiting}`, 'reported', true);
    await erasureVerdict(stack(), ERASED_WHILE_HELD, title, { erased, tookMs, answers, before }, [lineUp]);
  });
});

// What an erasure met by signups must leave: the command done and its erasure recorded as often
// as it reports a subscription removed; at most one subscription left and, if one is left, a whole
// one (its subscribed event, at most one outbox row); at most one confirmation mail for it; every
// signup answered alike.
async function erasureVerdict(
  stack: Stack,
  address: string,
  title: string,
  run: { erased: Erasure; tookMs: number; answers: Answer[]; before: Books },
  facts: ReturnType<typeof fact>[] = [],
): Promise<void> {
  const { erased, tookMs, answers, before } = run;
  await settled(stack);
  const after = await books(stack, address);
  const own = await subscriptionRecords(stack, address);
  const left = after.subscriptions;
  if (erased.code !== 0) process.stdout.write(`\ningest erase --email ${address} exited with ${erased.code}:\n${erased.output}\n`);
  verdict(title, [
    ...facts,
    fact('erase exit code', String(erased.code), '0', erased.code === 0),
    fact('erase took (ms)', String(tookMs), 'reported', true),
    fact('erase warned', /warning: (.*)/.exec(erased.output)?.[1] ?? 'no', 'reported', true),
    sameShape(answers, '201 {next,ok}'),
    count('subscriptions the erase reports', erased.newsletter, exactly(1)),
    count('`erased` events', grew(before.events, after.events, 'erased'), exactly(erased.newsletter)),
    count('subscriptions left', left, atMost(1)),
    count('new `subscribed` events', grew(before.events, after.events, 'subscribed'), atMost(1)),
    count('`subscribed` events of the subscription left', own.subscribed, exactly(left)),
    count('outbox rows of the subscription left', own.outbox, atMost(left)),
    count('new confirmation mails delivered', after.mails.confirmation - before.mails.confirmation, atMost(1)),
    count('mails delivered twice', after.duplicateMails, exactly(0)),
  ]);
}

// The sum of counts by kind.
function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
