import { decodeEntities, type HtmlTag } from './html-scan.ts';
import type { Problem, SitegenErrorCode } from '../site/errors.ts';
import type { BuiltOutput, OutputDocument } from './built-output.ts';

/** What a page's head says about its URL and its language versions. */
interface PageHead {
  document: OutputDocument;
  lang: string;
  noindex: boolean;
  canonicals: string[];
  /** hreflang → absolute URL, in document order (duplicates kept, to report them). */
  alternates: { hreflang: string; href: string }[];
}

function headOf(document: OutputDocument, tags: readonly HtmlTag[]): PageHead {
  const links = tags.filter((t) => t.name === 'link');
  const rels = (t: HtmlTag) => (t.attrs.rel ?? '').toLowerCase().split(/\s+/);
  return {
    document,
    lang: tags.find((t) => t.name === 'html')?.attrs.lang ?? '',
    noindex: tags.some((t) => t.name === 'meta' && t.attrs.name === 'robots' && /\bnoindex\b/.test(t.attrs.content ?? '')),
    canonicals: links.filter((t) => rels(t).includes('canonical')).map((t) => t.attrs.href ?? ''),
    alternates: links
      .filter((t) => rels(t).includes('alternate') && t.attrs.hreflang !== undefined)
      .map((t) => ({ hreflang: t.attrs.hreflang!, href: t.attrs.href ?? '' })),
  };
}

/** The `<url>` entries of a sitemap: each location with its hreflang alternates. */
function sitemapEntries(xml: string): { loc: string; alternates: { hreflang: string; href: string }[] }[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((entry) => ({
    loc: decodeEntities(entry[1]!.match(/<loc>([^<]*)<\/loc>/)?.[1]?.trim() ?? ''),
    alternates: [...entry[1]!.matchAll(/<xhtml:link\b([^>]*)\/?>/g)].map((link) => ({
      hreflang: decodeEntities(link[1]!.match(/hreflang="([^"]*)"/)?.[1] ?? ''),
      href: decodeEntities(link[1]!.match(/href="([^"]*)"/)?.[1] ?? ''),
    })),
  }));
}

const asSet = (alternates: readonly { hreflang: string; href: string }[]) => new Set(alternates.map((a) => `${a.hreflang} ${a.href}`));

/**
 * Checks that canonical links, hreflang clusters and the sitemap tell search engines one
 * consistent story: every indexable page has one self-referencing canonical (an alias points at
 * the page it repeats), an hreflang cluster that includes itself, has `x-default` and is
 * reciprocal, and a sitemap entry with exactly the alternates of its head; pages marked
 * `noindex` have no canonical and stay out of the sitemap. Returns one line per problem.
 */
