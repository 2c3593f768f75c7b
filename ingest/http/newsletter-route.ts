/**
 * `POST /api/newsletter`: validates a signup with the contract and stores it durably.
 *
 * Double opt-in (the default): a new address is stored `pending` with its confirmation mail
 * queued, answered 201 `{ ok: true, next: 'confirm_email' }`. The same address again while
 * pending gets the same answer, and a new mail at most once per 10 minutes and three times a day
 * (the answer never tells which, so it says nothing about whether someone else signed up). A
 * confirmed address is answered 409 `already_subscribed`. Single opt-in: stored `confirmed`,
 * answered 201 `{ ok: true }`, 409 for a known address. A filled honeypot is answered 201 and dropped.
 *
 * The same route takes the plain HTML form (urlencoded, JavaScript off; see `plain-form-posts.ts`):
 * checked for its origin, validated by the same contract, and answered `303 See Other` to the
 * site's "check your inbox", "already subscribed", "confirmed" (single opt-in) or "not accepted"
 * page in the form's language.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SubscriptionLifecycle } from '../consent/subscriptions.ts';
import { newsletterSchema, type NewsletterSignup, type SubmitOk, validate } from '../contract/schemas.ts';
import { NOT_ACCEPTED_PAGES } from '../contract/service-pages.ts';
import { acceptFormBodies, isFormPost } from './form-body.ts';
import { formSubmissionHandler, type StoreOutcome } from './form-submission.ts';
import { checkbox, checkPlainForm, firstIssue, type PlainFormDeps, redirectFormErrors, toResultPage } from './plain-form-posts.ts';
import type { SignupTerms, SubmissionStore } from '../store/submission-store.ts';

/** What the route needs. */
export interface NewsletterRouteDeps {
  store: Pick<SubmissionStore, 'subscribe'>;
  lifecycle: Pick<SubscriptionLifecycle, 'repeatSignup'>;
  /** The terms a signup is stored under (opt-in mode, consent wording, link lifetime). */
  termsFor: (signup: NewsletterSignup, now: number) => SignupTerms;
  clock: Clock;
  /** Called when a confirmation mail was queued (wakes the outbox worker). */
  onMailQueued: () => void;
  /** Where plain HTML form posts are sent back to, and who may post them. */
  plainForms: PlainFormDeps;
}

const CHECK_INBOX: SubmitOk = { ok: true, next: 'confirm_email' };

// The form's fields in the order it shows them: the first one with an issue names the reason.
const FIELD_ORDER = ['name', 'email', 'privacyConsent', 'marketingConsent', 'lang'];

/** Registers the newsletter route on `app`. */
export async function newsletterRoute(app: FastifyInstance, deps: NewsletterRouteDeps): Promise<void> {
  const store = async (signup: NewsletterSignup): Promise<StoreOutcome> => {
    const now = deps.clock.now();
    const terms = deps.termsFor(signup, now);
    if ((await deps.store.subscribe(signup, now, terms)) === 'created') {
      if (terms.status === 'pending') deps.onMailQueued();
      return terms.status === 'pending' ? CHECK_INBOX : 'stored';
    }
    const repeat = await deps.lifecycle.repeatSignup(signup.email.toLowerCase(), now);
    if (repeat === 'confirmed' || terms.status === 'confirmed') return 'already_subscribed';
    if (repeat === 'queued') deps.onMailQueued();
    return CHECK_INBOX;
  };
  const json = formSubmissionHandler('newsletter', newsletterSchema, store);

  acceptFormBodies(app);
  redirectFormErrors(app, deps.plainForms);
  app.post('/api/newsletter', async (request, reply) => {
    if (!isFormPost(request.headers['content-type'])) return json(request, reply);
    // A plain HTML form (JavaScript off): the same contract, answered with a result page.
    const form = checkPlainForm(request, reply, deps.plainForms, 'newsletter', 'newsletterCheckInbox');
    if (form === null) return reply;
    const { fields, lang } = form;
    const body = {
      name: fields.name,
      email: fields.email,
      privacyConsent: checkbox(fields.privacyConsent),
      marketingConsent: checkbox(fields.marketingConsent),
      lang: fields.lang,
    };
    const result = validate(newsletterSchema, body);
    if (!result.ok) return toResultPage(reply, deps.plainForms, NOT_ACCEPTED_PAGES[firstIssue(result.fields, FIELD_ORDER)], lang);
    const outcome = await store(result.data);
    const page = outcome === 'already_subscribed' ? 'newsletterAlreadySubscribed' : outcome === 'stored' ? 'newsletterConfirmed' : 'newsletterCheckInbox';
    return toResultPage(reply, deps.plainForms, page, result.data.lang);
  });
}
