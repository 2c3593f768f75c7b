import { absoluteUrl, hreflangLinks } from '../site/head.ts';
import { isIndexed, type RenderedRoute, type SiteRoutes } from '../site/routes.ts';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The sitemap of the given routes: one `<url>` per canonical page, each with its `xhtml:link`
 * hreflang alternates (aliases are left out: they are not canonical; so are the `noindex` pages).
 */
export function sitemapXml(routes: readonly RenderedRoute[], table: SiteRoutes, siteUrl: string): string {
  const entries = routes
    .filter((route) => route.path === route.canonical && isIndexed(route.page))
    .map((route) => {
      const links = hreflangLinks(table, route.page, siteUrl)
        .map((l) => `    <xhtml:link rel="alternate" hreflang="${l.hreflang}" href="${escapeXml(l.href)}"/>`)
        .join('\n');
      return `  <url>\n    <loc>${escapeXml(absoluteUrl(siteUrl, route.path))}</loc>\n${links}\n  </url>`;
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
