import { isSitePath } from '../../../ingest/contract/schemas.ts';

/**
 * The path of the site page the visitor came from: the `from` parameter a link may carry, else the
 * same-origin referrer (not the contact page itself, as after a reload); null when unknown or when
 * it is not a plain site path the service would accept.
 *
 * @example sourcePageOf('?from=/de/about', '', 'https://x.example/de/contact')                 // '/de/about'
 * @example sourcePageOf('', 'https://x.example/de', 'https://x.example/de/contact')           // '/de'
 * @example sourcePageOf('', 'https://search.example/?q=x', 'https://x.example/de/contact')    // null
 */
export function sourcePageOf(search: string, referrer: string, here: string): string | null {
  const from = new URLSearchParams(search).get('from');
  if (from !== null) return isSitePath(from) ? from : null;
  try {
    const came = new URL(referrer);
    const page = new URL(here);
    return came.origin === page.origin && came.pathname !== page.pathname && isSitePath(came.pathname) ? came.pathname : null;
  } catch {
    return null; // no referrer (typed address, bookmark, a stricter Referrer-Policy)
  }
}
