import { expect, hydrateForm, receivedMail, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion, fillContact } from './support/forms.ts';

test('a demo request from the home page reaches sales as one, with the page it came from, and is confirmed in place', async ({ page, url }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('demo');
  await page.goto(url('/de'));
  await page.getByRole('link', { name: 'Demo vereinbaren' }).first().click();
  await expect(page).toHaveURL(url('/de/contact?intent=demo#contact-form'));
  await hydrateForm(page, 'contact');
  const form = page.locator('form[data-form=contact]');
  await expect(form.getByLabel('Worum geht es in Ihrer Nachricht?')).toHaveValue('demo');
  await fillContact(page, { email, country: 'at' });
  await form.locator('[name=phone]').fill('+43 1 234 56 78');
  const { a, b } = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button', { name: 'Nachricht senden' }).click();

  // The confirmation takes the form's place, says what happens next and holds the focus; no toast beside it.
  const sent = page.locator('[data-contact=sent]');
  await expect(sent.getByRole('heading', { name: 'Vielen Dank, Ihre Nachricht ist bei uns eingegangen' })).toBeFocused();
  await expect(sent).toContainText('innerhalb eines Werktags');
  await expect(form).toBeHidden();
  await expect(page.locator('[data-toast]')).toHaveCount(0);

  expect(rows('SELECT intent, source_page, lang FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'demo', source_page: '/de', lang: 'de' }]);
  await expect.poll(() => receivedMail().filter((m) => m.includes(email)).length, { timeout: 20_000 }).toBe(1);
  const mail = receivedMail().find((m) => m.includes(email))!;
  expect(mail).toMatch(/^Subject: .*Demo_request_from_Marie_Curie|^Subject: Demo request from Marie Curie/m);
  expect(mail).toMatch(/^Sent from: https?:\/\/[^/\s]+\/de$/m);
  expect(mail).toContain('Country: Austria (at)');
  expect(mail).toMatch(/href=3D"tel:\+4312345678"|href="tel:\+4312345678"/);

  // Another message: the form comes back empty, a new question asked, the reason as the visitor left it.
  await sent.getByRole('button', { name: 'Weitere Nachricht senden' }).click();
  await expect(form).toBeVisible();
  await expect(sent).toHaveCount(0);
  await expect(form.locator('[name=firstName]')).toHaveValue('');
  await expect(form.locator('[name=intent]')).toBeFocused();
  expect(problems).toEqual([]);
});

test('the contact-sales button of the about page preselects a sales question', async ({ page, url }) => {
  await page.goto(url('/it/about'));
  await page.getByRole('link', { name: 'Contatti il team commerciale' }).click();
  await expect(page).toHaveURL(url('/it/contact?intent=sales#contact-form'));
  await hydrateForm(page, 'contact');
  await expect(page.locator('form[data-form=contact] [name=intent]')).toHaveValue('sales');
});

test('a reason the visitor picked before the script loaded wins over the link', async ({ page, url }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/islands/ContactForm.*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url('/contact?intent=demo'));
  await page.locator('#contact-intent').focus(); // starts loading the form's script, held above
  await page.locator('#contact-intent').selectOption('sales');
  release();
  await page.waitForFunction(() => Object.keys(document.querySelector('form[data-form=contact]') ?? {}).some((k) => k.startsWith('__react')));
  await page.locator('#contact-firstName').focus();
  await expect(page.locator('#contact-intent')).toHaveValue('sales');
});

test('a general message sent from the footer link keeps the page it came from; an unknown intent is ignored', async ({ page, url }) => {
  const email = uniqueEmail('footer');
  await page.goto(url('/nl/privacy'));
  await page.locator('footer').getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL(url('/nl/contact#contact-form'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { email, country: 'nl' });
  await expect(form.locator('[name=intent]')).toHaveValue('general');
  const { a, b } = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button').click();
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT intent, source_page FROM contacts WHERE email = ?', email)).toEqual([{ intent: 'general', source_page: '/nl/privacy' }]);

  await page.goto(url('/nl/contact?intent=javascript:alert(1)&from=https://evil.example/'));
  await hydrateForm(page, 'contact');
  await expect(page.locator('form[data-form=contact] [name=intent]')).toHaveValue('general');
});

test('without JavaScript the reason control is there to choose, general question first chosen', async ({ browser, url }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('/es/contact?intent=demo#contact-form'));
  const reason = page.getByLabel('¿En qué podemos ayudarle?');
  await expect(reason).toHaveValue('general');
  await reason.selectOption({ label: 'Solicitar una demostración' });
  await expect(reason).toHaveValue('demo');
  await context.close();
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
