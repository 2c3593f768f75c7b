import { LANGUAGES } from '../../cli/site/languages.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { loadContentPages } from '../../cli/site/markdown/content-pages.ts';
import { siteRoutes } from '../../cli/site/routes.ts';
import { axeViolations, expect, preloadAxe, test } from './support/fixtures.ts';
import { builtPages, OVERFLOW_WIDTHS, overflowAt } from './support/overflow.ts';
import { pagesByLanguage, timeoutFor } from './support/page-batches.ts';

// The checks every page is held to, made in one visit a page: axe at the desktop size the page
// opened at, then no horizontal overflow at each of the four widths. axe runs on every page of the
// routes table (the pages added as Markdown included: the sector, role and regulation pages) plus
// each language's 404 page; the overflow check on every page the build wrote. The two lists are the
// same site; a page on only one of them still gets its own check.

const AXE_PAGES = new Set([
  ...siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages).allRoutes().map((r) => r.path),
  ...LANGUAGES.map((l) => (l === 'en' ? '/no-such-page' : `/${l}/no-such-page`)),
]);
const OVERFLOW_PAGES = new Set(builtPages());

for (const [lang, paths] of pagesByLanguage([...new Set([...AXE_PAGES, ...OVERFLOW_PAGES])])) {
  test(`axe finds no WCAG A/AA violations and nothing overflows at ${OVERFLOW_WIDTHS.join(', ')} px on the ${paths.length} pages in ${lang}`, async ({ page, url }) => {
    test.setTimeout(timeoutFor(paths.length));
    await preloadAxe(page);
    const desktop = page.viewportSize()!;
    for (const path of paths) {
      await test.step(path, async () => {
        // Each page opens at the desktop size of the test's browser, where axe checks it.
        await page.setViewportSize(desktop);
        await page.goto(url(path));
        if (AXE_PAGES.has(path)) expect.soft(await axeViolations(page), `axe on ${path}`).toEqual([]);
        if (OVERFLOW_PAGES.has(path)) {
          const problems: string[] = [];
          for (const width of OVERFLOW_WIDTHS) problems.push(...(await overflowAt(page, width)));
          expect.soft(problems, `overflow on ${path}`).toEqual([]);
        }
      });
    }
  });
}
