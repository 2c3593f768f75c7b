/**
 * The solutions page lists the sector and role pages (Markdown pages with `nav: solutions`) and the
 * regulation pages (`nav: regulations`) of its language, each as a card, and links how it works.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { pathFor, siteRoutes } from '../../../cli/site/routes.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import type { IslandAssets } from '../../../templates/islands/registry.ts';
import { PageProvider } from '../../../templates/page-context.tsx';
import { SolutionsPage } from '../../../templates/pages/SolutionsPage.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

const pages = loadContentPages(DEFAULT_PATHS.contentDir).pages;

/** The cards of the section labelled by the heading with `id`: [heading text, link, description]. */
function cardsOf(html: string, id: string): string[][] {
  const start = html.indexOf(`<section aria-labelledby="${id}"`);
  if (start === -1) return [];
  const section = html.slice(start, html.indexOf('</section>', start));
  return allOf(section, /<li\b[^>]*>([\s\S]*?)<\/li>/g).map((card) => [
    textOf(allOf(card, /<h3[^>]*>([\s\S]*?)<\/h3>/g)[0]!),
    allOf(card, /<a href="([^"]+)"/g)[0]!,
    textOf(allOf(card, /<p[^>]*>([\s\S]*?)<\/p>/g)[0]!),
  ]);
}

describe.each(LANGUAGES)('the solutions page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, SolutionsPage);
  /** The language's pages of one placement, as the cards should show them: label, URL, description, in navOrder. */
  const expected = (nav: 'solutions' | 'regulations') =>
    pages
      .filter((p) => p.lang === lang && p.nav === nav)
      .sort((a, b) => a.navOrder - b.navOrder || a.navLabel.localeCompare(b.navLabel, lang))
      // (As a visitor reads them: spaces collapsed, the French narrow no-break space included.)
      .map((p) => [p.navLabel, lang === 'en' ? `/${p.slug}` : `/${lang}/${p.slug}`, textOf(p.description)]);

  it('shows its title and introduction, then a card for each sector and role page of the language, in their order', () => {
    expect(textOf(allOf(html, /<h1[^>]*>([\s\S]*?)<\/h1>/g)[0]!)).toBe(textOf(t('solutions.title')));
    expect(expected('solutions').length).toBeGreaterThan(0);
    expect(cardsOf(html, 'audiences')).toEqual(expected('solutions'));
    expect(html).not.toContain(textOf(t('solutions.empty')));
  });

  it('lists the regulation pages of the language under their own heading, and no such heading without them', () => {
    expect(cardsOf(html, 'regulations')).toEqual(expected('regulations'));
    expect(html.includes(`>${t('solutions.regulationsTitle')}</h2>`)).toBe(expected('regulations').length > 0);
  });

  it('links the how-it-works page of its language', () => {
    expect(html).toContain(`href="${pathFor('howItWorks', lang)}"`);
  });
});

it('lays the sector and role cards out in up to three columns, so five cards do not leave a row two-thirds empty', () => {
  const html = renderTemplate('en', SolutionsPage);
  const start = html.indexOf('<section aria-labelledby="audiences"');
  expect(/<ul class="([^"]*)"/.exec(html.slice(start))![1]).toMatch(/\bmd:grid-cols-2\b.*\blg:grid-cols-3\b/);
});

it('lists the five sectors and roles and the five regulations the specification names, in English', () => {
  const html = renderTemplate('en', SolutionsPage);
  expect(cardsOf(html, 'audiences').map(([label]) => label)).toEqual(['Healthcare', 'Financial services', 'Government', 'Enterprises', 'DBAs and IT teams']);
  expect(cardsOf(html, 'regulations').map(([label]) => label)).toEqual(['GDPR', 'HIPAA', 'SOX', 'PCI DSS', 'CCPA']);
});

it('says so while no industry page exists, instead of an empty list', () => {
  const routes = siteRoutes([{ name: 'healthcare', lang: 'de', slug: 'gesundheitswesen', nav: 'footer', navLabel: 'Gesundheitswesen', description: 'Gesundheit.', navOrder: 0 }]);
  const context = { lang: 'de' as const, page: 'solutions' as const, routes, t: translatorFor('de'), site: loadSiteConfig(DEFAULT_PATHS.contentDir), year: 2026, islands: {} as IslandAssets, islandsOnPage: new Set<never>() };
  const html = renderToStaticMarkup(createElement(PageProvider, { value: context }, createElement(SolutionsPage)));
  expect(html).not.toContain('<li');
  expect(html).toContain(translatorFor('de')('solutions.empty'));
});
