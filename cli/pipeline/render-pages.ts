import { caseRedirectScript } from '../host/case-redirect.ts';
import type { ContentPage } from '../site/markdown/content-pages.ts';
import { ContentError, type Problem } from '../site/errors.ts';
import { recordingTranslator } from '../site/i18n.ts';
import type { Lang } from '../site/languages.ts';
import { isMarkdownPage, type RenderedMarkdown } from '../site/markdown/markdown.ts';
import type { RenderedContentPage } from '../site/markdown/render-markdown.ts';
import { contentPageLookup, fileForPath, isIndexed, notFoundPath, type RenderedRoute, type RoutePageId } from '../site/routes.ts';
import type { PageRoute, RenderedDocument } from './page-document.ts';
import type { SiteAssets } from './build-assets.ts';
import type { LoadedContent } from './load-content.ts';
import { renderPage } from './render-page.tsx';

/** A page the build cache found unchanged: not rendered, its previous HTML stays. */
export type UnchangedDocument = Omit<RenderedDocument, 'html' | 'strings'> & { html?: undefined };

/** Whether a page may be left as the previous build wrote it (all it reads is unchanged); absent, every page is rendered. */
export type ReusePage = (route: PageRoute, file: string) => boolean;

/** What the render stage needs besides content and assets. */
export interface RenderInput {
  contentDir: string;
  langs: readonly Lang[];
  routes: readonly RenderedRoute[];
  /** The build year, for the copyright line. */
  year: number;
  reuse?: ReusePage;
  /** The social card of an indexed page, by its canonical URL path (an alias shows its page's; the others their language's image). */
  cards?: ReadonlyMap<string, { url: string; alt: string }>;
}

/**
 * Every page of `langs`, in the order the render stage makes them: each language's routes, then
 * its 404 page; each with its output file and its route.
 */
export function pageRoutes(routes: readonly RenderedRoute[], langs: readonly Lang[]): { file: string; path: string; lang: Lang; route: PageRoute }[] {
  return langs
    .flatMap((lang): PageRoute[] => [...routes.filter((r) => r.lang === lang), { page: 'notFound', lang, path: notFoundPath(lang), canonical: notFoundPath(lang) }])
    .map((route) => ({ file: fileForPath(route.path), path: route.path, lang: route.lang, route }));
}

/** The Markdown renderer (render-markdown.ts, marked inside), imported when a page first needs it. */
type MarkdownRenderer = typeof import('../site/markdown/render-markdown.ts');

/** The Markdown a route's page renders: a legal text read from `contentDir`, a page added as Markdown, or none. */
async function markdownOf(
  route: RenderedRoute,
  content: LoadedContent,
  contentDir: string,
  contentPageOf: (lang: Lang, page: RoutePageId | 'notFound') => ContentPage | undefined,
  renderer: () => Promise<MarkdownRenderer>,
): Promise<{ legal?: RenderedMarkdown; page?: RenderedContentPage }> {
  if (isMarkdownPage(route.page)) return { legal: (await renderer()).loadMarkdownPage(contentDir, route.lang, route.page, content.values[route.lang]) };
  const page = contentPageOf(route.lang, route.page);
  return page ? { page: (await renderer()).renderContentPage(page, content.values[route.lang]) } : {};
}

/**
 * The render stage: every route of every language (legal texts read and filled from
 * `contentDir`, pages added as Markdown from the loaded content) and a 404 page per language, as
 * documents in memory. A page whose content fails is left out and its problems returned, so one
 * build reports them all.
 */
export async function renderPages(
  content: LoadedContent,
  assets: SiteAssets,
  { contentDir, langs, routes, year, reuse = () => false, cards = new Map() }: RenderInput,
): Promise<{ documents: RenderedDocument[]; unchanged: UnchangedDocument[]; problems: Problem[] }> {
  const documents: RenderedDocument[] = [];
  const unchanged: UnchangedDocument[] = [];
  const problems: Problem[] = [];
  // Made when a page needs them (the build renders a language at a time, and a small rebuild few pages).
  let caseRedirect: string | undefined;
  // Set up only when a page with Markdown is rendered: a rebuild of other pages does without it.
  let markdownRenderer: Promise<MarkdownRenderer> | undefined;
  const renderer = () => (markdownRenderer ??= import('../site/markdown/render-markdown.ts'));
  const contentPageOf = contentPageLookup(content.contentPages);
  for (const lang of langs) {
    const shared = {
      stylesheet: assets.stylesheet,
      cssRules: assets.cssRules,
      loader: assets.loader,
      socialImage: { url: assets.socialImages[lang]! },
    };
    const translate = content.translators.get(lang)!;
    const context = { lang, site: content.site, routes: content.routes, year, islands: assets.islands.assets };
    for (const route of routes.filter((r) => r.lang === lang)) {
      const file = fileForPath(route.path);
      const alias = route.path !== route.canonical ? { aliasOf: route.canonical } : {};
      if (reuse(route, file)) {
        unchanged.push({ path: route.path, file, lang, page: route.page, ...alias });
        continue;
      }
      let markdown;
      try {
        markdown = await markdownOf(route, content, contentDir, contentPageOf, renderer);
      } catch (error) {
        if (!(error instanceof ContentError)) throw error;
        problems.push(...error.problems);
        continue;
      }
      const canonicalPath = isIndexed(route.page) ? route.canonical : null;
      const { t, keys } = recordingTranslator(translate);
      const { html, problems: pageProblems } = renderPage({ ...shared, socialImage: cards.get(route.canonical) ?? shared.socialImage, context: { ...context, t, page: route.page }, path: route.path, file, canonicalPath, markdown: markdown.legal, contentPage: markdown.page });
      problems.push(...pageProblems);
      documents.push({ path: route.path, file, html, lang, page: route.page, strings: [...keys], ...alias });
    }
    const path = notFoundPath(lang);
    const file = fileForPath(path);
    const route = { page: 'notFound', lang, path, canonical: path } as const;
    if (reuse(route, file)) {
      unchanged.push({ path, file, lang, page: 'notFound' });
      continue;
    }
    const { t, keys } = recordingTranslator(translate);
    const notFound = renderPage({ ...shared, context: { ...context, t, page: 'notFound' }, path, file, canonicalPath: null, headScript: (caseRedirect ??= caseRedirectScript(routes.map((r) => r.path))) });
    problems.push(...notFound.problems);
    documents.push({ path, file, html: notFound.html, lang, page: 'notFound', strings: [...keys] });
  }
  return { documents, unchanged, problems };
}
