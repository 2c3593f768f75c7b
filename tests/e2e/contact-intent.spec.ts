import { expect, hydrateForm, receivedMail, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion, fillContact } from './support/forms.ts';
import { mailsTo } from './support/mailbox.ts';

// A message keeps its reason and the page it came from, with JavaScript and without (issue 39):
// "Schedule a demo" and "Contact sales" lead to /contact/demo and /contact/sales, whose forms have
// that reason selected in the page itself, and their links name the page they were on (?from=).

test('a demo request from the home page reaches sales as one, with the page it came from', async ({ page, url }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('demo');
  await page.goto(url('/de'));
  await page.locator('main').getByRole('link', { name: 'Demo vereinbaren' }).click();
  await expect(page).toHaveURL(url('/de/contact/demo?from=/de#contact-form'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Demo anfragen');
  await hydrateForm(page, 'contact');
  const form = page.locator('form[data-form=contact]');
  await expect(form.getByLabel('Worum geht es in Ihrer Nachricht?')).toHaveValue('demo');
  await fillContact(page, { email, country: 'at' });
  await form.locator('[name=phone]').fill('+43 1 234 56 78');
  const { a, b } = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button', { name: 'Nachricht senden' }).click();

  // The note says what happens next and holds the focus; the success toast beside it.
  const sent = page.locator('[data-contact=sent]');
  await expect(sent.getByRole('heading', { name: 'Vielen Dank, Ihre Nachricht ist bei uns eingegangen' })).toBeFocused();
  await expect(page.locator('[data-toast=default]')).toContainText('Nachricht gesendet');

  expect(rows('SELECT intent, source_page, lang FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'demo', source_page: '/de', lang: 'de' }]);
  await expect.poll(() => receivedMail().filter((m) => m.includes(email)).length, { timeout: 20_000 }).toBe(1);
  const mail = receivedMail().find((m) => m.includes(email))!;
  expect(mail).toMatch(/^Subject: .*Demo_request_from_Marie_Curie|^Subject: Demo request from Marie Curie/m);
  expect(mail).toMatch(/^Sent from: https?:\/\/[^/\s]+\/de$/m);
  expect(mail).toContain('Country: Austria (at)');
  expect(mail).toMatch(/href=3D"tel:\+4312345678"|href="tel:\+4312345678"/);
  expect(problems).toEqual([]);
});

test('without JavaScript, a demo request from the home page\'s button keeps its reason and its page, untouched reason control and all', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const email = uniqueEmail('nojs-demo');
  await page.goto(url('/es'));
  await page.locator('main').getByRole('link', { name: 'Solicitar una demostración' }).click();
  await expect(page).toHaveURL(url('/es/contact/demo?from=/es#contact-form'));
  const form = await fillContact(page, { email, country: 'es', message: '¿Podemos ver una demostración?' });
  await form.getByRole('button').click();
  expect(new URL(page.url()).pathname).toBe('/es/contact/check-inbox');
  expect(rows('SELECT intent, source_page FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'demo', source_page: '/es' }]);

  // The sender confirms the address; then sales gets a demo request naming the home page.
  await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBe(1);
  const link = new URL(mailsTo(email)[0]!.text.match(/https?:\/\/\S+\/es\/contact\/confirm\?token=\S+/)![0]);
  await page.goto(url(`${link.pathname}${link.search}`));
  await page.locator('form[method=post]').getByRole('button').click();
  expect(new URL(page.url()).pathname).toBe('/es/contact/confirmed');
  const salesMail = () => mailsTo('sales@example.com').find((mail) => mail.header('reply-to')?.toLowerCase().includes(email.toLowerCase()));
  await expect.poll(() => salesMail() !== undefined, { timeout: 20_000 }).toBe(true);
  expect(salesMail()!.header('subject')).toMatch(/^Demo request from Marie Curie/);
  expect(salesMail()!.text).toMatch(/\/es\s*$/m);
  await context.close();
});

test('the contact-sales button of the about page opens the sales page, its form writing to sales', async ({ page, url }) => {
  await page.goto(url('/it/about'));
  await page.locator('main').getByRole('link', { name: 'Contatti il team commerciale' }).click();
  await expect(page).toHaveURL(url('/it/contact/sales?from=/it/about#contact-form'));
  await hydrateForm(page, 'contact');
  await expect(page.locator('form[data-form=contact] [name=intent]')).toHaveValue('sales');
});

test('a general message sent from the footer link keeps the page it came from; a foreign from is ignored', async ({ page, url }) => {
  const email = uniqueEmail('footer');
  await page.goto(url('/nl/privacy'));
  await page.locator('footer').getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL(url('/nl/contact?from=/nl/privacy#contact-form'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'nl' });
  await expect(form.locator('[name=intent]')).toHaveValue('general');
  const { a, b } = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button').click();
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT intent, source_page FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'general', source_page: '/nl/privacy' }]);

  const other = uniqueEmail('foreign-from');
  await page.goto(url('/nl/contact?from=https://evil.example/'));
  await hydrateForm(page, 'contact');
  await fillContact(page, { email: other, country: 'nl' });
  const next = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(next.a + next.b));
  await form.getByRole('button').click();
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT source_page FROM contacts WHERE email = ?', other)).toEqual([{ source_page: null }]);
});

test('without JavaScript the reason control is there to change on every contact page', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('/es/contact#contact-form'));
  const reason = page.getByLabel('¿En qué podemos ayudarle?');
  await expect(reason).toHaveValue('general');
  await reason.selectOption({ label: 'Solicitar una demostración' });
  await expect(reason).toHaveValue('demo');
  await page.goto(url('/es/contact/sales'));
  await expect(page.getByLabel('¿En qué podemos ayudarle?')).toHaveValue('sales');
  await context.close();
});

