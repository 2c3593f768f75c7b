/**
 * The contact form's state changes under N identical requests at once: a message with one
 * captcha token (the JavaScript form), a message sent by the plain form (JavaScript off: stored
 * unverified, a confirmation mail to the sender), the confirmation of such a message, and plain
 * form messages from N spellings of one mailbox. Each must have one effect, counted in the
 * database (contacts, outbox rows) and at the SMTP peer (the sender's confirmation mails, the
 * sales mails), and no answer may be a 5xx.
 */
import { expect, it } from 'vitest';
import { contactBody } from '../helpers/form-bodies.ts';
import { books, grew, newestToken, settled } from './support/books.ts';
import { form, json } from './support/burst.ts';
import { atMost, count, exactly, fact, noServerError, sameShape, verdict } from './support/report.ts';
import { mailboxVariants, N, sendAtOnce, sendEachAtOnce, stackLabel } from './support/requests.ts';
import { onEachBackend } from './support/stack.ts';

const WITH_CAPTCHA = 'captcha-sender@example.com';
const WITHOUT_JAVASCRIPT = 'plain-sender@example.com';
const VARIANTS = mailboxVariants('contactbomb');

// A plain form's fields (JavaScript off) for a message from `email`.
const plainContact = (email: string) => ({
  firstName: 'Ana',
  lastName: 'Plain',
  email,
  phone: '+34 600 000 000',
  companyName: 'Acme Datos',
  country: 'es',
  message: 'Sent without JavaScript, ten times at once.',
  lang: 'es',
});

onEachBackend((stack) => {
  it(`stores one contact when ${N} posts with one captcha token arrive at once`, async () => {
    const challenge = (await (await fetch(`${stack().urls[0]}/api/captcha`)).json()) as { a: number; b: number; token: string };
    const before = await books(stack(), WITH_CAPTCHA);
    const body = contactBody(WITH_CAPTCHA, 'One captcha token, posted ten times at once.', { token: challenge.token, answer: challenge.a + challenge.b });
    const answers = await sendAtOnce(stack(), '/api/contact', json(body));
    await settled(stack());
    const after = await books(stack(), WITH_CAPTCHA);
    verdict(`${stackLabel(stack())} · ${N} contact posts with one captcha token`, [
      noServerError(answers),
      count('answers 201 (stored)', answers.filter((answer) => answer.status === 201).length, exactly(1)),
      count('contacts stored', after.contacts - before.contacts, exactly(1)),
      count('sales outbox rows', grew(before.outbox, after.outbox, 'sales'), exactly(1)),
      count('sales mails delivered', after.mails.sales - before.mails.sales, exactly(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
      count('contact.received webhook events', grew(before.webhooks, after.webhooks, 'contact.received'), exactly(1)),
    ]);
  });

  it(`mails the sender at most once when ${N} identical plain form contacts arrive at once`, async () => {
    const before = await books(stack(), WITHOUT_JAVASCRIPT);
    const answers = await sendAtOnce(stack(), '/api/contact', form(plainContact(WITHOUT_JAVASCRIPT)));
    await settled(stack());
    const after = await books(stack(), WITHOUT_JAVASCRIPT);
    verdict(`${stackLabel(stack())} · ${N} plain form contacts (no JavaScript) from one address`, [
      sameShape(answers, '303 → /es/contact/check-inbox'),
      fact('contacts stored (unverified)', String(after.contacts - before.contacts), 'reported', true),
      count('confirmation mails to the sender', after.mails.contactConfirmation - before.mails.contactConfirmation, atMost(1)),
      count('sales mails delivered', after.mails.sales - before.mails.sales, exactly(0)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });

  it(`sends one sales mail when ${N} confirmations of a plain form contact arrive at once`, async () => {
    const token = newestToken(stack(), WITHOUT_JAVASCRIPT, 'contactConfirm');
    expect(token, 'the sender got a confirmation mail with a link').toBeDefined();
    const before = await books(stack(), WITHOUT_JAVASCRIPT);
    const answers = await sendAtOnce(stack(), '/api/contact/confirm', json({ token: token! }));
    await settled(stack());
    const after = await books(stack(), WITHOUT_JAVASCRIPT);
    const confirmedAnswers = answers.filter((answer) => answer.body.includes('"status":"confirmed"')).length;
    verdict(`${stackLabel(stack())} · ${N} contact confirmations with one link`, [
      sameShape(answers, '200 {ok,status}'),
      fact('answers saying "confirmed" (now)', String(confirmedAnswers), 'reported', true),
      count('contacts verified', after.verified - before.verified, exactly(1)),
      count('sales outbox rows', grew(before.outbox, after.outbox, 'sales'), exactly(1)),
      count('sales mails delivered', after.mails.sales - before.mails.sales, exactly(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
      count('contact.received webhook events', grew(before.webhooks, after.webhooks, 'contact.received'), exactly(1)),
    ]);
  });

  it(`mails one mailbox at most once when ${N} plain form contacts from its variants (dots, +tags) arrive at once`, async () => {
    const before = await books(stack(), VARIANTS);
    const answers = await sendEachAtOnce(stack(), VARIANTS.map((email) => ({ path: '/api/contact', ...form(plainContact(email)) })));
    await settled(stack());
    const after = await books(stack(), VARIANTS);
    verdict(`${stackLabel(stack())} · ${N} plain form contacts from ${N} spellings of one Gmail mailbox`, [
      sameShape(answers, '303 → /es/contact/check-inbox'),
      fact('contacts stored (unverified)', String(after.contacts - before.contacts), 'reported', true),
      count('confirmation mails to the mailbox', after.mails.contactConfirmation - before.mails.contactConfirmation, atMost(1)),
      count('mails delivered twice', after.duplicateMails, exactly(0)),
    ]);
  });
});
