/**
 * What a page says about itself in search results and previews: its title and description, and
 * the lengths search results show whole. One place for the build (the page's head), `sitegen
 * check` (the texts' lengths at their source lines) and `llms.txt` (its links' descriptions).
 */
import type { Translate } from '../i18n.ts';
import type { PageId, RoutePageId } from '../routes.ts';

/** The longest title search results show whole (Google cuts at about 600 px: some 60 characters). */
const TITLE_MAX = 60;
/** The description lengths search results show: a shorter one is padded from the page, a longer one cut. */
const DESCRIPTION_RANGE = { min: 70, max: 160 } as const;

/**
 * The key under `meta.` of a page's title and description: its id, but the eight "not accepted"
 * pages share `meta.formNotAccepted` (they differ only in the reason they give).
 */
export function metaKeyOf(page: RoutePageId | 'notFound'): string {
  return page.startsWith('formNotAccepted') ? 'formNotAccepted' : page;
}

/**
 * A page's title and description: a page added as Markdown takes them from its front matter
 * (placeholders filled; the brand added to the title), any other from `meta.<key>.title` and
 * `.description` of its language.
 *
 * @example pageMeta('about', t, 'MaskWise')                                  // { title: 'About us — MaskWise', … } (from meta.about)
 * @example pageMeta('content:healthcare', t, 'MaskWise', { title: 'Data masking for healthcare', description: '…' })
 * // { title: 'Data masking for healthcare — MaskWise', description: '…' }
 */
export function pageMeta(page: RoutePageId | 'notFound', t: Translate, brand: string, contentPage?: { title: string; description: string }): { title: string; description: string } {
  if (contentPage) return { title: `${contentPage.title} — ${brand}`, description: contentPage.description };
  return { title: t(`meta.${metaKeyOf(page)}.title`), description: t(`meta.${metaKeyOf(page)}.description`) };
}

/** Characters as a reader counts them (code points, not UTF-16 units). */
const length = (text: string) => [...text].length;

/**
 * What is wrong with the length of a title or description as search results show it, or null.
 *
 * @example snippetLengthProblem('title', 'MaskWise — Database masking for GDPR, HIPAA and PCI compliance')
 * // 'the title is 62 characters ("MaskWise — …"); search results cut it after about 60: shorten it'
 */
export function snippetLengthProblem(what: 'title' | 'description', text: string): string | null {
  const n = length(text);
  if (what === 'title' && n > TITLE_MAX) return `the title is ${n} characters ("${text}"); search results cut it after about ${TITLE_MAX}: shorten it`;
  if (what === 'description' && (n < DESCRIPTION_RANGE.min || n > DESCRIPTION_RANGE.max)) {
    return `the description is ${n} characters ("${text}"); search results show ${DESCRIPTION_RANGE.min}–${DESCRIPTION_RANGE.max}: ${n < DESCRIPTION_RANGE.min ? 'say more about the page' : 'shorten it'}`;
  }
  return null;
}

/**
 * The entries whose text an earlier entry of the same group already has: `[entry, the first one's place]`.
 *
 * @example repeated([{ group: 'de', text: 'A', at: 'x' }, { group: 'de', text: 'A', at: 'y' }]) // [[{ …at: 'y' }, 'x']]
 */
export function repeated<T extends { group: string; text: string; at: string }>(entries: readonly T[]): [T, string][] {
  const first = new Map<string, string>();
  const found: [T, string][] = [];
  for (const entry of entries) {
    if (entry.text === '') continue;
    const id = `${entry.group}\0${entry.text}`;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, entry.at);
    else found.push([entry, earlier]);
  }
  return found;
}

/** Where an indexed page belongs: with the main pages, the solutions (sectors and roles), the regulations, or the legal texts. */
export type Section = 'main' | 'solutions' | 'regulations' | 'optional';

/**
 * The section of each fixed indexed page (the service pages are `noindex` and have none); a page
 * the table gains without a row here gets no card and no place in `llms.txt` (a test says so).
 */
const SECTION_OF: Readonly<Partial<Record<PageId, Section>>> = {
  home: 'main',
  about: 'main',
  contact: 'main',
  contactDemo: 'main',
  contactSales: 'main',
  dataHandling: 'main',
  howItWorks: 'main',
  solutions: 'solutions',
  legalNotice: 'optional',
  privacy: 'optional',
  cookies: 'optional',
};

/** The section of a page: a page added as Markdown by its `nav` (the solutions, the regulations, or the main pages), a fixed one from the table; undefined for a service page. */
export function pageSection(page: RoutePageId, contentPage?: { nav?: string | undefined }): Section | undefined {
  if (contentPage) return contentPage.nav === 'solutions' || contentPage.nav === 'regulations' ? contentPage.nav : 'main';
  return SECTION_OF[page as PageId];
}

/**
 * A title without the brand the titles carry, at either end.
 *
 * @example titleWithoutBrand('About us — MaskWise', 'MaskWise')                   // 'About us'
 * @example titleWithoutBrand('MaskWise — Database masking for GDPR', 'MaskWise') // 'Database masking for GDPR'
 */
export function titleWithoutBrand(title: string, brand: string): string {
  const [atEnd, atStart] = brandPatterns(brand);
  return title.replace(atEnd, '').replace(atStart, '');
}

/** The patterns of `titleWithoutBrand` for each brand, made once: a build strips the brand from some 2,300 titles (cards and llms.txt). */
const brandPatternCache = new Map<string, readonly [RegExp, RegExp]>();
function brandPatterns(brand: string): readonly [RegExp, RegExp] {
  let patterns = brandPatternCache.get(brand);
  if (!patterns) {
    const escaped = brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    patterns = [new RegExp(`\\s+[—–|-]\\s+${escaped}$`), new RegExp(`^${escaped}\\s+[—–|-]\\s+`)];
    brandPatternCache.set(brand, patterns);
  }
  return patterns;
}
