import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { loadContent } from '../pipeline/load-content.ts';
import { ContentError, type Problem } from '../site/errors.ts';
import type { ContentPage } from '../site/markdown/content-pages.ts';
import { jsonKeyLines } from '../site/json-lines.ts';
import { LANGUAGES } from '../site/languages.ts';
import { localeFile } from '../site/locales.ts';
import { fillPlaceholders } from '../site/markdown/markdown.ts';
import { metaKeyOf, pageMeta, repeated, snippetLengthProblem } from '../site/head/page-meta.ts';
import { contentPageId, isIndexed } from '../site/routes.ts';

/** One indexed page's title or description as search results show it, with the line it is written at. */
interface Snippet {
  what: 'title' | 'description';
  lang: string;
  text: string;
  file: string;
  line: number;
}

/** A page's front matter title and description with their placeholders filled; null when one has no value (the placeholder check reports it). */
function filledMeta(page: ContentPage, values: Record<string, string>): { title: string; description: string } | null {
  try {
    return { title: fillPlaceholders(page.title, values, page.file), description: fillPlaceholders(page.description, values, page.file) };
  } catch (error) {
    if (error instanceof ContentError) return null;
    throw error;
  }
}

/**
 * Checks what search results show of every indexed page, at the line the text is written:
 * a title of at most 60 characters once the brand is filled in, a description of 70–160, and
 * neither the same as another indexed page's of that language. The built pages' images and
 * headings are checked by the build (cli/verify/seo.ts). Content that does not load is reported
 * by the other checks, and skipped here.
 */
export function checkSeo(contentDir: string, root: string): Problem[] {
  const loaded = loadContent(contentDir, LANGUAGES);
  if (!loaded.ok) return [];
  const { site, values, translators, contentPages, routes } = loaded.content;
  const snippets: Snippet[] = [];
  for (const lang of LANGUAGES) {
    const stringsFile = localeFile(contentDir, lang);
    const lines = jsonKeyLines(readFileSync(stringsFile, 'utf8'));
    for (const route of routes.allRoutes([lang])) {
      if (route.path !== route.canonical || !isIndexed(route.page)) continue;
      const page = contentPages.find((p) => p.lang === lang && contentPageId(p.name) === route.page);
      const filled = page && filledMeta(page, values[lang]);
      if (filled === null) continue;
      const meta = pageMeta(route.page, translators.get(lang)!, site.brand, filled);
      for (const what of ['title', 'description'] as const) {
        const at = page ? { file: page.file, line: page.fieldLines[what] } : { file: stringsFile, line: lines.get(`meta.${metaKeyOf(route.page)}.${what}`) ?? 1 };
        snippets.push({ what, lang, text: meta[what], file: relative(root, at.file), line: at.line });
      }
    }
  }
  const problems: Problem[] = [];
  for (const snippet of snippets) {
    const message = snippetLengthProblem(snippet.what, snippet.text);
    if (message) problems.push({ code: snippet.what === 'title' ? 'seo_title_length' : 'seo_description_length', file: snippet.file, line: snippet.line, message });
  }
  for (const what of ['title', 'description'] as const) {
    const entries = snippets.filter((s) => s.what === what).map((s) => ({ ...s, group: s.lang, at: `${s.file}:${s.line}` }));
    for (const [entry, first] of repeated(entries)) {
      // A string shared by two pages is one line: reported once, where it is written.
      if (first === entry.at) continue;
      problems.push({ code: what === 'title' ? 'seo_title_duplicate' : 'seo_description_duplicate', file: entry.file, line: entry.line, message: `the ${what} "${entry.text}" is also ${first}'s; each indexed page needs its own` });
    }
  }
  // The same text reported at the same line for two pages (a shared key) is one problem.
  return [...new Map(problems.map((p) => [`${p.file}:${p.line} ${p.code}`, p])).values()];
}
