import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../../cli/pipeline/build-site.ts';
import { deployDirOf } from '../../../cli/host/deploy-files.ts';
import { LANGUAGES, NATIVE_NAMES } from '../../../cli/site/languages.ts';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../../cli/paths.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { attributeOf, builtSite, readBuilt, visibleText } from '../../helpers/built-site.ts';
import { testOutDir } from '../../helpers/test-folders.ts';

const SITE = loadSiteConfig(DEFAULT_PATHS.contentDir).siteUrl;
const FIXTURE = join(PROJECT_ROOT, 'tests', 'fixtures', 'content-pages');

/** The real content with the fixture's Markdown pages laid over it, in a temp folder. */
function contentWithFixturePages(): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-pages-'));
  cpSync(DEFAULT_PATHS.contentDir, dir, { recursive: true });
  cpSync(join(FIXTURE, 'pages'), join(dir, 'pages'), { recursive: true });
  return dir;
}

const alternates = (html: string) => [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => `${m[1]} ${m[2]}`);
const languageMenu = (html: string) =>
  (JSON.parse(/data-island-props="LanguageMenu">([^<]*)</.exec(html)![1]!) as { links: { lang: string; href: string }[] }).links.map((l) => `${l.lang} ${l.href}`);

describe('pages added as Markdown files', () => {
  let outDir = '';
  let result: BuildResult;
  beforeAll(async () => {
    outDir = join(mkdtempSync(join(tmpdir(), 'content-pages-out-')), 'dist');
    result = await buildSite({ ...DEFAULT_PATHS, contentDir: contentWithFixturePages(), outDir, now: new Date('2026-03-01T00:00:00Z') });
  });
  // The output's parent holds its build cache too.
  afterAll(() => rmSync(join(outDir, '..'), { recursive: true, force: true }));

  it('builds a page in each language that has its file, and passes the build\'s output validation', () => {
    expect(result.errors).toEqual([]);
    const built = result.pages.filter((p) => p.page === 'content:case-study').map((p) => `${p.lang} ${p.path}`);
    expect(built).toEqual(['en /case-study', 'fr /fr/etude-de-cas', 'nl /nl/casestudy']);
    expect(result.pages.filter((p) => p.page === 'content:offre-locale').map((p) => p.path)).toEqual(['/fr/offre-locale']);
  });

  it('gives it the front matter\'s title and description, placeholders filled, and its Markdown as HTML', () => {
    const html = readBuilt(outDir, 'fr/etude-de-cas.html');
    expect(html).toMatch(/^<!DOCTYPE html><html lang="fr"/);
    expect(html).toContain('<title>Étude de cas — MaskWise</title>');
    expect(attributeOf(html, /<meta name="description"[^>]*>/, 'content')).toBe('Comment une équipe a masqué ses bases de test avec MaskWise, et ce qui a changé pour ses développeurs.');
    expect(html).toMatch(/<h1[^>]*>Étude de cas<\/h1>/);
    expect(html).toContain('<h2 id="le-probleme">Le problème</h2>');
  });

  it('has a self-referencing canonical and hreflang among the languages present, x-default English', () => {
    const html = readBuilt(outDir, 'nl/casestudy.html');
    expect(attributeOf(html, /<link rel="canonical"[^>]*>/, 'href')).toBe(`${SITE}/nl/casestudy`);
    expect(alternates(html)).toEqual([`en ${SITE}/case-study`, `fr ${SITE}/fr/etude-de-cas`, `nl ${SITE}/nl/casestudy`, `x-default ${SITE}/case-study`]);
  });

  it('takes the first language present as x-default when the page has no English text', () => {
    const html = readBuilt(outDir, 'fr/offre-locale.html');
    expect(alternates(html)).toEqual([`fr ${SITE}/fr/offre-locale`, `x-default ${SITE}/fr/offre-locale`]);
  });

  it('lists each language version in the sitemap with the same alternates as its head', () => {
    const sitemap = readBuilt(outDir, 'sitemap.xml');
    const entry = /<url>\s*<loc>[^<]*\/fr\/etude-de-cas<\/loc>([\s\S]*?)<\/url>/.exec(sitemap)?.[1] ?? '';
    expect([...entry.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual(alternates(readBuilt(outDir, 'fr/etude-de-cas.html')));
    expect(sitemap).not.toContain('/de/case-study');
  });

  it('links the language menu to the page in each language it has, and to the home page of the others', () => {
    const links = languageMenu(readBuilt(outDir, 'case-study.html'));
    expect(links).toEqual(['en /case-study', 'es /es', 'pt /pt', 'fr /fr/etude-de-cas', 'de /de', 'it /it', 'nl /nl/casestudy']);
    const html = readBuilt(outDir, 'case-study.html');
    for (const lang of LANGUAGES) expect(html).toContain(`lang="${lang}"`);
    expect(visibleText(html)).toContain(NATIVE_NAMES.de);
  });

  it('places a link in the header of each language that has the page (nav: header), and in the footer (nav: footer)', () => {
    const en = readBuilt(outDir, 'about.html');
    expect(en).toMatch(/<nav aria-label="[^"]*"[^>]*>[\s\S]*?href="\/case-study"[^>]*>Case study</);
    expect(readBuilt(outDir, 'nl.html')).toMatch(/href="\/nl\/casestudy"[^>]*>Casestudy</);
    expect(readBuilt(outDir, 'de.html')).not.toContain('case-study');
    const footer = (html: string) => /<footer[\s\S]*<\/footer>/.exec(html)![0];
    expect(footer(readBuilt(outDir, 'fr.html'))).toMatch(/href="\/fr\/offre-locale"[^>]*>Offre locale</);
    expect(footer(readBuilt(outDir, 'index.html'))).not.toContain('offre-locale');
  });

  it('marks the header link of the page being shown as the current page', () => {
    expect(readBuilt(outDir, 'case-study.html')).toMatch(/<a href="\/case-study" aria-current="page"/);
  });

  it('writes the pages into the host configurations', () => {
    expect(readBuilt(deployDirOf(outDir), 'nginx.conf')).toContain('location = /fr/etude-de-cas ');
    expect(readBuilt(outDir, '_redirects')).toContain('/nl/casestudy/  /nl/casestudy  308');
  });
});

describe('a Markdown page that cannot be built', () => {
  it('fails the build at its file and line and leaves the output folder alone', async () => {
    const contentDir = contentWithFixturePages();
    writeFileSync(join(contentDir, 'pages', 'nl', 'case-study.md'), '---\ntitle: Casestudy\ndescription: x\nslug: Case Study\n---\n\nTekst.\n');
    const outDir = mkdtempSync(join(tmpdir(), 'content-pages-bad-'));
    rmSync(outDir, { recursive: true });
    const failed = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir, langs: ['en'] });
    expect(failed.errors).toEqual([
      expect.objectContaining({ code: 'front_matter_invalid', file: join(contentDir, 'pages', 'nl', 'case-study.md'), line: 4 }),
    ]);
    expect(failed.pages).toEqual([]);
    expect(existsSync(outDir)).toBe(false);
  });

  it('reports a {{placeholder}} without a value in a page body at its line', async () => {
    const contentDir = contentWithFixturePages();
    writeFileSync(join(contentDir, 'pages', 'en', 'case-study.md'), '---\ntitle: Case study\ndescription: x\nslug: case-study\n---\n\nFirst line.\n\nWrite to {{salesEmail}}.\n');
    const failed = await buildSite({ ...DEFAULT_PATHS, contentDir, outDir: testOutDir('content-pages-ph-'), langs: ['en'] });
    expect(failed.errors).toEqual([expect.objectContaining({ code: 'placeholder_unknown', file: join(contentDir, 'pages', 'en', 'case-study.md'), line: 9 })]);
  });
});

