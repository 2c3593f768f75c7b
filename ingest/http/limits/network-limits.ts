/**
 * The limits of a client's wider IPv6 networks (`ipv6-networks.ts`), on top of one per-client
 * limit: a /56 may make `RATE_LIMIT_IPV6_56_FACTOR` times the requests a /64 may, a /48
 * `RATE_LIMIT_IPV6_48_FACTOR` times. Counted with @fastify/rate-limit's own limiter in the app's
 * store, so the counters are the per-client ones' neighbours: in memory (per-minute windows on
 * SQLite), in `rate-limits.sqlite` (daily ones), or in PostgreSQL's shared table, each one atomic
 * increment. Each network counts only the requests the narrower limit let through (the /56 those
 * of the client's own /64 limit, the /48 those of the /56), so one noisy /64 spends no more of
 * its neighbours' allowance than its own, nor one noisy /56 more than its own. Keys say what they count:
 * `contact-daily-48:2001:db8:a::`, `window-56:2001:db8:a:1200::`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors.ts';
import { factorOf, type Ipv6Factors, networkOf, WIDER_PREFIXES, type WiderPrefix } from './ipv6-networks.ts';

/** A per-client limit: `max` requests per window of `timeWindow` ms. */
export interface ClientLimit {
  max: number;
  timeWindow: number;
}

/** Which wider network is over its limit, and in how many seconds its window ends; null when none is. */
export type NetworkVerdict = { bits: WiderPrefix; retryAfterSeconds: number } | null;

/**
 * Counts a request against the wider networks of its client for the limit named `name`, and says
 * whether one of them is over it. An IPv4 client is counted nowhere.
 *
 * @example
 * const networks = networkLimits(app, 'contact-daily', { max: 50, timeWindow: DAY_MS }, { per56: 4, per48: 16 });
 * await networks(request) // → null, or { bits: 48, retryAfterSeconds: 80_000 } once its /48 sent 800
 */
export function networkLimits(app: FastifyInstance, name: string, limit: ClientLimit, factors: Ipv6Factors): (request: FastifyRequest) => Promise<NetworkVerdict> {
  const counters = WIDER_PREFIXES.map((bits) => ({
    bits,
    count: app.createRateLimit({
      max: limit.max * factorOf(factors, bits),
      timeWindow: limit.timeWindow,
      keyGenerator: (request) => `${name}-${bits}:${networkOf(request.ip, bits)}`,
    }),
  }));
  return async (request) => {
    if (networkOf(request.ip, WIDER_PREFIXES[0]) === null) return null;
    // Narrowest first, each counting only what the narrower one let through.
    for (const { bits, count } of counters) {
      const result = await count(request);
      if (!result.isAllowed && result.isExceeded) return { bits, retryAfterSeconds: result.ttlInSeconds };
    }
    return null;
  };
}

/** Answers 429 `rate_limited` with `Retry-After`, logging which limit refused the request (never the address). */
export function refuseOverLimit(request: FastifyRequest, reply: FastifyReply, limit: Record<string, string | number>, retryAfterSeconds: number): FastifyReply {
  request.log.info(limit, 'request refused');
  reply.header('retry-after', String(retryAfterSeconds));
  return sendError(reply, 'rate_limited');
}
