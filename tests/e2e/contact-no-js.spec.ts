import { expect, rows, test, uniqueEmail } from './support/fixtures.ts';
import { fillContact } from './support/forms.ts';
import { firstMailTo, mailsTo } from './support/mailbox.ts';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { createTranslator } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { loadAllMessages } from '../../cli/site/locales.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const translate = (lang: Lang, key: string) => createTranslator(lang, messages, placeholderValues(site))(key);

// The contact form without JavaScript: no captcha can be shown, so the real ingest service stores
// the message unverified and mails its sender a confirmation link; the sales mail goes out only
// after the sender presses the button on the page that link opens — exactly one.

const salesMailsAbout = (email: string) => mailsTo('sales@example.com').filter((mail) => mail.header('reply-to')?.toLowerCase().includes(email.toLowerCase()));

test.describe('the contact form without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('lands on "check your inbox"; no sales mail until the sender confirms, exactly one after', async ({ page, url }) => {
    const email = uniqueEmail('nojs-contact');
    await page.goto(url('/de/contact'));
    const form = await fillContact(page, { email, country: 'at' });
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    await form.getByRole('button').click();
    expect((await posted).url()).toBe(url('/api/contact'));
    expect(new URL(page.url()).pathname).toBe('/de/contact/check-inbox');
    expect(rows('SELECT first_name, country, lang, verified_at FROM contacts WHERE email = ?', email)).toEqual([
      { first_name: 'Marie', country: 'at', lang: 'de', verified_at: null },
    ]);

    const mail = await firstMailTo(email);
    expect(mail.subject).toBe(translate('de', 'mail.contactConfirm.subject'));
    expect(mail.text).not.toContain('MariaDB');
    expect(salesMailsAbout(email)).toEqual([]);

    const link = new URL([...mail.text.matchAll(/https?:\/\/\S+/g)].map(([href]) => href).find((href) => href.includes('/de/contact/confirm?token='))!);
    await page.goto(url(`${link.pathname}${link.search}`));
    await page.locator('form[method=post]').getByRole('button').click();
    expect(new URL(page.url()).pathname).toBe('/de/contact/confirmed');
    await expect.poll(() => salesMailsAbout(email).length, { timeout: 20_000 }).toBe(1);
    expect(rows<{ verified_at: string | null }>('SELECT verified_at FROM contacts WHERE email = ?', email)[0]!.verified_at).not.toBeNull();

    // Pressing the button again (or a second click on the link) sends nothing more.
    await page.goto(url(`${link.pathname}${link.search}`));
    await page.locator('form[method=post]').getByRole('button').click();
    await page.waitForTimeout(1000);
    expect(salesMailsAbout(email)).toHaveLength(1);
  });

  test('a message the browser lets through but the contract refuses lands on a localized "not accepted" page', async ({ page, url }) => {
    const email = uniqueEmail('nojs-bad');
    await page.goto(url('/it/contact'));
    const form = await fillContact(page, { email, country: 'it', message: 'Ciao\u0007 mondo' });
    await form.getByRole('button').click();
    expect(new URL(page.url()).pathname).toBe('/it/form/not-accepted/invalid-characters');
    await expect(page.getByText(translate('it', 'validation.invalidChars'))).toBeVisible();
    expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toEqual([]);
  });
});

test('a client that skips the browser checks (a missing field, a text too long) lands on the localized "not accepted" page, never JSON, a 405 or a 5xx', async ({ request, url }) => {
  const email = uniqueEmail('skipped-checks');
  const base = { firstName: 'Eva', lastName: 'Nowak', email, country: 'pl', message: 'Dzień dobry', lang: 'pl' };
  const cases: Array<[Record<string, string>, string]> = [
    [{ ...base, lang: 'de', lastName: '' }, '/de/form/not-accepted/required'],
    [{ ...base, lang: 'pt', message: 'x'.repeat(5001) }, '/pt/form/not-accepted/too-long'],
    [{ ...base, lang: 'nl', country: '' }, '/nl/form/not-accepted/required'],
  ];
  for (const [fields, path] of cases) {
    const res = await request.post(url('/api/contact'), {
      headers: { origin: new URL(url('/')).origin, 'content-type': 'application/x-www-form-urlencoded' },
      data: new URLSearchParams(fields).toString(),
      maxRedirects: 0,
    });
    expect([res.status(), new URL(res.headers().location!).pathname], JSON.stringify(fields).slice(0, 80)).toEqual([303, path]);
    const page = await request.get(res.headers().location!);
    expect([page.status(), page.headers()['content-type']]).toEqual([200, expect.stringMatching(/^text\/html/)]);
  }
  expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toEqual([]);
});

test('a plain form post from another website is refused with a 403 page and stores nothing', async ({ request, url }) => {
  const email = uniqueEmail('foreign');
  const res = await request.post(url('/api/contact'), {
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    data: new URLSearchParams({ firstName: 'Eve', lastName: 'X', email, country: 'de', message: 'hello', lang: 'nl' }).toString(),
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect(res.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(await res.text()).toContain(translate('nl', 'servicePages.formRefused.title'));
  expect(rows('SELECT id FROM contacts WHERE email = ?', email)).toEqual([]);
});
