import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { MARKDOWN_PAGES, markdownFile, type MarkdownPageId } from '../../../cli/site/markdown/markdown.ts';
import { renderMarkdown } from '../../../cli/site/markdown/render-markdown.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';

const text = (lang: Lang, page: MarkdownPageId) => readFileSync(markdownFile(DEFAULT_PATHS.contentDir, lang, page), 'utf8');
const words = (source: string) => source.split(/\s+/).filter(Boolean).length;
const PAGES = Object.keys(MARKDOWN_PAGES) as MarkdownPageId[];
const OTHERS = LANGUAGES.filter((l) => l !== 'en');

/** How each language names the city whose courts have jurisdiction. */
const BARCELONA: Record<Lang, string> = { en: 'Barcelona', es: 'Barcelona', pt: 'Barcelona', fr: 'Barcelone', de: 'Barcelona', it: 'Barcellona', nl: 'Barcelona' };

/**
 * The paragraphs of a rendered text that hold nothing but bold text: headings in disguise, which
 * screen readers and search engines do not see as headings.
 *
 * @example boldOnlyParagraphs('**Désinscription**\n\nChaque e-mail…') // ['Désinscription']
 */
function boldOnlyParagraphs(source: string): string[] {
  const { html } = renderMarkdown(source);
  return [...html.matchAll(/<p>\s*<strong>([^<]*)<\/strong>\s*<\/p>/g)].map((m) => m[1]!);
}

describe('legal texts', () => {
  it('regression (issue 28): the French privacy policy once set its subsection names as bold-only paragraphs', () => {
    expect(boldOnlyParagraphs('## 2. Données\n\n**Désinscription**\n\nChaque e-mail contient un lien.')).toEqual(['Désinscription']);
    expect(boldOnlyParagraphs('## 2. Data\n\n**Unsubscribing.** Every email contains a link.')).toEqual([]);
  });

  it.each(LANGUAGES)('no %s legal text uses a bold-only paragraph as a heading (a "## " section or a bold lead-in, as in English)', (lang) => {
    for (const page of PAGES) expect(boldOnlyParagraphs(text(lang, page)), `${lang} ${page}`).toEqual([]);
  });

  it.each(OTHERS.flatMap((lang) => PAGES.map((page) => [lang, page] as const)))('%s %s is at least 60 %% of the English length', (lang, page) => {
    expect(words(text(lang, page))).toBeGreaterThanOrEqual(0.6 * words(text('en', page)));
  });

  it.each(LANGUAGES)('%s states the facts the spec requires', (lang) => {
    const notice = text(lang, 'legalNotice');
    for (const placeholder of ['{{company}}', '{{taxId}}', '{{address}}', '{{registry}}']) expect(notice).toContain(placeholder);
    expect(notice).toContain(BARCELONA[lang]);
    expect(notice).toMatch(/18/);
    const privacy = text(lang, 'privacy');
    expect(privacy).toContain('AEPD');
    expect(privacy).toMatch(/18/);
    for (const right of ['{{privacyEmail}}']) expect(privacy).toContain(right);
    const cookies = text(lang, 'cookies');
    for (const row of [/`_ga`.*\|\s*2\s/, /`_gid`.*\|\s*24\s/, /`_gat`.*\|\s*1\s/]) expect(cookies).toMatch(row);
  });

  it.each(OTHERS)('no %s legal text keeps an English sentence', (lang) => {
    for (const page of PAGES) {
      const sentences = text('en', page)
        .replace(/[#*`|>[\]()_-]/g, ' ')
        .split(/[.!?:\n]/)
        .map((s) => s.replace(/\s+/g, ' ').trim())
        .filter((s) => !s.includes('{{'))
        // A sentence, not an address or a name: at least five plain lower-case words.
        .filter((s) => s.split(' ').filter((w) => /^[a-z]{2,}$/.test(w)).length >= 5);
      const translated = text(lang, page).replace(/\s+/g, ' ');
      for (const sentence of sentences) expect(translated, `${lang} ${page}: "${sentence}"`).not.toContain(sentence);
    }
  });
});
