import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../../cli/check/check-content.ts';
import { formatProblem, SITEGEN_ERRORS } from '../../../cli/site/errors.ts';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { DATA_FACT_NAMES } from '../../../ingest/contract/data-facts.ts';

/** The Markdown texts of the shipped content (legal texts and added pages, every language): the count the summary line gives. */
const MARKDOWN_TEXTS = readdirSync(join(PROJECT_ROOT, 'content', 'pages'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).length;

/** A copy of the real content and templates in a temp folder, to break one thing at a time. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'check-'));
  cpSync(join(PROJECT_ROOT, 'content'), join(root, 'content'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
  const edit = (file: string, change: (text: string) => string) => {
    const path = join(root, file);
    writeFileSync(path, change(readFileSync(path, 'utf8')));
  };
  const lineOf = (file: string, needle: string) =>
    readFileSync(join(root, file), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
  const check = () =>
    checkContent({ contentDir: join(root, 'content'), templatesDir: join(root, 'templates'), root }).problems.map(formatProblem);
  return { root, edit, lineOf, check };
}

describe('sitegen check', () => {
  it('passes the shipped content with the one-line summary and exit code 0', () => {
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), 'check'], { encoding: 'utf8' });
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^7 languages, \\d+ keys, ${MARKDOWN_TEXTS} pages: ok\\b`));
    expect(run.status).toBe(0);
  });

  it('reports a key missing in one language at its parent object', () => {
    const f = fixture();
    f.edit('content/locales/de.json', (t) => t.replace(/\n\s*"signUp": "[^"]*",/, ''));
    expect(f.check()).toEqual([`content/locales/de.json:${f.lineOf('content/locales/de.json', '"nav"')}: key "nav.signUp" is missing (present in en, es, pt, fr, it, nl) [key_missing]`]);
  });

  it('reports a key that exists in only one language', () => {
    const f = fixture();
    f.edit('content/locales/fr.json', (t) => t.replace('"signUp":', '"signOn": "S’identifier",\n    "signUp":'));
    expect(f.check()).toEqual([`content/locales/fr.json:${f.lineOf('content/locales/fr.json', '"signOn"')}: key "nav.signOn" exists only in fr [key_only_in_one_language]`]);
  });

  it('reports mismatched placeholders and an empty value with their lines', () => {
    const f = fixture();
    f.edit('content/locales/it.json', (t) => t.replace(/"copyright": "[^"]*"/, '"copyright": "© {{anno}} {{company}}"').replace(/"blog": "[^"]*"/, '"blog": ""'));
    const file = 'content/locales/it.json';
    expect(f.check()).toEqual([
      `${file}:${f.lineOf(file, '"blog"')}: key "nav.blog" is empty [key_empty]`,
      `${file}:${f.lineOf(file, '"copyright"')}: key "footer.copyright" uses {{anno}}, which has no value here; valid placeholders: {{company}}, {{year}} (as en uses) and the site values {{brand}}, {{company}}, {{taxId}}, {{address}}, {{registry}}, {{email}}, {{privacyEmail}}, {{phone}}, {{location}}, {{siteUrl}}, ${DATA_FACT_NAMES.map((fact) => `{{${fact}}}`).join(', ')} [placeholder_unknown]`,
      `${file}:${f.lineOf(file, '"copyright"')}: key "footer.copyright" leaves out {{year}}, which en uses [placeholders_differ]`,
    ]);
  });

  it('reports a missing page text for a language', () => {
    const f = fixture();
    rmSync(join(f.root, 'content/pages/pt/cookies.md'));
    expect(f.check()).toEqual(['content/pages/pt/cookies.md:1: missing: the cookies page has no pt text [content_missing]']);
  });

  it('reports a page whose sections differ from English', () => {
    const f = fixture();
    const file = 'content/pages/nl/privacy.md';
    f.edit(file, (t) => t.replace(/\n## 10\. [^\n]*/, '\n'));
    const problems = f.check();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${file}:\\d+: has 10 "## " sections but the en text has 11 \\[sections_differ\\]$`));
  });

  it('reports an unknown placeholder in a page text', () => {
    const f = fixture();
    const file = 'content/pages/es/privacy.md';
    f.edit(file, (t) => `${t}\nEscríbanos a {{dpoEmail}}.\n`);
    expect(f.check()).toEqual([`${file}:${f.lineOf(file, '{{dpoEmail}}')}: placeholder {{dpoEmail}} has no value in content/site.json [placeholder_unknown]`]);
  });

  it('reports internal links to no route in content and in templates', () => {
    const f = fixture();
    f.edit('content/pages/de/cookies.md', (t) => `${t}\nSiehe [Datenschutz](/de/datenschutzz#rechte).\n`);
    f.edit('templates/pages/NotFoundPage.tsx', (t) => t.replace('<a href={pathFor', '<a href="/prices" className="sr-only">x</a>\n      <a href={pathFor'));
    expect(f.check()).toEqual([
      `content/pages/de/cookies.md:${f.lineOf('content/pages/de/cookies.md', 'datenschutzz')}: link /de/datenschutzz#rechte resolves to no route [link_to_no_route]`,
      `templates/pages/NotFoundPage.tsx:${f.lineOf('templates/pages/NotFoundPage.tsx', '/prices')}: link /prices resolves to no route [link_to_no_route]`,
    ]);
  });

  it('reports site.json schema errors at the field', () => {
    const f = fixture();
    f.edit('content/site.json', (t) => t.replace('"privacyEmail": "privacy@maskwise.io"', '"privacyEmail": "privacy-at-maskwise"'));
    expect(f.check()).toEqual([`content/site.json:${f.lineOf('content/site.json', '"privacyEmail"')}: privacyEmail: Invalid email address [content_invalid]`]);
  });

  it('exits 1 and prints each problem and the summary from the CLI', () => {
    const f = fixture();
    f.edit('content/locales/nl.json', (t) => t.replace(/"blog": "[^"]*"/, '"blog": " "'));
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), 'check', '--content', 'content', '--templates', 'templates'], {
      cwd: f.root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`content/locales/nl.json:${f.lineOf('content/locales/nl.json', '"blog"')}: key "nav.blog" is empty [key_empty]`);
    expect(run.stdout).toContain(`key_empty: ${SITEGEN_ERRORS.key_empty.hint}`);
    expect(run.stdout).toMatch(new RegExp(`7 languages, \\d+ keys, ${MARKDOWN_TEXTS} pages: 1 problem\\(s\\)`));
  });
});
