import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';

/** The relative luminance (WCAG) of a computed `rgb(…)`/`rgba(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The colour an element's text is painted on: the first opaque background among it and its ancestors. */
function backgroundBehind(locator: Locator): Promise<string> {
  return locator.evaluate((element) => {
    for (let el: Element | null = element; el; el = el.parentElement) {
      const background = getComputedStyle(el).backgroundColor;
      if (background !== 'rgba(0, 0, 0, 0)' && background !== 'transparent') return background;
    }
    return 'rgb(255, 255, 255)';
  });
}

/** What a link prints after its text (its `::after` content). */
const printedAfter = (link: Locator) => link.evaluate((a) => getComputedStyle(a, '::after').content);

/** Checks the privacy policy as printed: dark title on white, no navigation, link targets after the links. */
async function expectPrintable(page: Page): Promise<void> {
  const title = page.getByRole('heading', { level: 1 });
  expect(luminance(await title.evaluate((h) => getComputedStyle(h).color)), 'the title is dark').toBeLessThan(0.05);
  expect(await backgroundBehind(title), 'on white').toBe('rgb(255, 255, 255)');
  expect(luminance(await page.locator('main article p').first().evaluate((p) => getComputedStyle(p).color))).toBeLessThan(0.05);
  for (const hidden of ['body > header', 'body > footer', 'body > a[href="#main"]', '[data-island]', 'nav[aria-labelledby=toc-title]']) {
    for (const element of await page.locator(hidden).all()) await expect(element, hidden).toBeHidden();
  }
  const origin = new URL((await page.locator('link[rel=canonical]').getAttribute('href'))!).origin;
  expect(await printedAfter(page.locator('main article a[href="/cookies"]').first())).toBe(`" (${origin}/cookies)"`);
  expect(await printedAfter(page.locator('main article a[href="https://www.aepd.es"]').first())).toBe('" (https://www.aepd.es)"');
  expect(await printedAfter(page.locator('main article a[href^="mailto:"]').first()), 'an address shows itself').toBe('none');
  expect(await title.evaluate((h) => getComputedStyle(h).breakAfter)).toBe('avoid');
}

test('the privacy policy prints dark on white, without header, footer, menus or contents list, each link\'s target after it', async ({ page, url }) => {
  await page.emulateMedia({ media: 'print' });
  await page.goto(url('/privacy'));
  // No island has hydrated: the page has only its inline critical CSS, as a visitor printing at once.
  await expect(page.locator('link[data-island-css]')).toHaveAttribute('media', 'not all');
  await expectPrintable(page);
  // With the full stylesheet applied (after a menu was touched) the page prints the same.
  await page.locator('link[data-island-css]').evaluate((link: HTMLLinkElement) => (link.media = 'all'));
  await page.waitForFunction(() => [...document.styleSheets].some((s) => s.href?.includes('/assets/styles.') && s.media.mediaText === 'all'));
  await expectPrintable(page);
});

test('on screen the privacy policy keeps its white title on the dark band, and prints no link targets', async ({ page, url }) => {
  await page.goto(url('/privacy'));
  const title = page.getByRole('heading', { level: 1 });
  expect(luminance(await title.evaluate((h) => getComputedStyle(h).color))).toBeGreaterThan(0.9);
  expect(luminance(await backgroundBehind(title))).toBeLessThan(0.05);
  await expect(page.locator('body > header')).toBeVisible();
  expect(await printedAfter(page.locator('main article a[href="/cookies"]').first())).toBe('none');
});
