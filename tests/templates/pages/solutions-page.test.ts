/** The solutions page lists the industry pages (Markdown pages with `nav: solutions`), in every language. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { siteRoutes } from '../../../cli/site/routes.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import type { IslandAssets } from '../../../templates/islands/registry.ts';
import { PageProvider } from '../../../templates/page-context.tsx';
import { SolutionsPage } from '../../../templates/pages/SolutionsPage.tsx';
import { allOf, renderTemplate, textOf, translatorFor } from '../render-template.tsx';

describe.each(LANGUAGES)('the solutions page in %s', (lang) => {
  const t = translatorFor(lang);
  const html = renderTemplate(lang, SolutionsPage);
  const front = readFileSync(join(DEFAULT_PATHS.contentDir, 'pages', lang, 'healthcare.md'), 'utf8');
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(front)![1]!;

  it('shows its title and introduction, then a card for the healthcare page with its link text and description', () => {
    expect(textOf(allOf(html, /<h1[^>]*>([\s\S]*?)<\/h1>/g)[0]!)).toBe(textOf(t('solutions.title')));
    const cards = allOf(html, /<li\b[^>]*>([\s\S]*?)<\/li>/g);
    expect(cards).toHaveLength(1);
    expect(textOf(allOf(cards[0]!, /<h2[^>]*>([\s\S]*?)<\/h2>/g)[0]!)).toBe(field('navLabel'));
    expect(cards[0]).toContain(`href="${lang === 'en' ? '' : `/${lang}`}/${field('slug')}"`);
    expect(textOf(allOf(cards[0]!, /<p[^>]*>([\s\S]*?)<\/p>/g)[0]!)).toBe(field('description'));
    expect(html).not.toContain(textOf(t('solutions.empty')));
  });
});

it('says so while no industry page exists, instead of an empty list', () => {
  const routes = siteRoutes([{ name: 'healthcare', lang: 'de', slug: 'gesundheitswesen', nav: 'footer', navLabel: 'Gesundheitswesen', description: 'Gesundheit.', navOrder: 0 }]);
  const context = { lang: 'de' as const, page: 'solutions' as const, routes, t: translatorFor('de'), site: loadSiteConfig(DEFAULT_PATHS.contentDir), year: 2026, islands: {} as IslandAssets, islandsOnPage: new Set<never>() };
  const html = renderToStaticMarkup(createElement(PageProvider, { value: context }, createElement(SolutionsPage)));
  expect(html).not.toContain('<li');
  expect(html).toContain(translatorFor('de')('solutions.empty'));
});
