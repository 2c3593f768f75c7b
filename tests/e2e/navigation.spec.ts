import { LANGUAGES, NATIVE_NAMES } from '../../cli/site/languages.ts';
import { pathFor } from '../../cli/site/routes.ts';
import { axeViolations, expect, test, watchConsole } from './support/fixtures.ts';

test('the language menu leads to the same page in the chosen language', async ({ page, url }) => {
  const problems = watchConsole(page);
  await page.goto(url('/de/datenschutz'));
  const menu = page.locator('[data-menu=language]');
  await menu.hover();
  await expect(menu.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
  await menu.getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(url('/fr/confidentialite'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect(problems).toEqual([]);
});

test('an industry page added as Markdown opens from the header\'s Solutions; its language menu leads to its translations', async ({ page, url }) => {
  const problems = watchConsole(page);
  await page.goto(url('/about'));
  await page.locator('header nav').getByRole('link', { name: 'Solutions' }).click();
  await expect(page).toHaveURL(url('/solutions'));
  await page.locator('main').getByRole('link', { name: 'Healthcare' }).click();
  await expect(page).toHaveURL(url('/healthcare'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data masking for healthcare');
  expect(await axeViolations(page)).toEqual([]);
  const menu = page.locator('[data-menu=language]');
  await menu.hover();
  await menu.getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(url('/es/sanidad'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enmascaramiento de datos para el sector sanitario');
  await menu.hover();
  await menu.getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(url('/fr/sante'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Masquage des données pour le secteur de la santé');
  expect(problems).toEqual([]);
});

test('without JavaScript the language menu still reaches every language', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('/about'));
  await page.locator('[data-menu=language] summary').click();
  await page.getByRole('link', { name: 'Nederlands' }).click();
  await expect(page).toHaveURL(url('/nl/about'));
  await context.close();
});

test('the home page downloads no JavaScript until a menu is touched or a form is near', async ({ page, url }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(url('/'));
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([]);
  await page.locator('[data-menu=language]').hover();
  await expect.poll(() => scripts.some((s) => s.includes('/LanguageMenu.'))).toBe(true);
  expect(scripts.some((s) => s.includes('/NewsletterForm.'))).toBe(false);
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the menu button opens the navigation, Escape closes it and returns focus', async ({ page, url }) => {
    const problems = watchConsole(page);
    await page.goto(url('/es/about'));
    await expect(page.locator('header nav').first()).toBeHidden();
    const menu = page.locator('[data-menu=mobile]');
    await menu.locator('summary, button').first().tap();
    await expect(menu.getByRole('link', { name: 'Contacto' })).toBeVisible();
    // The phone menu's one filled action asks for a demo; the newsletter is one of its links.
    const demo = menu.getByRole('link', { name: 'Solicitar demo' });
    await expect(demo).toHaveAttribute('href', '/es/contact/demo?from=/es/about#contact-form');
    // One primary colour: the banner's contact-sales button's.
    await expect(demo).toHaveCSS('background-color', await page.locator('main a[href*="/contact/sales"]').first().evaluate((a) => getComputedStyle(a).backgroundColor));
    await expect(menu.getByRole('link', { name: 'Boletín' })).toHaveAttribute('href', '/es#newsletter');
    const button = menu.getByRole('button');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
    await expect(menu.getByRole('link', { name: 'Contacto' })).toBeHidden();
    await button.tap();
    await menu.getByRole('link', { name: 'Contacto' }).tap();
    await expect(page).toHaveURL(url('/es/contact'));
    expect(problems).toEqual([]);
  });
});

test('an unknown address shows a friendly 404 page in its language, status 404, with the way onward', async ({ page, url }) => {
  const problems = watchConsole(page);
  const response = await page.goto(url('/fr/page-disparue'));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page introuvable');
  await expect(page.locator('main')).toContainText('Vérifiez l’adresse');
  const onward = page.getByRole('navigation', { name: 'Pages principales' });
  await expect(onward.getByRole('link')).toHaveText(['Qui sommes-nous', 'Contact', 'Politique de confidentialité', 'Mentions légales']);
  await onward.getByRole('link', { name: 'Qui sommes-nous' }).click();
  await expect(page).toHaveURL(url('/fr/about'));
  expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
});

test('"Schedule a demo" and "Contact sales" on the home page lead to the contact form of their reason, not the newsletter', async ({ page, url }) => {
  await page.goto(url('/'));
  for (const [name, intent] of [['Schedule a demo', 'demo'], ['Contact sales', 'sales']] as const) {
    await page.getByRole('link', { name }).first().click();
    await expect(page).toHaveURL(url(`/contact/${intent}?from=/#contact-form`));
    await expect(page.locator('#contact-form')).toBeInViewport();
    await page.goBack();
  }
  // The sign-up link still leads to the newsletter section.
  await expect(page.locator('a[href="#newsletter"]').first()).toBeAttached();
});

test('regression: the language menu\'s accessible name begins with the code it shows, in every language, before and after its script loads (WCAG 2.5.3 Label in Name: it showed "EN" and was named "Language: English")', async ({ page, url }) => {
  for (const lang of LANGUAGES) {
    const code = lang.toUpperCase();
    await page.goto(url(pathFor('home', lang)));
    const menu = page.locator('[data-menu=language]');
    const plain = menu.locator('summary');
    await expect(plain).toHaveText(code);
    await expect(plain).toHaveAccessibleName(new RegExp(`^${code} – .*${NATIVE_NAMES[lang]}$`));
    await menu.hover();
    const button = menu.getByRole('button', { name: code });
    await expect(button).toHaveText(code);
    await expect(button).toHaveAccessibleName(new RegExp(`^${code} – .*${NATIVE_NAMES[lang]}$`));
  }
});
