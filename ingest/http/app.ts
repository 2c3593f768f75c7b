/**
 * The ingest HTTP app, built from its dependencies and never listening: `serve` calls
 * `listen`, tests call `inject`.
 *
 * @example
 * const app = await buildApp({ store, consent, captchaSecret: 'x'.repeat(32) });
 * const res = await app.inject({ method: 'GET', url: '/healthz' }); // → 200 { status: 'ok' }
 */
import cors from '@fastify/cors';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CaptchaRandom } from './forms/captcha.ts';
import { type ServerTimeouts, timeoutOptions } from './client-timeouts.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type ContactRouteDeps, contactRoute } from './forms/contact-route.ts';
import { LIMITS } from '../contract/schemas.ts';
import { healthRoute } from './health-route.ts';
import type { ServiceMetrics } from './metrics.ts';
import { httpErrorsPlugin } from './errors.ts';
import { jsonBodyPlugin } from './json-body.ts';
import { type LoggerOptions, loggerOptions } from './logger.ts';
import { type NewsletterLinksRouteDeps, newsletterLinksRoute } from './links/newsletter-links-route.ts';
import { type NewsletterRouteDeps, newsletterRoute } from './forms/newsletter-route.ts';
import {
  DEFAULT_CONTACT_DAILY_MAX,
  DEFAULT_HOURLY_CEILINGS,
  DEFAULT_IPV6_FACTORS,
  DEFAULT_MIN_FILL_MS,
  DEFAULT_NEWSLETTER_DAILY_MAX,
  DEFAULT_TIMEOUTS,
} from '../config/defaults.ts';
import type { Ipv6Factors } from './limits/ipv6-networks.ts';
import { windowNetworkLimits } from './limits/window-network-limits.ts';
import { refuseForeignPosts } from './origin-check.ts';
import type { PlainFormDeps } from './forms/plain-form-posts.ts';
import { securityHeadersPlugin } from './security-headers.ts';
import type { SubmissionStore } from '../store/submission-store.ts';

/**
 * The consent parts every form and link route shares (made by `consent-setup.ts`): the
 * newsletter's lifecycle and how a signup is recorded, the signed links and the site's URLs, the
 * contact's verification, the site's texts, and who to wake when a mail was queued.
 */
export type ConsentDeps = Omit<NewsletterRouteDeps, 'store' | 'clock' | 'plainForms' | 'dailyLimit' | 'ipv6Factors' | 'hourlyCeiling'> &
  Omit<NewsletterLinksRouteDeps, 'clock' | 'rateLimit'> &
  Pick<ContactRouteDeps, 'verification' | 'linkDays'> & { content: PlainFormDeps['content'] };

/** Everything the app depends on; only `store`, `consent` and `captchaSecret` have no default. */
export interface AppDeps {
  store: SubmissionStore;
  consent: ConsentDeps;
  captchaSecret: string;
  clock?: Clock;
  captchaRandom?: CaptchaRandom;
  /** Woken after each stored contact (the outbox worker's `notify`). */
  onContactStored?: () => void;
  /** Origins allowed to call the API from a browser on another origin; empty: same origin only. */
  allowedOrigins?: readonly string[];
  /**
   * Form posts per client IP per window; captcha fetches get three times as many. `contactDailyMax`
   * and `newsletterDailyMax` cap contact posts and newsletter signups per client IP per 24 h on top
   * (default 50 each). An IPv6 /56 and /48 share `ipv6Factors` times each of those (default 4 and
   * 16); `hourlyCeilings` caps each form's posts per hour from all clients together (default
   * `DEFAULT_HOURLY_CEILINGS`).
   */
  rateLimit?: {
    max: number;
    windowMs: number;
    contactDailyMax?: number;
    newsletterDailyMax?: number;
    ipv6Factors?: Ipv6Factors;
    hourlyCeilings?: { contact: number; newsletter: number };
  };
  /** How soon after a challenge was issued a contact is accepted (ms); default `DEFAULT_MIN_FILL_MS` (3 s). */
  captchaMinFillMs?: number;
  /** Where the rate-limit counters live; default: this process's memory (PostgreSQL replicas share a table). */
  rateLimitStore?: FastifyRateLimitStoreCtor;
  /** Whose X-Forwarded-For to believe: false (nobody), the proxy addresses, or a hop count. */
  trustProxy?: false | number | readonly string[];
  /** How long a client may take over its headers, its whole request, and an idle connection. */
  timeouts?: ServerTimeouts;
  /** Whether the service may take traffic (`/readyz`); default: the store's readiness. */
  isReady?: () => boolean;
  /** True while the service drains before it closes: every answer then carries `Connection: close`. */
  isDraining?: () => boolean;
  /** The service's metrics (`GET /metrics` and the latency hook); none when absent. */
  metrics?: ServiceMetrics;
  /** Strict-Transport-Security's max-age in seconds (`HSTS_MAX_AGE`); none when absent or null. */
  hstsMaxAge?: number | null;
  /** Logger options (see `logger.ts`), or false for no logs. Default: info to standard output. */
  logger?: LoggerOptions | false;
}

