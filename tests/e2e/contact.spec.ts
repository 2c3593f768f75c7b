import { expect, hydrateForm, receivedMail, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion as question, fillContact } from './support/forms.ts';

test('a wrong captcha answer shows the translated toast and sends nothing', async ({ page, url }) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  await page.goto(url('/fr/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('wrong'), country: 'fr' });
  const { a, b } = await question(page);
  await form.locator('[name=answer]').fill(String(a + b + 1));
  await form.getByRole('button', { name: 'Envoyer le message' }).click();
  const toast = page.locator('[data-toast=destructive]');
  await expect(toast).toContainText('Erreur de vérification');
  await expect(form.locator('[name=firstName]')).toHaveValue('Marie');
  expect(posts).toEqual([]);
});

test('a message is stored, emailed to sales, and the form is cleared with a new question', async ({ page, url }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('marie');
  await page.goto(url('/de/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'pl' });
  await form.locator('[name=companyName]').fill('Radium Labs');
  const first = await question(page);
  await form.locator('[name=answer]').fill(String(first.a + first.b));
  const captchaRequest = page.waitForRequest((r) => r.url().endsWith('/api/captcha'));
  await form.getByRole('button').click();
  await expect(page.locator('[data-toast=default]')).toContainText('Nachricht gesendet');
  await captchaRequest;
  for (const field of ['firstName', 'lastName', 'email', 'phone', 'companyName', 'message', 'answer']) {
    await expect(form.locator(`[name=${field}]`)).toHaveValue('');
  }
  await expect(form.locator('[name=country]')).toHaveValue('');
  await expect(page.locator('[data-captcha]')).not.toHaveAttribute('data-captcha', 'pending');

  const stored = rows<Record<string, unknown>>('SELECT * FROM contacts WHERE email = ?', email);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ first_name: 'Marie', last_name: 'Curie', country: 'pl', phone: null, company_name: 'Radium Labs', lang: 'de' });
  await expect.poll(() => receivedMail().filter((m) => m.includes(email)).length, { timeout: 20_000 }).toBe(1);
  const mail = receivedMail().find((m) => m.includes(email))!;
  expect(mail).toMatch(/^Reply-To: .*marie/im);
  expect(mail).toContain('Radium Labs');
  expect(problems).toEqual([]);
});

test('a server failure shows "Error" and keeps every field', async ({ page, url }) => {
  const email = uniqueEmail('fail');
  await page.goto(url('/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'es' });
  const { a, b } = await question(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"down"}}' }),
  );
  await form.getByRole('button').click();
  await expect(page.locator('[data-toast=destructive]')).toContainText('An error occurred while submitting the form. Please try again.');
  await expect(form.locator('[name=email]')).toHaveValue(email);
  await expect(form.locator('[name=country]')).toHaveValue('es');
  await expect(form.locator('[name=answer]')).toHaveValue(String(a + b));
  expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toHaveLength(0);
});

test('the country list is in the page language, sorted for it, with flags and lower-case codes', async ({ page, url }) => {
  await page.goto(url('/de/contact'));
  const options = page.locator('select[name=country] option');
  expect(await options.count()).toBeGreaterThan(240);
  await expect(options.first()).toHaveText('Land auswählen');
  await expect(page.locator('select[name=country] option[value=de]')).toHaveText('Deutschland 🇩🇪');
  const labels = (await options.allTextContents()).slice(1).map((l) => l.replace(/\s\S+$/, ''));
  expect(labels).toEqual([...labels].sort(new Intl.Collator('de').compare));
});
