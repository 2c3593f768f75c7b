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
 * Besides the app-wide per-minute limit, contact posts have a daily cap per client address
 * (429 `rate_limited` with `Retry-After`), counted for every post, stored or refused.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CaptchaRandom, createChallenge, verifyAnswer } from './captcha.ts';
import type { Clock } from '../clock.ts';
import { contactSchema } from '../contract/schemas.ts';
import { sendError } from './errors.ts';
import { formSubmissionHandler } from './form-submission.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/** Contact posts a client IP may make per 24 h, unless configured otherwise (`RATE_LIMIT_CONTACT_DAILY_MAX`). */
export const DEFAULT_CONTACT_DAILY_MAX = 50;

/** What the routes need. */
export interface ContactRouteDeps {
  store: Pick<SubmissionStore, 'submitContact' | 'spendNonce'>;
  clock: Clock;
  captchaSecret: string;
  captchaRandom?: CaptchaRandom;
  /** How soon after a challenge was issued an answer is accepted (ms). */
  captchaMinFillMs: number;
  /** Per-IP limit for challenges (more generous than for posts: a visitor may reload). */
  captchaRateLimit: { max: number; timeWindow: number };
  /** Per-IP cap on contact posts over a longer window (a day), on top of the app-wide limit. */
  contactDailyLimit: { max: number; timeWindow: number };
  /** Called after a contact is committed, to wake the outbox worker. */
  onContactStored: () => void;
}

/** Registers the captcha and contact routes on `app` (after `@fastify/rate-limit`). */
export async function contactRoute(app: FastifyInstance, deps: ContactRouteDeps): Promise<void> {
  app.get('/api/captcha', { config: { rateLimit: deps.captchaRateLimit } }, async () =>
    createChallenge(deps.captchaSecret, deps.clock.now(), deps.captchaMinFillMs, deps.captchaRandom),
  );

  // A second counter for the same route: the plugin runs one limit per route, so this one is
  // checked by hand with the plugin's own limiter (its own store, keyed by client address).
  const dailyCount = app.createRateLimit(deps.contactDailyLimit);
  const dailyCap = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await dailyCount(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    request.log.info({ form: 'contact', limit: 'daily' }, 'request refused');
    reply.header('retry-after', String(limit.ttlInSeconds));
    return sendError(reply, 'rate_limited');
  };

  app.post(
    '/api/contact',
    { onRequest: dailyCap },
    formSubmissionHandler('contact', contactSchema, async (contact, request) => {
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
    }),
  );
}
