/**
 * The per-window limit of a client's wider IPv6 networks, on every route the app-wide per-window
 * limit (`@fastify/rate-limit`, per /64) counts: a route with a limit of its own (the captcha's 3×,
 * the links' 10×) gets that limit's multiples, a route the plugin leaves out (`rateLimit: false`,
 * `/metrics`) none. The check runs after the plugin's on each route, so only requests the /64's own
 * limit let through count against its networks.
 *
 *   route limit 10/min, factors { per56: 4, per48: 16 } → each /56 40/min, each /48 160/min
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Ipv6Factors } from './ipv6-networks.ts';
import { type ClientLimit, networkLimits, refuseOverLimit } from './network-limits.ts';

/** Adds the networks' per-window check to every route registered on `app` from now on (call it right after registering the plugin). */
export function windowNetworkLimits(app: FastifyInstance, limit: ClientLimit, factors: Ipv6Factors): void {
  app.addHook('onRoute', (route) => {
    const own = routeLimit(route);
    if (own === false) return;
    // As the plugin keys its counters: apart for a route with a limit of its own.
    const name = own === null ? 'window' : `${String(route.method)}${route.url}-window`;
    const networks = networkLimits(app, name, { max: own?.max ?? limit.max, timeWindow: own?.timeWindow ?? limit.timeWindow }, factors);
    const check = async (request: FastifyRequest, reply: FastifyReply) => {
      const network = await networks(request);
      if (network !== null) return refuseOverLimit(request, reply, { limit: 'window', network: `/${network.bits}` }, network.retryAfterSeconds);
    };
    const before = route.preHandler;
    route.preHandler = [...(before === undefined ? [] : Array.isArray(before) ? before : [before]), check];
  });
}

// The route's own limit (numbers only, as this app sets them), false when the plugin skips it, null when the app-wide one applies.
function routeLimit(route: RouteOptions): Partial<ClientLimit> | false | null {
  const own = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  if (own === false) return false;
  if (own === null || typeof own !== 'object') return null;
  const { max, timeWindow } = own as { max?: unknown; timeWindow?: unknown };
  return { ...(typeof max === 'number' ? { max } : {}), ...(typeof timeWindow === 'number' ? { timeWindow } : {}) };
}