test('a wrong captcha answer, then a correct send: one toast, the success one; the fields emptied; a new question', async ({ page, url }) => {
  let questionsAsked = 0;
  page.on('request', (request) => new URL(request.url()).pathname.endsWith('/captcha') && questionsAsked++);
  await page.goto(url('/fr/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('wrong-then-right'), country: 'fr' });
  const first = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(first.a + first.b + 1));
  await form.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.locator('[data-toast=destructive]')).toContainText('Erreur de vérification');

  const second = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(second.a + second.b));
  const askedBefore = questionsAsked;
  await form.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.locator('[data-toast=default]')).toContainText('Message envoyé');
  await expect(page.locator('[data-toast]')).toHaveCount(1);
  for (const field of ['firstName', 'lastName', 'email', 'message']) await expect(form.locator(`[name=${field}]`)).toHaveValue('');
  await expect(form.locator('[name=country]')).toHaveValue('');
  // A new question: asked of the service once more, shown with an empty answer field.
  await expect.poll(() => questionsAsked).toBe(askedBefore + 1);
  await captchaQuestion(page);
  await expect(form.locator('[name=answer]')).toHaveValue('');
});

test('a wrong captcha answer marks the new question invalid with the reason and moves the focus there', async ({ page, url }) => {
  await page.goto(url('/fr/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email: uniqueEmail('captcha'), country: 'fr' });
  const first = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(first.a + first.b + 1));
  await form.getByRole('button', { name: 'Envoyer le message' }).click();
  const answer = form.locator('#contact-answer');
  await expect(answer).toBeFocused();
  await expect(answer).toHaveAttribute('aria-invalid', 'true');
  await expect(answer).toHaveAccessibleDescription(/La réponse à la question de sécurité est incorrecte\. Veuillez réessayer\./);
  await expect(form.locator('#contact-answer-error')).toHaveText('La réponse à la question de sécurité est incorrecte. Veuillez réessayer.');
  // Typing a new answer clears the mark.
  await answer.fill('1');
  await expect(answer).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('#contact-answer-error')).toBeEmpty();
});
