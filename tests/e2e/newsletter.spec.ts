import { expect, hydrateForm, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { fillNewsletter } from './support/forms.ts';

test('shows translated field errors before sending anything', async ({ page, url }) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  await page.goto(url('/it'));
  await hydrateForm(page, 'newsletter');
  const form = page.locator('form[data-form=newsletter]');
  await form.locator('input[name=email]').fill('not-an-email');
  await form.getByRole('button').click();
  await expect(form.locator('#newsletter-name-error')).toHaveText('Questo campo è obbligatorio.');
  await expect(form.locator('#newsletter-email-error')).not.toBeEmpty();
  await expect(form.locator('input[name=name]')).toBeFocused();
  await expect(form.locator('input[name=name]')).toHaveAttribute('aria-invalid', 'true');
  expect(posts).toEqual([]);
});

test('a signup shows the thank-you panel and stores the row with consent proof', async ({ page, url }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('ada');
  await page.goto(url('/'));
  await hydrateForm(page, 'newsletter');
  const form = await fillNewsletter(page, 'Ada Lovelace', email);
  await form.locator('input[name=marketingConsent]').check();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/newsletter', async (route) => {
    await held;
    await route.continue();
  });
  await form.getByRole('button').click();
  await expect(form.getByRole('button')).toBeDisabled();
  await expect(form.getByRole('button')).toHaveText('Submitting...');
  release();
  await expect(page.locator('[data-newsletter=success]')).toContainText('You have successfully subscribed to our newsletter.');
  const stored = rows<{ name: string; marketing_consent: number; lang: string }>('SELECT * FROM newsletter WHERE email = ?', email);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ name: 'Ada Lovelace', lang: 'en' });
  expect(Boolean(stored[0]!.marketing_consent)).toBe(true);
  expect(problems).toEqual([]);
});

for (const [lang, text] of [
  ['es', 'Este correo electrónico ya está registrado.'],
  ['de', 'Diese E-Mail-Adresse ist bereits registriert.'],
] as const) {
  test(`a duplicate address shows the translated toast in ${lang} and keeps the form`, async ({ page, url }) => {
    const email = uniqueEmail(`dup-${lang}`);
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.goto(url(`/${lang}`));
      await hydrateForm(page, 'newsletter');
      await fillNewsletter(page, 'Grace', email);
      await page.locator('form[data-form=newsletter]').getByRole('button').click();
      if (attempt === 0) await expect(page.locator('[data-newsletter=success]')).toBeVisible();
    }
    const toast = page.locator('[data-toast=destructive]');
    await expect(toast).toContainText(text);
    await expect(page.getByRole('alert')).toContainText(text);
    await expect(page.locator('form[data-form=newsletter] input[name=email]')).toHaveValue(email);
    await toast.getByRole('button').click();
    await expect(toast).toHaveCount(0);
    expect(rows('SELECT id FROM newsletter WHERE email = ?', email)).toHaveLength(1);
  });
}

test('a network failure shows "Subscription Error" and keeps every value', async ({ page, url }) => {
  const email = uniqueEmail('offline');
  await page.goto(url('/'));
  await hydrateForm(page, 'newsletter');
  const form = await fillNewsletter(page, 'Offline Olga', email);
  await page.route('**/api/newsletter', (route) => route.abort('internetdisconnected'));
  await form.getByRole('button').click();
  await expect(page.locator('[data-toast=destructive]')).toContainText('Subscription Error');
  await expect(form.locator('input[name=name]')).toHaveValue('Offline Olga');
  await expect(form.locator('input[name=email]')).toHaveValue(email);
  await expect(form.locator('input[name=privacyConsent]')).toBeChecked();
  await expect(form.getByRole('button')).toBeEnabled();
  expect(rows('SELECT id FROM newsletter WHERE email = ?', email)).toHaveLength(0);
});
