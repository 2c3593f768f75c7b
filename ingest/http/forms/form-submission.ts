/**
 * The steps every form post shares, so a route only says what its form does with valid data:
 * a filled honeypot is answered 201 and dropped (and logged), an invalid body is answered 400
 * `invalid`, then the form's `store` step runs and its outcome is answered, 201 `{ ok: true }`
 * or the catalogue error it names.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { ErrorCode } from '../../contract/error-codes.ts';
import { honeypotFilled, type SubmitOk, validate } from '../../contract/schemas.ts';
import { sendError, sendInvalid } from '../errors.ts';

/** What a form's store step did: `'stored'` (answered 201 `{ ok: true }`), the 201 body to answer, or the catalogue code to answer instead. */
export type StoreOutcome = 'stored' | SubmitOk | ErrorCode;

/**
 * The request handler for posts of the form named `form` (the name its log lines carry).
 *
 * @example
 * app.post('/api/newsletter', formSubmissionHandler('newsletter', newsletterSchema, async (signup) =>
 *   (await store.subscribe(signup, now())) === 'capped' ? 'rate_limited' : 'stored'));
 */
export function formSubmissionHandler<S extends z.ZodMiniType>(
  form: string,
  schema: S,
  store: (data: z.output<S>, request: FastifyRequest) => Promise<StoreOutcome>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    if (honeypotFilled(request.body)) {
      request.log.info({ form }, 'honeypot filled, submission dropped');
      return reply.code(201).send({ ok: true } satisfies SubmitOk);
    }
    const result = validate(schema, request.body);
    if (!result.ok) return sendInvalid(reply, result);
    const outcome = await store(result.data, request);
    if (typeof outcome === 'object') return reply.code(201).send(outcome);
    if (outcome !== 'stored') return sendError(reply, outcome);
    return reply.code(201).send({ ok: true } satisfies SubmitOk);
  };
}
