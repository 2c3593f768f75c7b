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
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { SubscriptionLifecycle } from '../../consent/subscriptions.ts';
import { sendError } from '../errors.ts';
import { acceptFormBodies, textField } from '../form-body.ts';
import { linkLang, openLinkRoute, sendConfirmOutcome, type TokenLinkDeps, tokenOf, toPage, wantsPage } from './token-links.ts';

/** What the routes need. */
export interface NewsletterLinksRouteDeps extends TokenLinkDeps {
  lifecycle: Pick<SubscriptionLifecycle, 'confirm' | 'unsubscribe'>;
  clock: Clock;
  /** Requests per client per window on these routes. */
  rateLimit: { max: number; timeWindow: number };
}

/** Registers the link routes on `app`. */
export async function newsletterLinksRoute(app: FastifyInstance, deps: NewsletterLinksRouteDeps): Promise<void> {
  acceptFormBodies(app);
  const config = { rateLimit: deps.rateLimit };

  // Opening a link: show the page with the button, or say the link is not valid.
  openLinkRoute(app, deps, { path: '/api/newsletter/confirm', purpose: 'confirm', page: 'newsletterConfirm', invalidPage: 'linkInvalid', config });
  openLinkRoute(app, deps, { path: '/api/newsletter/unsubscribe', purpose: 'unsubscribe', page: 'newsletterUnsubscribe', invalidPage: 'linkInvalid', config });

  app.post('/api/newsletter/confirm', { config }, async (request, reply) => {
    const outcome = await deps.lifecycle.confirm(tokenOf(request), deps.clock.now());
    return sendConfirmOutcome(request, reply, deps, outcome, { purpose: 'confirm', done: 'newsletterConfirmed', invalid: 'linkInvalid' });
  });

  app.post('/api/newsletter/unsubscribe', { config }, async (request, reply) => {
    const outcome = await deps.lifecycle.unsubscribe(tokenOf(request), deps.clock.now());
    const oneClick = textField(request.body, 'List-Unsubscribe') === 'One-Click';
    if (!oneClick && wantsPage(request)) {
      return toPage(reply, deps.urls, outcome === 'unsubscribed' ? 'newsletterUnsubscribed' : 'linkInvalid', linkLang(request, deps, 'unsubscribe'));
    }
    if (outcome === 'unsubscribed') return reply.code(200).send({ ok: true, status: 'unsubscribed' });
    return sendError(reply, 'link_invalid');
  });
}
