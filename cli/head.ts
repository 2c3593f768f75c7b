import { DEFAULT_LANG } from './languages.ts';
import { alternatesFor, pathFor, type PageId } from './routes.ts';

/** One `<link rel="alternate" hreflang>` of a page. */
export interface HeadLink {
  hreflang: string;
  href: string;
}

/** Joins the site URL and a path into an absolute URL (`/` stays the bare origin plus `/`). */
export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${path}`;
}

/**
 * The hreflang cluster of a page: every language's URL plus `x-default` (English).
 *
 * @example hreflangLinks('about', 'https://x.io')
 * // [{ hreflang: 'en', href: 'https://x.io/about' }, …, { hreflang: 'x-default', href: 'https://x.io/about' }]
 */
export function hreflangLinks(page: PageId, siteUrl: string): HeadLink[] {
  const links: HeadLink[] = alternatesFor(page).map(({ lang, path }) => ({ hreflang: lang, href: absoluteUrl(siteUrl, path) }));
  links.push({ hreflang: 'x-default', href: absoluteUrl(siteUrl, pathFor(page, DEFAULT_LANG)) });
  return links;
}
