/**
 * The page on how the site treats data, as built: every figure on it in every language is the
 * facts table's (`ingest/contract/data-facts.ts`), the Content-Security-Policy rules it shows are
 * those the host configs send, its texts pass the content check, and the footer and both forms'
 * privacy notes link to it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent } from '../../../cli/check/check-content.ts';
import { factsStated, handWrittenFacts } from '../../../cli/check/data-facts.ts';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../../cli/paths.ts';
import { LANGUAGES, type Lang } from '../../../cli/site/languages.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { fileForPath, pathFor } from '../../../cli/site/routes.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { DATA_FACTS, type DataFact } from '../../../ingest/contract/data-facts.ts';
import { attributeOf, readBuilt, useBuiltSite, visibleText } from '../../helpers/built-site.ts';

const built = useBuiltSite();
const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const site = loadSiteConfig(DEFAULT_PATHS.contentDir);

/** The strings of a language under a key prefix, flattened (`dataHandling.summary.title` → text). */
function stringsUnder(lang: Lang, prefix: string): Record<string, string> {
  const flat: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'string') flat[path] = node;
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
  };
  walk((messages.get(lang) as Record<string, unknown>)[prefix], prefix);
  return flat;
}

/** How often each facts-table placeholder occurs in the texts, as the values the page must show. */
function expectedFigures(texts: readonly string[]): number[] {
  return texts.flatMap((text) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).filter((name) => Object.hasOwn(DATA_FACTS, name)).map((name) => DATA_FACTS[name as DataFact])).sort((a, b) => a - b);
}

/** The page's `<main>`, without its code spans (the CSP sources, which are not figures). */
function mainOf(html: string): string {
  return html.match(/<main\b[\s\S]*?<\/main>/)![0];
}

/** The CSP rules a page's table shows: directive → sources, in order. */
function rulesShown(html: string): Record<string, string[]> {
  const table = html.match(/<table id="csp-rules">[\s\S]*?<\/table>/)![0];
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!).filter((row) => row.includes('<td'));
  return Object.fromEntries(rows.map((row) => [
    row.match(/<code>([^<]*)<\/code>/)![1]!,
    [...row.matchAll(/<code data-csp-source="true"[^>]*>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&#x27;/g, "'")),
  ]));
}

/** The CSP of the built `_headers` file, its hash sources left out: directive → sources. */
function rulesSent(headersFile: string): Record<string, string[]> {
  const csp = headersFile.match(/Content-Security-Policy: (.*)/)![1]!;
  return Object.fromEntries(csp.split('; ').map((directive) => {
    const [name, ...sources] = directive.split(' ');
    return [name!, sources.filter((source) => !source.startsWith("'sha256-"))];
  }));
}

describe.each(LANGUAGES)('the data-handling page in %s', (lang) => {
  const page = () => readBuilt(built.outDir, fileForPath(pathFor('dataHandling', lang)));

  it('shows exactly the figures of the facts table its texts name, each as many times as they name it', () => {
    const texts = Object.values(stringsUnder(lang, 'dataHandling'));
    const expected = expectedFigures(texts);
    const shown = [...visibleText(mainOf(page()).replace(/<code\b[\s\S]*?<\/code>/g, ' ')).matchAll(/\d+/g)].map((m) => Number(m[0])).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(shown).toEqual(expected);
  });

  it('states every fact the English page states, none written by hand', () => {
    const english = factsStated(Object.values(stringsUnder('en', 'dataHandling')).join('\n'));
    const texts = Object.values(stringsUnder(lang, 'dataHandling'));
    expect(factsStated(texts.join('\n'))).toEqual(english);
    for (const text of texts) expect(handWrittenFacts(lang, text)).toEqual([]);
    for (const fact of ['linkDays', 'contactYears', 'consentEventYears', 'webhookRetryDays', 'webhookFailedDays', 'accessLogDays', 'backupDays'] as const) expect(english.has(fact), fact).toBe(true);
  });

  it('shows the Content-Security-Policy rules the host configs send, origin for origin', () => {
    expect(rulesShown(page())).toEqual(rulesSent(readBuilt(built.outDir, '_headers')));
  });

  it('has a title of at most 60 characters with the brand, and a description of 70 to 160', () => {
    const html = page();
    const title = html.match(/<title>([^<]*)<\/title>/)![1]!;
    const description = attributeOf(html, /<meta name="description"[^>]*>/, 'content')!;
    expect(title).toContain(site.brand);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(description.length).toBeGreaterThanOrEqual(70);
    expect(description.length).toBeLessThanOrEqual(160);
  });

  it('tells how to ask for a copy or an erasure: a link to the privacy contact and to the privacy policy', () => {
    const main = mainOf(page());
    expect(main).toContain(`href="mailto:${site.privacyEmail}"`);
    expect(main).toContain(`href="${pathFor('privacy', lang)}"`);
  });

  it('is linked from the footer of every kind of page, and from the privacy notes of both forms', () => {
    const href = `href="${pathFor('dataHandling', lang)}"`;
    for (const other of ['home', 'about', 'privacy', 'dataHandling'] as const) {
      const footer = readBuilt(built.outDir, fileForPath(pathFor(other, lang))).match(/<footer\b[\s\S]*?<\/footer>/)![0];
      expect(footer, other).toContain(href);
    }
    const contactForm = readBuilt(built.outDir, fileForPath(pathFor('contact', lang))).match(/<form\b[^>]*data-form="contact"[\s\S]*?<\/form>/)![0];
    const newsletterForm = readBuilt(built.outDir, fileForPath(pathFor('home', lang))).match(/<form\b[^>]*data-form="newsletter"[\s\S]*?<\/form>/)![0];
    expect(contactForm).toContain(href);
    expect(newsletterForm).toContain(href);
  });
});

it('the data-handling texts pass the content check in all seven languages (strict: none outdated)', () => {
  const { problems, warnings } = checkContent({ contentDir: DEFAULT_PATHS.contentDir, templatesDir: TEMPLATES_DIR, root: PROJECT_ROOT, strict: true });
  expect([...problems, ...warnings]).toEqual([]);
  expect(Object.keys(stringsUnder('en', 'dataHandling')).length).toBeGreaterThan(40);
});
