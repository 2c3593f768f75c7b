import { LOCALES, type Lang } from '../languages.ts';
import type { RoutePageId, SiteRoutes } from '../routes.ts';

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
 * The hreflang cluster of a page: its URL in every language it exists in, plus `x-default`
 * (English, or the page's first language when it has no English text).
 *
 * @example hreflangLinks(routes, 'about', 'https://x.io')
 * // [{ hreflang: 'en', href: 'https://x.io/about' }, …, { hreflang: 'x-default', href: 'https://x.io/about' }]
 */
export function hreflangLinks(routes: SiteRoutes, page: RoutePageId, siteUrl: string): HeadLink[] {
  const links: HeadLink[] = routes.alternatesFor(page).map(({ lang, path }) => ({ hreflang: lang, href: absoluteUrl(siteUrl, path) }));
  links.push({ hreflang: 'x-default', href: absoluteUrl(siteUrl, routes.xDefaultFor(page)) });
  return links;
}

/** One `<meta>` of the sharing previews: Open Graph uses `property`, Twitter `name`. */
export type SocialMeta = { property: string; content: string } | { name: string; content: string };

/** What a page's sharing preview shows. */
export interface SocialPreview {
  lang: Lang;
  siteName: string;
  title: string;
  description: string;
  /** Absolute canonical URL, or null for a page without one (404). */
  url: string | null;
  /** Absolute URL of the 1200×630 image, and what it shows. */
  image: { url: string; width: number; height: number; alt: string };
  /** The languages the page also exists in (its hreflang cluster), for `og:locale:alternate`. */
  alternateLangs: readonly Lang[];
}

/**
 * The Open Graph and Twitter card tags of a page: title, description, URL, the language's image
 * with its size and text, `og:locale` and one `og:locale:alternate` per other language.
 *
 * @example socialMetaTags({ lang: 'de', alternateLangs: ['en', 'de'], … })
 * // [{ property: 'og:type', content: 'website' }, …, { property: 'og:locale', content: 'de_DE' },
 * //  { property: 'og:locale:alternate', content: 'en_US' }, …, { name: 'twitter:card', content: 'summary_large_image' }, …]
 */
export function socialMetaTags(preview: SocialPreview): SocialMeta[] {
  const { image } = preview;
  return [
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: preview.siteName },
    { property: 'og:title', content: preview.title },
    { property: 'og:description', content: preview.description },
    ...(preview.url ? [{ property: 'og:url', content: preview.url }] : []),
    { property: 'og:image', content: image.url },
    { property: 'og:image:type', content: 'image/png' },
    { property: 'og:image:width', content: String(image.width) },
    { property: 'og:image:height', content: String(image.height) },
    { property: 'og:image:alt', content: image.alt },
    { property: 'og:locale', content: LOCALES[preview.lang] },
    ...preview.alternateLangs.filter((l) => l !== preview.lang).map((l) => ({ property: 'og:locale:alternate', content: LOCALES[l] })),
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: preview.title },
    { name: 'twitter:description', content: preview.description },
    { name: 'twitter:image', content: image.url },
    { name: 'twitter:image:alt', content: image.alt },
  ];
}
