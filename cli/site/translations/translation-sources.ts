import { existsSync, readFileSync } from 'node:fs';
import type { Problem } from '../errors.ts';
import { contentPageFiles } from '../markdown/content-pages.ts';
import { FrontMatterLanguageError, frontMatterOpening, splitFrontMatter } from '../markdown/front-matter.ts';
import { LANGUAGES, type Lang } from '../languages.ts';
import { flatten, localeFile, type Messages } from '../locales.ts';
import { MARKDOWN_PAGES, markdownFile, type MarkdownPageId } from '../markdown/markdown.ts';
import type { TranslationSources } from './translation-lock.ts';

/**
 * The text of a page file that a translator translates: a legal text whole; for a page with
 * front matter its title, description, link text and body (not its slug or placement, which
 * differ between languages anyway). Front matter that is not valid YAML counts as text (`sitegen
 * check` reports it); one in another language (`---js`) throws `FrontMatterLanguageError`.
 */
function translatableText(source: string): string {
  if (frontMatterOpening(source).kind === 'none') return source;
  let split: ReturnType<typeof splitFrontMatter>;
  try {
    split = splitFrontMatter(source);
  } catch (error) {
    if (error instanceof FrontMatterLanguageError) throw error;
    return source;
  }
  if (split.data === null || split.data === undefined) return source;
  const data = split.data as Record<string, unknown>;
  return JSON.stringify([data.title, data.description, data.navLabel, split.body]);
}

/**
 * Reads what the translation lock is about from `contentDir`: every language's strings (a file
 * that cannot be read counts as none: `sitegen check` reports it) and page texts by file name;
 * `refused` lists the pages whose front matter is not YAML (`---js`), left out, never run.
 */
export function readTranslationSources(contentDir: string): TranslationSources & { refused: Problem[] } {
  const refused: Problem[] = [];
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
  for (const { lang, name, file } of contentPageFiles(contentDir)) {
    try {
      pages.get(lang)!.set(`${name}.md`, translatableText(readFileSync(file, 'utf8')));
    } catch (error) {
      if (!(error instanceof FrontMatterLanguageError)) throw error;
      refused.push({ code: 'front_matter_language', file, line: 1, message: error.message });
    }
  }
  return { strings, pages, refused };
}
