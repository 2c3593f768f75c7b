import type { Page } from '@playwright/test';
import { animationsSettled, expect, test } from './support/fixtures.ts';

/** Computed styles of every element, for the properties layout and looks depend on. */
function computedStyles(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const properties = ['display', 'position', 'width', 'height', 'margin', 'padding', 'color', 'background-color', 'background-image', 'font-size', 'font-weight', 'line-height', 'border', 'border-radius', 'box-shadow', 'grid-template-columns', 'gap', 'opacity', 'visibility'];
    return [...document.body.querySelectorAll('*')].map((el) => {
      const style = getComputedStyle(el);
      return `${el.tagName}.${el.className}: ${properties.map((p) => style.getPropertyValue(p)).join(' | ')}`;
    });
  });
}

// Each page inlines only the CSS its markup uses; the full stylesheet is applied later, when an
// island hydrates. Applying it must change nothing the visitor already sees.
for (const [path, width] of [['/', 1280], ['/', 390], ['/de/contact', 390], ['/fr/confidentialite', 1280], ['/it/about', 390], ['/nl/no-such-page', 1280]] as const) {
  test(`the inlined CSS alone renders ${path} at ${width} px exactly as the full stylesheet does`, async ({ browser, url }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(url(path));
    await page.waitForLoadState('networkidle');
    await animationsSettled(page);
    const deferred = page.locator('link[data-island-css]');
    await expect(deferred).toHaveAttribute('media', 'not all');
    const inlineOnly = await computedStyles(page);
    await deferred.evaluate((link: HTMLLinkElement) => (link.media = 'all'));
    await page.waitForFunction(() => [...document.styleSheets].some((s) => s.href?.includes('/assets/styles.') && s.media.mediaText === 'all'));
    expect(await computedStyles(page)).toEqual(inlineOnly);
    await context.close();
  });
}

test('the full stylesheet is applied once an island starts to hydrate', async ({ page, url }) => {
  await page.goto(url('/about'));
  await expect(page.locator('link[data-island-css]')).toHaveAttribute('media', 'not all');
  await page.locator('[data-menu=language]').hover();
  await expect(page.locator('link[data-island-css]')).toHaveAttribute('media', 'all');
});