describe('the shipped example page', () => {
  it('is built in all seven languages at its translated URLs', async () => {
    const outDir = testOutDir('content-pages-real-');
    const built = await buildSite({ ...DEFAULT_PATHS, outDir });
    expect(built.errors).toEqual([]);
    expect(built.pages.filter((p) => p.page === 'content:healthcare').map((p) => p.path).sort()).toEqual(
      ['/healthcare', '/es/sanidad', '/pt/saude', '/fr/sante', '/de/gesundheitswesen', '/it/sanita', '/nl/zorg'].sort(),
    );
    expect(visibleText(readBuilt(outDir, 'es/sanidad.html'))).toContain('Enmascaramiento de datos para el sector sanitario');
    expect(visibleText(readBuilt(outDir, 'fr/sante.html'))).toContain('Masquage des données pour le secteur de la santé');
    expect(visibleText(readBuilt(outDir, 'nl/zorg.html'))).toContain('Datamaskering voor de zorg');
  });
});

describe('the accessibility statement', () => {
  /** Its URL and footer link text in each language, as a visitor finds them. */
  const STATEMENT = {
    en: ['/accessibility', 'Accessibility'],
    es: ['/es/accesibilidad', 'Accesibilidad'],
    pt: ['/pt/acessibilidade', 'Acessibilidade'],
    fr: ['/fr/accessibilite', 'Accessibilité'],
    de: ['/de/barrierefreiheit', 'Barrierefreiheit'],
    it: ['/it/accessibilita', 'Accessibilità'],
    nl: ['/nl/toegankelijkheid', 'Toegankelijkheid'],
  } as const;

  it("is built in all seven languages, and every language's footer links it by its name", async () => {
    const { outDir, result } = await builtSite();
    expect(result.pages.filter((p) => p.page === 'content:accessibility').map((p) => p.path).sort()).toEqual(Object.values(STATEMENT).map(([path]) => path).sort());
    for (const lang of LANGUAGES) {
      const [path, label] = STATEMENT[lang];
      const home = readBuilt(outDir, lang === 'en' ? 'index.html' : `${lang}.html`);
      const footer = home.slice(home.indexOf('<footer'));
      expect(footer, lang).toMatch(new RegExp(`<a href="${path}"[^>]*>${label}</a>`));
      expect(visibleText(readBuilt(outDir, `${path.slice(1)}.html`)), lang).toContain('WCAG 2.2');
    }
  });
});
