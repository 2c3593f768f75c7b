/**
 * What the routes behind the mails' signed links share (the newsletter's confirm and unsubscribe
 * links, a contact's confirm link): where the token comes from, which language the answer page
 * is in, opening a link (a redirect to the page with the button, changing nothing), and answering
 * a confirmation to a form (303 to a page) or to a JSON client.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsentLinks, type LinkPurpose, pageUrl, type PublicUrls } from '../../consent/links.ts';
import { LANGS, type Lang } from '../../contract/schemas.ts';
import type { ServicePage } from '../../contract/service-pages.ts';
import { sendError } from '../errors.ts';
import { isFormPost, textField } from '../form-body.ts';

/** What the link routes need to read tokens and build page addresses. */
export interface TokenLinkDeps {
  links: Pick<ConsentLinks, 'parse'>;
  urls: PublicUrls;
}

/** The token of a link post: in the body (`token`) or the query (`?token=`). */
export function tokenOf(request: FastifyRequest): string | undefined {
  return textField(request.body, 'token') ?? textField(request.query, 'token');
}

/** The answer page's language: the form's `lang` if it is one of ours, else the token's, else English. */
export function linkLang(request: FastifyRequest, deps: TokenLinkDeps, purpose: LinkPurpose): Lang {
  const given = textField(request.body, 'lang');
  if (given !== undefined && (LANGS as readonly string[]).includes(given)) return given as Lang;
  return deps.links.parse(tokenOf(request), purpose)?.lang ?? 'en';
}

/** Sends the visitor to a page of the site (with a token when given): `303 See Other`, never cached. */
export function toPage(reply: FastifyReply, urls: PublicUrls, page: ServicePage, lang: Lang, token?: string): FastifyReply {
  return reply.code(303).header('location', pageUrl(urls, page, lang, token)).header('cache-control', 'no-store').send();
}

/** True when the post came from a plain HTML form (or had no body): it is answered with a page. */
export function wantsPage(request: FastifyRequest): boolean {
  return isFormPost(request.headers['content-type']) || request.body === undefined;
}

/**
 * `GET path?token=`: opening the link changes nothing; it redirects to `page` with the token (the
 * page's button posts), or to `invalidPage` in English when there is no token of `purpose`.
 */
export function openLinkRoute(
  app: FastifyInstance,
  deps: TokenLinkDeps,
  route: { path: string; purpose: LinkPurpose; page: ServicePage; invalidPage: ServicePage; config?: object },
): void {
  app.get(route.path, { config: route.config ?? {} }, async (request, reply) => {
    const parsed = deps.links.parse(textField(request.query, 'token'), route.purpose);
    return parsed === null ? toPage(reply, deps.urls, route.invalidPage, 'en') : toPage(reply, deps.urls, route.page, parsed.lang, parsed.token);
  });
}

/** What a confirmation link did. */
type ConfirmOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

/**
 * Answers a confirmation: a form gets 303 to `pages.done` (confirmed now or before) or
 * `pages.invalid`; a JSON client gets 200 `{ ok, status }`, 410 `link_expired` or 400 `link_invalid`.
 */
export function sendConfirmOutcome(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TokenLinkDeps,
  outcome: ConfirmOutcome,
  route: { purpose: LinkPurpose; done: ServicePage; invalid: ServicePage },
): FastifyReply {
  const ok = outcome === 'confirmed' || outcome === 'already_confirmed';
  if (wantsPage(request)) return toPage(reply, deps.urls, ok ? route.done : route.invalid, linkLang(request, deps, route.purpose));
  if (ok) return reply.code(200).send({ ok: true, status: outcome });
  return sendError(reply, outcome === 'expired' ? 'link_expired' : 'link_invalid');
}
