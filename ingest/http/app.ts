/**
 * The ingest HTTP app, built from its dependencies and never listening: `serve` calls
 * `listen`, tests call `inject`.
 *
 * @example
 * const app = await buildApp({ store, captchaSecret: 'x'.repeat(32) });
 * const res = await app.inject({ method: 'GET', url: '/healthz' }); // → 200 { status: 'ok' }
 */
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CaptchaRandom } from './captcha.ts';
import { type Clock, systemClock } from '../clock.ts';
import { contactRoute } from './contact-route.ts';
import { LIMITS } from '../contract/schemas.ts';
import { healthRoute } from './health-route.ts';
import { httpErrorsPlugin } from './errors.ts';
import { jsonBodyPlugin } from './json-body.ts';
import { type LoggerOptions, loggerOptions } from './logger.ts';
import { newsletterRoute } from './newsletter-route.ts';
import { securityHeadersPlugin } from './security-headers.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/** Everything the app depends on; only `store` and `captchaSecret` have no default. */
export interface AppDeps {
  store: SubmissionStore;
  captchaSecret: string;
  clock?: Clock;
  captchaRandom?: CaptchaRandom;
  /** Woken after each stored contact (the outbox worker's `notify`). */
  onContactStored?: () => void;
  /** Origins allowed to call the API from a browser on another origin; empty: same origin only. */
  allowedOrigins?: readonly string[];
  /** Form posts per client IP per window; captcha fetches get three times as many. */
  rateLimit?: { max: number; windowMs: number };
  trustProxy?: boolean | number | string[];
  /** Logger options (see `logger.ts`), or false for no logs. Default: info to standard output. */
  logger?: LoggerOptions | false;
}

/** Builds the app with its plugins and routes registered, ready to `inject` or `listen`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const limit = deps.rateLimit ?? { max: 10, windowMs: 60_000 };
  const allowed = new Set(deps.allowedOrigins ?? []);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions('info'),
    bodyLimit: LIMITS.bodyBytes,
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    // Fastify's built-in 503 while closing lacks the uniform error body; requests on connections
    // still open are simply served (the database closes only after them).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  });

  // JSON is the only body the API reads; anything else is 415 through the error handler.
  app.removeContentTypeParser(['text/plain']);
  await app.register(jsonBodyPlugin);

  await app.register(securityHeadersPlugin);
  await app.register(httpErrorsPlugin);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Fastify closes the idle keep-alive connections once; those still busy become idle after
    // their answer and would hold the shutdown open for the keep-alive timeout, so sweep them.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 25);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
  });

  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type'],
    maxAge: 600,
  });
  await app.register(rateLimit, {
    global: true,
    max: limit.max,
    timeWindow: limit.windowMs,
    // The limit headers go out only once a client is limited (with Retry-After), not on every answer.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });

  await app.register(healthRoute, { isReady: () => !closing && deps.store.isReady() });
  await app.register(newsletterRoute, { store: deps.store, clock });
  await app.register(contactRoute, {
    store: deps.store,
    clock,
    captchaSecret: deps.captchaSecret,
    ...(deps.captchaRandom === undefined ? {} : { captchaRandom: deps.captchaRandom }),
    captchaRateLimit: { max: limit.max * 3, timeWindow: limit.windowMs },
    onContactStored: deps.onContactStored ?? (() => {}),
  });
  return app;
}

// A hop count means "trust that many proxies in front of us" (Fastify's types omit the number form).
function trustProxyOption(value: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}
