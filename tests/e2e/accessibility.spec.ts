import { axeViolations, expect, hydrateForm, test } from './support/fixtures.ts';

// axe on every page in every language, with the overflow check in the same visit, is
// tests/e2e/page-checks.spec.ts; here: the states a page reaches only through a visitor's actions.

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  for (const path of ['/fr', '/fr/about', '/fr/contact', '/fr/confidentialite']) {
    test(`axe finds no violations on ${path} with the small-screen menu open`, async ({ page, url }) => {
      await page.goto(url(path));
      await page.locator('[data-menu=mobile] summary, [data-menu=mobile] button').first().tap();
      await expect(page.locator('[data-menu=mobile] a').first()).toBeVisible();
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

  test('menus open without transitions', async ({ page, url }) => {
    await page.goto(url('/'));
    const durations = await page.evaluate(() =>
      [...document.querySelectorAll('[data-menu] *')].map((el) => getComputedStyle(el).transitionDuration).filter((d) => d !== '0s'),
    );
    expect(durations).toEqual([]);
  });
});

for (const path of ['/', '/de/contact']) {
  test(`every element reached with Tab on ${path} shows where the focus is`, async ({ page, url }) => {
    await page.goto(url(path));
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
        const ring = style.boxShadow !== 'none';
        const rect = el.getBoundingClientRect();
        return { name: `${el.tagName.toLowerCase()}#${el.id} ${el.textContent?.trim().slice(0, 30) ?? ''}`, visible: outline || ring, onScreen: rect.width > 0 && rect.height > 0 };
      });
      if (!focus) break;
      seen.add(focus.name);
      expect(focus.visible, `focus indicator on ${focus.name}`).toBe(true);
      expect(focus.onScreen, `${focus.name} is on screen while focused`).toBe(true);
    }
    expect(seen.size).toBeGreaterThan(10);
  });
}
