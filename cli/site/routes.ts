/**
 * The site's routes, read from the routes table (route-table.ts, the only place the fixed pages'
 * URLs are written): each page's path, the pages added as Markdown, the whole site's routes.
 */
import { DEFAULT_LANG, LANGUAGES, type Lang } from './languages.ts';
import { ALIASES, type PageId, PAGES, ROUTES, SERVICE_PAGES, type ServicePageId } from './route-table.ts';

export type { PageId, ServicePageId } from './route-table.ts';


/** A page a content maintainer added as `content/pages/<lang>/<name>.md`, by that name: `content:healthcare`. */
export type ContentPageId = `content:${string}`;

/** Any page a route serves: one of the fixed table or one added as Markdown. */
export type RoutePageId = PageId | ContentPageId;


/** The URL path of `page` in `lang`, e.g. `pathFor('privacy', 'de')` → `/de/datenschutz`. */
export function pathFor(page: PageId, lang: Lang): string {
  return ROUTES[page][lang];
}

/**
 * Whether search engines may index a page: every page but the service pages, which only make
 * sense to someone who followed a link from a mail or just sent a form.
 */
export function isIndexed(page: RoutePageId): boolean {
  return !(SERVICE_PAGES as readonly string[]).includes(page);
}

/** A link to a section of the home page: `#id` on the home page itself, `/de#id` elsewhere. */
export function homeAnchor(current: RoutePageId, lang: Lang, id: string): string {
  return current === 'home' ? `#${id}` : `${pathFor('home', lang)}#${id}`;
}

/** The language a path belongs to, from its first segment (`/de/...` → de, anything else → en). */
export function langOfPath(path: string): Lang {
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  return (LANGUAGES as readonly string[]).includes(first) && first !== DEFAULT_LANG ? (first as Lang) : DEFAULT_LANG;
}

/** The path of the 404 page of a language: `/404` for en, `/de/404` for de. */
export function notFoundPath(lang: Lang): string {
  return lang === DEFAULT_LANG ? '/404' : `/${lang}/404`;
}

/**
 * The file in `dist/` that holds a URL path. Pages are written as `NAME.html` so hosts can serve
 * clean URLs without a trailing slash.
 *
 * @example fileForPath('/')          // 'index.html'
 * @example fileForPath('/de')        // 'de.html'
 * @example fileForPath('/de/about')  // 'de/about.html'
 */