export function validateAlternates(output: BuiltOutput, tagsByFile: ReadonlyMap<string, readonly HtmlTag[]>): Problem[] {
  const problems: Problem[] = [];
  const heads = output.documents.map((d) => headOf(d, tagsByFile.get(d.file) ?? []));
  const absolute = (path: string) => output.siteUrl + path;
  const unbuilt = (url: string) => url.startsWith(output.siteUrl) && (output.unbuiltPages?.has(url.slice(output.siteUrl.length) || '/') ?? false);
  // The pages that stand for their URL: indexable, canonical to themselves.
  const canonicalPages = new Map<string, PageHead>();
  for (const head of heads) {
    if (!head.noindex && !head.document.aliasOf && head.canonicals[0] === absolute(head.document.path)) {
      canonicalPages.set(head.canonicals[0], head);
    }
  }

  for (const head of heads) {
    const { file, path, aliasOf } = head.document;
    const problem = (code: SitegenErrorCode, message: string) => problems.push({ code, file, message });
    if (head.noindex) {
      if (head.canonicals.length > 0) problem('output_canonical', 'is marked noindex but has a canonical link; a page is either indexed or not');
      continue;
    }
    if (head.canonicals.length !== 1) {
      problem('output_canonical', head.canonicals.length === 0 ? 'has no canonical link' : `has ${head.canonicals.length} canonical links`);
      continue;
    }
    const expected = absolute(aliasOf ?? path);
    if (head.canonicals[0] !== expected) {
      const written = head.canonicals[0];
      problem('output_canonical', aliasOf ? `canonical ${written} should point to the page this alias repeats, ${expected}` : `canonical ${written} is not self-referencing (expected ${expected})`);
    }
    // The cluster is checked for the URL the page stands for, so a wrong canonical is reported once.
    const canonical = expected;

    const seen = new Set<string>();
    for (const { hreflang } of head.alternates) {
      if (seen.has(hreflang)) problem('output_hreflang', `hreflang "${hreflang}" appears more than once`);
      seen.add(hreflang);
    }
    const xDefault = head.alternates.find((a) => a.hreflang === 'x-default');
    if (!xDefault) problem('output_hreflang', 'hreflang cluster has no x-default');
    else if (!canonicalPages.has(xDefault.href) && !unbuilt(xDefault.href)) problem('output_hreflang', `hreflang x-default points to ${xDefault.href}, which is not a canonical page of the site`);
    if (!head.alternates.some((a) => a.href === canonical && a.hreflang !== 'x-default')) {
      problem('output_hreflang', `hreflang cluster does not include the page itself (${canonical})`);
    }
    for (const alternate of head.alternates) {
      if (alternate.hreflang === 'x-default') continue;
      const target = canonicalPages.get(alternate.href);
      if (!target && unbuilt(alternate.href)) continue;
      if (!target) {
        problem('output_hreflang', `hreflang "${alternate.hreflang}" points to ${alternate.href}, which is not a canonical page of the site`);
        continue;
      }
      if (target.lang.toLowerCase() !== alternate.hreflang.toLowerCase()) {
        problem('output_hreflang', `hreflang "${alternate.hreflang}" points to ${alternate.href}, whose language is "${target.lang}"`);
      }
      if (!target.alternates.some((back) => back.href === canonical && back.hreflang !== 'x-default')) {
        problem('output_hreflang', `hreflang "${alternate.hreflang}" points to ${alternate.href}, which does not link back to ${canonical} (not reciprocal)`);
      }
      const targetDefault = target.alternates.find((a) => a.hreflang === 'x-default');
      if (xDefault && targetDefault && targetDefault.href !== xDefault.href) {
        problem('output_hreflang', `x-default ${xDefault.href} differs from the x-default of ${alternate.href} (${targetDefault.href})`);
      }
    }
  }

  const listed = new Set<string>();
  for (const entry of sitemapEntries(output.sitemap)) {
    const problem = (message: string) => problems.push({ code: 'output_sitemap', file: 'sitemap.xml', message });
    if (listed.has(entry.loc)) problem(`${entry.loc} is listed more than once`);
    listed.add(entry.loc);
    const page = canonicalPages.get(entry.loc);
    if (!page && unbuilt(entry.loc)) continue;
    if (!page) {
      problem(`${entry.loc} is not a canonical, indexable page of the site`);
      continue;
    }
    const inHead = asSet(page.alternates);
    const inSitemap = asSet(entry.alternates);
    const missing = [...inHead].filter((a) => !inSitemap.has(a));
    const extra = [...inSitemap].filter((a) => !inHead.has(a));
    if (missing.length || extra.length) {
      const parts = [missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `not in the page's head ${extra.join(', ')}` : ''];
      problem(`alternates of ${entry.loc} disagree with ${page.document.file}: ${parts.filter(Boolean).join('; ')}`);
    }
  }
  for (const [url, page] of canonicalPages) {
    if (!listed.has(url)) problems.push({ code: 'output_sitemap', file: 'sitemap.xml', message: `${url} (${page.document.file}) is missing` });
  }
  return problems;
}
