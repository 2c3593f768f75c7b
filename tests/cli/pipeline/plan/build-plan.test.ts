import { describe, expect, it } from 'vitest';
import { explainLines, type PageInputs, type PagePlanInput, planChecks, planPages, type PlannedPage, type PreviousRecords, unchangedPlan } from '../../../../cli/pipeline/plan/build-plan.ts';
import type { Lang } from '../../../../cli/site/languages.ts';

/** Strings by language and key, as a build's messages say them; a page's strings input is made from the keys it read. */
type Strings = Record<string, Record<string, string>>;

const shared = { code: 'c1', site: 's1', placeholders: 'p1', routes: 'r1', frontMatter: 'f1', assets: 'a1', languages: 'en,de', year: '2026' };
const pages: PlannedPage[] = [
  { file: 'about.html', path: '/about', lang: 'en' },
  { file: 'de/about.html', path: '/de/about', lang: 'de' },
  { file: 'de/legal-notice.html', path: '/de/legal-notice', lang: 'de' },
];
const keysRead: Record<string, string[]> = { 'about.html': ['about.title', 'nav.home'], 'de/about.html': ['about.title', 'nav.home'], 'de/legal-notice.html': ['nav.home'] };
const markdownOf: Record<string, string> = { 'de/legal-notice.html': 'md1' };
const strings: Strings = { en: { 'about.title': 'About', 'nav.home': 'Home' }, de: { 'about.title': 'Über uns', 'nav.home': 'Start' } };

/** A page's inputs as a build with `strings` and `markdown` sees them, its strings over the keys it read last time. */
function inputsWith(strings: Strings, markdown: Record<string, string>) {
  return (page: PlannedPage, { keys }: { keys: readonly string[] }): PageInputs => ({
    card: `/assets/social/${page.file}.png`,
    markdown: markdown[page.file] ?? '',
    strings: keys.map((key) => `${key}=${strings[page.lang]![key]}`).join('|'),
  });
}

/** The records a build with the fixtures above leaves. */
const previous: PreviousRecords = {
  shared,
  pages: new Map(pages.map((page) => [page.file, { inputs: inputsWith(strings, markdownOf)(page, { keys: keysRead[page.file]! }), keys: keysRead[page.file]! }])),
  stringValue: (lang, key) => strings[lang]?.[key],
};

/** A file system where the output holds the files of `held` (every page, unless told). */
const filesHolding = (held = new Set(pages.map((page) => page.file))) => ({ holdsPage: (file: string) => held.has(file) });

/** The plan of a build with the cache, changes given on top of an unchanged build. */
function plan(changes: Partial<PagePlanInput> & { strings?: Strings; markdown?: Record<string, string> } = {}) {
  const now = changes.strings ?? strings;
  const decisions = planPages({
    previous,
    shared,
    pages,
    inputsOf: inputsWith(now, changes.markdown ?? markdownOf),
    stringValue: (lang: Lang, key: string) => now[lang]![key]!,
    files: filesHolding(),
    ...changes,
  });
  return Object.fromEntries([...decisions].map(([file, { decision, reason }]) => [file, `${decision}: ${reason}`]));
}

describe('the build plan', () => {
  it('keeps every page whose inputs and files are as the last build left them', () => {
    expect(Object.values(plan())).toEqual(Array(3).fill('keep: what it reads and its files are as the last build left them'));
  });

  it('renders only the pages that read a changed string, naming the key', () => {
    const changed = { ...strings, de: { ...strings.de, 'about.title': 'Wer wir sind' } };
    expect(plan({ strings: changed })).toEqual({
      'about.html': 'keep: what it reads and its files are as the last build left them',
      'de/about.html': 'render: strings it reads changed: about.title',
      'de/legal-notice.html': 'keep: what it reads and its files are as the last build left them',
    });
  });

  it('renders a page whose Markdown changed, or whose files the output no longer holds', () => {
    expect(plan({ markdown: { 'de/legal-notice.html': 'md2' } })['de/legal-notice.html']).toBe('render: its Markdown file changed');
    expect(plan({ files: filesHolding(new Set(['about.html', 'de/about.html'])) })['de/legal-notice.html']).toBe(
      'render: its files are in neither the output nor the spare as the last build wrote them',
    );
  });

  it('renders every page when what every page reads changed, naming the part', () => {
    expect(new Set(Object.values(plan({ shared: { ...shared, year: '2027' } })))).toEqual(new Set(['render: the year changed, which every page reads']));
  });

  it('renders every page without records (a first build, --no-cache), a new page as new, and deletes a page this build does not have', () => {
    expect(plan({ previous: null })['about.html']).toBe('render: no records of a previous build');
    const added = { file: 'de/contact.html', path: '/de/contact', lang: 'de' } as const;
    expect(plan({ pages: [...pages.slice(1), added] })).toMatchObject({ 'de/contact.html': 'render: new page: the last build did not make it', 'about.html': 'delete: the last build made it; this build has no such page' });
  });

  it('runs the output checks unless what they read is as the last build left it', () => {
    expect(planChecks({ rendered: 1, pages: 300, key: 'k1', previousKey: 'k1' })).toEqual({ run: false, reason: 'what they read is as the last build left it' });
    expect(planChecks({ rendered: 1, pages: 300, key: 'k2', previousKey: 'k1' }).run).toBe(true);
    expect(planChecks({ rendered: 300, pages: 300, key: '', previousKey: 'k1' }).reason).toBe('300 pages rendered, more than 50: checked rather than compared');
    expect(planChecks({ rendered: 3, pages: 3, key: 'k1', previousKey: undefined }).reason).toBe('no record of the last build’s checks');
  });

  it('prints a line per page and one for the checks', () => {
    const lines = explainLines(unchangedPlan(pages.slice(0, 1)));
    expect(lines).toEqual([
      "keep    /about  the build's inputs and its output are as the last build recorded them",
      "checks  skip    the build's inputs and its output are as the last build recorded them",
    ]);
  });
});
