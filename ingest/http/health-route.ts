/**
 * `GET /healthz` (the process answers) and `GET /readyz` (the database answers and its schema is
 * current, and the service is not shutting down). Neither is rate limited: orchestrators poll them.
 */
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';

/** What the routes need. */
export interface HealthRouteDeps {
  isReady: () => boolean;
}

/** Registers the health routes on `app`. */
export async function healthRoute(app: FastifyInstance, deps: HealthRouteDeps): Promise<void> {
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) =>
    deps.isReady() ? { status: 'ready' } : sendError(reply, 'unavailable'),
  );
}
