import { type ServicePage, servicePagePath, TOKEN_FORM_PAGES } from '../../ingest/contract/service-pages.ts';
import { DEFAULT_LANG, type Lang, LANGUAGES } from '../site/languages.ts';

/**
 * What a host of the site forwards to the ingest service besides `/api/…`, and what under `/api`
 * it never forwards. The local servers (`npm start`, `sitegen preview`, `sitegen dev`) decide with
 * these functions; the nginx server block is written from the same patterns.
 */

/** The path under which the site's own origin reaches the ingest service (site.json's `ingestUrl`). */
export const API_BASE = '/api';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The address of a page whose form posts to the page itself (`TOKEN_FORM_PAGES` of the contract)
 * in any language, as a regular expression without anchors, for patterns that embed it (the nginx
 * map); group 1 is the page's path without the language. Letter case counts, as it does for every
 * page URL.
 *
 * @example TOKEN_FORM_PATH // '(?:/(?:es|pt|fr|de|it|nl))?(/newsletter/confirm|/newsletter/unsubscribe|/contact/confirm)'
 */
export const TOKEN_FORM_PATH = `(?:/(?:${LANGUAGES.filter((l) => l !== DEFAULT_LANG).join('|')}))?(${Object.values(TOKEN_FORM_PAGES)
  .map(escapeRegex)
  .join('|')})`;

const tokenFormPath = new RegExp(`^${TOKEN_FORM_PATH}$`);

/**
 * The ingest endpoint that a POST to `path` goes to when `path` is a token form page, else null.
 * The language is left out: the form's body says it (`lang=de`).
 *
 * @example tokenFormEndpoint('/de/newsletter/confirm')  // '/api/newsletter/confirm'
 * @example tokenFormEndpoint('/newsletter/unsubscribe') // '/api/newsletter/unsubscribe'
 * @example tokenFormEndpoint('/de/newsletter/confirmed') // null
 */
export function tokenFormEndpoint(path: string): string | null {
  const match = tokenFormPath.exec(path);
  return match ? API_BASE + match[1]! : null;
}

/**
 * Matches (case-insensitive) the paths under the API base that no host forwards: the service's
 * metrics, `/api/metrics` and anything that starts so. Monitoring reads them on the service's own
 * port; the public site never shows them.
 */
export const PRIVATE_API_PATTERN = `^${escapeRegex(API_BASE)}/metrics`;

const privateApiPath = new RegExp(PRIVATE_API_PATTERN, 'i');

/**
 * Whether a request path names one of the private API paths in any spelling the service could
 * route to the same place: percent-escapes and dot segments are resolved first, as nginx does.
 *
 * @example isPrivateApiPath('/api/metrics')           // true
 * @example isPrivateApiPath('/api/x/..%2F%6Detrics')  // true
 * @example isPrivateApiPath('/api/newsletter')        // false
 */
export function isPrivateApiPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the path is checked as written (no router decodes it either).
  }
  const resolved = new URL(`http://site${decoded.startsWith('/') ? '' : '/'}${decoded}`).pathname;
  return [path, decoded, resolved].some((form) => privateApiPath.test(form));
}

/** The content type of a plain HTML form's post (JavaScript off); the islands post JSON. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Whether a request's `Content-Type` is a plain HTML form's. */
export function isFormPost(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === FORM_CONTENT_TYPE;
}

/**
 * The result page a plain HTML form post is sent to (303) when a host answers it in the service's
 * place, so that a visitor without JavaScript sees a page of the site, never a bare error: a body
 * over the service's limit (`tooLarge`, 413) is "not accepted: too long"; a service that is down
 * or silent (`serviceDown`, 502, 503, 504) means "not stored, try again later".
 */
export const FORM_FALLBACK_PAGES = { tooLarge: 'formNotAcceptedTooLong', serviceDown: 'formNotStored' } as const satisfies Record<string, ServicePage>;

/**
 * Matches a `Referer` on a page in a language other than the default; group 1 is the language.
 * The site's pages send their full URL as Referer to their own origin
 * (`strict-origin-when-cross-origin`), so a form post's Referer names the form's page.
 */
export const REFERER_LANG_PATTERN = `^https?://[^/?#]+/(${LANGUAGES.filter((l) => l !== DEFAULT_LANG).join('|')})(?:[/?#]|$)`;

const refererLangPattern = new RegExp(REFERER_LANG_PATTERN);

/**
 * The language of the page a form was posted from: the first path segment of its `Referer` when
 * that is a language, else the default language.
 *
 * @example refererLang('https://www.maskwise.io/de/contact') // 'de'
 * @example refererLang(undefined)                            // 'en'
 */
function refererLang(referer: string | undefined): Lang {
  return (refererLangPattern.exec(referer ?? '')?.[1] as Lang | undefined) ?? DEFAULT_LANG;
}

/**
 * Where a host sends a plain form post it answers itself, as a root-relative path (the visitor
 * stays on the origin they used).
 *
 * @example formFallbackPath('serviceDown', 'https://www.maskwise.io/de/contact') // '/de/form/not-stored'
 */
export function formFallbackPath(reason: keyof typeof FORM_FALLBACK_PAGES, referer: string | undefined): string {
  return servicePagePath(FORM_FALLBACK_PAGES[reason], refererLang(referer));
}
