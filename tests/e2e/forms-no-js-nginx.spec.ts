import type { Page, Response } from '@playwright/test';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { createTranslator } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { loadAllMessages } from '../../cli/site/locales.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';
import { expect, rows, state, test, uniqueEmail } from './support/fixtures.ts';
import { fillContact, fillNewsletter } from './support/forms.ts';
import { firstMailTo, mailsTo, type Mail } from './support/mailbox.ts';
import { confirmSubscription, onOrigin, redirectsStayOn } from './support/newsletter-mail.ts';

// The forms without JavaScript through Debian's nginx with the generated config: the plain HTML
// forms post to nginx's /api/…, nginx forwards them to the real ingest service, whose
// ALLOWED_ORIGINS lists nginx's origin (global setup) while its SITE_URL stays the static server.
// The service's 303 leads to SITE_URL; `redirectsStayOn` changes only that Location to the same
// path on nginx, as if the service were configured with nginx's address (the pages' CSP
// form-action would block a redirect to another origin).

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
const textsIn = (lang: Lang) => createTranslator(lang, messages, placeholderValues(site));

/** nginx's origin; skips the test when nginx is not installed. */
function nginxOrigin(): string {
  const { nginxURL } = state();
  test.skip(nginxURL === null, 'nginx is not installed: tests/e2e/support/ensure-nginx.sh');
  return nginxURL!;
}

/**
 * Every document the page received: a visitor must never see JSON, a 405 or a 5xx.
 * Returns the list, filled as the page navigates.
 */
function documentResponses(page: Page): Response[] {
  const documents: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') documents.push(response);
  });
  return documents;
}

/** Only 2xx/3xx HTML documents (or redirects without a body). */
function expectOnlyPages(documents: readonly Response[]): void {
  for (const response of documents) {
    const status = response.status();
    expect(status, response.url()).toBeLessThan(400);
    if (status < 300) expect(response.headers()['content-type'] ?? '', response.url()).toMatch(/^text\/html/);
  }
}

const salesMailsAbout = (email: string): Mail[] =>
  mailsTo('sales@example.com').filter((mail) => (mail.header('reply-to') ?? '').toLowerCase().includes(email.toLowerCase()) || mail.text.toLowerCase().includes(email.toLowerCase()));

