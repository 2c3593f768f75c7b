/**
 * Security headers on every answer. The API serves JSON only, so the policy is the strictest:
 * nothing may be loaded, framed or sniffed, and no answer is cached or leaks a referrer.
 * (Written out here instead of pulling in helmet: eight constant headers.)
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The headers and their values. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

async function securityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}

/** The plugin adding `SECURITY_HEADERS` to every answer, errors and 404s included. */
export const securityHeadersPlugin = fp(securityHeaders, { name: 'ingest-security-headers', fastify: '5.x' });
