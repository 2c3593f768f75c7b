/**
 * `GET /api/captcha` and `POST /api/contact`.
 *
 * A contact is validated with the contract (400 `invalid`), then its captcha answer is checked:
 * a genuine token answered too soon after it was issued is 422 `captcha_too_fast`, answered
 * wrongly 422 `captcha_failed`, and either way its nonce is spent before the answer goes out, so
 * the same token cannot be tried again; a forged, malformed or expired token is 422
 * `captcha_failed` too. A right answer stores the contact, its outbox row and the nonce in one
 * transaction; if the nonce was already spent the transaction stores nothing and the answer is
 * 422. Only then is the outbox worker woken: no email is sent on the request path.
 *
 * The same route takes the plain HTML form (urlencoded, JavaScript off; see `plain-form-posts.ts`),
 * which cannot carry a captcha (the question exists only in the island, the page is static), so
 * there is no token to spend and no issue time to wait for: checked for its origin and validated
 * without the captcha, the message is stored unverified and its sender gets a confirmation mail
 * (`contact_confirm`); the visitor lands on "check your inbox". Its source page is the path of the
 * post's `Referer` (the page the form was on, checked as the JSON route checks `sourcePage`). The
 * confirmation mail counts against the per-recipient cap (`store/mail-caps.ts`: one per 10 minutes,
 * three per UTC day per mailbox, shared by the replicas); over it, the message is not stored at all
 * — its sender could never confirm it, so it would only wait to be deleted — and the visitor lands
 * on the same page (the answer never tells whether a mail went out). A sender who wrote twice
 * within 10 minutes confirms the first message; the second must be sent again later. `POST
 * /api/contact/confirm` with the mail's token verifies the message and only then queues its sales
 * mail; `GET` of the link only redirects to the page with the button. Unconfirmed messages are
 * deleted when the link expires (retention).
 *
 * Besides the app-wide per-minute limit, contact posts of either kind have a daily cap per client
 * address, and its multiples for an IPv6 client's /56 and /48 (429 `rate_limited` with
 * `Retry-After`; a plain form lands on "too many attempts"), counted for every post, stored or
 * refused — but not for one from another website, which is refused before any counter
 * (`origin-check.ts`; the cap runs at `preHandler`). The posts every per-client limit let through
 * count against the form's hourly ceiling from all clients together (`form-ceiling.ts`): over it,
 * 429 `busy`, or the "not stored" page for a plain form.
 */
import type { FastifyInstance } from 'fastify';
import { type CaptchaRandom, createChallenge, verifyAnswer } from './captcha.ts';
import type { Clock } from '../../clock.ts';
import type { ConsentLinks } from '../../consent/links.ts';
import type { ContactVerification } from '../../consent/contact-verification.ts';
import { contactSchema, plainContactSchema, validate } from '../../contract/schemas.ts';
import { NOT_ACCEPTED_PAGES } from '../../contract/service-pages.ts';
import { dailyCap } from '../limits/daily-cap.ts';
import { type CeilingOptions, formCeiling } from './form-ceiling.ts';
import type { Ipv6Factors } from '../limits/ipv6-networks.ts';
import { acceptFormBodies, isFormPost } from '../form-body.ts';
import { formSubmissionHandler } from './form-submission.ts';
import { checkPlainForm, firstIssue, formSourcePage, type PlainFormDeps, redirectFormErrors, toResultPage } from './plain-form-posts.ts';
import { openLinkRoute, sendConfirmOutcome, tokenOf } from '../links/token-links.ts';
import type { SubmissionStore } from '../../store/submission-store.ts';


