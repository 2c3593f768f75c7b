/**
 * A visitor finds every sector, role and regulation page from where they would look for it, in
 * each language that has it (issue 41): the solutions page lists them all; the home page's
 * compliance card links every regulation page and its GDPR and HIPAA cards their own; each sector
 * or role page links the regulations that apply, and each regulation page links back to the
 * sectors and roles it concerns. Links stay in the page's language, so a translation that kept an
 * English URL fails here.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { contentPageId, fileForPath, pathFor, siteRoutes } from '../../../cli/site/routes.ts';
import { readBuilt, useBuiltSite } from '../../helpers/built-site.ts';

const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);
const built = useBuiltSite();

/** The site-internal links of a built page's main content (header and footer left out), without query or fragment. */
function mainLinks(path: string): Set<string> {
  const html = readBuilt(built.outDir, fileForPath(path));
  const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  return new Set([...main.matchAll(/<a\b[^>]*\bhref="(\/[^"]*)"/g)].map((m) => m[1]!.replace(/[?#].*$/, '')));
}

describe.each(LANGUAGES)('links to the sector, role and regulation pages in %s', (lang) => {
  const audiences = routes.placedLinks('solutions', lang);
  const regulations = routes.placedLinks('regulations', lang);

  it('the solutions page links every sector, role and regulation page of the language, and how it works', () => {
    const links = mainLinks(pathFor('solutions', lang));
    for (const { href } of [...audiences, ...regulations]) expect(links, href).toContain(href);
    expect(links).toContain(pathFor('howItWorks', lang));
  });

  it('the home page links every regulation page, the GDPR and HIPAA cards theirs, and how it works', () => {
    const links = mainLinks(pathFor('home', lang));
    for (const { href } of regulations) expect(links, href).toContain(href);
    for (const name of ['gdpr', 'hipaa']) {
      const path = routes.pathFor(contentPageId(name), lang);
      if (path !== undefined) expect(links, path).toContain(path);
    }
    expect(links).toContain(pathFor('howItWorks', lang));
  });

  it('each sector or role page links a regulation page, and each regulation page a sector or role page, all in the language', () => {
    const regulationPaths = new Set(regulations.map((r) => r.href));
    const audiencePaths = new Set(audiences.map((a) => a.href));
    const linkedRegulations = new Set<string>();
    for (const { href } of audiences) {
      const links = [...mainLinks(href)];
      const toRegulations = links.filter((link) => regulationPaths.has(link));
      if (regulations.length > 0) expect(toRegulations, `${href} links no regulation page`).not.toEqual([]);
      for (const link of toRegulations) linkedRegulations.add(link);
    }
    // Every regulation page is reached from at least one sector or role page.
    expect([...regulationPaths].filter((path) => !linkedRegulations.has(path))).toEqual([]);
    for (const { href } of regulations) {
      expect([...mainLinks(href)].filter((link) => audiencePaths.has(link)), `${href} links no sector or role page`).not.toEqual([]);
    }
    const prefix = lang === 'en' ? null : `/${lang}`;
    for (const { href } of [...audiences, ...regulations]) {
      const elsewhere = [...mainLinks(href)].filter((link) => (prefix === null ? LANGUAGES.some((l) => l !== 'en' && (link === `/${l}` || link.startsWith(`/${l}/`))) : link !== prefix && !link.startsWith(`${prefix}/`)));
      expect(elsewhere, `${href} links pages of another language`).toEqual([]);
    }
  });
});

it('English has the five sector and role pages and the five regulation pages the specification names', () => {
  expect(routes.placedLinks('solutions', 'en').map((l) => l.href)).toEqual(['/healthcare', '/financial-services', '/government', '/enterprises', '/database-administrators']);
  expect(routes.placedLinks('regulations', 'en').map((l) => l.href)).toEqual(['/gdpr', '/hipaa', '/sox', '/pci-dss', '/ccpa']);
});
