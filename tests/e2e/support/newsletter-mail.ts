import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { loadSiteConfig } from '../../../cli/site/site-config.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { receivedMail } from './fixtures.ts';

/** The public site URL the ingest service builds its links and redirects from (site.json: the e2e stack sets no SITE_URL). */
const SITE_URL = loadSiteConfig(DEFAULT_PATHS.contentDir).siteUrl;

/** A raw message with folded header lines joined and quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  Buffer.from(
    raw
      .replace(/\r?\n[ \t]+/g, ' ')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The two links of a confirmation mail, as paths of the site: `/de/newsletter/confirm?token=…`. */
export interface MailLinks {
  confirm: string;
  unsubscribe: string;
  /** The confirmation token alone. */
  confirmToken: string;
}

/** Waits for the confirmation mail to `email` and returns its links as paths of the site. */
export async function confirmationMail(email: string): Promise<MailLinks> {
  let mail = '';
  await expect
    .poll(() => (mail = receivedMail().map(decoded).find((raw) => raw.includes(email) && raw.includes('/newsletter/confirm?token=')) ?? ''), { timeout: 20_000 })
    .not.toBe('');
  const link = (page: string) => {
    const found = new RegExp(`${SITE_URL.replace(/[.]/g, '\\.')}((?:/[a-z]{2})?/newsletter/${page}\\?token=[\\w.%-]+)`).exec(mail);
    if (!found) throw new Error(`no ${page} link in the mail to ${email}`);
    return found[1]!;
  };
  const confirm = link('confirm');
  return { confirm, unsubscribe: link('unsubscribe'), confirmToken: decodeURIComponent(new URL(confirm, SITE_URL).searchParams.get('token')!) };
}

/** Confirms the subscription of `email` through the service, as the confirm page's button does. */
export async function confirmSubscription(request: APIRequestContext, apiUrl: string, email: string): Promise<void> {
  const { confirmToken } = await confirmationMail(email);
  const response = await request.post(apiUrl, { form: { token: confirmToken }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toMatch(/\/newsletter\/confirmed$/);
}

/**
 * Makes the service's redirects to the public site (`303` to `https://www.maskwise.io/de/newsletter/confirmed`)
 * lead to the same path of the local server under test, as if the stack ran at that address: the
 * answers to the page's POSTs have their `location` rewritten (a route handler never sees the
 * request a redirect leads to, so the redirect itself is changed).
 */
export async function servePublicSiteLocally(page: Page, url: (path: string) => string): Promise<void> {
  await page.route(url('/**'), async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers().location;
    const headers = location?.startsWith(`${SITE_URL}/`) ? { ...response.headers(), location: url(location.slice(SITE_URL.length)) } : response.headers();
    await route.fulfill({ response, headers });
  });
}
