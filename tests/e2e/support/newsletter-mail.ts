import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { state } from './fixtures.ts';
import { firstMailTo, type Mail } from './mailbox.ts';

// The newsletter's confirmation mail as the stack sends it: the ingest service's SITE_URL is the
// local static server (global setup), so its links and redirects lead to the site under test.

/** The links of a confirmation mail, as absolute URLs. */
export interface ConfirmationLinks {
  /** The visible confirmation link: the site's confirm page with `?token=`. */
  confirm: URL;
  /** The visible unsubscribe link: the site's unsubscribe page with `?token=`. */
  unsubscribe: URL;
  /** The `List-Unsubscribe` address that mail programs post to (RFC 8058). */
  oneClick: URL;
}

/** The links a confirmation mail carries in its text body and its `List-Unsubscribe` header. */
export function confirmationLinks(mail: Mail): ConfirmationLinks {
  const urls = [...mail.text.matchAll(/https?:\/\/\S+/g)].map(([url]) => new URL(url));
  const find = (path: RegExp) => {
    const found = urls.find((url) => path.test(url.pathname) && url.searchParams.has('token'));
    if (found === undefined) throw new Error(`no ${path} link in ${mail.file}:\n${mail.text}`);
    return found;
  };
  const listUnsubscribe = /^<([^>]+)>$/.exec(mail.header('list-unsubscribe') ?? '');
  if (listUnsubscribe === null) throw new Error(`no List-Unsubscribe <URL> in ${mail.file}`);
  return { confirm: find(/\/newsletter\/confirm$/), unsubscribe: find(/\/newsletter\/unsubscribe$/), oneClick: new URL(listUnsubscribe[1]!) };
}

/** `url` on another origin (another host of the same site): `onOrigin(new URL('http://a/de/x?token=t'), 'http://b')` → `http://b/de/x?token=t`. */
export function onOrigin(url: URL, origin: string): string {
  return `${origin}${url.pathname}${url.search}`;
}

/**
 * Makes the service's redirects after a form post on `page` lead to the same path on `origin`
 * (another host of the same site, such as nginx) instead of the service's SITE_URL, as if the
 * service were configured with that host's address: the pages' CSP (`form-action 'self'`) has the
 * browser refuse a form post's redirect to another origin. The POST still goes through the host;
 * only the answer's `location` is changed.
 */
export async function redirectsStayOn(page: Page, origin: string): Promise<void> {
  const { siteUrl } = state();
  if (origin === siteUrl) return;
  await page.route(`${origin}/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers().location ?? '';
    const headers = location.startsWith(`${siteUrl}/`) ? { ...response.headers(), location: origin + location.slice(siteUrl.length) } : response.headers();
    await route.fulfill({ response, headers });
  });
}

/** The two links of a confirmation mail, as paths of the site: `/de/newsletter/confirm?token=…`. */
export interface MailLinks {
  confirm: string;
  unsubscribe: string;
  /** The confirmation token alone. */
  confirmToken: string;
}

/** Waits for the confirmation mail to `email` and returns its links as paths of the site. */
export async function confirmationMail(email: string): Promise<MailLinks> {
  const { confirm, unsubscribe } = confirmationLinks(await firstMailTo(email));
  return { confirm: confirm.pathname + confirm.search, unsubscribe: unsubscribe.pathname + unsubscribe.search, confirmToken: confirm.searchParams.get('token')! };
}

/** Confirms the subscription of `email` through the service, as the confirm page's button does. */
export async function confirmSubscription(request: APIRequestContext, apiUrl: string, email: string): Promise<void> {
  const { confirmToken } = await confirmationMail(email);
  const response = await request.post(apiUrl, { form: { token: confirmToken }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toMatch(/\/newsletter\/confirmed$/);
}
