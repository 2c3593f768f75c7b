import { isPrivateApiPath, tokenFormEndpoint } from '../host/api-forwarding.ts';

/**
 * The longest request target (path and query) the local servers answer; a longer one gets 414,
 * as behind nginx, whose request line may be 8 KB by default. Page URLs are under 100 characters.
 */
export const MAX_TARGET_LENGTH = 8000;

/** A request target split into the parts a server may use, or the status that refuses it. */
export type RequestTarget =
  | { type: 'path'; path: string; query: string }
  | { type: 'refused'; status: 400 | 414 };

/**
 * Splits the target of a request line into its path and query (with its `?`), reading no host
 * from it: `//evil.example/api` and `/\evil.example/api` are paths like any other, and the
 * absolute form (`GET http://evil.example/api/x`, which HTTP/1.1 servers must accept) keeps only
 * its path. Linear in the length of the target.
 *
 * @example requestTarget('/de/about?x=1')            // { type: 'path', path: '/de/about', query: '?x=1' }
 * @example requestTarget('//evil.example/api/x')     // { type: 'path', path: '//evil.example/api/x', query: '' }
 * @example requestTarget('http://evil.example/api/x') // { type: 'path', path: '/api/x', query: '' }
 * @example requestTarget('*')                        // { type: 'refused', status: 400 }
 */
export function requestTarget(target: string): RequestTarget {
  if (target.length > MAX_TARGET_LENGTH) return { type: 'refused', status: 414 };
  let originForm = target;
  if (!target.startsWith('/')) {
    const authority = /^https?:\/\/[^/?#]*/i.exec(target);
    if (!authority) return { type: 'refused', status: 400 };
    originForm = target.slice(authority[0].length);
    if (!originForm.startsWith('/')) originForm = `/${originForm}`;
  }
  const question = originForm.indexOf('?');
  return question < 0
    ? { type: 'path', path: originForm, query: '' }
    : { type: 'path', path: originForm.slice(0, question), query: originForm.slice(question) };
}

/** Whether a request path belongs to the ingest service (`/api`, `/api/…`) and has no empty segment. */
function isApiPath(path: string): boolean {
  return (path === '/api' || path.startsWith('/api/')) && !path.includes('//');
}

/**
 * Where on the ingest service a request goes (path and query), or null when the site answers it
 * itself: `/api/…` as it came, except the private paths (`/api/metrics`, which get the site's
 * 404), and a POST to a token form page (the newsletter's confirm and unsubscribe pages, the
 * contact message's confirm page, whose form has no action) to the endpoint of the same name,
 * with the page's query.
 *
 * @example ingestTarget('GET', '/api/captcha', '?lang=de')               // '/api/captcha?lang=de'
 * @example ingestTarget('POST', '/de/newsletter/confirm', '?token=abc')  // '/api/newsletter/confirm?token=abc'
 * @example ingestTarget('GET', '/de/newsletter/confirm', '?token=abc')   // null (the page)
 * @example ingestTarget('GET', '/api/metrics', '')                       // null (404)
 */
export function ingestTarget(method: string | undefined, path: string, query: string): string | null {
  if (isApiPath(path)) return isPrivateApiPath(path) ? null : path + query;
  const endpoint = method === 'POST' ? tokenFormEndpoint(path) : null;
  return endpoint === null ? null : endpoint + query;
}
