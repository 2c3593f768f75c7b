import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Problem } from '../site/errors.ts';
import { DEFAULT_LANG, LANGUAGES } from '../site/languages.ts';
import { MARKDOWN_PAGES, markdownFile, type MarkdownPageId } from '../site/markdown.ts';

/** The line numbers of a Markdown document's `#` and `##` headings (outside fenced code). */
function headingLines(source: string): { h1: number[]; h2: number[]; deeper: number[] } {
  const result = { h1: [] as number[], h2: [] as number[], deeper: [] as number[] };
  let fenced = false;
  source.split('\n').forEach((text, index) => {
    if (/^```/.test(text)) fenced = !fenced;
    if (fenced) return;
    const level = text.match(/^(#{1,6})\s/)?.[1]?.length;
    if (level === 1) result.h1.push(index + 1);
    else if (level === 2) result.h2.push(index + 1);
    else if (level) result.deeper.push(index + 1);
  });
  return result;
}

/**
 * Checks the Markdown pages of every language: each file exists, has one title, the same number
 * of sections as English, and only placeholders that `content/site.json` provides.
 */
export function checkPages(contentDir: string, root: string, placeholders: ReadonlySet<string>): { problems: Problem[]; pages: number } {
  const problems: Problem[] = [];
  let pages = 0;
  for (const page of Object.keys(MARKDOWN_PAGES) as MarkdownPageId[]) {
    const englishFile = markdownFile(contentDir, DEFAULT_LANG, page);
    const englishSections = existsSync(englishFile) ? headingLines(readFileSync(englishFile, 'utf8')).h2.length : null;
    for (const lang of LANGUAGES) {
      const path = markdownFile(contentDir, lang, page);
      const file = relative(root, path);
      if (!existsSync(path)) {
        problems.push({ code: 'content_missing', file, line: 1, message: `missing: the ${MARKDOWN_PAGES[page]} page has no ${lang} text` });
        continue;
      }
      pages++;
      const source = readFileSync(path, 'utf8');
      const headings = headingLines(source);
      if (headings.h1.length !== 1) {
        problems.push({ code: 'title_count', file, line: headings.h1[1] ?? 1, message: `needs exactly one "# " title, found ${headings.h1.length}` });
      }
      if (englishSections !== null && headings.h2.length !== englishSections) {
        const line = headings.h2[Math.min(headings.h2.length, englishSections) - 1] ?? headings.h1[0] ?? 1;
        problems.push({ code: 'sections_differ', file, line, message: `has ${headings.h2.length} "## " sections but the en text has ${englishSections}` });
      }
      source.split('\n').forEach((text, index) => {
        for (const match of text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
          if (!placeholders.has(match[1]!)) {
            problems.push({ code: 'placeholder_unknown', file, line: index + 1, message: `placeholder {{${match[1]}}} has no value in content/site.json` });
          }
        }
      });
    }
  }
  return { problems, pages };
}
