import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { contentPageFiles, loadContentPages } from '../site/markdown/content-pages.ts';
import type { Problem } from '../site/errors.ts';
import { DEFAULT_LANG, LANGUAGES } from '../site/languages.ts';
import { MARKDOWN_PAGES, markdownFile, type MarkdownPageId } from '../site/markdown/markdown.ts';
import { outlineProblems } from './markdown-outline.ts';

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

/** The problems of a Markdown text's structure: its `# ` titles, and its `## ` sections against English. */
function structureProblems(file: string, source: string, englishSections: number | null, titles: 0 | 1): Problem[] {
  const problems: Problem[] = [];
  const headings = headingLines(source);
  if (headings.h1.length !== titles) {
    const message = titles === 1 ? `needs exactly one "# " title, found ${headings.h1.length}` : `has a "# " heading; a page with front matter takes its title from "title:"`;
    problems.push({ code: 'title_count', file, line: headings.h1[titles] ?? 1, message });
  }
  if (englishSections !== null && headings.h2.length !== englishSections) {
    const line = headings.h2[Math.min(headings.h2.length, englishSections) - 1] ?? headings.h1[0] ?? 1;
    problems.push({ code: 'sections_differ', file, line, message: `has ${headings.h2.length} "## " sections but the en text has ${englishSections}` });
  }
  return problems;
}

/** The `{{placeholders}}` of a text that `content/site.json` has no value for, at their lines. */
function placeholderProblems(file: string, source: string, placeholders: ReadonlySet<string>): Problem[] {
  return source.split('\n').flatMap((text, index) =>
    [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
      .filter((match) => !placeholders.has(match[1]!))
      .map((match) => ({ code: 'placeholder_unknown', file, line: index + 1, message: `placeholder {{${match[1]}}} has no value in content/site.json` }) satisfies Problem),
  );
}

/**
 * Checks the Markdown pages of every language. The legal texts: each file exists and has one
 * title. The pages added as Markdown: valid front matter and URLs, no `# ` title (it comes from
 * the front matter), and a warning for each language that lacks the page. Both: the same number
 * of `## ` sections as English, images with a text alternative and headings that skip no level
 * (markdown-outline.ts), and only placeholders that `content/site.json` provides.
 */
export function checkPages(contentDir: string, root: string, placeholders: ReadonlySet<string>): { problems: Problem[]; warnings: Problem[]; pages: number } {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const sectionsOf = (path: string) => (existsSync(path) ? headingLines(readFileSync(path, 'utf8')).h2.length : null);
  let pages = 0;
  for (const page of Object.keys(MARKDOWN_PAGES) as MarkdownPageId[]) {
    const englishSections = sectionsOf(markdownFile(contentDir, DEFAULT_LANG, page));
    for (const lang of LANGUAGES) {
      const path = markdownFile(contentDir, lang, page);
      const file = relative(root, path);
      if (!existsSync(path)) {
        problems.push({ code: 'content_missing', file, line: 1, message: `missing: the ${MARKDOWN_PAGES[page]} page has no ${lang} text` });
        continue;
      }
      pages++;
      const source = readFileSync(path, 'utf8');
      problems.push(...structureProblems(file, source, englishSections, 1), ...outlineProblems(file, source, 0), ...placeholderProblems(file, source, placeholders));
    }
  }

  const loaded = loadContentPages(contentDir);
  problems.push(...loaded.problems.map((p) => ({ ...p, file: relative(root, p.file) })));
  const files = contentPageFiles(contentDir);
  for (const name of [...new Set(files.map((f) => f.name))]) {
    const english = files.find((f) => f.name === name && f.lang === DEFAULT_LANG);
    const englishSections = english ? sectionsOf(english.file) : null;
    const having = files.filter((f) => f.name === name);
    for (const { file: path } of having) {
      pages++;
      const file = relative(root, path);
      const page = loaded.pages.find((p) => p.file === path);
      // Titles and sections count in the body (a front matter that failed is reported as such).
      if (page) {
        const body = `${'\n'.repeat(page.bodyLine - 1)}${page.body()}`;
        problems.push(...structureProblems(file, body, path === english?.file ? null : englishSections, 0), ...outlineProblems(file, body, 1));
      }
      problems.push(...placeholderProblems(file, readFileSync(path, 'utf8'), placeholders));
    }
    for (const lang of LANGUAGES.filter((l) => !having.some((f) => f.lang === l))) {
      const file = relative(root, join(contentDir, 'pages', lang, `${name}.md`));
      warnings.push({ code: 'page_translation_missing', file, message: `missing: the ${name} page has no ${lang} text (${having.map((f) => f.lang).join(', ')} have it)` });
    }
  }
  return { problems, warnings, pages };
}
