import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { DEFAULT_PATHS } from '../../cli/paths.ts';
import { createTranslator } from '../../cli/site/i18n.ts';
import type { Lang } from '../../cli/site/languages.ts';
import { loadAllMessages } from '../../cli/site/locales.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';
import { consentLinks, type LinkedSubscription } from '../../ingest/consent/links.ts';
import { expect, hydrateForm, rows, state, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { fillNewsletter } from './support/forms.ts';
import { firstMailTo, mailsTo } from './support/mailbox.ts';
import { confirmationLinks, onOrigin, redirectsStayOn } from './support/newsletter-mail.ts';

// The newsletter's double opt-in end to end: the real ingest service mails the confirmation
// (through the real SMTP peer) with links to the site under test (SITE_URL = the static server);
// the pages' buttons post, the service answers with the next page, and the SQLite file shows
// what was stored. Each test has its own address.

const site = loadSiteConfig(DEFAULT_PATHS.contentDir);
const messages = loadAllMessages(DEFAULT_PATHS.contentDir);
/** The site's texts in `lang`, placeholders filled, as the pages and mails show them. */
const textsIn = (lang: Lang) => createTranslator(lang, messages, placeholderValues(site));

/** The hosts a plain (JavaScript-free) form post is tried through: the local static server and Debian's nginx. */
const HOSTS = ['static server', 'nginx'] as const;

/** The origin of `host`; skips the test when nginx is not installed. */
function originOf(host: (typeof HOSTS)[number]): string {
  const { baseURL, nginxURL } = state();
  if (host === 'static server') return baseURL;
  test.skip(nginxURL === null, 'nginx is not installed: tests/e2e/support/ensure-nginx.sh');
  return nginxURL!;
}

type Subscription = LinkedSubscription & { status: string; consent_hash: string | null; privacy_version: string };

/** The stored subscription of `email`, if any. */
const subscriptionOf = (email: string): Subscription | undefined => rows<Subscription>('SELECT * FROM newsletter WHERE email = ?', email)[0];

/** Signs `email` up in `lang` through the API, as the newsletter form does. */
async function signUp(request: APIRequestContext, email: string, lang: Lang): Promise<void> {
  const response = await request.post(`${state().baseURL}/api/newsletter`, {
    data: { name: 'Rosalind Franklin', email, privacyConsent: true, marketingConsent: false, lang },
  });
  expect(response.status()).toBe(201);
  expect(await response.json()).toEqual({ ok: true, next: 'confirm_email' });
}

test('a German signup with JavaScript: "check your inbox", one German mail with one-click headers, and only the button confirms', async ({ page, url }) => {
  const problems = watchConsole(page);
  const t = textsIn('de');
  const email = uniqueEmail('optin-de');
  await page.goto(url('/de'));
  await hydrateForm(page, 'newsletter');
  const form = await fillNewsletter(page, 'Lena Schmidt', email);
  await form.getByRole('button').click();
  await expect(page.locator('[data-newsletter=success]').getByRole('heading')).toHaveText(t('newsletter.checkInboxTitle'));

  const mail = await firstMailTo(email);
  expect(mail.subject).toBe(t('mail.confirm.subject'));
  expect(mail.text).toContain(t('mail.confirm.button'));
  expect(mail.html).toContain('<html lang="de">');
  expect(`${mail.text}${mail.html}`).not.toContain('Lena');
  const links = confirmationLinks(mail);
  expect(links.oneClick.href).toMatch(new RegExp(`^${state().siteUrl}/api/newsletter/unsubscribe\\?token=u\\.de\\.`));
  expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  expect(`${links.confirm.origin}${links.confirm.pathname}`).toBe(url('/de/newsletter/confirm'));
  expect(`${links.unsubscribe.origin}${links.unsubscribe.pathname}`).toBe(url('/de/newsletter/unsubscribe'));

  // Opening the link shows the button and changes nothing (mail scanners open links).
  await page.goto(links.confirm.href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.confirm.title'));
  expect(subscriptionOf(email)?.status).toBe('pending');
  await page.getByRole('button', { name: t('servicePages.confirm.button') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.confirmed.title'));
  expect(page.url()).toBe(url('/de/newsletter/confirmed'));
  expect(subscriptionOf(email)?.status).toBe('confirmed');
  expect(mailsTo(email)).toHaveLength(1);
  expect(problems).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const host of HOSTS) {
    test(`through the ${host}, the French confirm page's button posts to its own address and confirms`, async ({ page, request }) => {
      const origin = originOf(host);
      const t = textsIn('fr');
      const email = uniqueEmail(`optin-fr-${host.replace(/\W/g, '-')}`);
      await signUp(request, email, 'fr');
      const { confirm } = confirmationLinks(await firstMailTo(email));
      const pageUrl = onOrigin(confirm, origin);
      await redirectsStayOn(page, origin);

      await page.goto(pageUrl);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.confirm.title'));
      await expect(page.locator('form[data-form=token]')).not.toHaveAttribute('action');
      expect(subscriptionOf(email)?.status).toBe('pending');
      const posted = page.waitForRequest((r) => r.method() === 'POST');
      await page.getByRole('button', { name: t('servicePages.confirm.button') }).click();
      const post = await posted;
      expect(post.url()).toBe(pageUrl);
      expect(post.postData()).toBe('lang=fr');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.confirmed.title'));
      expect(page.url()).toBe(`${origin}/fr/newsletter/confirmed`);
      expect(subscriptionOf(email)?.status).toBe('confirmed');
    });

    test(`through the ${host}, the mail's visible unsubscribe link opens the Italian page whose button deletes the address`, async ({ page, request }) => {
      const origin = originOf(host);
      const t = textsIn('it');
      const email = uniqueEmail(`unsubscribe-it-${host.replace(/\W/g, '-')}`);
      await signUp(request, email, 'it');
      const { unsubscribe } = confirmationLinks(await firstMailTo(email));
      expect(unsubscribe.pathname).toBe('/it/newsletter/unsubscribe');
      await redirectsStayOn(page, origin);

      await page.goto(onOrigin(unsubscribe, origin));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.unsubscribe.title'));
      expect(subscriptionOf(email)).toBeDefined();
      await page.getByRole('button', { name: t('servicePages.unsubscribe.button') }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.unsubscribed.title'));
      expect(page.url()).toBe(`${origin}/it/newsletter/unsubscribed`);
      expect(subscriptionOf(email)).toBeUndefined();
    });
  }
});

test('a forged and an expired confirmation link lead to the Spanish "link not valid" page and confirm nothing', async ({ page, request, url }) => {
  const t = textsIn('es');
  const email = uniqueEmail('links-es');
  await signUp(request, email, 'es');
  const { confirm } = confirmationLinks(await firstMailTo(email));
  const stored = subscriptionOf(email)!;

  const token = confirm.searchParams.get('token')!;
  const signatureAt = token.lastIndexOf('.') + 1;
  const forged = `${token.slice(0, signatureAt)}${token[signatureAt] === 'A' ? 'B' : 'A'}${token.slice(signatureAt + 1)}`;
  // Signed with the service's own key (its generated secret in DATA_DIR), for the same row, but past its expiry.
  const secret = readFileSync(join(state().dataDir, 'captcha-secret'), 'utf8').trim();
  const expired = consentLinks(secret).sign('confirm', stored, Date.now() - 60_000);
  // The service tells the two apart: only the signature of the expired one is right.
  const answers = await Promise.all(
    [forged, expired].map(async (candidate) => {
      const response = await request.post(url('/api/newsletter/confirm'), { data: { token: candidate } });
      return [response.status(), ((await response.json()) as { error?: { code?: string } }).error?.code];
    }),
  );
  expect(answers).toEqual([
    [400, 'link_invalid'],
    [410, 'link_expired'],
  ]);

  for (const candidate of [forged, expired]) {
    await page.goto(url(`/es/newsletter/confirm?token=${encodeURIComponent(candidate)}`));
    await page.getByRole('button', { name: t('servicePages.confirm.button') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('servicePages.linkInvalid.title'));
    expect(page.url()).toBe(url('/es/newsletter/link-invalid'));
    expect(subscriptionOf(email)).toEqual(stored);
  }
});

for (const host of HOSTS) {
  test(`a mail program's one-click unsubscribe (RFC 8058) through the ${host} deletes the address and leaves an anonymous event`, async ({ request }) => {
    const origin = originOf(host);
    const email = uniqueEmail(`one-click-${host.replace(/\W/g, '-')}`);
    await signUp(request, email, 'pt');
    const mail = await firstMailTo(email);
    const { confirm, oneClick } = confirmationLinks(mail);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // A subscriber who confirmed, then leaves from the mail program.
    const confirmed = await request.post(`${origin}/api/newsletter/confirm`, { data: { token: confirm.searchParams.get('token') } });
    expect(await confirmed.json()).toEqual({ ok: true, status: 'confirmed' });
    const subscription = subscriptionOf(email)!;
    const ownEvents = rows<{ id: number; event: string }>('SELECT id, event FROM consent_events WHERE newsletter_id = ? ORDER BY id', subscription.id);
    expect(ownEvents.map((e) => e.event)).toEqual(['subscribed', 'confirmed']);
    const { last } = rows<{ last: number }>('SELECT coalesce(max(id), 0) AS last FROM consent_events')[0]!;

    const response = await request.post(onOrigin(oneClick, origin), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
      maxRedirects: 0,
    });
    expect(response.status()).toBe(200);
    expect(subscriptionOf(email)).toBeUndefined();
    const unsubscribed = rows('SELECT newsletter_id, lang, consent_hash, privacy_version FROM consent_events WHERE id > ? AND event = ?', last, 'unsubscribed');
    expect(unsubscribed).toContainEqual({ newsletter_id: null, lang: 'pt', consent_hash: subscription.consent_hash, privacy_version: subscription.privacy_version });
    // The events that pointed to the subscription point nowhere now, and none holds the address. (Asked
    // by the events' own ids: SQLite may give the freed subscription id to a signup of a test running
    // beside this one, whose events then rightly point to it.)
    const after = rows<{ newsletter_id: number | null }>(`SELECT newsletter_id FROM consent_events WHERE id IN (${ownEvents.map(() => '?').join(',')})`, ...ownEvents.map((e) => e.id));
    expect(after).toEqual(ownEvents.map(() => ({ newsletter_id: null })));
    const allEvents = JSON.stringify(rows('SELECT * FROM consent_events')).toLowerCase();
    expect(allEvents).not.toContain(email.split('@')[0]!.toLowerCase());
  });
}

test('signing up three times in a row sends a single confirmation mail', async ({ request }) => {
  const email = uniqueEmail('resend-nl');
  for (let attempt = 0; attempt < 3; attempt++) await signUp(request, email, 'nl');
  await firstMailTo(email);
  // Each mail is an outbox row: the repeats queued none.
  expect(rows('SELECT id FROM outbox WHERE newsletter_id = ?', subscriptionOf(email)!.id)).toHaveLength(1);
  // Had a second one been queued, it would have arrived by now.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(mailsTo(email)).toHaveLength(1);
});
