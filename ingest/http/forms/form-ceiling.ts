/**
 * The hourly ceiling of one form: at most so many posts of it per hour from all clients together,
 * on every replica (`RATE_LIMIT_CONTACT_HOURLY_CEILING`, `RATE_LIMIT_NEWSLETTER_HOURLY_CEILING`).
 * The per-client limits stop one address or network; a crowd of them (a botnet, a /32 of IPv6)
 * could still fill the sales inbox and spend the mail relay's daily quota, which then holds back
 * every mail. Once the ceiling is reached the form answers "try later" until the hour is over: 429
 * `busy` with `Retry-After` to a JSON client, the "not stored" page (try again later, or write to
 * us) to a plain form; nothing is stored or sent.
 *
 * One counter per form, keyed by the form alone (`contact-hourly`: no address), in the app's
 * rate-limit store: `rate-limits.sqlite` on SQLite, PostgreSQL's shared table for replicas, one
 * atomic increment per post. It counts the posts that every per-client limit let through (a
 * route calls it first thing in its handler), so no one client can spend more of it than its own
 * allowance. What it counted goes to the metrics (`ingest_form_ceiling_*`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATA_FACTS } from '../../contract/data-facts.ts';
import { sendError } from '../errors.ts';
import { isFormPost } from '../form-body.ts';
import { formLang, type PlainFormDeps, toResultPage } from './plain-form-posts.ts';

/** The forms with a ceiling. */
export type CeilingForm = 'newsletter' | 'contact';

/** What one post's count found: the share of the hour's ceiling used so far on all replicas (1: reached), the ms left of the hour, and whether this post was refused. */
export interface CeilingCount {
  form: CeilingForm;
  used: number;
  ttlMs: number;
  refused: boolean;
}

/** A form's ceiling as the app sets it: the posts per hour, and who hears of each count (the metrics). */
export interface CeilingOptions {
  max: number;
  onCount?: (count: CeilingCount) => void;
}

/** The window the ceiling counts in (the privacy policy states it: `formCeilingMinutes`). */
const CEILING_WINDOW_MS = DATA_FACTS.formCeilingMinutes * 60 * 1000;

/**
 * Counts a post of `form` against its ceiling; returns the reply when the ceiling refused it
 * (answered), or null to go on.
 *
 * @example
 * const ceiling = formCeiling(app, 'contact', { max: 10 }, plainForms);
 * app.post('/api/contact', async (request, reply) => (await ceiling(request, reply)) ?? handle(request, reply));
 */
export function formCeiling(app: FastifyInstance, form: CeilingForm, options: CeilingOptions, plainForms: PlainFormDeps) {
  const count = app.createRateLimit({ max: options.max, timeWindow: CEILING_WINDOW_MS, keyGenerator: () => `${form}-hourly` });
  // One warning per hour the form is paused (per process), then a line at info per refused post.
  let warnedUntil = 0;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | null> => {
    const result = await count(request);
    if (result.isAllowed) return null;
    options.onCount?.({ form, used: (result.max - result.remaining) / result.max, ttlMs: result.ttl, refused: result.isExceeded });
    if (!result.isExceeded) return null;
    const details = { form, limit: 'hourly ceiling', retryAfterSeconds: result.ttlInSeconds };
    if (Date.now() >= warnedUntil) {
      warnedUntil = Date.now() + result.ttl;
      request.log.warn(details, 'form paused: its hourly ceiling of posts from all clients is reached');
    } else request.log.info(details, 'request refused');
    if (isFormPost(request.headers['content-type'])) return toResultPage(reply, plainForms, 'formNotStored', formLang(request.body));
    reply.header('retry-after', String(result.ttlInSeconds));
    return sendError(reply, 'busy');
  };
}
