import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectOfChange, isEverything, isSelected, mergeEffects, type ChangedFile } from '../../../cli/dev/change-effects.ts';
import { templateGraphs } from '../../../cli/dev/page-templates.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { islandEntryFiles } from '../../../templates/islands/registry.ts';

const graphs = templateGraphs(join(PROJECT_ROOT, 'templates'), islandEntryFiles());
const PAGE_IDS = ['home', 'about', 'contact', 'cookies', 'legalNotice', 'privacy', 'notFound'];
const effect = (change: ChangedFile) => effectOfChange(change, graphs, PAGE_IDS);

/** The pages of one language an effect selects. */
const pagesOf = (change: ChangedFile, lang: (typeof LANGUAGES)[number]) => PAGE_IDS.filter((page) => isSelected(effect(change).pages, lang, page));

describe('what an edit in content/ affects', () => {
  it("a string in de.json: every page of German and nothing else, no stylesheet or islands", () => {
    const change = { area: 'content', path: 'locales/de.json' } as const;
    expect(pagesOf(change, 'de')).toEqual(PAGE_IDS);
    for (const lang of LANGUAGES.filter((l) => l !== 'de')) expect(pagesOf(change, lang), lang).toEqual([]);
    expect(effect(change)).toMatchObject({ css: [], islands: false });
  });

  it('a string in en.json: every language, since English is their fallback', () => {
    expect(isEverything(effect({ area: 'content', path: 'locales/en.json' }).pages)).toBe(true);
  });

  it("a legal text: that page in that language only", () => {
    const change = { area: 'content', path: 'pages/de/privacy.md' } as const;
    expect(pagesOf(change, 'de')).toEqual(['privacy']);
    expect(pagesOf(change, 'fr')).toEqual([]);
  });

  it('site.json and a page added as Markdown: every page (brand, links and alternates may change)', () => {
    expect(isEverything(effect({ area: 'content', path: 'site.json' }).pages)).toBe(true);
    expect(isEverything(effect({ area: 'content', path: 'pages/de/healthcare.md' }).pages)).toBe(true);
  });
});

describe('what an edit in templates/ affects', () => {
  it("a page's own template: that page in every language, and its classes are added to the stylesheet", () => {
    const change = { area: 'templates', path: 'pages/AboutPage.tsx' } as const;
    for (const lang of LANGUAGES) expect(pagesOf(change, lang), lang).toEqual(['about']);
    expect(effect(change)).toMatchObject({ css: ['pages/AboutPage.tsx'], islands: false });
  });

  it('a section the home and about pages import: those two pages only', () => {
    const change = { area: 'templates', path: 'sections/CtaBanner.tsx' } as const;
    const pages = pagesOf(change, 'de');
    expect(pages.length).toBeGreaterThan(0);
    expect(pages).not.toContain('privacy');
    expect(pages).not.toContain('notFound');
  });

  it('the layout (header, footer): every page', () => {
    expect(isEverything(effect({ area: 'templates', path: 'layout/Header.tsx' }).pages)).toBe(true);
  });

  it("an island's component: the island bundle too", () => {
    expect(effect({ area: 'templates', path: 'islands/components/ContactForm.tsx' })).toMatchObject({ islands: true, css: ['islands/components/ContactForm.tsx'] });
    expect(pagesOf({ area: 'templates', path: 'islands/components/ContactForm.tsx' }, 'de')).toContain('contact');
  });

  it('the stylesheet entry, the island loader or unreadable imports: everything', () => {
    for (const path of ['styles.css', 'islands/loader.js']) {
      expect(effect({ area: 'templates', path })).toMatchObject({ css: 'all', islands: true });
      expect(isEverything(effect({ area: 'templates', path }).pages), path).toBe(true);
    }
    expect(isEverything(effectOfChange({ area: 'templates', path: 'pages/AboutPage.tsx' }, null, PAGE_IDS).pages)).toBe(true);
  });

  it('a page whose template is not in the table counts as using every template', () => {
    const withUnknownPage = effectOfChange({ area: 'templates', path: 'pages/AboutPage.tsx' }, graphs, [...PAGE_IDS, 'unlisted']);
    expect(isSelected(withUnknownPage.pages, 'de', 'unlisted')).toBe(true);
    expect(isSelected(withUnknownPage.pages, 'de', 'home')).toBe(false);
  });

  it('edits saved together add up', () => {
    const merged = mergeEffects([effect({ area: 'content', path: 'locales/de.json' }), effect({ area: 'templates', path: 'pages/AboutPage.tsx' })]);
    expect(isSelected(merged.pages, 'fr', 'about')).toBe(true);
    expect(isSelected(merged.pages, 'fr', 'home')).toBe(false);
    expect(isSelected(merged.pages, 'de', 'home')).toBe(true);
    expect(merged.css).toEqual(['pages/AboutPage.tsx']);
  });
});
