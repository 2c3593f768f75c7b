import { describe, expect, it } from 'vitest';
import { SERVICE_PAGES, servicePagePath, type ServicePage } from '../../../ingest/contract/service-pages.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { allRoutes, isIndexed } from '../../../cli/site/routes.ts';

const CONTRACT_PAGES = Object.keys(SERVICE_PAGES) as ServicePage[];

// The routes table takes the service pages from the contract (one table for both programs); these
// hold what it does with them.
describe('the service pages (ingest/contract/service-pages.ts) in the routes table', () => {
  it('agree on which pages are service pages: exactly those are noindex', () => {
    const noindex = [...new Set(allRoutes().filter((r) => !isIndexed(r.page)).map((r) => r.page))];
    expect(noindex.sort()).toEqual([...CONTRACT_PAGES].sort());
  });

  it('build every service page in every language', () => {
    const paths = new Set(allRoutes().map((r) => r.path));
    for (const page of CONTRACT_PAGES) for (const lang of LANGUAGES) expect(paths.has(servicePagePath(page, lang)), `${page} ${lang}`).toBe(true);
  });
});
