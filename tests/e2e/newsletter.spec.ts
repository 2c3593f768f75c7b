import { expect, hydrateForm, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { fillNewsletter } from './support/forms.ts';
import { confirmSubscription } from './support/newsletter-mail.ts';

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

test('a signup says to check the inbox for the confirmation link and stores the row, pending, with consent proof', async ({ page, url }) => {
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
  await expect(form.getByRole('button')).toHaveText('Submitting…');
  release();
  // The service confirms by mail (double opt-in, its default): the panel says so, with the address.
  const panel = page.locator('[data-newsletter=success]');
  await expect(panel).toHaveAttribute('data-next', 'confirm_email');
  await expect(panel.getByRole('heading')).toHaveText('Check your inbox');
  await expect(panel).toContainText(`We have sent a confirmation link to ${email}. Your subscription starts when you click it. The link is valid for 7 days.`);
  const stored = rows<{ name: string; marketing_consent: number; lang: string; status: string }>('SELECT * FROM newsletter WHERE email = ?', email);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ name: 'Ada Lovelace', lang: 'en', status: 'pending' });
  expect(Boolean(stored[0]!.marketing_consent)).toBe(true);
  expect(problems).toEqual([]);
});

test('a service that answers without `next` (single opt-in) gets the thank-you panel', async ({ page, url }) => {
  await page.goto(url('/de'));
  await hydrateForm(page, 'newsletter');
  const form = await fillNewsletter(page, 'Emmy', uniqueEmail('single'));
  await page.route('**/api/newsletter', (route) => route.fulfill({ status: 201, contentType: 'application/json', body: '{"ok":true}' }));
  await form.getByRole('button').click();
  const panel = page.locator('[data-newsletter=success]');
  await expect(panel.getByRole('heading')).toHaveText('Vielen Dank für Ihre Anmeldung!');
  await expect(panel).toContainText('Sie haben unseren Newsletter erfolgreich abonniert.');
  await expect(panel).not.toHaveAttribute('data-next');
});

for (const lang of ['es', 'de'] as const) {
  test(`a confirmed address signed up again in ${lang} gets the same "check your inbox" panel as a new one, and no toast`, async ({ page, url }) => {
    const email = uniqueEmail(`dup-${lang}`);
    for (let attempt = 0; attempt < 2; attempt++) {
      await page.goto(url(`/${lang}`));
      await hydrateForm(page, 'newsletter');
      await fillNewsletter(page, 'Grace', email);
      await page.locator('form[data-form=newsletter]').getByRole('button').click();
      // The service answers every address alike (its owner is told by mail), so the page cannot tell either.
      await expect(page.locator('[data-newsletter=success]')).toHaveAttribute('data-next', 'confirm_email');
      if (attempt === 0) await confirmSubscription(page.request, url('/api/newsletter/confirm'), email);
    }
    await expect(page.locator('[data-toast=destructive]')).toHaveCount(0);
    expect(rows('SELECT status FROM newsletter WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);
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
