import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../../cli/check/check-content.ts';
import { formatProblem } from '../../../cli/site/errors.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

const TRANSLATIONS = LANGUAGES.filter((l) => l !== 'en');

/** `sitegen …args --content content` run in `root`: exit code and output. */
function sitegenIn(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), ...args, '--content', 'content'], { cwd: root, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The real content and templates with every translation recorded as up to date by `sitegen
 * translated all`, made once for the file: each test edits a copy of it.
 */
let recordedRoot: string | undefined;
function recordedContent(): string {
  if (recordedRoot !== undefined) return recordedRoot;
  const root = mkdtempSync(join(tmpdir(), 'status-'));
  cpSync(join(PROJECT_ROOT, 'content'), join(root, 'content'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
  expect(sitegenIn(root, 'translated', 'all').code).toBe(0);
  recordedRoot = root;
  return root;
}
afterAll(() => {
  if (recordedRoot !== undefined) rmSync(recordedRoot, { recursive: true, force: true });
});

/** A copy of the real content and templates, every translation recorded as up to date. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'status-'));
  cpSync(recordedContent(), root, { recursive: true });
  const sitegen = (...args: string[]) => sitegenIn(root, ...args);
  const edit = (file: string, change: (text: string) => string) => writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8')));
  const lineOf = (file: string, needle: string) => readFileSync(join(root, file), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
  const check = (strict = false) => {
    const result = checkContent({ contentDir: join(root, 'content'), templatesDir: join(root, 'templates'), root, strict });
    return { problems: result.problems.map(formatProblem), warnings: result.warnings.map(formatProblem) };
  };
  return { root, sitegen, edit, lineOf, check };
}

/**
 * What `sitegen status` says of a language's page: the state in parentheses after the page's name
 * on the language's line (and its wrapped lines), or "up to date" when the page is not listed.
 */
function cell(table: string, lang: string, column: string): string {
  const lines = table.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${lang} `));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith(' '));
  const block = lines.slice(start, end).join(' ').replace(/\s+/g, ' ');
  const escaped = column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:\\s|, )${escaped} \\(([^)]*)\\)`).exec(block)?.[1] ?? 'up to date';
}

describe('outdated translations', () => {
  it('after `sitegen translated all`, check has no outdated translation and status shows every page up to date', () => {
    const f = fixture();
    expect(f.check().warnings.filter((w) => w.includes('[translation_outdated]'))).toEqual([]);
    const status = f.sitegen('status');
    expect(status.code).toBe(0);
    for (const lang of TRANSLATIONS) for (const column of ['every page', 'home', 'about', 'privacy']) expect(cell(status.stdout, lang, column)).toBe('up to date');
  });

  it('an edited English string makes check warn for every language, status show it outdated, --strict fail, and `translated` clear it', () => {
    const f = fixture();
    f.edit('content/locales/en.json', (t) => t.replace('"title": "Protect sensitive data in every database copy"', '"title": "Protect sensitive data in every copy of every database"'));

    const warnings = f.check().warnings.filter((w) => w.includes('[translation_outdated]'));
    expect(warnings).toEqual(
      TRANSLATIONS.map((lang) => {
        const file = `content/locales/${lang}.json`;
        return `${file}:${lineOfKey(f.root, file, 'hero', 'title')}: key "hero.title": the en text changed since this translation was made (en now: "Protect sensitive data in every copy of every database"); update it, then run \`sitegen translated ${lang} hero.title\` [translation_outdated]`;
      }),
    );
    expect(f.check().problems).toEqual([]);

    const check = f.sitegen('check');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/pages: ok \(\d+ warning\(s\)/);
    const strict = f.sitegen('check', '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('content/locales/de.json');
    expect(strict.stdout).toMatch(/translation_outdated: Update the translation/);

    const status = f.sitegen('status').stdout;
    for (const lang of TRANSLATIONS) {
      expect(cell(status, lang, 'home')).toBe('1 outdated');
      expect(cell(status, lang, 'about')).toBe('up to date');
      expect(status).toContain(`${lang} outdated: hero.title`);
    }

    const recorded = f.sitegen('translated', 'de', 'hero.title');
    expect(recorded.stdout).toBe('sitegen: de: recorded 1 string(s) and page(s) as translated from the current English: hero.title\n');
    expect(cell(f.sitegen('status').stdout, 'de', 'home')).toBe('up to date');
    expect(cell(f.sitegen('status').stdout, 'fr', 'home')).toBe('1 outdated');
    expect(f.sitegen('translated', 'all', 'hero').code).toBe(0);
    expect(f.check().warnings.filter((w) => w.includes('[translation_outdated]'))).toEqual([]);
    expect(f.sitegen('check', '--strict').code).toBe(0);
    // Nine sitegen processes and four content checks, one after another: about 4 s of CPU, which
    // took 24-50 s on the shared 2-core machine at load 11-18.
  }, 90_000);

  it('an edited English page makes that page outdated in every language that has it', () => {
    const f = fixture();
    f.edit('content/pages/en/privacy.md', (t) => `${t}\nOne more sentence.\n`);
    f.edit('content/pages/en/healthcare.md', (t) => t.replace('## Evidence for your auditors', '## Evidence your auditors ask for'));
    const outdated = f.check().warnings.filter((w) => w.includes('[translation_outdated]'));
    expect(outdated).toEqual([
      ...TRANSLATIONS.map((lang) => `content/pages/${lang}/privacy.md:1: the en text of privacy.md changed since this translation was made; compare with pages/en/privacy.md, update, then run \`sitegen translated ${lang} privacy.md\` [translation_outdated]`),
      ...TRANSLATIONS.map((lang) => `content/pages/${lang}/healthcare.md:1: the en text of healthcare.md changed since this translation was made; compare with pages/en/healthcare.md, update, then run \`sitegen translated ${lang} healthcare.md\` [translation_outdated]`),
    ].sort((a, b) => TRANSLATIONS.indexOf(a.split('/')[2] as never) - TRANSLATIONS.indexOf(b.split('/')[2] as never) || (a.includes('privacy') ? -1 : 1)));
    const status = f.sitegen('status').stdout;
    expect(cell(status, 'it', 'privacy')).toBe('1 outdated');
    expect(cell(status, 'es', 'healthcare')).toBe('1 outdated');
    expect(cell(status, 'it', 'healthcare')).toBe('1 outdated');
  });

  it('a new key is outdated in every language until it is recorded as translated', () => {
    const f = fixture();
    for (const lang of LANGUAGES) f.edit(`content/locales/${lang}.json`, (t) => t.replace('"signUp":', `"signIn": "Sign in (${lang})",\n    "signUp":`));
    expect(f.check().warnings.filter((w) => w.includes('nav.signIn'))).toHaveLength(6);
    expect(f.check().warnings.filter((w) => w.includes('nav.signIn')).at(-1)).toContain('no record of the en text this translation was made from');
    expect(f.sitegen('translated', 'all', 'nav.signIn').code).toBe(0);
    expect(f.check().warnings.filter((w) => w.includes('nav.signIn'))).toEqual([]);
  });

  it('refuses to record a key or page that the language does not have, and writes nothing', () => {
    const f = fixture();
    rmSync(join(f.root, 'content/pages/fr/healthcare.md'));
    const lock = readFileSync(join(f.root, 'content/translations.lock.json'), 'utf8');
    const run = f.sitegen('translated', 'fr', 'hero.titel', 'healthcare.md');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"hero.titel", "healthcare.md" matches no key, key prefix or page file (name.md) that fr has; nothing recorded [option_invalid]');
    expect(readFileSync(join(f.root, 'content/translations.lock.json'), 'utf8')).toBe(lock);
    expect(f.sitegen('translated', 'en').code).toBe(2);
  });

  it('warns once about a missing lock file, and reports one that is not a lock', () => {
    const f = fixture();
    rmSync(join(f.root, 'content/translations.lock.json'));
    expect(f.check().warnings.filter((w) => w.includes('[translation_outdated]'))).toEqual([
      'content/translations.lock.json: missing: no translation is recorded yet; run `sitegen translated all` once the translations are up to date [translation_outdated]',
    ]);
    writeFileSync(join(f.root, 'content/translations.lock.json'), '{"strings": []}');
    expect(f.check().problems).toEqual([expect.stringMatching(/^content\/translations\.lock\.json:1: is not a translation lock: strings: .* \[content_unreadable\]$/)]);
  });
});

describe('pages some languages lack', () => {
  it('are reported by check as a warning per missing language, with the languages that have the page', () => {
    const f = fixture();
    rmSync(join(f.root, 'content/pages/de/healthcare.md'));
    rmSync(join(f.root, 'content/pages/it/healthcare.md'));
    const missing = f.check().warnings.filter((w) => w.includes('[page_translation_missing]') && w.includes('/healthcare.md'));
    expect(missing).toEqual(['de', 'it'].map((lang) => `content/pages/${lang}/healthcare.md: missing: the healthcare page has no ${lang} text (en, es, pt, fr, nl have it) [page_translation_missing]`));
    // Not an error in itself: what fails is only the links other pages of those languages have to it (the regulation pages link healthcare).
    expect(f.check().problems.filter((p) => !/ link \/(de\/gesundheitswesen|it\/sanita) resolves to no route \[link_to_no_route\]$/.test(p))).toEqual([]);
    expect(cell(f.sitegen('status').stdout, 'de', 'healthcare')).toBe('missing');
  });

  it('report bad front matter, a slug conflict, a "# " heading and sections that differ from English as problems at their lines', () => {
    const f = fixture();
    f.edit('content/pages/es/healthcare.md', (t) => t.replace('slug: sanidad', 'slug: about'));
    f.edit('content/pages/de/healthcare.md', (t) => t.replace('Krankenhäuser', '# Titel\n\nKrankenhäuser').replace('\n## Nachweise für Ihre Prüfer\n', '\n'));
    writeFileSync(join(f.root, 'content/pages/nl/healthcare.md'), '---\ntitle: Zorg\ndescription: Zorg\nslug: zorg\nnav: sidebar\n---\n\nTekst.\n');
    const de = 'content/pages/de/healthcare.md';
    // (The regulation pages' links to the moved and broken pages are reported too: the link check's own test covers them.)
    expect(f.check().problems.filter((p) => !p.endsWith('[link_to_no_route]'))).toEqual([
      `content/pages/es/healthcare.md:4: slug "about" gives the URL /es/about, but it is the URL of the about page [slug_conflict]`,
      expect.stringMatching(/^content\/pages\/nl\/healthcare\.md:5: front matter nav: .*"header".*"footer".*"solutions".* \[front_matter_invalid\]$/),
      `${de}:${f.lineOf(de, '# Titel')}: has a "# " heading; a page with front matter takes its title from "title:" [title_count]`,
      `${de}:${f.lineOf(de, '## Passt zu')}: has 2 "## " sections but the en text has 3 [sections_differ]`,
    ]);
  });
});

/** The line of `"leaf"` inside the object `"parent"` of a JSON file. */
function lineOfKey(root: string, file: string, parent: string, leaf: string): number {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.includes(`"${parent}": {`));
  return lines.findIndex((l, i) => i > start && l.includes(`"${leaf}"`)) + 1;
}
