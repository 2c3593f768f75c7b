import { expect, hydrateForm, receivedMail, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion as question, fillContact } from './support/forms.ts';

test('a wrong captcha answer shows the translated toast, sends nothing and asks a new question', async ({ page, url }) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  await page.goto(url('/fr/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('wrong'), country: 'fr' });
  const { a, b } = await question(page);
  await form.locator('[name=answer]').fill(String(a + b + 1));
  const nextQuestion = page.waitForRequest((r) => r.url().endsWith('/api/captcha'));
  await form.getByRole('button', { name: 'Envoyer le message' }).click();
  const toast = page.locator('[data-toast=destructive]');
  await expect(toast).toContainText('Erreur de vérification');
  await nextQuestion;
  await expect(page.locator('[data-captcha]')).not.toHaveAttribute('data-captcha', 'pending');
  await expect(form.locator('[name=answer]')).toHaveValue('');
  await expect(form.locator('[name=firstName]')).toHaveValue('Marie');
  expect(posts).toEqual([]);
});

test('an answer the service refuses gets the translated message and a new question, which goes through', async ({ page, url }) => {
  const email = uniqueEmail('refused');
  await page.goto(url('/nl/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'nl' });
  const first = await question(page);
  await form.locator('[name=answer]').fill(String(first.a + first.b));
  // What a bot's wrong guess looks like to the service: the same token with another answer.
  await page.route('**/api/contact', async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as { captcha: { answer: number } };
    body.captcha.answer = (body.captcha.answer + 1) % 19;
    await route.continue({ postData: JSON.stringify(body) });
  }, { times: 1 });
  const nextQuestion = page.waitForRequest((r) => r.url().endsWith('/api/captcha'));
  await form.getByRole('button').click();
  await expect(page.locator('[data-toast=destructive]')).toContainText('Het antwoord op de beveiligingsvraag is onjuist.');
  await nextQuestion;
  await expect(form.locator('[name=answer]')).toHaveValue('');
  await expect(form.locator('[name=email]')).toHaveValue(email);
  const second = await question(page);
  await form.locator('[name=answer]').fill(String(second.a + second.b));
  await form.getByRole('button').click();
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toHaveLength(1);
});

test('regression: a question that fails to load is fetched again, and after every try fails the box says so and offers to try again', async ({ page, url }) => {
  // The CI run where one question never came: the form waited on "Loading…" for good.
  let failures = 1;
  await page.route('**/api/captcha', (route) => (failures-- > 0 ? route.abort('connectionreset') : route.continue()));
  await page.goto(url('/de/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('unloaded'), country: 'de' });
  await expect(form.locator('[name=answer]')).toBeVisible();

  // Every try fails: after the retries the visitor is told, in German, and can ask again.
  failures = Infinity;
  await form.locator('[name=answer]').fill('99');
  await form.getByRole('button', { name: 'Nachricht senden' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Die Sicherheitsabfrage konnte nicht geladen werden.', { timeout: 15_000 });
  failures = 0;
  await alert.getByRole('button', { name: 'Erneut versuchen' }).click();
  await expect(form.locator('[name=answer]')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveCount(0);
});

test('regression: a post the service finds too quick says so in the visitor\'s language and asks a new question', async ({ page, url }) => {
  await page.goto(url('/it/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('hurried'), country: 'it' });
  const { a, b } = await question(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 422, contentType: 'application/json', body: '{"error":{"code":"captcha_too_fast","message":"too soon"}}' }),
  );
  const nextQuestion = page.waitForRequest((r) => r.url().endsWith('/api/captcha'));
  await form.getByRole('button').click();
  const toast = page.locator('[data-toast=destructive]');
  await expect(toast).toContainText('Errore di verifica');
  await expect(toast).toContainText('Il modulo è stato inviato troppo presto');
  await nextQuestion;
  await expect(form.locator('[name=answer]')).toHaveValue('');
  await expect(form.locator('[name=message]')).not.toHaveValue('');
});

test('regression: a visitor who answers a new question at once is held back until it is old enough, not refused', async ({ page, url }) => {
  const email = uniqueEmail('quick');
  // The service asks for 300 ms here (global-setup); this challenge says 1.5 s, so the wait shows.
  let issuedAt = 0;
  await page.route('**/api/captcha', async (route) => {
    const response = await route.fetch();
    issuedAt = Date.now();
    await route.fulfill({ response, json: { ...(await response.json()), minFillMs: 1500 } });
  });
  await page.goto(url('/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'gb' });
  // A mistyped answer brings a new question, which the visitor answers right away.
  const first = await question(page);
  await form.locator('[name=answer]').fill(String(first.a + first.b + 1));
  const nextQuestion = page.waitForResponse((r) => r.url().endsWith('/api/captcha'));
  await form.getByRole('button').click();
  await nextQuestion;
  const { a, b } = await question(page);
  const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/contact'));
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button').click();
  await expect(form.getByRole('button')).toHaveText('Sending…');
  await posted;
  expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(1400);
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toHaveLength(1);
  // The form asks its next question through the handler above; the page must not close under it.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
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
  await expect(page.locator('[data-contact=sent]')).toContainText('Vielen Dank, Ihre Nachricht ist bei uns eingegangen');
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

test('the country list is in the page language, sorted for it, with lower-case codes', async ({ page, url }) => {
  await page.goto(url('/de/contact'));
  const options = page.locator('select[name=country] option');
  expect(await options.count()).toBeGreaterThan(240);
  await expect(options.first()).toHaveText('Land auswählen');
  await expect(page.locator('select[name=country] option[value=de]')).toHaveText('Deutschland');
  const labels = (await options.allTextContents()).slice(1);
  expect(labels).toEqual([...labels].sort(new Intl.Collator('de').compare));
});
