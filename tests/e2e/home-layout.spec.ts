/**
 * The home page's length and grid (issue 23): at 390 px it was 11,194 px tall in English and
 * 12,059 px in German, the call-to-action banner stood wider than the content grid (x 64–1216
 * against 96–1184 at 1280 px), the regulation badges wrapped 2+1+1+1, and the healthcare page's
 * text column did not start where its heading does.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { LANGUAGES, type Lang } from '../../cli/site/languages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { animationsSettled, expect, test } from './support/fixtures.ts';

/** The tallest the home page may be on a phone, in CSS pixels. */
const MAX_PHONE_HEIGHT = 9_000;

/** The left and right edges of an element's content box (inside its padding), rounded to the pixel. */
async function contentEdges(page: Page, selector: string): Promise<[number, number]> {
  return page.locator(selector).first().evaluate((element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return [Math.round(box.left + parseFloat(style.paddingLeft)), Math.round(box.right - parseFloat(style.paddingRight))] as [number, number];
  });
}

/** The left and right edges of an element's border box. */
async function edges(page: Page, selector: string): Promise<[number, number]> {
  const box = (await page.locator(selector).first().boundingBox())!;
  return [Math.round(box.x), Math.round(box.x + box.width)];
}

/** The regulation badges grouped into rows by their top edge: the number in each row, and every badge's width. */
async function badgeRows(page: Page): Promise<{ rows: number[]; widths: number[] }> {
  const badges = page.getByRole('heading', { level: 2 }).nth(1).locator('xpath=following-sibling::ul[1]/li');
  const boxes = await badges.evaluateAll((items) => items.map((item) => item.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), width: Math.round(r.width) })));
  const rows = new Map<number, number>();
  for (const { top } of boxes) rows.set(top, (rows.get(top) ?? 0) + 1);
  return { rows: [...rows.values()], widths: boxes.map((b) => b.width) };
}

const home = (lang: Lang) => pathFor('home', lang);

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  for (const lang of LANGUAGES) {
    test(`${lang}: the home page is at most ${MAX_PHONE_HEIGHT.toLocaleString('en')} px tall`, async ({ page, url }) => {
      await page.goto(url(home(lang)));
      await page.evaluate(() => document.fonts.ready);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`[home height] ${lang} at 390 px: ${height} px`);
      expect(height).toBeLessThanOrEqual(MAX_PHONE_HEIGHT);
    });
  }
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const lang of LANGUAGES) {
    test(`${lang}: the banner spans the content grid, and the regulation badges make even rows of equal cells`, async ({ page, url }) => {
      await page.goto(url(home(lang)));
      await animationsSettled(page);
      const grid = await contentEdges(page, '#how-it-works > div');
      expect(await contentEdges(page, '#features > div')).toEqual(grid);
      expect(await edges(page, 'section[aria-labelledby=cta-title] > div')).toEqual(grid);

      const { rows, widths } = await badgeRows(page);
      expect(rows.reduce((a, b) => a + b)).toBe(5);
      // Every row full but the last, which holds at most one badge fewer: 2+2+1, never 2+1+1+1.
      expect(rows.slice(0, -1).every((count) => count === rows[0])).toBe(true);
      expect(rows[0]! - rows.at(-1)!).toBeLessThanOrEqual(1);
      expect(new Set(widths).size).toBe(1);
    });

    test(`${lang}: the healthcare page's text starts where its heading does, and ends without a second call to talk`, async ({ page, url }) => {
      const slug = /^slug: (.+)$/m.exec(readFileSync(join(PROJECT_ROOT, 'content/pages', lang, 'healthcare.md'), 'utf8'))![1]!;
      await page.goto(url(lang === 'en' ? `/${slug}` : `/${lang}/${slug}`));
      const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
      const firstParagraph = (await page.locator('main article p').first().boundingBox())!;
      expect(Math.round(firstParagraph.x)).toBe(Math.round(heading.x));
      // The banner is the page's one invitation to get in touch; the text no longer ends with its own.
      await expect(page.locator('main article a[href*="contact"]')).toHaveCount(0);
      await expect(page.locator('section[aria-labelledby=cta-title]')).toHaveCount(1);
      expect(await edges(page, 'section[aria-labelledby=cta-title] > div')).toEqual(await contentEdges(page, 'main > div:first-child > div'));
    });
  }
});
