import { createContext, useContext } from 'react';
import type { Translate } from '../cli/site/i18n.ts';
import type { Lang } from '../cli/site/languages.ts';
import type { RoutePageId, SiteRoutes } from '../cli/site/routes.ts';
import type { SiteConfig } from '../cli/site/site-config.ts';
import type { IslandAssets, IslandName } from './islands/registry.ts';

/** Everything a template needs to know about the page being rendered. */
export interface PageContextValue {
  lang: Lang;
  /** The page of the routes table, or `notFound` for a 404 page. */
  page: RoutePageId | 'notFound';
  /** The site's routes table, with the pages added as Markdown (links, language menu, placement). */
  routes: SiteRoutes;
  t: Translate;
  site: SiteConfig;
  /** The build year, for the copyright line. */
  year: number;
  /** The URL of each island's module. */
  islands: IslandAssets;
  /**
   * The islands rendered so far on this page, filled by `<Island>` as the server renders it in
   * document order, so `<IslandLoader>` at the end of the body knows whether the page needs it.
   */
  islandsOnPage: Set<IslandName>;
}

const PageContext = createContext<PageContextValue | null>(null);

export const PageProvider = PageContext.Provider;

/** The current page's language, translator and site configuration. */
export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error('usePage() needs a <PageProvider> around the page');
  return value;
}
