/**
 * `POST /api/newsletter`: validates a signup with the contract and stores it durably.
 *
 * Double opt-in (the default): a new address is stored `pending` with its confirmation mail
 * queued, answered 201 `{ ok: true, next: 'confirm_email' }`. The same address again while
 * pending gets the same answer, and a new mail at most once per 10 minutes and three times a day
 * (the answer never tells which, so it says nothing about whether someone else signed up). A
 * confirmed address is answered 409 `already_subscribed`. Single opt-in: stored `confirmed`,
 * answered 201 `{ ok: true }`, 409 for a known address. A filled honeypot is answered 201 and dropped.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SubscriptionLifecycle } from '../consent/subscriptions.ts';
import { newsletterSchema, type NewsletterSignup, type SubmitOk } from '../contract/schemas.ts';
import { formSubmissionHandler } from './form-submission.ts';
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
}

const CHECK_INBOX: SubmitOk = { ok: true, next: 'confirm_email' };

/** Registers the newsletter route on `app`. */
export async function newsletterRoute(app: FastifyInstance, deps: NewsletterRouteDeps): Promise<void> {
  app.post(
    '/api/newsletter',
    formSubmissionHandler('newsletter', newsletterSchema, async (signup) => {
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
    }),
  );
}
