/**
 * `POST /api/newsletter`: validates a signup with the contract, stores it durably and answers
 * 201, or 400 `invalid`, or 409 `already_subscribed` (the unique index decided; the answer says
 * nothing more). A filled honeypot is answered 201 and dropped.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import { honeypotFilled, newsletterSchema, type SubmitOk, validate } from '../contract/schemas.ts';
import { sendError, sendInvalid } from './errors.ts';
import type { SubmissionStore } from '../store/sqlite/submission-store.ts';

/** What the route needs. */
export interface NewsletterRouteDeps {
  store: Pick<SubmissionStore, 'subscribe'>;
  clock: Clock;
}

/** Registers the newsletter route on `app`. */
export async function newsletterRoute(app: FastifyInstance, deps: NewsletterRouteDeps): Promise<void> {
  app.post('/api/newsletter', async (request, reply) => {
    if (honeypotFilled(request.body)) {
      request.log.info({ form: 'newsletter' }, 'honeypot filled, submission dropped');
      return reply.code(201).send({ ok: true } satisfies SubmitOk);
    }
    const result = validate(newsletterSchema, request.body);
    if (!result.ok) return sendInvalid(reply, result);
    const outcome = await deps.store.subscribe(result.data, deps.clock.now());
    if (outcome === 'duplicate') return sendError(reply, 'already_subscribed');
    return reply.code(201).send({ ok: true } satisfies SubmitOk);
  });
}
