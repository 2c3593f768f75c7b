/**
 * What search results and assistive technology read in a built page: a title short enough to
 * be shown whole, a description of the length search engines show, neither shared with another
 * indexed page of the language, a text alternative on every image, and headings that never skip
 * a level. (An indexed page missing from the sitemap is `validateAlternates`'s `output_sitemap`.)
 */
import type { Problem } from '../site/errors.ts';
import { repeated, snippetLengthProblem } from '../site/head/page-meta.ts';
import type { OutputDocument } from './built-output.ts';
import { decodeEntities, type HtmlTag } from './html-scan.ts';

/** The tags the SEO checks read: the page's language, robots and description metas, images, headings. */
export const SEO_TAGS = new Set(['html', 'meta', 'img', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const TITLE = /<title>([^<]*)<\/title>/;

/** What one page gives search results: its language, whether it is indexed, its title and description. */
interface SeoHead {
  file: string;
  lang: string;
  indexed: boolean;
  title: string;
  description: string;
}

/** Titles or descriptions used by two or more indexed pages of one language, reported at each page after the first. */
function duplicates(heads: readonly SeoHead[], what: 'title' | 'description'): Problem[] {
  const entries = heads.filter((head) => head.indexed).map((head) => ({ group: head.lang, text: head[what], at: head.file }));
  return repeated(entries).map(([entry, first]) => ({
    code: what === 'title' ? 'seo_title_duplicate' : 'seo_description_duplicate',
    file: entry.at,
    message: `has the same ${what} as ${first} ("${entry.text}"); each page needs its own`,
  }));
}

/** The problems of one page's images and headings: an `<img>` without `alt`, a heading more than one level below the one before. */
function bodyProblems(file: string, tags: readonly HtmlTag[]): Problem[] {
  const problems: Problem[] = [];
  let level = 0;
  for (const tag of tags) {
    if (tag.name === 'img' && tag.attrs.alt === undefined) {
      problems.push({ code: 'seo_image_alt', file, message: `the image ${tag.attrs.src ?? ''} has no alt attribute; describe it, or write alt="" for a decorative one` });
    }
    const heading = /^h([1-6])$/.exec(tag.name);
    if (heading) {
      const next = Number(heading[1]);
      if (next > level + 1) problems.push({ code: 'seo_heading_skipped', file, message: `an <h${next}> follows ${level === 0 ? 'no heading' : `an <h${level}>`}; use <h${level + 1}> (a heading level is never skipped)` });
      level = next;
    }
  }
  return problems;
}

/**
 * Checks every page's title, description, images and headings (the tags `SEO_TAGS` names, as
 * scanned); lengths and duplicates only on indexed pages (not `noindex`, not an alias).
 *
 * @example validateSeo([{ document, tags }])
 * // [{ code: 'seo_title_length', file: 'de.html', message: 'the title is 75 characters (…)' }]
 */
export function validateSeo(pages: readonly { document: OutputDocument; tags: readonly HtmlTag[] }[]): Problem[] {
  const problems: Problem[] = [];
  const heads: SeoHead[] = pages.map(({ document, tags }) => {
    const meta = (name: string) => tags.find((t) => t.name === 'meta' && t.attrs.name === name)?.attrs.content;
    return {
      file: document.file,
      lang: tags.find((t) => t.name === 'html')?.attrs.lang ?? '',
      indexed: !document.aliasOf && !/\bnoindex\b/.test(meta('robots') ?? ''),
      title: decodeEntities(TITLE.exec(document.html)?.[1] ?? '').trim(),
      description: (meta('description') ?? '').trim(),
    };
  });
  for (const head of heads) {
    if (!head.indexed) continue;
    const title = snippetLengthProblem('title', head.title);
    if (title) problems.push({ code: 'seo_title_length', file: head.file, message: title });
    const description = snippetLengthProblem('description', head.description);
    if (description) problems.push({ code: 'seo_description_length', file: head.file, message: description });
  }
  problems.push(...duplicates(heads, 'title'), ...duplicates(heads, 'description'));
  for (const { document, tags } of pages) problems.push(...bodyProblems(document.file, tags));
  return problems;
}
