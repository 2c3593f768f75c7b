import { LANGUAGES } from '../../cli/languages.ts';
import { allRoutes } from '../../cli/routes.ts';
import { axeViolations, expect, hydrateForm, test } from './fixtures.ts';

// Every page type in every language, from the routes table, plus each language's 404 page.
const PAGES = [...allRoutes().map((r) => r.path), ...LANGUAGES.map((l) => (l === 'en' ? '/no-such-page' : `/${l}/no-such-page`))];

for (const path of PAGES) {
  test(`axe finds no WCAG A/AA violations on ${path}`, async ({ page, url }) => {
    await page.goto(url(path));
    expect(await axeViolations(page)).toEqual([]);
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  for (const path of ['/fr', '/fr/about', '/fr/contact', '/fr/confidentialite']) {
    test(`axe finds no violations on ${path} with the small-screen menu open`, async ({ page, url }) => {
      await page.goto(url(path));
      await page.locator('[data-menu=mobile] summary, [data-menu=mobile] button').first().tap();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test('axe finds no violations on the hydrated forms with their errors and toast showing', async ({ page, url }) => {
  await page.goto(url('/de/contact'));
  await hydrateForm(page, 'contact');
  await page.locator('form[data-form=contact]').getByRole('button').click();
  await expect(page.locator('#contact-firstName-error')).not.toBeEmpty();
  expect(await axeViolations(page)).toEqual([]);
});

test.describe('reduced motion', () => {
  test.use({ colorScheme: 'light', reducedMotion: 'reduce' });
  test('cards and headings do not animate', async ({ page, url }) => {
    await page.goto(url('/'));
    const animation = await page.locator('#features article').first().evaluate((el) => getComputedStyle(el).animationName);
    expect(animation).toBe('none');
  });
});
