import { existsSync, readFileSync } from 'node:fs';
import matter from 'gray-matter';
import { contentPageFiles } from '../markdown/content-pages.ts';
import { LANGUAGES, type Lang } from '../languages.ts';
import { flatten, localeFile, type Messages } from '../locales.ts';
import { MARKDOWN_PAGES, markdownFile, type MarkdownPageId } from '../markdown/markdown.ts';
import type { TranslationSources } from './translation-lock.ts';

/**
 * The text of a page file that a translator translates: a legal text whole; for a page with
 * front matter its title, description, link text and body (not its slug or placement, which
 * differ between languages anyway).
 */
function translatableText(source: string): string {
  if (!source.startsWith('---')) return source;
  try {
    const { data, content } = matter(source, {});
    return JSON.stringify([data.title, data.description, data.navLabel, content]);
  } catch {
    return source;
  }
}

/**
 * Reads what the translation lock is about from `contentDir`: every language's strings (a file
 * that cannot be read counts as none: `sitegen check` reports it) and page texts by file name.
 */
export function readTranslationSources(contentDir: string): TranslationSources {
  const strings = new Map<Lang, Record<string, string>>();
  const pages = new Map<Lang, Map<string, string>>(LANGUAGES.map((lang) => [lang, new Map()]));
  for (const lang of LANGUAGES) {
    try {
      strings.set(lang, flatten(JSON.parse(readFileSync(localeFile(contentDir, lang), 'utf8')) as Messages));
    } catch {
      // left out: check reports the file
    }
    for (const page of Object.keys(MARKDOWN_PAGES) as MarkdownPageId[]) {
      const file = markdownFile(contentDir, lang, page);
      if (existsSync(file)) pages.get(lang)!.set(`${MARKDOWN_PAGES[page]}.md`, readFileSync(file, 'utf8'));
    }
  }
  for (const { lang, name, file } of contentPageFiles(contentDir)) pages.get(lang)!.set(`${name}.md`, translatableText(readFileSync(file, 'utf8')));
  return { strings, pages };
}