/** Builds the app with its plugins and routes registered, ready to `inject` or `listen`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const limit = deps.rateLimit ?? { max: 10, windowMs: 60_000 };
  const ipv6Factors = limit.ipv6Factors ?? DEFAULT_IPV6_FACTORS;
  const ceilings = limit.hourlyCeilings ?? DEFAULT_HOURLY_CEILINGS;
  const onCeilingCount = deps.metrics?.recordCeilingCount;
  const allowed = new Set(deps.allowedOrigins ?? []);
  const isReady = deps.isReady ?? (() => deps.store.isReady());
  const isDraining = deps.isDraining ?? (() => false);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions('info'),
    bodyLimit: LIMITS.bodyBytes,
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    ...timeoutOptions(deps.timeouts ?? DEFAULT_TIMEOUTS),
    // Fastify's built-in 503 while closing lacks the uniform error body; requests on connections
    // still open are simply served (the database closes only after them).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  });

  // JSON is the only body the API reads; anything else is 415 through the error handler.
  app.removeContentTypeParser(['text/plain']);
  await app.register(jsonBodyPlugin);

  await app.register(securityHeadersPlugin, { hstsMaxAge: deps.hstsMaxAge ?? null });
  await app.register(httpErrorsPlugin);

  let closing = false;
  // Closing an idle keep-alive connection races the client's next request on it, which is then
  // lost; an answer saying `Connection: close` ends the connection after that answer instead.
  app.addHook('onSend', async (_request, reply) => {
    if (closing || isDraining()) reply.header('connection', 'close');
  });
  app.addHook('preClose', async () => {
    closing = true;
  });

  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type'],
    maxAge: 600,
  });
  // Posts from other websites are refused before anything counts them (origin-check.ts): the check
  // runs at preValidation, once the body is read, and every limiter at preHandler after it — the
  // app-wide one below and the routes' own daily caps.
  const plainForms: PlainFormDeps = { urls: deps.consent.urls, allowedOrigins: deps.allowedOrigins ?? [], content: deps.consent.content };
  app.addHook('preValidation', refuseForeignPosts(plainForms, FORM_ROUTES));
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: limit.max,
    timeWindow: limit.windowMs,
    ...(deps.rateLimitStore === undefined ? {} : { store: deps.rateLimitStore }),
    // The limit headers go out only once a client is limited (with Retry-After), not on every answer.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
  // Registered right after the plugin, so that on every route its check follows the plugin's.
  windowNetworkLimits(app, { max: limit.max, timeWindow: limit.windowMs }, ipv6Factors);

  deps.metrics?.register(app);
  await app.register(healthRoute, { isReady: () => !closing && !isDraining() && isReady() });
  await app.register(newsletterRoute, {
    ...deps.consent,
    store: deps.store,
    clock,
    plainForms,
    dailyLimit: { max: limit.newsletterDailyMax ?? DEFAULT_NEWSLETTER_DAILY_MAX, timeWindow: 24 * 60 * 60 * 1000 },
    ipv6Factors,
    hourlyCeiling: { max: ceilings.newsletter, ...(onCeilingCount === undefined ? {} : { onCount: onCeilingCount }) },
  });
  await app.register(newsletterLinksRoute, { ...deps.consent, clock, rateLimit: { max: limit.max * 10, timeWindow: limit.windowMs } });
  await app.register(contactRoute, {
    store: deps.store,
    clock,
    captchaSecret: deps.captchaSecret,
    ...(deps.captchaRandom === undefined ? {} : { captchaRandom: deps.captchaRandom }),
    captchaMinFillMs: deps.captchaMinFillMs ?? DEFAULT_MIN_FILL_MS,
    captchaRateLimit: { max: limit.max * 3, timeWindow: limit.windowMs },
    verification: deps.consent.verification,
    links: deps.consent.links,
    linkDays: deps.consent.linkDays,
    plainForms,
    contactDailyLimit: { max: limit.contactDailyMax ?? DEFAULT_CONTACT_DAILY_MAX, timeWindow: 24 * 60 * 60 * 1000 },
    ipv6Factors,
    hourlyCeiling: { max: ceilings.contact, ...(onCeilingCount === undefined ? {} : { onCount: onCeilingCount }) },
    onContactStored: deps.onContactStored ?? (() => {}),
  });
  return app;
}

// The routes the site's plain HTML forms post to: their posts need an origin (or Referer) of the site.
const FORM_ROUTES = ['/api/newsletter', '/api/contact'];

// A hop count means "trust that many proxies in front of us" (Fastify's types omit the number form).
function trustProxyOption(value: false | number | readonly string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value === false ? false : [...value];
}
