import { axeViolations, expect, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { confirmationMail } from './support/newsletter-mail.ts';

// The newsletter's service pages with the real ingest service: the mail's links open the confirm
// and unsubscribe pages, whose button posts the token; the service answers with the next page.

/** Signs `email` up in `lang` through the API, as the newsletter form does. */
async function signUp(request: import('@playwright/test').APIRequestContext, apiUrl: string, email: string, lang: string): Promise<void> {
  const response = await request.post(apiUrl, { data: { name: 'Rosalind', email, privacyConsent: true, marketingConsent: false, lang } });
  expect(await response.json()).toEqual({ ok: true, next: 'confirm_email' });
}

test('the confirm link of the mail opens the German page; its button confirms the subscription and shows the confirmed page', async ({ page, url }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('confirm-de');
  await signUp(page.request, url('/api/newsletter'), email, 'de');
  const { confirm } = await confirmationMail(email);
  expect(confirm).toMatch(/^\/de\/newsletter\/confirm\?token=/);

  await page.goto(url(confirm));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bestätigen Sie Ihre Anmeldung');
  const form = page.locator('form[data-form=token]');
  // The island points the form at the service and hands it the token.
  await expect(form).toHaveAttribute('action', '/api/newsletter/confirm');
  await expect(form.locator('input[name=token]')).toHaveValue(new URL(confirm, 'http://x').searchParams.get('token')!);
  expect(await axeViolations(page)).toEqual([]);
  expect(rows<{ status: string }>('SELECT status FROM newsletter WHERE email = ?', email)).toEqual([{ status: 'pending' }]);

  await page.getByRole('button', { name: 'Anmeldung bestätigen' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihr Abonnement ist aktiv');
  expect(new URL(page.url()).pathname).toBe('/de/newsletter/confirmed');
  expect(rows<{ status: string }>('SELECT status FROM newsletter WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);
  expect(problems).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the unsubscribe page posts to its own address, which the host forwards: the address is deleted', async ({ page, url }) => {
    const email = uniqueEmail('unsubscribe-fr');
    await signUp(page.request, url('/api/newsletter'), email, 'fr');
    const { unsubscribe } = await confirmationMail(email);

    await page.goto(url(unsubscribe));
    const form = page.locator('form[data-form=token]');
    await expect(form).not.toHaveAttribute('action');
    await expect(form.locator('input[name=lang]')).toHaveValue('fr');
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    await page.getByRole('button', { name: 'Se désinscrire' }).click();
    expect((await posted).url()).toBe(url(unsubscribe));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vous êtes désinscrit');
    expect(new URL(page.url()).pathname).toBe('/fr/newsletter/unsubscribed');
    expect(rows('SELECT id FROM newsletter WHERE email = ?', email)).toEqual([]);
  });
});

test('a forged token leads to the "link not valid" page, with the way to sign up again', async ({ page, url }) => {
  await page.goto(url('/it/newsletter/confirm?token=c.it.1.9999999999.forgedforgedforgedforgedforgedforgedforgedf'));
  await page.getByRole('button', { name: "Confermo l'iscrizione" }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Link scaduto o non valido');
  expect(new URL(page.url()).pathname).toBe('/it/newsletter/link-invalid');
  await expect(page.getByRole('link', { name: 'Mi iscrivo di nuovo' })).toHaveAttribute('href', '/it#newsletter');
});

test('without a token in the address the page says the link is not valid instead of showing the button', async ({ page, url }) => {
  await page.goto(url('/nl/newsletter/unsubscribe'));
  await expect(page.getByRole('button', { name: 'Afmelden' })).toBeHidden();
  await expect(page.getByText('Deze link is verlopen of ongeldig. Er is niets gewijzigd.')).toBeVisible();
  await page.getByRole('link', { name: 'Wat u kunt doen' }).click();
  await expect(page).toHaveURL(url('/nl/newsletter/link-invalid'));
});
