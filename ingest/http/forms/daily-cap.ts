/**
 * A per-client daily cap on one form's posts, on top of the app-wide per-minute limit: 429
 * `rate_limited` with `Retry-After` (a plain form lands on "too many attempts"), counted for every
 * post that reaches it, stored or refused. Checked by hand with `@fastify/rate-limit`'s own limiter
 * in the app's store (shared by the replicas on PostgreSQL), because the plugin runs one limit per
 * route. Its keys say what they count (`contact-daily:<ip>`), apart from every other counter of
 * the client; addresses grouped as the plugin does (an IPv6 client by its /64).
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors.ts';

/** The `preHandler` that counts a post of `form` and refuses it over `limit` (posts per `timeWindow` ms). */
export function dailyCap(app: FastifyInstance, form: string, limit: { max: number; timeWindow: number }) {
  const count = app.createRateLimit({ ...limit, keyGenerator: (request) => `${form}-daily:${normalizeIP(request.ip)}` });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await count(request);
    if (result.isAllowed || !result.isExceeded) return;
    request.log.info({ form, limit: 'daily' }, 'request refused');
    reply.header('retry-after', String(result.ttlInSeconds));
    return sendError(reply, 'rate_limited');
  };
}
