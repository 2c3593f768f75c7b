/**
 * The routes behind the links in the newsletter's mails, for browsers, plain HTML forms, mail
 * programs and JSON clients alike:
 *
 * | request | answer |
 * |---|---|
 * | `GET /api/newsletter/confirm?token=` | 303 to the site's confirm page (which has the button); changes nothing |
 * | `POST /api/newsletter/confirm` (token in the query or body, `lang` in the body) | confirms; form: 303 to "confirmed" or "link invalid"; JSON: 200, 400 `link_invalid`, 410 `link_expired` |
 * | `GET /api/newsletter/unsubscribe?token=` | 303 to the site's unsubscribe page; changes nothing |
 * | `POST /api/newsletter/unsubscribe` with `List-Unsubscribe=One-Click` (RFC 8058) | unsubscribes, 200 with no page |
 * | `POST /api/newsletter/unsubscribe` (form or JSON) | unsubscribes; form: 303 to "unsubscribed" or "link invalid" |
 *
 * Opening a link never changes anything (mail scanners open links): only a POST acts. A redirect
 * goes to the configured site URL, a page of `service-pages.ts` and a language the service has
 * validated (the form's `lang`, else the token's), never anywhere a request names. The token is
 * the authority, so these routes need no Origin check: a forged cross-site post has no token.
 * Mail providers post one-click unsubscribes for many people from few addresses, so these routes
 * allow ten times the usual rate per client.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { type PublicUrls, pageUrl } from '../consent/links.ts';
import type { ConsentLinks } from '../consent/links.ts';
import type { SubscriptionLifecycle } from '../consent/subscriptions.ts';
import { LANGS, type Lang } from '../contract/schemas.ts';
import type { ServicePage } from '../contract/service-pages.ts';
import { sendError } from './errors.ts';
import { acceptFormBodies, isFormPost, textField } from './form-body.ts';

/** What the routes need. */
export interface NewsletterLinksRouteDeps {
  lifecycle: Pick<SubscriptionLifecycle, 'confirm' | 'unsubscribe'>;
  links: Pick<ConsentLinks, 'parse'>;
  urls: PublicUrls;
  clock: Clock;
  /** Requests per client per window on these routes. */
  rateLimit: { max: number; timeWindow: number };
}

const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LANGS as readonly string[]).includes(value);


/** Registers the link routes on `app`. */
export async function newsletterLinksRoute(app: FastifyInstance, deps: NewsletterLinksRouteDeps): Promise<void> {
  acceptFormBodies(app);
  const config = { rateLimit: deps.rateLimit };
  const tokenOf = (request: FastifyRequest) => textField(request.body, 'token') ?? textField(request.query, 'token');
  const langOf = (request: FastifyRequest, purpose: 'confirm' | 'unsubscribe'): Lang => {
    const given = textField(request.body, 'lang');
    if (isLang(given)) return given;
    return deps.links.parse(tokenOf(request), purpose)?.lang ?? 'en';
  };
  const toPage = (reply: FastifyReply, page: ServicePage, lang: Lang, token?: string) =>
    reply.code(303).header('location', pageUrl(deps.urls, page, lang, token)).header('cache-control', 'no-store').send();

  // Opening a link: show the page with the button, or say the link is not valid.
  for (const purpose of ['confirm', 'unsubscribe'] as const) {
    const page: ServicePage = purpose === 'confirm' ? 'newsletterConfirm' : 'newsletterUnsubscribe';
    app.get(`/api/newsletter/${purpose}`, { config }, async (request, reply) => {
      const parsed = deps.links.parse(textField(request.query, 'token'), purpose);
      return parsed === null ? toPage(reply, 'linkInvalid', 'en') : toPage(reply, page, parsed.lang, parsed.token);
    });
  }

  app.post('/api/newsletter/confirm', { config }, async (request, reply) => {
    const outcome = await deps.lifecycle.confirm(tokenOf(request), deps.clock.now());
    const ok = outcome === 'confirmed' || outcome === 'already_confirmed';
    if (isFormPost(request.headers['content-type']) || request.body === undefined) {
      return toPage(reply, ok ? 'newsletterConfirmed' : 'linkInvalid', langOf(request, 'confirm'));
    }
    if (ok) return reply.code(200).send({ ok: true, status: outcome });
    return sendError(reply, outcome === 'expired' ? 'link_expired' : 'link_invalid');
  });

  app.post('/api/newsletter/unsubscribe', { config }, async (request, reply) => {
    const outcome = await deps.lifecycle.unsubscribe(tokenOf(request), deps.clock.now());
    const oneClick = textField(request.body, 'List-Unsubscribe') === 'One-Click';
    if (!oneClick && (isFormPost(request.headers['content-type']) || request.body === undefined)) {
      return toPage(reply, outcome === 'unsubscribed' ? 'newsletterUnsubscribed' : 'linkInvalid', langOf(request, 'unsubscribe'));
    }
    if (outcome === 'unsubscribed') return reply.code(200).send({ ok: true, status: 'unsubscribed' });
    return sendError(reply, 'link_invalid');
  });
}
