import { axeViolations, expect, hydrateForm, test } from './fixtures.ts';

const PAGES = ['/', '/contact', '/legal-notice', '/de', '/de/contact', '/de/impressum'];

for (const path of PAGES) {
  test(`axe finds no WCAG A/AA violations on ${path}`, async ({ page, url }) => {
    await page.goto(url(path));
    expect(await axeViolations(page)).toEqual([]);
  });
}

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
