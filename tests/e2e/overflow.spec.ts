import { readdirSync } from 'node:fs';
import { builtDir, expect, test } from './support/fixtures.ts';
import { pagesByLanguage, timeoutFor } from './support/page-batches.ts';

/**
 * Every page the build wrote, as the URL a visitor opens: `de/about.html` → `/de/about`,
 * `index.html` → `/`, and each 404 page through an unknown URL of its language.
 */
function builtPages(): string[] {
  const files = readdirSync(builtDir(), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.html') && !file.startsWith('_'));
  return files.sort().map((file) => {
    const path = file.slice(0, -'.html'.length);
    if (path === 'index') return '/';
    if (path === '404') return '/no-such-page';
    if (path.endsWith('/404')) return `/${path.slice(0, -'404'.length)}no-such-page`;
    return `/${path}`;
  });
}

const WIDTHS = [320, 360, 390, 768];

/** What sticks out at the current width: the page's own overflow and any heading wider than its box. */
async function overflowAt(page: import('@playwright/test').Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 800 });
  return page.evaluate((w) => {
    const problems: string[] = [];
    const describe = (el: Element) => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > innerWidth) {
      // Name the innermost elements that reach past the right edge, so a failure says what to fix.
      const wide = [...document.body.querySelectorAll('*')].filter(
        (el) => !el.closest('svg, [data-island-props]') && el.getBoundingClientRect().right > innerWidth + 0.5,
      );
      const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
      problems.push(`${w}px: page is ${scrollWidth}px wide (${innermost.slice(0, 3).map(describe).join(', ')})`);
    }
    // A heading clipped by an ancestor's overflow: hidden does not widen the page, but is cut off all the same.
    for (const heading of document.querySelectorAll('h1, h2, h3')) {
      if (heading.scrollWidth > heading.clientWidth + 1 && heading.getClientRects().length > 0) {
        problems.push(`${w}px: ${describe(heading)} is ${heading.scrollWidth}px wide in a ${heading.clientWidth}px box`);
      }
    }
    return problems;
  }, width);
}

for (const [lang, paths] of pagesByLanguage(builtPages())) {
  test(`no horizontal overflow at ${WIDTHS.join(', ')} px on the ${paths.length} pages in ${lang}`, async ({ page, url }) => {
    test.setTimeout(timeoutFor(paths.length));
    for (const path of paths) {
      await test.step(path, async () => {
        await page.goto(url(path));
        const problems: string[] = [];
        for (const width of WIDTHS) problems.push(...(await overflowAt(page, width)));
        expect.soft(problems, `overflow on ${path}`).toEqual([]);
      });
    }
  });
}

test('regression: the German 404 heading fits a 390 px phone, on one or more whole lines', async ({ page, url }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const response = await page.goto(url('/de/gibt-es-nicht'));
  expect(response?.status()).toBe(404);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Seite nicht gefunden');
  const box = await heading.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});

test('a wide table scrolls inside its own box, not the page', async ({ page, url }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(url('/de/cookies'));
  const table = page.locator('main table').first();
  const scroller = table.locator('xpath=..');
  const sizes = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflowX: getComputedStyle(el).overflowX }));
  expect(sizes.overflowX).toBe('auto');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