export function fileForPath(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

export interface RenderedRoute<P extends RoutePageId = RoutePageId> {
  page: P;
  lang: Lang;
  path: string;
  /** The canonical URL path: differs from `path` only for aliases. */
  canonical: string;
}

/**
 * The URLs of the fixed pages (pages and aliases), in table order, for the given languages. The
 * site's whole table, with the pages added as Markdown files, is `siteRoutes(contentPages).allRoutes()`.
 */
export function allRoutes(langs: readonly Lang[] = LANGUAGES): RenderedRoute<PageId>[] {
  const routes: RenderedRoute<PageId>[] = [];
  for (const lang of langs) {
    for (const page of [...PAGES, ...SERVICE_PAGES]) {
      const path = pathFor(page, lang);
      routes.push({ page, lang, path, canonical: path });
    }
  }
  for (const alias of ALIASES) {
    if (langs.includes(alias.lang)) {
      routes.push({ page: alias.page, lang: alias.lang, path: alias.path, canonical: pathFor(alias.page, alias.lang) });
    }
  }
  return routes;
}

/** What the routes table needs of one language's text of a page added as Markdown (see content-pages.ts). */
export interface ContentPageRoute {
  /** The file name without `.md`, shared by the page's languages: `healthcare`. */
  name: string;
  lang: Lang;
  /** The page's URL segment(s) in this language: `healthcare`, `sanidad`, `solutions/healthcare`. */
  slug: string;
  /**
   * Where a link to the page shows: the header navigation, the footer's quick links, the solutions
   * page's list of sectors and roles (`solutions`) or of regulations (`regulations`), or nowhere.
   */
  nav?: NavPlacement;
  /** The link's text in this language. */
  navLabel: string;
  /** The page's search snippet in this language; the solutions page shows it under the link. */
  description: string;
  /** Links in one place are sorted by this number, then by label. */
  navOrder: number;
}

/** Where a page added as Markdown is linked from: `nav:` in its front matter. */
export const NAV_PLACEMENTS = ['header', 'footer', 'solutions', 'regulations'] as const;
type NavPlacement = (typeof NAV_PLACEMENTS)[number];

/** A link the header, the footer or the solutions page (its two lists) shows to a page added as Markdown. */
interface PlacedLink {
  page: ContentPageId;
  href: string;
  label: string;
  description: string;
}

/** The site's whole routes table: the fixed pages and the pages added as Markdown files. */
export interface SiteRoutes {
  /** The URL path of `page` in `lang`, or undefined when the page has no text in that language. */
  pathFor(page: RoutePageId, lang: Lang): string | undefined;
  /**
   * Where the language menu leads from `page` to `lang`: the same page in that language, or, when
   * the page has no text in it, that language's home page (a visitor who picks a language wants
   * to read it, so the menu never hides one).
   */
  languageLinkFor(page: RoutePageId, lang: Lang): string;
  /** The languages `page` exists in, with its URL in each: its hreflang cluster. */
  alternatesFor(page: RoutePageId): { lang: Lang; path: string }[];
  /** The page's `x-default` URL: its English URL, or the first language it has when English has none. */
  xDefaultFor(page: RoutePageId): string;
  /** Every URL the site serves (pages and aliases) in the given languages: fixed pages first, in table order. */
  allRoutes(langs?: readonly Lang[]): RenderedRoute[];
  /** The Markdown pages placed in the header, the footer or one of the solutions page's lists in `lang`, in their order. */
  placedLinks(placement: NavPlacement, lang: Lang): PlacedLink[];
}

/** The id of a page added as Markdown: `contentPageId('healthcare')` → `content:healthcare`. */
export function contentPageId(name: string): ContentPageId {
  return `content:${name}`;
}

/**
 * A look-up of the pages added as Markdown by language and page id (what a route names), each
 * language's index made when first asked for: a one-string rebuild's cards and llms.txt look up
 * one language's pages.
 *
 * @example contentPageLookup(pages)('de', 'content:healthcare') // the German healthcare page
 */
export function contentPageLookup<P extends { name: string; lang: Lang }>(pages: readonly P[]): (lang: Lang, page: RoutePageId | 'notFound') => P | undefined {
  const byLang = new Map<Lang, Map<string, P>>();
  return (lang, page) => {
    let byId = byLang.get(lang);
    if (!byId) byLang.set(lang, (byId = new Map(pages.filter((p) => p.lang === lang).map((p) => [contentPageId(p.name), p]))));
    return byId.get(page);
  };
}

/** The URL path of a Markdown page: `/healthcare` in English, `/es/sanidad` in Spanish. */
export function contentPagePath(lang: Lang, slug: string): string {
  return lang === DEFAULT_LANG ? `/${slug}` : `/${lang}/${slug}`;
}

/** The fixed pages of each language by path, made once: every page added as Markdown (1,050 on the scaling site) asks. */
const fixedPagesByLang = new Map<Lang, Map<string, PageId>>();
function fixedPages(lang: Lang): Map<string, PageId> {
  let pages = fixedPagesByLang.get(lang);
  if (!pages) {
    // The first route of a path wins, as a search of the table in order finds it.
    pages = new Map();
    for (const route of allRoutes([lang])) if (!pages.has(route.path)) pages.set(route.path, route.page);
    fixedPagesByLang.set(lang, pages);
  }
  return pages;
}

/** First path segments that belong to something else than a page (files, the form service, a language). */
const RESERVED_SEGMENTS = new Set(['api', 'assets', '404', 'index', ...LANGUAGES]);

/**
 * Why a Markdown page may not take `path` in `lang`, or undefined when it may: the path of a fixed
 * page or alias, a 404 page, or a reserved first segment.
 *
 * @example reservedPathReason('en', '/about')  // 'it is the URL of the about page'
 * @example reservedPathReason('en', '/de')     // '"de" is reserved (languages, files and the form service use it)'
 * @example reservedPathReason('es', '/es/sanidad') // undefined
 */
export function reservedPathReason(lang: Lang, path: string): string | undefined {
  const fixed = fixedPages(lang).get(path) ?? ALIASES.find((a) => a.path === path)?.page;
  if (fixed) return `it is the URL of the ${fixed} page`;
  const segments = path.split('/').slice(lang === DEFAULT_LANG ? 1 : 2);
  if (RESERVED_SEGMENTS.has(segments[0]!)) return `"${segments[0]}" is reserved (languages, files and the form service use it)`;
  return undefined;
}

/** A page id whose name is made of what file names of pages may hold (lower-case letters, digits, hyphens). */
const PLAIN_ID = /^content:[a-z0-9-]+$/;

/**
 * The pages added as Markdown in the order of their ids, as `localeCompare` (ICU's root order)
 * sorts them. Ids of plain names sort alike by their UTF-16 code units (hyphen, digits, letters),
 * without starting ICU's collation: its first use costs about 5 ms of a one-string rebuild.
 */
function sortedPages<T>(byId: ReadonlyMap<ContentPageId, T>): [ContentPageId, T][] {
  const entries = [...byId];
  if (entries.every(([id]) => PLAIN_ID.test(id))) return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The routes table of a site whose content adds `contentPages` (one entry per page and language,
 * already validated: slugs unique per language and clear of the fixed routes).
 *
 * @example siteRoutes([{ name: 'healthcare', lang: 'en', slug: 'healthcare', … }, { name: 'healthcare', lang: 'es', slug: 'sanidad', … }])
 *   .alternatesFor('content:healthcare') // [{ lang: 'en', path: '/healthcare' }, { lang: 'es', path: '/es/sanidad' }]
 */
export function siteRoutes(contentPages: readonly ContentPageRoute[]): SiteRoutes {
  const byId = new Map<ContentPageId, Map<Lang, ContentPageRoute>>();
  for (const entry of contentPages) {
    const id = contentPageId(entry.name);
    if (!byId.has(id)) byId.set(id, new Map());
    byId.get(id)!.set(entry.lang, entry);
  }
  const isFixed = (page: RoutePageId): page is PageId => !page.startsWith('content:');
  const placed = new Map<string, PlacedLink[]>();
  let sortedIds: [ContentPageId, Map<Lang, ContentPageRoute>][] | undefined;
  const table: SiteRoutes = {
    pathFor(page, lang) {
      if (isFixed(page)) return ROUTES[page][lang];
      const entry = byId.get(page)?.get(lang);
      return entry && contentPagePath(lang, entry.slug);
    },
    languageLinkFor(page, lang) {
      return table.pathFor(page, lang) ?? pathFor('home', lang);
    },
    alternatesFor(page) {
      return LANGUAGES.flatMap((lang) => {
        const path = table.pathFor(page, lang);
        return path === undefined ? [] : [{ lang, path }];
      });
    },
    xDefaultFor(page) {
      return table.pathFor(page, DEFAULT_LANG) ?? table.alternatesFor(page)[0]!.path;
    },
    allRoutes(langs = LANGUAGES) {
      const routes: RenderedRoute[] = allRoutes(langs);
      // Sorted once, not once per language: the table does not change.
      sortedIds ??= sortedPages(byId);
      for (const lang of langs) {
        for (const [page, entries] of sortedIds) {
          const entry = entries.get(lang);
          if (entry) routes.push({ page, lang, path: contentPagePath(lang, entry.slug), canonical: contentPagePath(lang, entry.slug) });
        }
      }
      return routes;
    },
    placedLinks(placement, lang) {
      // Every page's header and footer ask: the list is made once per place and language.
      const key = `${placement} ${lang}`;
      if (!placed.has(key)) {
        const links = contentPages
          .filter((entry) => entry.lang === lang && entry.nav === placement)
          .sort((a, b) => a.navOrder - b.navOrder || a.navLabel.localeCompare(b.navLabel, lang))
          .map((entry) => ({ page: contentPageId(entry.name), href: contentPagePath(lang, entry.slug), label: entry.navLabel, description: entry.description }));
        placed.set(key, links);
      }
      return placed.get(key)!.map((link) => ({ ...link }));
    },
  };
  return table;
}
