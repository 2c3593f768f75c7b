import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headersForPath, parseHeadersFile } from '../../cli/host/static-host-files.ts';
import { LANGUAGES } from '../../cli/site/languages.ts';
import { allRoutes, notFoundPath } from '../../cli/site/routes.ts';
import { builtDir, expect, hydrateForm, receivedMail, rows, test, uniqueEmail, watchConsole } from './support/fixtures.ts';
import { captchaQuestion, fillContact, fillNewsletter } from './support/forms.ts';

// Debian's nginx 1.22 serving the build with dist-deploy/nginx.conf (lines "set for your host"
// filled in), in front of the real ingest service: what an operator deploys.

const routes = allRoutes();
const csp = () => headersForPath(parseHeadersFile(readFileSync(join(builtDir(), '_headers'), 'utf8')), '/')['content-security-policy'];

test('every route answers 200 with its page, revalidated, with the security headers', async ({ request, nginxUrl }) => {
  for (const route of routes) {
    const res = await request.get(nginxUrl(route.path), { maxRedirects: 0 });
    expect(res.status(), route.path).toBe(200);
    expect(res.headers()['content-type'], route.path).toBe('text/html; charset=utf-8');
    expect(await res.text(), route.path).toContain(`<html lang="${route.lang}"`);
    const headers = res.headers();
    expect(headers['cache-control'], route.path).toBe('no-cache');
    expect(headers['content-security-policy'], route.path).toBe(csp());
    expect(headers['x-content-type-options'], route.path).toBe('nosniff');
    expect(headers['referrer-policy'], route.path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], route.path).toContain('camera=()');
  }
});

test('other letter cases, trailing slashes and .html redirect with 308 to the canonical URL, keeping the query', async ({ request, nginxUrl }) => {
  for (const route of routes) {
    const forms = route.path === '/' ? ['/INDEX.HTML', '/index'] : [route.path.toUpperCase(), `${route.path}/`, `${route.path}.html`];
    for (const form of forms) {
      const res = await request.get(nginxUrl(`${form}?utm=x`), { maxRedirects: 0 });
      expect(res.status(), form).toBe(308);
      expect(res.headers()['location'], form).toBe(`${route.path}?utm=x`);
    }
  }
});

test('regression: a path with an empty segment (//about/, //evil.example) is a 308 to the clean page or a 404, as on the local server', async ({ request, nginxUrl }) => {
  for (const [spelling, location] of [['//about/', '/about'], ['//about', '/about'], ['/de//impressum?x=1', '/de/impressum?x=1'], ['//', '/']] as const) {
    const res = await request.get(nginxUrl(spelling), { maxRedirects: 0 });
    expect(res.status(), spelling).toBe(308);
    expect(res.headers()['location'], spelling).toBe(location);
  }
  for (const [spelling, lang] of [['//evil.example', 'en'], ['//127.0.0.1/api/captcha', 'en'], ['/api//captcha', 'en'], ['//de/unbekannt', 'de']] as const) {
    const res = await request.get(nginxUrl(spelling), { maxRedirects: 0 });
    expect(res.status(), spelling).toBe(404);
    expect(await res.text(), spelling).toContain(`<html lang="${lang}"`);
  }
});

test('unknown URLs get the 404 page of their language with status 404', async ({ request, nginxUrl }) => {
  for (const lang of LANGUAGES) {
    const unknown = lang === 'en' ? '/no-such-page' : `/${lang.toUpperCase()}/no-such-page`;
    const res = await request.get(nginxUrl(unknown), { maxRedirects: 0 });
    expect(res.status(), unknown).toBe(404);
    const html = await res.text();
    expect(html, unknown).toContain(`<html lang="${lang}"`);
    expect(html, unknown).toContain('<meta name="robots" content="noindex"/>');
    expect(res.headers()['content-security-policy'], unknown).toBe(csp());
    // The 404 page has no URL of its own.
    expect((await request.get(nginxUrl(notFoundPath(lang)), { maxRedirects: 0 })).status()).toBe(404);
  }
  for (const hidden of ['/_headers', '/_redirects', '/_deploy/nginx.conf', '/.sitegen-output', '/xx/about']) {
    const res = await request.get(nginxUrl(hidden), { maxRedirects: 0 });
    expect(res.status(), hidden).toBe(404);
    expect(await res.text(), hidden).toContain('<html lang="en"');
  }
});

test('hashed assets are cached for a year and sent gzip-compressed from the precompressed copies', async ({ request, nginxUrl }) => {
  const home = await (await request.get(nginxUrl('/'))).text();
  const css = home.match(/href="(\/assets\/styles\.[0-9a-f]+\.css)"/)![1]!;
  const res = await request.get(nginxUrl(css), { headers: { 'accept-encoding': 'gzip' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(res.headers()['content-encoding']).toBe('gzip');
  expect(res.headers()['vary']).toBe('Accept-Encoding');
  expect(await res.text()).toBe(readFileSync(join(builtDir(), css), 'utf8'));
  const page = await request.get(nginxUrl('/de/impressum'), { headers: { 'accept-encoding': 'gzip' } });
  expect(page.headers()['content-encoding']).toBe('gzip');
});

test('the newsletter form works through the proxy, with the CSP enforced and no console errors', async ({ page, nginxUrl }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('nginx-news');
  await page.goto(nginxUrl('/de'));
  await hydrateForm(page, 'newsletter');
  const form = await fillNewsletter(page, 'Nginx Nora', email);
  await form.getByRole('button').click();
  await expect(page.locator('[data-newsletter=success]')).toBeVisible();
  expect(rows('SELECT name, lang FROM newsletter WHERE email = ?', email)).toEqual([{ name: 'Nginx Nora', lang: 'de' }]);
  expect(problems).toEqual([]);
});

test('the contact form works through the proxy: captcha, stored message, email to sales', async ({ page, nginxUrl }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('nginx-contact');
  await page.goto(nginxUrl('/it/contact'));
  await hydrateForm(page, 'contact');
  const form = await fillContact(page, { firstName: 'Enrico', lastName: 'Fermi', email, country: 'it', message: 'Vorremmo mascherare i dati dei pazienti in PostgreSQL.' });
  const { a, b } = await captchaQuestion(page);
  await form.locator('[name=answer]').fill(String(a + b));
  await form.getByRole('button').click();
  await expect(page.locator('[data-contact=sent]')).toBeVisible();
  expect(rows('SELECT first_name, lang FROM contacts WHERE email = ?', email)).toEqual([{ first_name: 'Enrico', lang: 'it' }]);
  await expect.poll(() => receivedMail().some((m) => m.includes(email)), { timeout: 20_000 }).toBe(true);
  expect(problems).toEqual([]);
});

test('the API answers through the proxy with the service\'s own headers, not the site\'s', async ({ request, nginxUrl }) => {
  const res = await request.get(nginxUrl('/api/captcha'));
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/json');
  expect(res.headers()['content-security-policy']).toBeTruthy();
  expect(res.headers()['content-security-policy']).not.toBe(csp());
  expect(res.headers()['x-robots-tag']).toBe('noindex');
});
