/**
 * The home page's sections, length and grid: the specification's overview (six cards and the "why"
 * block) and feature grid (six cards keyed gdpr, hipaa, obfuscation, scalable, sync, audit) in every
 * language, all there at once with reduced motion (issue 39); at 390 px it was 11,194 px tall in
 * English and 12,059 px in German before issue 23, the call-to-action banner stood wider than the
 * content grid (x 64–1216 against 96–1184 at 1280 px), and the healthcare page's text column did
 * not start where its heading does.
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

/** The cards of a section grouped into rows by their top edge: the number in each row. */
async function cardRows(page: Page, section: string): Promise<number[]> {
  const tops = await page.locator(`#${section} article`).evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
  const rows = new Map<number, number>();
  for (const top of tops) rows.set(top, (rows.get(top) ?? 0) + 1);
  return [...rows.values()];
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
    test(`${lang}: the overview's six cards and "why" block and the feature grid's six cards show, on the content grid`, async ({ page, url }) => {
      await page.goto(url(home(lang)));
      await animationsSettled(page);
      const overview = page.locator('#overview');
      await expect(overview.locator('article')).toHaveCount(6);
      expect(await overview.locator('article').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card')))).toEqual(
        ['security', 'compliance', 'deployment', 'admin', 'architecture', 'compatibility'],
      );
      for (const card of await overview.locator('article').all()) await expect(card.getByRole('heading', { level: 3 })).toBeVisible();
      await expect(overview.locator('[data-block=why]').getByRole('heading', { level: 3 })).toBeVisible();
      await expect(overview.locator('[data-block=why] li')).toHaveCount(3);
      expect(await page.locator('#features article').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card')))).toEqual(
        ['gdpr', 'hipaa', 'obfuscation', 'scalable', 'sync', 'audit'],
      );
      // Two full rows of three overview cards, three rows of two feature cards.
      expect(await cardRows(page, 'overview')).toEqual([3, 3]);
      expect(await cardRows(page, 'features')).toEqual([2, 2, 2]);
      const grid = await contentEdges(page, '#overview > div');
      expect(await contentEdges(page, '#features > div')).toEqual(grid);
      expect(await edges(page, 'section[aria-labelledby=cta-title] > div')).toEqual(grid);
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

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const lang of LANGUAGES) {
    test(`${lang}: the hero's parts and every card are in place at once, nothing moving`, async ({ page, url }) => {
      await page.goto(url(home(lang)));
      const moving = page.locator('[data-hero-part], #overview article, #features article');
      await expect(moving).toHaveCount(15);
      const states = await moving.evaluateAll((elements) => elements.map((el) => [getComputedStyle(el).animationName, getComputedStyle(el).transform, getComputedStyle(el).opacity]));
      expect(states).toEqual(Array(15).fill(['none', 'none', '1']));
    });
  }
});
