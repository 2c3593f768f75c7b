/**
 * A per-client daily cap on one form's posts, on top of the app-wide per-minute limit: 429
 * `rate_limited` with `Retry-After` (a plain form lands on "too many attempts"), counted for every
 * post that reaches it, stored or refused. Checked by hand with `@fastify/rate-limit`'s own limiter
 * in the app's store (shared by the replicas on PostgreSQL), because the plugin runs one limit per
 * route. Its keys say what they count (`contact-daily:<ip>`), apart from every other counter of
 * the client; addresses grouped as the plugin does (an IPv6 client by its /64), and an IPv6
 * client's /56 and /48 capped too, at their multiples of the cap (`network-limits.ts`).
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ipv6Factors } from './ipv6-networks.ts';
import { type ClientLimit, networkLimits, refuseOverLimit } from './network-limits.ts';

/** The `preHandler` that counts a post of `form` and refuses it over `limit` (posts per `timeWindow` ms), or its networks' multiples of it. */
export function dailyCap(app: FastifyInstance, form: string, limit: ClientLimit, factors: Ipv6Factors) {
  const count = app.createRateLimit({ ...limit, keyGenerator: (request) => `${form}-daily:${normalizeIP(request.ip)}` });
  const networks = networkLimits(app, `${form}-daily`, limit, factors);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await count(request);
    if (!result.isAllowed && result.isExceeded) return refuseOverLimit(request, reply, { form, limit: 'daily' }, result.ttlInSeconds);
    const network = await networks(request);
    if (network !== null) return refuseOverLimit(request, reply, { form, limit: 'daily', network: `/${network.bits}` }, network.retryAfterSeconds);
  };
}
