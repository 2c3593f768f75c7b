import { describe, expect, it } from 'vitest';
import { LANGS } from '../../../ingest/contract/schemas.ts';
import { SERVICE_PAGES, servicePagePath, type ServicePage } from '../../../ingest/contract/service-pages.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { allRoutes, isIndexed, pathFor } from '../../../cli/site/routes.ts';

const CONTRACT_PAGES = Object.keys(SERVICE_PAGES) as ServicePage[];

describe('the service pages (ingest/contract/service-pages.ts) and the routes table', () => {
  it('give every page the same path in every language', () => {
    expect([...LANGS].sort()).toEqual([...LANGUAGES].sort());
    for (const page of CONTRACT_PAGES) {
      for (const lang of LANGUAGES) expect(pathFor(page, lang), `${page} ${lang}`).toBe(servicePagePath(page, lang));
    }
  });

  it('agree on which pages are service pages: exactly those are noindex', () => {
    const noindex = [...new Set(allRoutes().filter((r) => !isIndexed(r.page)).map((r) => r.page))];
    expect(noindex.sort()).toEqual([...CONTRACT_PAGES].sort());
  });

  it('build every service page in every language', () => {
    const paths = new Set(allRoutes().map((r) => r.path));
    for (const page of CONTRACT_PAGES) for (const lang of LANGUAGES) expect(paths.has(servicePagePath(page, lang)), `${page} ${lang}`).toBe(true);
  });
});
