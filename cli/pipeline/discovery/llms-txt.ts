/**
 * `llms.txt` (the llmstxt.org proposal): a Markdown index of the site for language models, one per
 * language (`/llms.txt` in English, `/de/llms.txt` …), made from the routes table and each page's
 * title and description: an H1 with the brand, a blockquote with the site's description, the
 * company's one-line summary, then H2 sections of links, each with its page's description, the
 * other languages' indexes, and the legal texts under "Optional" (the proposal's name for what a
 * model may skip when its context is short).
 *
 *   # MaskWise
 *
 *   > Mask and anonymise sensitive data in MySQL, …
 *
 *   MaskWise helps organisations mask sensitive data …
 *
 *   ## Quick links
 *
 *   - [About us](https://www.maskwise.io/about): Who we are, what we build …
 */
import { absoluteUrl } from '../../site/head/head.ts';
import type { Translate } from '../../site/i18n.ts';
import { DEFAULT_LANG, type Lang, NATIVE_NAMES } from '../../site/languages.ts';
import type { ContentPage } from '../../site/markdown/content-pages.ts';
import { pageMeta, pageSection, type Section, titleWithoutBrand } from '../../site/head/page-meta.ts';
import { contentPageLookup, isIndexed, type RoutePageId, type SiteRoutes } from '../../site/routes.ts';
import type { SiteConfig } from '../../site/site-config.ts';
import type { DiscoveryMemo } from './discovery-memo.ts';

/** The heading of each section in the page's language (from the strings the pages already show); "Optional" is the proposal's keyword. */
const HEADINGS: Readonly<Record<Section | 'languages', (t: Translate) => string>> = {
  main: (t) => t('footer.quickLinks'),
  solutions: (t) => t('nav.solutions'),
  regulations: (t) => t('solutions.regulationsTitle'),
  languages: (t) => t('nav.chooseLanguage'),
  optional: () => 'Optional',
};

/** The URL of a language's `llms.txt` under the output folder: `llms.txt`, `de/llms.txt`. */
export function llmsTxtFile(lang: Lang): string {
  return lang === DEFAULT_LANG ? 'llms.txt' : `${lang}/llms.txt`;
}

/** Text for a Markdown link's label or a line of the list: brackets and line breaks would break the list. */
const inline = (text: string) => text.replace(/\s+/g, ' ').replace(/[[\]]/g, '');

/** What `llmsTxt` reads: the site, the routes table, the pages added as Markdown (`fill` fills in their title and description), and a translator per language. */
export interface LlmsTxtInput<Page extends Pick<ContentPage, 'name' | 'lang' | 'nav' | 'title' | 'description'>> {
  site: SiteConfig;
  routes: SiteRoutes;
  contentPages: readonly Page[];
  fill: (page: Page) => Page;
  translators: ReadonlyMap<Lang, Translate>;
  langs: readonly Lang[];
}

/** Every language's `llms.txt`: output file → text; a language whose inputs are as the last build's is taken from `memo`. */
export function llmsTxt<Page extends Pick<ContentPage, 'name' | 'lang' | 'nav' | 'title' | 'description'>>(
  { site, routes, contentPages, fill, translators, langs }: LlmsTxtInput<Page>,
  memo: DiscoveryMemo,
): Map<string, string> {
  const files = new Map<string, string>();
  // Only the languages made again look their pages up (one of seven in a one-string rebuild).
  const contentPageOf = contentPageLookup(contentPages);
  for (const lang of langs) {
    const kept = memo.kept(lang)?.llms;
    if (kept !== undefined) {
      memo.keep(lang, { llms: kept });
      files.set(llmsTxtFile(lang), kept);
      continue;
    }
    const t = translators.get(lang)!;
    const sections = new Map<Section, string[]>([['main', []], ['solutions', []], ['regulations', []], ['optional', []]]);
    for (const route of routes.allRoutes([lang])) {
      if (route.path !== route.canonical || !isIndexed(route.page)) continue;
      // Filled here: only the pages of the languages made again.
      const found = contentPageOf(lang, route.page);
      const page = found && fill(found);
      const section = pageSection(route.page, page);
      if (!section) continue;
      const { title, description } = pageMeta(route.page as RoutePageId, t, site.brand, page);
      sections.get(section)!.push(`- [${inline(titleWithoutBrand(title, site.brand))}](${absoluteUrl(site.siteUrl, route.path)}): ${inline(description)}`);
    }
    const others = langs.filter((other) => other !== lang).map((other) => `- [${NATIVE_NAMES[other]}](${absoluteUrl(site.siteUrl, `/${llmsTxtFile(other)}`)})`);
    const block = (heading: string, lines: readonly string[]) => (lines.length === 0 ? [] : [`## ${heading}`, '', ...lines, '']);
    const text = [
      `# ${site.brand}`,
      '',
      `> ${inline(t('meta.home.description'))}`,
      '',
      inline(t('footer.about')),
      '',
      ...block(HEADINGS.main(t), sections.get('main')!),
      ...block(HEADINGS.solutions(t), sections.get('solutions')!),
      ...block(HEADINGS.regulations(t), sections.get('regulations')!),
      ...block(HEADINGS.languages(t), others),
      ...block(HEADINGS.optional(t), sections.get('optional')!),
    ].join('\n');
    memo.keep(lang, { llms: text });
    files.set(llmsTxtFile(lang), text);
  }
  return files;
}
