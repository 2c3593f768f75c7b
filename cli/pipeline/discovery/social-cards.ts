/**
 * The social cards of a build's pages: which pages get one and what it says (cli/assets/cards/page-cards.ts
 * renders and caches them), with the helpers the build shares with `llms.txt`.
 */
import { type PageCard, pageCards } from '../../assets/cards/page-cards.ts';
import type { Lang } from '../../site/languages.ts';
import type { ContentPage } from '../../site/markdown/content-pages.ts';
import { fillPlaceholders } from '../../site/markdown/markdown.ts';
import { pageMeta, pageSection, type Section, titleWithoutBrand } from '../../site/head/page-meta.ts';
import { contentPageId, isIndexed, type RenderedRoute } from '../../site/routes.ts';
import type { BuildResult, BuildStage } from '../build-result.ts';
import type { LoadedContent } from '../load-content.ts';
import type { CardRequest, DiscoveryMemo } from './discovery-memo.ts';

/** A page's front matter title and description with their placeholders filled, as its head shows them. */
function renderedMeta(page: ContentPage, values: Record<string, string>): { title: string; description: string } {
  return { title: fillPlaceholders(page.title, values, page.file, page.fieldLines.title), description: fillPlaceholders(page.description, values, page.file, page.fieldLines.description) };
}

/** A page added as Markdown with its title and description filled as its head shows them (`renderedMeta`), each page filled once however often asked: the cards and `llms.txt` both read them. */
export function filledPages(values: LoadedContent['values']): (page: ContentPage) => ContentPage {
  const filled = new Map<ContentPage, ContentPage>();
  return (page) => {
    let done = filled.get(page);
    if (!done) filled.set(page, (done = { ...page, ...renderedMeta(page, values[page.lang]) }));
    return done;
  };
}

/** Adds the duration of an asynchronous `step` to `stageMs[stage]`. */
export async function timedAsync<T>(stageMs: BuildResult['stageMs'], stage: BuildStage, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    stageMs[stage] = (stageMs[stage] ?? 0) + performance.now() - started;
  }
}

/**
 * The social card of every indexed page (by URL path): its title without the brand, its section
 * (the hero's tagline, "Solutions", "By regulation" or "Legal" in its language) and the site's host, rendered
 * when the cache lacks it (cli/assets/cards/page-cards.ts); with the text of its `og:image:alt`.
 * `fill` is `filledPages(content.values)`; `memo` keeps each language's card texts from one build to the next.
 */
export async function socialCards(content: LoadedContent, routes: readonly RenderedRoute[], fill: (page: ContentPage) => ContentPage, memo: DiscoveryMemo): Promise<{ cards: Map<string, PageCard & { alt: string }>; rendered: number }> {
  const { site, translators, contentPages } = content;
  const host = new URL(site.siteUrl).host;
  const taglines = { main: 'hero.eyebrow', solutions: 'nav.solutions', regulations: 'solutions.regulationsTitle', optional: 'footer.legalTitle' } as const;
  const byRoute = new Map(contentPages.map((p) => [`${p.lang} ${contentPageId(p.name)}`, p]));
  // Asked once per language and section: a card per page asked the translator 1,161 times on the scaling site.
  const taglineOf = new Map<string, string>();
  const tagline = (lang: Lang, section: Section) => {
    const id = `${lang} ${section}`;
    if (!taglineOf.has(id)) taglineOf.set(id, translators.get(lang)!(taglines[section]));
    return taglineOf.get(id)!;
  };
  const requestsOf = (lang: Lang): CardRequest[] =>
    routes.flatMap((route) => {
      if (route.lang !== lang) return [];
      const page = byRoute.get(`${route.lang} ${route.page}`);
      const section = pageSection(route.page, page);
      if (route.path !== route.canonical || !isIndexed(route.page) || !section) return [];
      const t = translators.get(route.lang)!;
      const title = titleWithoutBrand(pageMeta(route.page, t, site.brand, page && fill(page)).title, site.brand);
      return [{ id: route.path, lang: route.lang, text: { brand: site.brand, title, tagline: tagline(route.lang, section), host } }];
    });
  // A language whose inputs are as the last build's takes its requests from the memo.
  const byPath = new Map<string, CardRequest>();
  for (const lang of new Set(routes.map((route) => route.lang))) {
    const made = memo.kept(lang)?.cards ?? requestsOf(lang);
    memo.keep(lang, { cards: made });
    for (const request of made) byPath.set(request.id, request);
  }
  // In the routes' order, as each was asked before the memo.
  const requests = routes.flatMap((route) => byPath.get(route.path) ?? []);
  const { cards, rendered } = await pageCards(requests);
  const withAlts = new Map<string, PageCard & { alt: string }>();
  for (const { id, text } of requests) withAlts.set(id, { ...cards.get(id)!, alt: `${site.brand}: ${text.title}` });
  return { cards: withAlts, rendered };
}