test.describe('the forms without JavaScript through nginx', () => {
  test.use({ javaScriptEnabled: false });

  for (const lang of ['en', 'it', 'nl'] as const) {
    test(`a newsletter signup in ${lang} lands on nginx's "check your inbox" page; the row waits, in ${lang}`, async ({ page }) => {
      const origin = nginxOrigin();
      const t = textsIn(lang);
      const email = uniqueEmail(`nginx-nojs-${lang}`);
      await redirectsStayOn(page, origin);
      const documents = documentResponses(page);
      // English is the unprefixed default language: its pages are at /, /newsletter/…
      const prefix = lang === 'en' ? '' : `/${lang}`;
      await page.goto(`${origin}${prefix || '/'}`);
      const form = await fillNewsletter(page, 'Grace Hopper', email);
      const posted = page.waitForRequest((r) => r.method() === 'POST');
      await form.getByRole('button').click();
      const post = await posted;
      expect(post.url()).toBe(`${origin}/api/newsletter`);
      // The origin the service checks (against its ALLOWED_ORIGINS): nginx's, not SITE_URL's.
      expect(await post.headerValue('origin')).toBe(origin);
      expect(new URLSearchParams(post.postData() ?? '').get('lang')).toBe(lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.checkInbox.title'));
      expect(page.url()).toBe(`${origin}${prefix}/newsletter/check-inbox`);
      expect(rows('SELECT name, lang, status FROM newsletter WHERE email = ?', email)).toEqual([{ name: 'Grace Hopper', lang, status: 'pending' }]);
      expectOnlyPages(documents);
    });
  }

  test('a confirmed address signed up again through nginx leads to the same "check your inbox" page as any other (no status oracle)', async ({ page, request }) => {
    const origin = nginxOrigin();
    const t = textsIn('it');
    const email = uniqueEmail('nginx-nojs-again');
    const signup = await request.post(`${origin}/api/newsletter`, { data: { name: 'Rita', email, privacyConsent: true, marketingConsent: false, lang: 'it' } });
    expect(signup.status()).toBe(201);
    await confirmSubscription(request, `${origin}/api/newsletter/confirm`, email);
    expect(rows('SELECT status FROM newsletter WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);

    await redirectsStayOn(page, origin);
    const documents = documentResponses(page);
    await page.goto(`${origin}/it`);
    const form = await fillNewsletter(page, 'Rita', email);
    await form.getByRole('button').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.checkInbox.title'));
    expect(page.url()).toBe(`${origin}/it/newsletter/check-inbox`);
    expect(rows('SELECT status FROM newsletter WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);
    expectOnlyPages(documents);
  });

  test('an address the browser accepts but the contract refuses leads to the Dutch "not accepted" page (200, HTML), never JSON, a 405 or a 5xx', async ({ page }) => {
    const origin = nginxOrigin();
    const t = textsIn('nl');
    await redirectsStayOn(page, origin);
    const documents = documentResponses(page);
    await page.goto(`${origin}/nl`);
    const form = await fillNewsletter(page, 'Joost', 'x@localhost');
    const finalPage = page.waitForResponse((r) => r.url() === `${origin}/nl/form/not-accepted/email`);
    await form.getByRole('button').click();
    const answer = await finalPage;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.notAccepted.title'));
    expect(page.url()).toBe(`${origin}/nl/form/not-accepted/email`);
    expect(rows('SELECT id FROM newsletter WHERE email = ?', 'x@localhost')).toEqual([]);
    expectOnlyPages(documents);
  });

  test('a German contact through nginx: "check your inbox"; no sales mail until the sender confirms on nginx, exactly one after', async ({ page }) => {
    const origin = nginxOrigin();
    const t = textsIn('de');
    await redirectsStayOn(page, origin);
    const documents = documentResponses(page);
    await page.goto(`${origin}/de/contact`);
    const plainForm = page.locator('form[data-form=contact][method=post][action]');
    test.skip((await plainForm.count()) === 0, 'the contact form has no plain HTML path here (no form[data-form=contact][method=post] with an action on /de/contact)');

    const email = uniqueEmail('nginx-nojs-contact');
    const form = await fillContact(page, { email, country: 'at' });
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    await form.getByRole('button').click();
    expect((await posted).url()).toBe(`${origin}/api/contact`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.contact.checkInbox.title'));
    expect(page.url()).toBe(`${origin}/de/contact/check-inbox`);
    expect(rows('SELECT lang, verified_at FROM contacts WHERE email = ?', email)).toEqual([{ lang: 'de', verified_at: null }]);

    const mail = await firstMailTo(email);
    expect(mail.subject).toBe(t('mail.contactConfirm.subject'));
    expect(salesMailsAbout(email)).toEqual([]);
    const link = [...mail.text.matchAll(/https?:\/\/\S+/g)].map(([href]) => new URL(href)).find((href) => href.pathname === '/de/contact/confirm' && href.searchParams.has('token'));
    expect(link, mail.text).toBeDefined();

    await page.goto(onOrigin(link!, origin));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.contact.confirm.title'));
    // Opening the link sends nothing (mail scanners open links).
    expect(salesMailsAbout(email)).toEqual([]);
    await page.locator('form[method=post]').getByRole('button').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.contact.confirmed.title'));
    expect(page.url()).toBe(`${origin}/de/contact/confirmed`);
    await expect.poll(() => salesMailsAbout(email).length, { timeout: 20_000 }).toBe(1);
    expect(rows<{ verified_at: string | null }>('SELECT verified_at FROM contacts WHERE email = ?', email)[0]!.verified_at).not.toBeNull();
    await page.waitForTimeout(1000);
    expect(salesMailsAbout(email)).toHaveLength(1);
    expectOnlyPages(documents);
  });
});

test('a plain newsletter form posted to nginx from another website is refused with a 403 page and stores nothing', async ({ request }) => {
  const origin = nginxOrigin();
  const email = uniqueEmail('nginx-foreign');
  const response = await request.post(`${origin}/api/newsletter`, {
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    data: new URLSearchParams({ name: 'Eve', email, privacyConsent: 'true', lang: 'nl', website: '' }).toString(),
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(response.headers()['content-type']).toMatch(/^text\/html/);
  expect(await response.text()).toContain(textsIn('nl')('servicePages.formRefused.title'));
  expect(rows('SELECT id FROM newsletter WHERE email = ?', email)).toEqual([]);
});
