/**
 * `POST /api/newsletter`: validates a signup with the contract and stores it durably.
 *
 * Every valid signup gets the same answer, whatever the address's state, so the answer never
 * tells whether an address is subscribed or whether someone else signed it up:
 *
 * | mode | answer (JSON) | plain form lands on |
 * |---|---|---|
 * | double opt-in (default) | 201 `{ ok: true, next: 'confirm_email' }` | "check your inbox" |
 * | single opt-in | 201 `{ ok: true }` | "confirmed" |
 *
 * What happens behind it: a new address is stored (double opt-in: `pending`, with its
 * confirmation mail; single: `confirmed`); a pending one gets the new signup as its request and a
 * new confirmation mail; a confirmed one stays as it is and its owner gets a short "you are
 * already subscribed" mail (`consent/subscriptions.ts`). Every one of those mails counts against
 * the per-recipient cap (`store/mail-caps.ts`: one per 10 minutes, three per UTC day per mailbox);
 * over it nothing is stored or sent. A filled honeypot is answered 201 and dropped.
 *
 * Besides the app-wide per-minute limit, signups have a daily cap per client IP
 * (`RATE_LIMIT_NEWSLETTER_DAILY_MAX`, default 50, and its multiples for an IPv6 client's /56 and
 * /48; 429 `rate_limited`, a plain form lands on "too many attempts"), counted for every post that
 * passed the origin check; and an hourly ceiling from all clients together
 * (`RATE_LIMIT_NEWSLETTER_HOURLY_CEILING`; `form-ceiling.ts`), counted for every post that passed
 * the per-client limits.
 *
 * The same route takes the plain HTML form (urlencoded, JavaScript off; see `plain-form-posts.ts`),
 * validated by the same contract and answered `303 See Other` to the page above or "not accepted",
 * in the form's language.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { SubscriptionLifecycle } from '../../consent/subscriptions.ts';
import { newsletterSchema, type NewsletterSignup, type SubmitOk, validate } from '../../contract/schemas.ts';
import { NOT_ACCEPTED_PAGES } from '../../contract/service-pages.ts';
import { dailyCap } from '../limits/daily-cap.ts';
import { type CeilingOptions, formCeiling } from './form-ceiling.ts';
import type { Ipv6Factors } from '../limits/ipv6-networks.ts';
import { acceptFormBodies, isFormPost } from '../form-body.ts';
import { formSubmissionHandler, type StoreOutcome } from './form-submission.ts';
import { checkbox, checkPlainForm, firstIssue, type PlainFormDeps, redirectFormErrors, toResultPage } from './plain-form-posts.ts';
import type { SignupTerms, SubmissionStore } from '../../store/submission-store.ts';

/** What the route needs. */
export interface NewsletterRouteDeps {
  store: Pick<SubmissionStore, 'subscribe'>;
  lifecycle: Pick<SubscriptionLifecycle, 'repeatSignup'>;
  /** The terms a signup is stored under (opt-in mode, consent wording, link lifetime). */
  termsFor: (signup: NewsletterSignup, now: number) => SignupTerms;
  clock: Clock;
  /** Signups a client IP may post per day (an IPv6 /56 and /48 the multiples `ipv6Factors` say). */
  dailyLimit: { max: number; timeWindow: number };
  ipv6Factors: Ipv6Factors;
  /** Signups per hour from all clients together, on every replica. */
  hourlyCeiling: CeilingOptions;
  /** Called when a mail was queued (wakes the outbox worker). */
  onMailQueued: () => void;
  /** Where plain HTML form posts are sent back to, and who may post them. */
  plainForms: PlainFormDeps;
}


const CHECK_INBOX: SubmitOk = { ok: true, next: 'confirm_email' };

// The form's fields in the order it shows them: the first one with an issue names the reason.
const FIELD_ORDER = ['name', 'email', 'privacyConsent', 'marketingConsent', 'lang'];

/** Registers the newsletter route on `app`. */
export async function newsletterRoute(app: FastifyInstance, deps: NewsletterRouteDeps): Promise<void> {
  const store = async (signup: NewsletterSignup, request: FastifyRequest): Promise<StoreOutcome> => {
    const now = deps.clock.now();
    const terms = deps.termsFor(signup, now);
    const stored = await deps.store.subscribe(signup, now, terms);
    // A stored address: a new request or the "already subscribed" notice, if the cap allows a mail.
    const repeat = stored === 'duplicate' ? await deps.lifecycle.repeatSignup(signup, now, terms) : null;
    if ((stored === 'created' && terms.status === 'pending') || repeat === 'queued' || repeat === 'notified') deps.onMailQueued();
    else if (stored !== 'created') request.log.info({ form: 'newsletter', mail: 'none' }, 'signup answered without a mail (per-recipient cap, or address gone)');
    // The same answer whatever happened: it says nothing about the address.
    return terms.status === 'pending' ? CHECK_INBOX : 'stored';
  };
  const json = formSubmissionHandler('newsletter', newsletterSchema, store);

  const ceiling = formCeiling(app, 'newsletter', deps.hourlyCeiling, deps.plainForms);

  acceptFormBodies(app);
  redirectFormErrors(app, deps.plainForms);
  app.post('/api/newsletter', { preHandler: dailyCap(app, 'newsletter', deps.dailyLimit, deps.ipv6Factors) }, async (request, reply) => {
    const paused = await ceiling(request, reply);
    if (paused !== null) return paused;
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
    const outcome = await store(result.data, request);
    const page = outcome === 'stored' ? 'newsletterConfirmed' : 'newsletterCheckInbox';
    return toResultPage(reply, deps.plainForms, page, result.data.lang);
  });
}
