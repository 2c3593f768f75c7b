/**
 * Plain HTML form posts (`application/x-www-form-urlencoded`, JavaScript off): what differs from
 * the JSON clients' path. The fields are read into the contract's JSON shape and validated by the
 * same schema; every answer is a `303 See Other` to a localized result page of the site, built from
 * the configured site URL and the form's validated `lang` (never from the request); a post from
 * a foreign origin is refused with a short 403 page in the form's language (`sendRefused`).
 *
 * A plain form post is not protected by CORS (browsers send it cross-site without asking), so
 * its `Origin` — or, when a browser sends none, the origin of its `Referer` — must be the site's
 * own origin or one of `ALLOWED_ORIGINS`; neither header means refused. That check runs before
 * any rate limit counts the post (`origin-check.ts`). Errors answered by any part of the service
 * (rate limit, body too large, database unavailable) become redirects too, through an `onSend`
 * hook, so a visitor never sees a JSON body, a 405 or a 5xx.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type PublicUrls, pageUrl } from '../../consent/links.ts';
import { honeypotFilled, isSitePath, ISSUE_CODES, type IssueCode, LANGS, type Lang } from '../../contract/schemas.ts';
import { NOT_ACCEPTED_PAGES, type ServicePage } from '../../contract/service-pages.ts';
import type { SiteContent } from '../../site-content.ts';
import { escapeHtml } from '../../mail/messages/escape-html.ts';
import { isFormPost } from '../form-body.ts';
import { toPage } from '../links/token-links.ts';

/** What plain form posts need: where the site is, who may post, and the texts of the 403 page. */
export interface PlainFormDeps {
  urls: PublicUrls;
  /** Origins besides the site's own that may post forms (`ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
  content: Pick<SiteContent, 'brand' | 'texts'>;
}

/** The form's language, if it names one of ours; else English. */
export function formLang(fields: unknown): Lang {
  const lang = fields !== null && typeof fields === 'object' ? (fields as Record<string, unknown>).lang : undefined;
  return typeof lang === 'string' && (LANGS as readonly string[]).includes(lang) ? (lang as Lang) : 'en';
}

/**
 * The language to answer a form post in when its body may not have been read (too large, of
 * another type, or refused before parsing): the body's `lang` if there is one, else the language of the
 * page the form was on (the first segment of its `Referer`: `/de/…` → de), else English.
 */
function answerLang(request: FastifyRequest): Lang {
  const fromBody = formLang(request.body);
  if (fromBody !== 'en' || request.body !== undefined) return fromBody;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || !URL.canParse(referer)) return 'en';
  return formLang({ lang: new URL(referer).pathname.split('/')[1] });
}

/**
 * The page a plain form was posted from, as the JSON clients' `sourcePage`, read from the post's
 * `Referer` when it is a page of this site (one of the accepted origins): the `from` parameter the
 * site's demo and sales links carry (`/de/contact/demo?from=/de/about`: the page the button was on),
 * else the Referer's own path; either only when the contract takes it as a site path
 * (`isSitePath`), else null. A bare origin (`https://site.example/`, all a browser sends to a
 * service on another origin under the site's `strict-origin-when-cross-origin` policy) names no
 * page: null too — no form posts from the English home page.
 *
 * @example formSourcePage('https://site.example/de/contact/demo?from=/de/about', deps) // '/de/about'
 * @example formSourcePage('https://site.example/de/contact', deps)                      // '/de/contact'
 * @example formSourcePage('https://evil.example/de/contact', deps)                      // null
 */
export function formSourcePage(referer: string | undefined, deps: PlainFormDeps): string | null {
  if (referer === undefined || !URL.canParse(referer)) return null;
  const { origin, pathname, searchParams } = new URL(referer);
  const ours = origin === new URL(deps.urls.siteUrl).origin || deps.allowedOrigins.includes(origin);
  if (!ours) return null;
  const from = searchParams.get('from');
  if (from !== null) return isSitePath(from) ? from : null;
  return pathname !== '/' && isSitePath(pathname) ? pathname : null;
}

/** A checkbox: checked (`true`, or `on` from a box without a value) or not. */
export function checkbox(value: unknown): boolean {
  return value === 'true' || value === 'on';
}

/** The first field's issue of a refused form, in the order the form shows its fields. */
export function firstIssue(fields: Readonly<Record<string, IssueCode>>, order: readonly string[]): IssueCode {
  for (const name of order) if (fields[name] !== undefined) return fields[name]!;
  return Object.values(fields)[0] ?? ISSUE_CODES[0];
}

/** Sends the visitor to a result page: `303 See Other`, never cached. */
export function toResultPage(reply: FastifyReply, deps: PlainFormDeps, page: ServicePage, lang: Lang): FastifyReply {
  return toPage(reply, deps.urls, page, lang);
}

/** Refuses a post from another website with a short page in the form's language (403). */
export function sendRefused(reply: FastifyReply, deps: PlainFormDeps, lang: Lang): FastifyReply {
  const t = deps.content.texts[lang].formRefused;
  const home = `${deps.urls.siteUrl}${lang === 'en' ? '/' : `/${lang}`}`;
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="robots" content="noindex"><title>${escapeHtml(t.title)} — ${escapeHtml(deps.content.brand)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1f2933">',
    `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.text)}</p><p><a href="${escapeHtml(home)}">${escapeHtml(t.back)}</a></p>`,
    '</body></html>',
  ].join('');
  return reply.code(403).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** A plain form post that passed the checks every form shares: its fields and language. */
export interface PlainForm {
  fields: Record<string, unknown>;
  lang: Lang;
}

/**
 * The check every plain form post starts with, once its origin has passed (`origin-check.ts`, a
 * hook that runs before the handler and the rate limits): a filled honeypot is answered as if
 * stored (`droppedPage`) and dropped. Returns the form to handle, or null when the answer has
 * been sent.
 */
export function checkPlainForm(request: FastifyRequest, reply: FastifyReply, deps: PlainFormDeps, form: string, droppedPage: ServicePage): PlainForm | null {
  const fields = (request.body ?? {}) as Record<string, unknown>;
  const lang = formLang(fields);
  if (honeypotFilled(fields)) {
    request.log.info({ form }, 'honeypot filled, submission dropped');
    toResultPage(reply, deps, droppedPage, lang);
    return null;
  }
  return { fields, lang };
}

/**
 * Turns every error answer to a plain form post in `app`'s scope into a redirect to the page that
 * explains it: 429 → too many attempts; 5xx → not stored; 413 → not accepted, too long (as
 * the hosts in front answer a body over the limit); any other 4xx but the 403 page → not
 * accepted (the request could not be read).
 */
export function redirectFormErrors(app: FastifyInstance, deps: PlainFormDeps): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (status < 400 || status === 403 || !isFormPost(request.headers['content-type'])) return payload;
    const page: ServicePage = status === 429 ? 'tooManyAttempts' : status >= 500 ? 'formNotStored' : NOT_ACCEPTED_PAGES[status === 413 ? 'tooLong' : 'required'];
    reply.code(303).header('location', pageUrl(deps.urls, page, answerLang(request))).header('cache-control', 'no-store');
    reply.removeHeader('content-type');
    reply.removeHeader('retry-after');
    return '';
  });
}
