import { absoluteUrl, hreflangLinks } from '../../site/head/head.ts';
import { isIndexed, type RenderedRoute, type RoutePageId, type SiteRoutes } from '../../site/routes.ts';

const XML_SPECIAL = /[&<>"]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** `text` with XML's special characters as entities (one pass: the sitemap of the scaling site escapes 10,000 URLs). */
function escapeXml(text: string): string {
  return text.replace(XML_SPECIAL, (char) => XML_ENTITY[char]!);
}

/**
 * The sitemap of the given routes: one `<url>` per canonical page, each with the time its content
 * last changed (`lastmod`, when known: cache/page-changes.ts) and its `xhtml:link` hreflang
 * alternates (aliases are left out: they are not canonical; so are the `noindex` pages).
 */
export function sitemapXml(routes: readonly RenderedRoute[], table: SiteRoutes, siteUrl: string, lastmod: (route: RenderedRoute) => string | undefined = () => undefined): string {
  // A page's alternates are the same lines in each of its languages: made once per page, not once per URL (7 times).
  const linksOf = new Map<RoutePageId, string>();
  const alternates = (page: RoutePageId) => {
    let links = linksOf.get(page);
    if (links === undefined) {
      links = hreflangLinks(table, page, siteUrl)
        .map((l) => `    <xhtml:link rel="alternate" hreflang="${l.hreflang}" href="${escapeXml(l.href)}"/>`)
        .join('\n');
      linksOf.set(page, links);
    }
    return links;
  };
  const entries = routes
    .filter((route) => route.path === route.canonical && isIndexed(route.page))
    .map((route) => {
      const links = alternates(route.page);
      const changed = lastmod(route);
      const time = changed === undefined ? '' : `    <lastmod>${changed}</lastmod>\n`;
      return `  <url>\n    <loc>${escapeXml(absoluteUrl(siteUrl, route.path))}</loc>\n${time}${links}\n  </url>`;
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: everything may be crawled; the sitemap's absolute URL. */
export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
}
