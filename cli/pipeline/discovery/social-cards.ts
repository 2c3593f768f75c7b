/**
 * The social cards of a build's pages: which pages get one and what it says (cli/assets/cards/page-cards.ts
 * renders and caches them), with the helpers the build shares with `llms.txt`.
 */
import { type PageCard, pageCards } from '../../assets/cards/page-cards.ts';
import type { Lang } from '../../site/languages.ts';
import type { ContentPage } from '../../site/markdown/content-pages.ts';
import { fillPlaceholders } from '../../site/markdown/markdown.ts';
import { pageMeta, pageSection, type Section, titleWithoutBrand } from '../../site/head/page-meta.ts';
import { contentPageLookup, isIndexed, type RenderedRoute } from '../../site/routes.ts';
import type { LoadedContent } from '../load-content.ts';
import type { DiscoveryMemo, LanguageCards } from './discovery-memo.ts';

/** One card's request: the page's URL path, its language and what its card says (`pageCards`). */
type CardRequest = Parameters<typeof pageCards>[0][number];

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
  // Asked once per language and section: a card per page asked the translator 1,161 times on the scaling site.
  const taglineOf = new Map<string, string>();
  const tagline = (lang: Lang, section: Section) => {
    const id = `${lang} ${section}`;
    if (!taglineOf.has(id)) taglineOf.set(id, translators.get(lang)!(taglines[section]));
    return taglineOf.get(id)!;
  };
  // Only the languages made again look their pages up (one of seven in a one-string rebuild).
  const contentPageOf = contentPageLookup(contentPages);
  const cardsOf = (lang: Lang): LanguageCards => {
    const made: LanguageCards = { brand: site.brand, host, ids: [], titles: [], taglines: [] };
    const t = translators.get(lang)!;
    for (const route of routes) {
      if (route.lang !== lang) continue;
      const page = contentPageOf(lang, route.page);
      const section = pageSection(route.page, page);
      if (route.path !== route.canonical || !isIndexed(route.page) || !section) continue;
      made.ids.push(route.path);
      made.titles.push(titleWithoutBrand(pageMeta(route.page, t, site.brand, page && fill(page)).title, site.brand));
      made.taglines.push(tagline(route.lang, section));
    }
    return made;
  };
  // A language whose inputs are as the last build's takes its cards' texts from the memo.
  const byPath = new Map<string, CardRequest>();
  for (const lang of new Set(routes.map((route) => route.lang))) {
    const made = memo.kept(lang)?.cards ?? cardsOf(lang);
    memo.keep(lang, { cards: made });
    // The text's fields in this order: its JSON is hashed into the card's name (page-cards.ts).
    made.ids.forEach((id, i) => byPath.set(id, { id, lang, text: { brand: made.brand, title: made.titles[i]!, tagline: made.taglines[i]!, host: made.host } }));
  }
  // In the routes' order, as each was asked before the memo.
  const requests = routes.flatMap((route) => byPath.get(route.path) ?? []);
  const { cards, rendered } = await pageCards(requests);
  const withAlts = new Map<string, PageCard & { alt: string }>();
  for (const { id, text } of requests) withAlts.set(id, { ...cards.get(id)!, alt: `${site.brand}: ${text.title}` });
  return { cards: withAlts, rendered };
}

