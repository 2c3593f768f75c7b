import { expect, test } from './support/fixtures.ts';

// Every page at 320, 360, 390 and 768 px is tests/e2e/page-checks.spec.ts (with axe, in the same
// visit); here: the regressions that need a page of their own.

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
