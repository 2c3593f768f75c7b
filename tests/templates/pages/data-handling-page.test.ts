/**
 * The data-handling page's Content-Security-Policy table when the ingest service lives on another
 * origin: it names that origin exactly where the header the host configs build allows it.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { hostConfigs } from '../../../cli/host/host-configs.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { loadContentPages } from '../../../cli/site/markdown/content-pages.ts';
import { siteRoutes } from '../../../cli/site/routes.ts';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { ISLANDS, type IslandAssets } from '../../../templates/islands/registry.ts';
import { PageProvider } from '../../../templates/page-context.tsx';
import { DataHandlingPage } from '../../../templates/pages/DataHandlingPage.tsx';
import { translatorFor } from '../render-template.tsx';

const FORMS = 'https://forms.example.org';

/** The page rendered for a site whose forms post to `ingestUrl`. */
function pageFor(ingestUrl: string): string {
  const site = { ...loadSiteConfig(DEFAULT_PATHS.contentDir), ingestUrl };
  const routes = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);
  const islands = Object.fromEntries(Object.keys(ISLANDS).map((name) => [name, `/assets/${name}.js`])) as IslandAssets;
  const context = { lang: 'en' as const, page: 'dataHandling' as const, routes, t: translatorFor('en'), site, year: 2026, islands, islandsOnPage: new Set<never>() };
  return renderToStaticMarkup(createElement(PageProvider, { value: context }, createElement(DataHandlingPage)));
}

/** The sources each directive of the page's table lists. */
function rulesShown(html: string): Record<string, string[]> {
  const table = html.match(/<table id="csp-rules">[\s\S]*?<\/table>/)![0];
  const rows = [...table.matchAll(/<tr><th scope="row"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
  return Object.fromEntries(rows.map((row) => [
    row.match(/<code>([^<]*)<\/code>/)![1]!,
    [...row.matchAll(/<code data-csp-source="true"[^>]*>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&#x27;/g, "'")),
  ]));
}

it('names the ingest service on another origin in connect-src and form-action, as the header the host configs build does', () => {
  const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
  const headers = hostConfigs({ siteUrl: site.siteUrl, ingestUrl: `${FORMS}/api`, routes: [], langs: ['en'], html: [] }).published._headers!;
  const csp = headers.match(/Content-Security-Policy: (.*)/)![1]!;
  const sent = Object.fromEntries(csp.split('; ').map((d) => { const [name, ...sources] = d.split(' '); return [name!, sources]; }));
  const shown = rulesShown(pageFor(`${FORMS}/api`));
  expect(shown).toEqual(sent);
  expect(shown['connect-src']).toContain(FORMS);
  expect(shown['form-action']).toContain(FORMS);
  expect(rulesShown(pageFor('/api'))['connect-src']).toEqual(["'self'"]);
});
