/**
 * `GET /api/captcha` and `POST /api/contact`.
 *
 * A contact is validated with the contract (400 `invalid`), then its captcha answer is checked
 * (422 `captcha_failed` for wrong, expired or tampered), then the contact, its outbox row and the
 * captcha's nonce are stored in one transaction; if the nonce was already used the transaction
 * stores nothing and the answer is 422 too. Only then is the outbox worker woken: no email is
 * sent on the request path.
 *
 * The same route takes the plain HTML form (urlencoded, JavaScript off; see `plain-form-posts.ts`),
 * which cannot carry a fresh captcha: checked for its origin and validated without the captcha,
 * the message is stored unverified and its sender gets a confirmation mail (`contact_confirm`);
 * the visitor lands on "check your inbox". `POST /api/contact/confirm` with the mail's token
 * verifies the message and only then queues its sales mail; `GET` of the link only redirects to
 * the page with the button. Unconfirmed messages are deleted when the link expires (retention).
 */
import type { FastifyInstance } from 'fastify';
import { type CaptchaRandom, createChallenge, verifyAnswer } from './captcha.ts';
import type { Clock } from '../clock.ts';
import type { ConsentLinks } from '../consent/links.ts';
import type { ContactVerification } from '../consent/contact-verification.ts';
import { contactSchema, plainContactSchema, validate } from '../contract/schemas.ts';
import { NOT_ACCEPTED_PAGES } from '../contract/service-pages.ts';
import { acceptFormBodies, isFormPost } from './form-body.ts';
import { formSubmissionHandler } from './form-submission.ts';
import { checkPlainForm, firstIssue, type PlainFormDeps, redirectFormErrors, toResultPage } from './plain-form-posts.ts';
import { openLinkRoute, sendConfirmOutcome, tokenOf } from './token-links.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/** What the routes need. */
export interface ContactRouteDeps {
  store: Pick<SubmissionStore, 'submitContact' | 'submitUnverifiedContact'>;
  /** Confirms a contact sent without JavaScript. */
  verification: Pick<ContactVerification, 'confirmContact'>;
  links: Pick<ConsentLinks, 'parse'>;
  /** How long a contact's confirmation link works, in days. */
  linkDays: number;
  /** Where plain HTML form posts are sent back to, and who may post them. */
  plainForms: PlainFormDeps;
  clock: Clock;
  captchaSecret: string;
  captchaRandom?: CaptchaRandom;
  /** Per-IP limit for challenges (more generous than for posts: a visitor may reload). */
  captchaRateLimit: { max: number; timeWindow: number };
  /** Called after a contact is committed, to wake the outbox worker. */
  onContactStored: () => void;
}

/** Registers the captcha and contact routes on `app`. */
export async function contactRoute(app: FastifyInstance, deps: ContactRouteDeps): Promise<void> {
  app.get('/api/captcha', { config: { rateLimit: deps.captchaRateLimit } }, async () =>
    createChallenge(deps.captchaSecret, deps.clock.now(), deps.captchaRandom),
  );

  const json = formSubmissionHandler('contact', contactSchema, async (contact, request) => {
    const now = deps.clock.now();
    const check = verifyAnswer(deps.captchaSecret, contact.captcha.token, contact.captcha.answer, now);
    if (!check.ok) {
      request.log.info({ form: 'contact', captcha: check.reason }, 'captcha refused');
      return 'captcha_failed';
    }
    const outcome = await deps.store.submitContact(contact, { value: check.nonce, expiresAt: check.expiresAt }, now);
    if (outcome === 'captcha_reused') {
      request.log.info({ form: 'contact', captcha: 'reused' }, 'captcha refused');
      return 'captcha_failed';
    }
    deps.onContactStored();
    return 'stored';
  });

  acceptFormBodies(app);
  redirectFormErrors(app, deps.plainForms);
  app.post('/api/contact', async (request, reply) => {
    if (!isFormPost(request.headers['content-type'])) return json(request, reply);
    // A plain HTML form (JavaScript off): no captcha, so the sender confirms the address first.
    const form = checkPlainForm(request, reply, deps.plainForms, 'contact', 'contactCheckInbox');
    if (form === null) return reply;
    const { fields, lang } = form;
    const given = (name: string) => (fields[name] === '' ? undefined : fields[name]);
    const body = Object.fromEntries(
      ['firstName', 'lastName', 'email', 'phone', 'companyName', 'country', 'message', 'lang', 'intent', 'sourcePage'].map((name) => [name, given(name)]),
    );
    const result = validate(plainContactSchema, body);
    if (!result.ok) return toResultPage(reply, deps.plainForms, NOT_ACCEPTED_PAGES[firstIssue(result.fields, CONTACT_FIELD_ORDER)], lang);
    const now = deps.clock.now();
    await deps.store.submitUnverifiedContact(result.data, now, now + deps.linkDays * DAY_MS);
    deps.onContactStored();
    return toResultPage(reply, deps.plainForms, 'contactCheckInbox', result.data.lang);
  });

  // The link in the sender's confirmation mail: opening it shows the page; only its button's post acts.
  const linkDeps = { links: deps.links, urls: deps.plainForms.urls };
  openLinkRoute(app, linkDeps, { path: '/api/contact/confirm', purpose: 'contact', page: 'contactConfirm', invalidPage: 'contactLinkInvalid' });
  app.post('/api/contact/confirm', async (request, reply) => {
    const outcome = await deps.verification.confirmContact(tokenOf(request), deps.clock.now());
    if (outcome === 'confirmed') deps.onContactStored();
    return sendConfirmOutcome(request, reply, linkDeps, outcome, { purpose: 'contact', done: 'contactConfirmed', invalid: 'contactLinkInvalid' });
  });
}

// The form's fields in the order it shows them: the first one with an issue names the reason.
const CONTACT_FIELD_ORDER = ['intent', 'firstName', 'lastName', 'email', 'phone', 'companyName', 'country', 'message', 'lang'];

const DAY_MS = 24 * 60 * 60 * 1000;

