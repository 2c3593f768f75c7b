import { expect, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { confirmSubscription } from './support/newsletter-mail.ts';

// The newsletter form without JavaScript: a plain HTML form post to the real ingest service, which
// answers with a result page of the site in the form's language. And the contact form's captcha
// note, which only visitors without JavaScript may see.

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a German signup posts the form and lands on "check your inbox"; the row waits for the confirmation', async ({ page, url }) => {
    const email = uniqueEmail('nojs-de');
    await page.goto(url('/de'));
    const form = page.locator('form[data-form=newsletter]');
    await expect(form).not.toContainText('JavaScript');
    await form.locator('input[name=name]').fill('Lise Meitner');
    await form.locator('input[name=email]').fill(email);
    await form.locator('input[name=privacyConsent]').check();
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    await form.getByRole('button', { name: 'Abonnieren' }).click();
    const request = await posted;
    expect(request.url()).toBe(url('/api/newsletter'));
    expect(Object.fromEntries(new URLSearchParams(request.postData() ?? ''))).toEqual({
      name: 'Lise Meitner', email, lang: 'de', website: '', privacyConsent: 'true',
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bitte sehen Sie in Ihr Postfach');
    expect(new URL(page.url()).pathname).toBe('/de/newsletter/check-inbox');
    await expect(page.getByRole('link', { name: 'Zurück zur Startseite' })).toHaveAttribute('href', '/de');
    expect(rows('SELECT name, lang, status, marketing_consent FROM newsletter WHERE email = ?', email)).toEqual([
      { name: 'Lise Meitner', lang: 'de', status: 'pending', marketing_consent: 0 },
    ]);
  });

  test('the browser checks the form before sending: without the privacy consent nothing is sent', async ({ page, url }) => {
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await page.goto(url('/'));
    const form = page.locator('form[data-form=newsletter]');
    await form.locator('input[name=name]').fill('Ada');
    await form.locator('input[name=email]').fill(uniqueEmail('nojs-consent'));
    await form.getByRole('button').click();
    expect(await form.locator('input[name=privacyConsent]').evaluate((box: HTMLInputElement) => box.validity.valueMissing)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(posts).toEqual([]);
  });

  test('an address the browser accepts but the contract refuses leads to the French "not accepted" page, with the reason and the ways back', async ({ page, url }) => {
    await page.goto(url('/fr'));
    const form = page.locator('form[data-form=newsletter]');
    await form.locator('input[name=name]').fill('Marie');
    await form.locator('input[name=email]').fill('marie@localhost');
    await form.locator('input[name=privacyConsent]').check();
    await form.getByRole('button').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nous n’avons pas pu accepter votre formulaire');
    expect(new URL(page.url()).pathname).toBe('/fr/form/not-accepted/email');
    await expect(page.getByText('Saisissez une adresse e-mail valide, par exemple nom@entreprise.fr.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Retour à l’inscription à la newsletter' })).toHaveAttribute('href', '/fr#newsletter');
    await expect(page.getByRole('link', { name: 'Retour au formulaire de contact' })).toHaveAttribute('href', '/fr/contact#contact-form');
    expect(rows('SELECT id FROM newsletter WHERE email = ?', 'marie@localhost')).toEqual([]);
  });

  test('a confirmed address signed up again leads to the same Spanish "check your inbox" page as any other (no status oracle)', async ({ page, url }) => {
    const email = uniqueEmail('nojs-es');
    const signup = await page.request.post(url('/api/newsletter'), { data: { name: 'Clara', email, privacyConsent: true, marketingConsent: false, lang: 'es' } });
    expect(signup.status()).toBe(201);
    await confirmSubscription(page.request, url('/api/newsletter/confirm'), email);
    await page.goto(url('/es'));
    const form = page.locator('form[data-form=newsletter]');
    await form.locator('input[name=name]').fill('Clara');
    await form.locator('input[name=email]').fill(email);
    await form.locator('input[name=privacyConsent]').check();
    await form.getByRole('button').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revise su bandeja de entrada');
    expect(new URL(page.url()).pathname).toBe('/es/newsletter/check-inbox');
  });

  test('the contact form says what happens without JavaScript: a confirmation mail instead of the security question', async ({ page, url }) => {
    await page.goto(url('/contact'));
    // innerText is what is rendered: a <noscript>'s content only when scripts are off.
    expect(await page.locator('form[data-form=contact]').innerText()).toContain('Without JavaScript we cannot show the security question: we will email you a link');
  });
});

test('with JavaScript, the contact form never says that its security check needs JavaScript, and hydrates without a mismatch', async ({ page, url }) => {
  const problems = watchConsole(page);
  // Italian: its note has an apostrophe, which the server writes as a character reference that
  // the browser leaves undecoded inside <noscript> when scripts run (React error #418 once).
  await page.goto(url('/it/contact'));
  const form = page.locator('form[data-form=contact]');
  // Before the form's script has run (it waits for an interaction), and after.
  await expect(form).toBeVisible();
  expect(await form.innerText()).not.toContain('JavaScript');
  await form.locator('[name=firstName]').focus();
  await expect(page.locator('[data-captcha]')).not.toHaveAttribute('data-captcha', 'pending');
  expect(await form.innerText()).not.toContain('JavaScript');
  expect(problems).toEqual([]);
});
