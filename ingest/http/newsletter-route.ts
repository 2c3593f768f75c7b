/**
 * `POST /api/newsletter`: validates a signup with the contract, stores it durably and answers
 * 201, or 400 `invalid`, or 409 `already_subscribed` (the unique index decided; the answer says
 * nothing more). A filled honeypot is answered 201 and dropped.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import { newsletterSchema } from '../contract/schemas.ts';
import { formSubmissionHandler } from './form-submission.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/** What the route needs. */
export interface NewsletterRouteDeps {
  store: Pick<SubmissionStore, 'subscribe'>;
  clock: Clock;
}

/** Registers the newsletter route on `app`. */
export async function newsletterRoute(app: FastifyInstance, deps: NewsletterRouteDeps): Promise<void> {
  app.post(
    '/api/newsletter',
    formSubmissionHandler('newsletter', newsletterSchema, async (signup) => {
      const outcome = await deps.store.subscribe(signup, deps.clock.now());
      return outcome === 'duplicate' ? 'already_subscribed' : 'stored';
    }),
  );
}
