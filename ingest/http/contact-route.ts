/**
 * `GET /api/captcha` and `POST /api/contact`.
 *
 * A contact is validated with the contract (400 `invalid`), then its captcha answer is checked
 * (422 `captcha_failed` for wrong, expired or tampered), then the contact, its outbox row and the
 * captcha's nonce are stored in one transaction; if the nonce was already used the transaction
 * stores nothing and the answer is 422 too. Only then is the outbox worker woken: no email is
 * sent on the request path.
 */
import type { FastifyInstance } from 'fastify';
import { type CaptchaRandom, createChallenge, verifyAnswer } from './captcha.ts';
import type { Clock } from '../clock.ts';
import { contactSchema } from '../contract/schemas.ts';
import { formSubmissionHandler } from './form-submission.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/** What the routes need. */
export interface ContactRouteDeps {
  store: Pick<SubmissionStore, 'submitContact'>;
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

  app.post(
    '/api/contact',
    formSubmissionHandler('contact', contactSchema, async (contact, request) => {
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
    }),
  );
}
