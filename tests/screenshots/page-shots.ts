import { DEFAULT_LANG, type Lang } from '../../cli/site/languages.ts';
import { notFoundPath, type RoutePageId, type SiteRoutes } from '../../cli/site/routes.ts';
import { TOKEN_FORM_PAGES } from '../../ingest/contract/service-pages.ts';

/** The widths photographed: a phone and a laptop. */
export const SHOT_WIDTHS = [390, 1280] as const;

/** One page to photograph in one language. */
export interface PageShot {
  lang: Lang;
  /** The page's name in file names, the same in every language: its English URL (`legal-notice`, `newsletter-confirm`), `home` or `404`. */
  name: string;
  /** The URL path to open on the local server. */
  url: string;
}

// The token form pages show their button only when the address has a token, as the links in the
// service's mails do; any value will do, since nothing is posted.
const SAMPLE_TOKEN = 'screenshot';

/** The name of a page in file names: its English URL without slashes, or its Markdown file's name when it has no English text. */
function nameOf(routes: SiteRoutes, page: RoutePageId): string {
  const english = routes.pathFor(page, DEFAULT_LANG);
  if (english === '/') return 'home';
  return english === undefined ? page.replace(/^content:/, '') : english.slice(1).replaceAll('/', '-');
}

/**
 * Every page of the site in `langs` (the routes table without its aliases, then the language's
 * 404 page), as the pages to photograph.
 *
 * @example pageShots(routes, ['de']).slice(0, 2)
 *   // [{ lang: 'de', name: 'home', url: '/de' }, { lang: 'de', name: 'about', url: '/de/about' }]
 * @example a token form page
 *   // { lang: 'de', name: 'newsletter-confirm', url: '/de/newsletter/confirm?token=screenshot' }
 */
export function pageShots(routes: SiteRoutes, langs: readonly Lang[]): PageShot[] {
  return langs.flatMap((lang) => [
    ...routes
      .allRoutes([lang])
      .filter((route) => route.path === route.canonical)
      .map((route) => ({
        lang,
        name: nameOf(routes, route.page),
        url: route.page in TOKEN_FORM_PAGES ? `${route.path}?token=${SAMPLE_TOKEN}` : route.path,
      })),
    { lang, name: '404', url: notFoundPath(lang) },
  ]);
}

/** The file a page's shot at `width` is saved as: `shotFile({ lang: 'de', name: 'about', … }, 390)` → `de-about-390.png`. */
export function shotFile(shot: PageShot, width: number): string {
  return `${shot.lang}-${shot.name}-${width}.png`;
}
