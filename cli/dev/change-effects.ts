import { DEFAULT_LANG, LANGUAGES, type Lang } from '../site/languages.ts';
import { MARKDOWN_PAGES } from '../site/markdown/markdown.ts';
import type { TemplateGraphs } from './page-templates.ts';

/** A file that changed, relative to the folder watched: `content` (site.json, locales/, pages/) or `templates`. */
export interface ChangedFile {
  area: 'content' | 'templates';
  /** With forward slashes: `locales/de.json`, `pages/AboutPage.tsx`. */
  path: string;
}

/** The pages an edit affects: every page type in `pages` (`all`: whatever pages the site has then) in every language in `langs`. */
export interface PageSelection {
  langs: readonly Lang[];
  pages: readonly string[] | 'all';
}

/** What `sitegen dev` must redo after edits (the content files are read again every time: it takes about 15 ms). */
export interface ChangeEffect {
  /** Template files whose classes the stylesheet must have (it changes only when that adds a rule), or `all`: compile it afresh. */
  css: readonly string[] | 'all';
  /** Bundle the islands again. */
  islands: boolean;
  pages: PageSelection[];
}

const NOTHING: ChangeEffect = { css: [], islands: false, pages: [] };

/**
 * Which pages and stages one edited file affects — a string: that language's pages (English:
 * every language's, as their fallback); a legal page's Markdown: that page in that language; a
 * template: the pages whose template imports it, and the stylesheet; an island's module: the
 * bundle too. `pageIds` are the site's page types now (`notFound` included); anything not
 * recognised rebuilds every page.
 *
 * @example effectOfChange({ area: 'content', path: 'locales/de.json' }, graphs, pageIds)
 * // { css: [], islands: false, pages: [{ langs: ['de'], pages: 'all' }] }
 * @example effectOfChange({ area: 'templates', path: 'pages/AboutPage.tsx' }, graphs, pageIds)
 * // { css: ['pages/AboutPage.tsx'], islands: false, pages: [{ langs: [...LANGUAGES], pages: ['about'] }] }
 */
export function effectOfChange(change: ChangedFile, graphs: TemplateGraphs | null, pageIds: readonly string[]): ChangeEffect {
  const everyPage: PageSelection = { langs: LANGUAGES, pages: 'all' };
  if (change.area === 'content') {
    const locale = /^locales\/([a-z]{2})\.json$/.exec(change.path);
    if (locale) {
      const lang = locale[1] as Lang;
      if (!(LANGUAGES as readonly string[]).includes(lang)) return NOTHING;
      return { ...NOTHING, pages: [{ langs: lang === DEFAULT_LANG ? LANGUAGES : [lang], pages: 'all' }] };
    }
    const markdown = /^pages\/([a-z]{2})\/([^/]+)\.md$/.exec(change.path);
    const legalPage = markdown && Object.entries(MARKDOWN_PAGES).find(([, name]) => name === markdown[2])?.[0];
    if (markdown && legalPage && (LANGUAGES as readonly string[]).includes(markdown[1]!)) {
      return { ...NOTHING, pages: [{ langs: [markdown[1] as Lang], pages: [legalPage] }] };
    }
    // site.json, and Markdown pages that may add or move routes, links and alternates in every language.
    return { ...NOTHING, pages: [everyPage] };
  }
  if (!graphs || change.path === 'styles.css' || !/\.tsx?$/.test(change.path)) return { css: 'all', islands: true, pages: [everyPage] };
  const { shared, pageFiles, islands } = graphs;
  const css = [change.path];
  if (shared.has(change.path)) return { css, islands: islands.has(change.path), pages: [everyPage] };
  const using = pageIds.filter((page) => pageFiles(page)?.has(change.path) ?? true);
  return { css, islands: islands.has(change.path), pages: using.length > 0 ? [{ langs: LANGUAGES, pages: using }] : [] };
}

/** The effects of several edits together. */
export function mergeEffects(effects: readonly ChangeEffect[]): ChangeEffect {
  return {
    css: effects.some((e) => e.css === 'all') ? 'all' : [...new Set(effects.flatMap((e) => (e.css === 'all' ? [] : e.css)))],
    islands: effects.some((e) => e.islands),
    pages: effects.flatMap((e) => e.pages),
  };
}

/**
 * Whether a page of one language is among the selected.
 *
 * @example isSelected([{ langs: ['de'], pages: ['home', 'about'] }], 'de', 'about') // true
 */
export function isSelected(selections: readonly PageSelection[], lang: Lang, page: string): boolean {
  return selections.some((s) => s.langs.includes(lang) && (s.pages === 'all' || s.pages.includes(page)));
}

/** Whether the selections cover every page of every language. */
export function isEverything(selections: readonly PageSelection[]): boolean {
  return selections.some((s) => s.pages === 'all' && LANGUAGES.every((lang) => s.langs.includes(lang)));
}
