import { DEFAULT_LANG, LANGUAGES, type Lang } from './languages.ts';

/**
 * The routes table: the only place the site's URLs are defined. Links, the language menu,
 * canonical and hreflang alternates, the sitemap, host configs and tests all read it.
 */
const PAGES = ['home', 'about', 'contact', 'cookies', 'legalNotice', 'privacy'] as const;

export type PageId = (typeof PAGES)[number];

const ROUTES: Readonly<Record<PageId, Readonly<Record<Lang, string>>>> = {
  home: { en: '/', es: '/es', pt: '/pt', fr: '/fr', de: '/de', it: '/it', nl: '/nl' },
  about: localised('/about'),
  contact: localised('/contact'),
  cookies: localised('/cookies'),
  legalNotice: {
    en: '/legal-notice',
    es: '/es/aviso-legal',
    pt: '/pt/aviso-legal',
    fr: '/fr/mentions-legales',
    de: '/de/impressum',
    it: '/it/note-legali',
    nl: '/nl/juridische-kennisgeving',
  },
  privacy: {
    en: '/privacy',
    es: '/es/privacidad',
    pt: '/pt/privacidade',
    fr: '/fr/confidentialite',
    de: '/de/datenschutz',
    it: '/it/privacy',
    nl: '/nl/privacy',
  },
};

/** Extra URLs that serve a page of the table under another address; their canonical is the table's URL. */
const ALIASES: readonly { path: string; page: PageId; lang: Lang }[] = [
  { path: '/aviso-legal', page: 'legalNotice', lang: 'es' },
];

function localised(slug: string): Record<Lang, string> {
  return Object.fromEntries(LANGUAGES.map((l) => [l, l === DEFAULT_LANG ? slug : `/${l}${slug}`])) as Record<Lang, string>;
}

/** The URL path of `page` in `lang`, e.g. `pathFor('privacy', 'de')` → `/de/datenschutz`. */
export function pathFor(page: PageId, lang: Lang): string {
  return ROUTES[page][lang];
}

/** Every language's URL of one page: the page's hreflang cluster. */
export function alternatesFor(page: PageId): { lang: Lang; path: string }[] {
  return LANGUAGES.map((lang) => ({ lang, path: ROUTES[page][lang] }));
}

/** A link to a section of the home page: `#id` on the home page itself, `/de#id` elsewhere. */
export function homeAnchor(current: PageId, lang: Lang, id: string): string {
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

export interface RenderedRoute {
  page: PageId;
  lang: Lang;
  path: string;
  /** The canonical URL path: differs from `path` only for aliases. */
  canonical: string;
}

/** Every URL the site serves (pages and aliases), in table order, for the given languages. */
export function allRoutes(langs: readonly Lang[] = LANGUAGES): RenderedRoute[] {
  const routes: RenderedRoute[] = [];
  for (const lang of langs) {
    for (const page of PAGES) {
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