/** What the routes need. */
export interface ContactRouteDeps {
  store: Pick<SubmissionStore, 'submitContact' | 'submitUnverifiedContact' | 'spendNonce'>;
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
  /** How soon after a challenge was issued an answer is accepted (ms). */
  captchaMinFillMs: number;
  /** Per-IP limit for challenges (more generous than for posts: a visitor may reload). */
  captchaRateLimit: { max: number; timeWindow: number };
  /** Per-IP cap on contact posts over a longer window (a day), on top of the app-wide limit (an IPv6 /56 and /48 the multiples `ipv6Factors` say). */
  contactDailyLimit: { max: number; timeWindow: number };
  ipv6Factors: Ipv6Factors;
  /** Contact posts per hour from all clients together, on every replica. */
  hourlyCeiling: CeilingOptions;
  /** Called after a contact is committed, to wake the outbox worker. */
  onContactStored: () => void;
}

/** Registers the captcha and contact routes on `app` (after `@fastify/rate-limit`). */
export async function contactRoute(app: FastifyInstance, deps: ContactRouteDeps): Promise<void> {
  app.get('/api/captcha', { config: { rateLimit: deps.captchaRateLimit } }, async () =>
    createChallenge(deps.captchaSecret, deps.clock.now(), deps.captchaMinFillMs, deps.captchaRandom),
  );

  const perDay = dailyCap(app, 'contact', deps.contactDailyLimit, deps.ipv6Factors);
  const ceiling = formCeiling(app, 'contact', deps.hourlyCeiling, deps.plainForms);

  const json = formSubmissionHandler('contact', contactSchema, async (contact, request) => {
    const now = deps.clock.now();
    const check = verifyAnswer(deps.captchaSecret, contact.captcha.token, contact.captcha.answer, now, deps.captchaMinFillMs);
    if (!check.ok) {
      // Spent before answering, so a retry with the same token, even right away, finds it used.
      if ('nonce' in check) await deps.store.spendNonce(check.nonce, now);
      request.log.info({ form: 'contact', captcha: check.reason }, 'captcha refused');
      return check.reason === 'too_fast' ? 'captcha_too_fast' : 'captcha_failed';
    }
    const outcome = await deps.store.submitContact(contact, check.nonce, now);
    if (outcome === 'captcha_reused') {
      request.log.info({ form: 'contact', captcha: 'reused' }, 'captcha refused');
      return 'captcha_failed';
    }
    deps.onContactStored();
    return 'stored';
  });

  acceptFormBodies(app);
  redirectFormErrors(app, deps.plainForms);
  app.post('/api/contact', { preHandler: perDay }, async (request, reply) => {
    const paused = await ceiling(request, reply);
    if (paused !== null) return paused;
    if (!isFormPost(request.headers['content-type'])) return json(request, reply);
    // A plain HTML form (JavaScript off): no captcha, so the sender confirms the address first.
    const form = checkPlainForm(request, reply, deps.plainForms, 'contact', 'contactCheckInbox');
    if (form === null) return reply;
    const { fields, lang } = form;
    const given = (name: string) => (fields[name] === '' ? undefined : fields[name]);
    const body = Object.fromEntries(
      ['firstName', 'lastName', 'email', 'phone', 'companyName', 'country', 'message', 'lang', 'intent', 'sourcePage'].map((name) => [name, given(name)]),
    );
    // The form itself carries no source page (the page is static): the browser's Referer names it.
    body.sourcePage ??= formSourcePage(request.headers.referer, deps.plainForms);
    const result = validate(plainContactSchema, body);
    if (!result.ok) return toResultPage(reply, deps.plainForms, NOT_ACCEPTED_PAGES[firstIssue(result.fields, CONTACT_FIELD_ORDER)], lang);
    const now = deps.clock.now();
    // Over the sender's mail cap nothing is stored, and the page is the same (no oracle; see the module's comment).
    if ((await deps.store.submitUnverifiedContact(result.data, now, now + deps.linkDays * DAY_MS)) === 'queued') deps.onContactStored();
    else request.log.info({ form: 'contact', mail: 'capped' }, 'confirmation mail over the per-recipient cap, message not stored');
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

