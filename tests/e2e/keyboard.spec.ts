import type { Page } from '@playwright/test';
import { expect, rows, test, uniqueEmail } from './support/fixtures.ts';

/** Presses Tab until `selector` has focus (at most `limit` times); fails if it never does. */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.locator(selector).evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('the newsletter form can be completed with the keyboard alone', async ({ page, url }) => {
  const email = uniqueEmail('keys');
  await page.goto(url('/nl'));
  // Reaching the form starts its hydration; the keys typed at once are kept through it
  // (hydration-typing.spec.ts types through hydration on a slowed-down CPU).
  await tabTo(page, '#newsletter-name');
  await page.keyboard.type('Keyboard Karel');
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.locator('form[data-form=newsletter] input[name=privacyConsent]')).toBeChecked();
  await tabTo(page, 'form[data-form=newsletter] button[type=submit]', 5);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-newsletter=success]')).toBeVisible();
  expect(rows('SELECT lang FROM newsletter WHERE email = ?', email)).toEqual([{ lang: 'nl' }]);
});

test('the contact form can be completed with the keyboard alone', async ({ page, url }) => {
  const email = uniqueEmail('keys');
  await page.goto(url('/pt/contact'));
  await tabTo(page, '#contact-firstName');
  await page.keyboard.type('Tecla');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Teclado');
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.locator('#contact-country')).toBeFocused();
  await page.keyboard.type('Portugal');
  await expect(page.locator('#contact-country')).toHaveValue('pt');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Precisamos de mascarar dados de clientes em MySQL.');
  const box = page.locator('[data-captcha]');
  await expect(box).not.toHaveAttribute('data-captcha', 'pending');
  const [a, b] = (await box.getAttribute('data-captcha'))!.split('+').map(Number);
  await page.keyboard.press('Tab');
  await expect(page.locator('#contact-answer')).toBeFocused();
  await page.keyboard.type(String(a! + b!));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  await expect(page.locator('#contact-firstName')).toHaveValue('');
  expect(rows('SELECT country, lang FROM contacts WHERE email = ?', email)).toEqual([{ country: 'pt', lang: 'pt' }]);
});

test('the skip link jumps to the main content', async ({ page, url }) => {
  await page.goto(url('/about'));
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
});

test('regression: what is typed before a form has hydrated is kept when the visitor goes on typing', async ({ page, url }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/islands/ContactForm.*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url('/es/contact'));
  await page.locator('#contact-firstName').focus();
  await page.keyboard.type('Rápida');
  await page.locator('#contact-country').selectOption('es');
  await page.locator('#contact-message').fill('Escribo antes de que el formulario esté listo.');
  release();
  await page.waitForFunction(() => Object.keys(document.querySelector('form[data-form=contact]') ?? {}).some((k) => k.startsWith('__react')));
  await page.locator('#contact-lastName').focus();
  await page.keyboard.type('Tecleadora');
  await page.locator('form[data-form=contact]').getByRole('button').click();
  await expect(page.locator('#contact-firstName')).toHaveValue('Rápida');
  await expect(page.locator('#contact-country')).toHaveValue('es');
  await expect(page.locator('#contact-message')).toHaveValue('Escribo antes de que el formulario esté listo.');
  await expect(page.locator('#contact-firstName-error')).toBeEmpty();
  await expect(page.locator('#contact-country-error')).toBeEmpty();
  await expect(page.locator('#contact-message-error')).toBeEmpty();
});

test('regression: Tab onto the language menu keeps the focus there when its script loads; it opens from the keyboard', async ({ page, url }) => {
  await page.goto(url('/about'));
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => !!document.activeElement?.closest('[data-menu=language]'))) break;
  }
  // Focusing the menu loads its script; the focus stays on the (now enhanced) menu button.
  await expect(page.locator('[data-menu=language] button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-menu=language] button')).toHaveAttribute('aria-expanded', 'true');
  const german = page.locator('[data-menu=language]').getByRole('link', { name: 'Deutsch' });
  for (let i = 0; i < 8 && !(await german.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(german).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(url('/de/about'));
});
