/**
 * Posts from other websites are refused before anything counts them: a `preValidation` hook,
 * which runs once the body is read (so a refused plain form gets its 403 page in the form's
 * language) and before the rate limits, which run at `preHandler` (the app-wide limit and the
 * routes' daily caps). A page elsewhere that makes its visitors' browsers post here therefore
 * cannot spend those visitors' allowance, nor anyone else's.
 *
 * | post | allowed from | refused with |
 * |---|---|---|
 * | plain HTML form to a form route (newsletter, contact) | its `Origin` — or, when the browser sends none, its `Referer`'s origin — is the site's or one of `ALLOWED_ORIGINS`; neither header: refused | 403 page in the form's language (`plain-form-posts.ts`) |
 * | any other post (JSON) that carries an `Origin` | the site's origin, one of `ALLOWED_ORIGINS` (the CORS allow-list), or the request's own host (same origin, where CORS does not apply) | 403 `origin_not_allowed` |
 *
 * A JSON post without `Origin` comes from a program, not from a page a browser shows, and is not
 * checked; nor are the form posts of the mails' links (confirm, unsubscribe), which mail
 * programs send without either header (RFC 8058).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';
import { isFormPost } from './form-body.ts';
import { formLang, type PlainFormDeps, sendRefused } from './forms/plain-form-posts.ts';

/** The origins a post may come from: the site's own and `ALLOWED_ORIGINS`. */
function acceptedOrigins(deps: PlainFormDeps): ReadonlySet<string> {
  return new Set([new URL(deps.urls.siteUrl).origin, ...deps.allowedOrigins]);
}

/** The origin a form post came from: its `Origin`, else its `Referer`'s origin, else null. */
function formOrigin(origin: string | undefined, referer: string | undefined): string | null {
  if (origin !== undefined && origin !== 'null') return origin;
  return referer !== undefined && URL.canParse(referer) ? new URL(referer).origin : null;
}

/** The headers the decision reads. */
interface PostHeaders {
  'content-type'?: string | undefined;
  origin?: string | undefined;
  referer?: string | undefined;
  host?: string | undefined;
}

/**
 * Whether a post to `route` may go on, by its headers alone: `'allowed'`, or which refusal
 * (`'foreign-form'`, `'foreign-json'`).
 *
 * @example postOrigin({ 'content-type': 'application/json', origin: 'https://evil.example' }, false, new Set(['https://site.test'])) // 'foreign-json'
 */
function postOrigin(headers: PostHeaders, formRoute: boolean, accepted: ReadonlySet<string>): 'allowed' | 'foreign-form' | 'foreign-json' {
  if (isFormPost(headers['content-type'])) {
    if (!formRoute) return 'allowed';
    const origin = formOrigin(headers.origin, headers.referer);
    return origin !== null && accepted.has(origin) ? 'allowed' : 'foreign-form';
  }
  const origin = headers.origin;
  if (origin === undefined || accepted.has(origin)) return 'allowed';
  const sameHost = URL.canParse(origin) && headers.host !== undefined && new URL(origin).host === headers.host.toLowerCase();
  return sameHost ? 'allowed' : 'foreign-json';
}

/**
 * The `preValidation` hook refusing posts from other websites; `formRoutes` are the routes that
 * take the site's plain HTML forms (`/api/newsletter`, `/api/contact`).
 */
export function refuseForeignPosts(deps: PlainFormDeps, formRoutes: readonly string[]) {
  const accepted = acceptedOrigins(deps);
  const forms = new Set(formRoutes);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (request.method !== 'POST') return undefined;
    const headers = request.headers as PostHeaders;
    const decision = postOrigin(headers, forms.has(request.routeOptions.url ?? ''), accepted);
    if (decision === 'allowed') return undefined;
    request.log.info({ refused: decision, origin: headers.origin ?? null }, 'post from another website refused');
    return decision === 'foreign-form' ? sendRefused(reply, deps, formLang(request.body)) : sendError(reply, 'origin_not_allowed');
  };
}
