import { TOKEN_FORM_PAGES } from '../../ingest/contract/service-pages.ts';
import { DEFAULT_LANG, LANGUAGES } from '../site/languages.ts';

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
