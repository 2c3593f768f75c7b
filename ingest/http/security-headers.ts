/**
 * Security headers on every answer. The API serves JSON only, so the policy is the strictest:
 * nothing may be loaded, framed or sniffed, and no answer is cached or leaks a referrer.
 * (Written out here instead of pulling in helmet: seven constant headers.)
 *
 * Strict-Transport-Security only when the operator turns it on (`HSTS_MAX_AGE`): a browser that
 * sees it refuses plain HTTP to the whole host for that long, and the API usually shares its host
 * with the site, whose HSTS the operator enables at the edge once it is served over HTTPS alone
 * (the nginx config carries it as a commented line). A service on its own origin sets it here.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The headers and their values. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** The plugin's options: HSTS's max-age in seconds, or null (the default) for no HSTS. */
export interface SecurityHeaderOptions {
  hstsMaxAge?: number | null;
}

async function securityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  const hstsMaxAge = options.hstsMaxAge ?? null;
  const headers = hstsMaxAge === null ? SECURITY_HEADERS : { ...SECURITY_HEADERS, 'strict-transport-security': `max-age=${hstsMaxAge}` };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The plugin adding `SECURITY_HEADERS` (and HSTS when configured) to every answer, errors and 404s included. */
export const securityHeadersPlugin = fp(securityHeaders, { name: 'ingest-security-headers', fastify: '5.x' });
