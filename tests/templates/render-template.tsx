import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { loadContentPages } from '../../cli/site/markdown/content-pages.ts';
import { createTranslator, type Translate } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { loadAllMessages } from '../../cli/site/locales.ts';
import { siteRoutes } from '../../cli/site/routes.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';
import { ISLANDS, type IslandAssets } from '../../templates/islands/registry.ts';
import { PageProvider } from '../../templates/page-context.tsx';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);
const islands = Object.fromEntries(Object.keys(ISLANDS).map((name) => [name, `/assets/${name}.js`])) as IslandAssets;

/** The real content's translator for `lang`, as the build makes it. */
export function translatorFor(lang: Lang): Translate {
  return createTranslator(lang, messages, placeholderValues(site, lang));
}

/** Renders a template with the real content in `lang`, as the build does, to static HTML. */
export function renderTemplate(lang: Lang, Template: ComponentType, page: 'home' | 'about' = 'home'): string {
  return renderToStaticMarkup(
    <PageProvider value={{ lang, page, routes, t: translatorFor(lang), site, year: 2026, islands, islandsOnPage: new Set() }}>
      <Template />
    </PageProvider>,
  );
}

export { textOf } from '../helpers/html-text.ts';

/** Removes the parts hidden from assistive technology (`aria-hidden="true"` elements without nested ones of the same tag). */
export function withoutHidden(html: string): string {
  return html.replace(/<(span|svg|div)\b[^>]*aria-hidden="true"[^>]*>[\s\S]*?<\/\1>/g, '');
}

/** Every match of `pattern`'s first group, in order. */
export function allOf(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((m) => m[1]!);
}
