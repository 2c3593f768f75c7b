import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployDirOf } from '../../../cli/host/deploy-files.ts';
import { NGINX_CONFIG_FILE, nginxConfig } from '../../../cli/host/nginx.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { fileForPath, notFoundPath } from '../../../cli/site/routes.ts';
import { headersForPath, parseHeadersFile } from '../../../cli/host/static-host-files.ts';
import { loadAllMessages } from '../../../cli/site/locales.ts';
import { DEFAULT_PATHS } from '../../../cli/paths.ts';
import { builtSite, readBuilt } from '../../helpers/built-site.ts';
import { freePort } from '../../helpers/ports.ts';
import { accessLogOf, nginxAvailable, startNginx } from '../../e2e/support/nginx-server.ts';
import { formPost, send, standInIngest, type StandInIngest } from '../serve/stand-in-ingest.ts';
import { fixturePage, METRICS_PATHS, NOT_TOKEN_FORM_POSTS, TOKEN_FORM_CASES, tokenFormSite } from '../serve/token-form-sites.ts';

// Debian's nginx with the generated server block ("set for your host" lines filled in as an
// operator would, tests/e2e/support/nginx-server.ts) in front of a stand-in ingest service.
// Without nginx installed, a developer's run leaves these out after one line; CI fails.

const CONFIRMED = 'https://www.maskwise.io/de/newsletter/confirmed';
/** The site's security headers in the fixture's server block. */
const SITE_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" };
/** A security.txt as the build writes it (tests/cli/pipeline/security-txt.test.ts tests its fields). */
const SECURITY_TXT = 'Contact: mailto:info@maskwise.io\nExpires: 2027-11-28T00:00:00Z\n';
const haveNginx = nginxAvailable() || Boolean(process.env.CI);
if (!haveNginx) process.stderr.write('nginx tests: nginx is not installed (Debian: apt-get install -y nginx); left out.\n');

/** The fixture site of the token form pages with a server block written by `nginxConfig`, the pages in its routes. */
function siteWithServerBlock(): string {
  const root = tokenFormSite();
  const pages = TOKEN_FORM_CASES.map(({ path }) => ({ path, file: fileForPath(path) }));
  const notFoundPages = LANGUAGES.map((lang) => ({ prefix: lang === 'en' ? '/' : `/${lang}`, file: fileForPath(notFoundPath(lang)) }));
  mkdirSync(join(root, '.well-known'));
  writeFileSync(join(root, '.well-known', 'security.txt'), SECURITY_TXT);
  writeFileSync(join(root, '.well-known', 'other.txt'), 'not published');
  mkdirSync(deployDirOf(root));
  writeFileSync(join(deployDirOf(root), NGINX_CONFIG_FILE), nginxConfig({ serverName: 'www.maskwise.io', pages, notFoundPages, headers: SITE_HEADERS }));
  return root;
}

describe.runIf(haveNginx)('nginx with the generated server block', () => {
  let ingest: StandInIngest;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let base = '';
  let workDir = '';

  beforeAll(async () => {
    ingest = await standInIngest('ingest', (req) =>
      req.url.startsWith('/api/newsletter/unsubscribe')
        ? { status: 410, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":{"code":"gone"}}' }
        : { status: 303, headers: { location: CONFIRMED, 'x-from': 'ingest' } },
    );
    workDir = mkdtempSync(join(tmpdir(), 'nginx-forwarding-'));
    nginx = await startNginx(siteWithServerBlock(), ingest.port, workDir);
    base = nginx.baseURL;
  });

  afterAll(async () => {
    await nginx?.stop();
    await ingest?.close();
  });

  it('serves /.well-known/security.txt as text/plain; charset=utf-8, and no other file of the dot folder', async () => {
    const res = await send(base, '/.well-known/security.txt');
    expect([res.status, res.headers['content-type'], res.body]).toEqual([200, 'text/plain; charset=utf-8', SECURITY_TXT]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(base, '/.well-known/other.txt')).status).toBe(404);
  });

  it('serves HTTPS only: plain HTTP answers 308 to the same URL over HTTPS, and HTTPS answers carry HSTS', async () => {
    const plain = await send(nginx.httpURL, '/de/newsletter/confirm?token=abc', { headers: { host: 'www.maskwise.io' } });
    expect([plain.status, plain.headers.location]).toEqual([308, 'https://www.maskwise.io/de/newsletter/confirm?token=abc']);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const posted = await send(nginx.httpURL, '/api/newsletter', { ...formPost('lang=de'), headers: { ...formPost('').headers, host: 'www.maskwise.io' } });
    expect([posted.status, posted.headers.location]).toEqual([308, 'https://www.maskwise.io/api/newsletter']);
    const before = ingest.seen.length;
    const secure = await send(base, '/de/newsletter/confirm?token=abc');
    expect(secure.status).toBe(200);
    expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(ingest.seen.length).toBe(before);
  });

  it('regression: plain HTTP redirects to the site\'s own host whatever Host a client sends (Host: www.example.com@evil.example was a redirect to evil.example)', async () => {
    for (const host of ['www.example.com@evil.example', 'evil.example', 'evil.example:8443', '127.0.0.1']) {
      const res = await send(nginx.httpURL, '/de/about?x=1', { headers: { host } });
      expect([res.status, res.headers.location], host).toEqual([308, 'https://www.maskwise.io/de/about?x=1']);
      expect(new URL(res.headers.location!).host).toBe('www.maskwise.io');
    }
  });

  it('regression: offers TLS 1.2 only with forward secrecy and AEAD (it took AES128-SHA256, RSA key exchange); TLS 1.3 and an ECDHE-GCM suite connect', () => {
    const { port } = new URL(base);
    const handshake = (...args: string[]) =>
      spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', '127.0.0.1', ...args], { input: '', encoding: 'utf8', timeout: 10_000 });
    for (const cipher of ['AES128-SHA256', 'AES256-GCM-SHA384', 'AES128-SHA', 'ECDHE-RSA-AES128-SHA256', 'ECDHE-RSA-AES128-SHA']) {
      const refused = handshake('-tls1_2', '-cipher', cipher);
      expect(refused.status, cipher).not.toBe(0);
      expect(refused.stdout + refused.stderr, cipher).not.toMatch(/Cipher is (?!\(NONE\))/);
    }
    const accepted = handshake('-tls1_2', '-cipher', 'ECDHE-RSA-AES128-GCM-SHA256');
    expect(accepted.stdout).toContain('Cipher is ECDHE-RSA-AES128-GCM-SHA256');
    expect(handshake('-tls1_3').stdout).toMatch(/New, TLSv1\.3, Cipher is TLS_/);
  });

  it.each(TOKEN_FORM_CASES.map((c) => [c.path, c.endpoint]))('forwards POST %s?token=… to POST %s?token=…, body, type and answer unchanged', async (path, endpoint) => {
    const before = ingest.seen.length;
    const res = await send(base, `${path}?token=abc-123_x`, formPost('lang=de&token='));
    const seen = ingest.seen.slice(before);
    expect(seen.map((r) => [r.method, r.url, r.body, r.headers['content-type']])).toEqual([
      ['POST', `${endpoint}?token=abc-123_x`, 'lang=de&token=', 'application/x-www-form-urlencoded'],
    ]);
    if (endpoint.endsWith('/confirm')) {
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(CONFIRMED);
      expect(res.headers['x-from']).toBe('ingest');
    } else {
      expect(res.status).toBe(410);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'gone' } });
    }
    expect(res.headers['x-robots-tag']).toBe('noindex');
  });

  it('keeps the proxy\'s hardening: the visitor as the only X-Forwarded-For, an absolute-form target reduced to its path', async () => {
    const before = ingest.seen.length;
    await send(base, '/newsletter/unsubscribe?token=t', { ...formPost('lang=en'), headers: { ...formPost('').headers, 'x-forwarded-for': '6.6.6.6' } });
    await send(base, 'http://evil.example/de/newsletter/confirm?token=t2', formPost('lang=de'));
    expect(ingest.seen.slice(before).map((r) => [r.url, r.headers['x-forwarded-for']])).toEqual([
      ['/api/newsletter/unsubscribe?token=t', '127.0.0.1'],
      ['/api/newsletter/confirm?token=t2', '127.0.0.1'],
    ]);
  });

  it('serves the static page to GET and HEAD, with the site\'s headers; nothing reaches the service', async () => {
    const before = ingest.seen.length;
    for (const { lang, path } of TOKEN_FORM_CASES) {
      const res = await send(base, `${path}?token=abc`);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toBe(fixturePage(lang, path));
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect((await send(base, `${path}?token=abc`, { method: 'HEAD' })).status, path).toBe(200);
    }
    expect(ingest.seen.length).toBe(before);
  });

  it('answers other methods on those pages with 405 and forwards nothing else', async () => {
    const before = ingest.seen.length;
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      expect((await send(base, '/de/newsletter/confirm?token=abc', { ...formPost('lang=de'), method })).status, method).toBe(405);
    }
    for (const target of [...NOT_TOKEN_FORM_POSTS, '//newsletter/confirm', '/de//newsletter/confirm', '/newsletter/%63onfirm']) {
      const res = await send(base, target, formPost('lang=de'));
      expect([308, 404, 405], `${target}: ${res.status}`).toContain(res.status);
    }
    expect(ingest.seen.length).toBe(before);
  });

  it('never forwards the service\'s metrics: every /api/metrics… spelling is the 404 page', async () => {
    const before = ingest.seen.length;
    for (const target of METRICS_PATHS) {
      for (const options of [{}, formPost('x=1')]) {
        const res = await send(base, target, options);
        expect(res.status, target).toBe(404);
        expect(res.body, target).toBe(fixturePage('en', '/404'));
      }
    }
    expect(ingest.seen.length).toBe(before);
    await send(base, '/api/captcha?lang=de');
    expect(ingest.seen.slice(before).map((r) => r.url)).toEqual(['/api/captcha?lang=de']);
  });

  it('regression: with the service down, a plain form post lands on the "not stored" page of its form\'s language, with the security headers; JSON gets the service\'s error shape', async () => {
    const down = await startNginx(siteWithServerBlock(), await freePort(), mkdtempSync(join(tmpdir(), 'nginx-forwarding-down-')));
    try {
      const from = (referer: string) => ({ ...formPost('name=Ana&lang=de'), headers: { ...formPost('').headers, referer } });
      const cases: Array<[string, ReturnType<typeof formPost>, string]> = [
        ['/api/newsletter', from(`${down.baseURL}/de`), '/de/form/not-stored'],
        ['/api/contact', from(`${down.baseURL}/it/contact?intent=demo`), '/it/form/not-stored'],
        ['/api/contact', from(`${down.baseURL}/contact`), '/form/not-stored'],
        ['/api/newsletter', formPost('lang=fr'), '/form/not-stored'],
        ['/nl/newsletter/confirm?token=abc', from(`${down.baseURL}/nl/newsletter/confirm?token=abc`), '/nl/form/not-stored'],
      ];
      for (const [target, options, location] of cases) {
        const res = await send(down.baseURL, target, options);
        expect([res.status, res.headers.location], target).toEqual([303, location]);
        for (const [name, value] of Object.entries(SITE_HEADERS)) expect(res.headers[name], `${target} ${name}`).toBe(value);
        expect([res.headers['cache-control'], res.headers['x-robots-tag']], target).toEqual(['no-store', 'noindex']);
      }
      const json = await send(down.baseURL, '/api/newsletter', { method: 'POST', headers: { 'content-type': 'application/json', referer: `${down.baseURL}/de` }, body: '{}' });
      expect([json.status, json.headers['content-type'], JSON.parse(json.body).error.code]).toEqual([502, 'application/json', 'unavailable']);
      expect(json.headers['x-content-type-options']).toBe('nosniff');
      expect((await send(down.baseURL, '/de/newsletter/confirm?token=abc')).status).toBe(200);
    } finally {
      await down.stop();
    }
  });

  it('regression: a body over the service\'s limit is answered by nginx: a plain form post lands on "not accepted: too long" in its language; nothing reaches the service', async () => {
    const before = ingest.seen.length;
    const big = `lang=fr&message=${'x'.repeat(40_000)}`;
    const res = await send(base, '/api/contact', { ...formPost(big), headers: { ...formPost('').headers, referer: `${base}/fr/contact` } });
    expect([res.status, res.headers.location]).toEqual([303, '/fr/form/not-accepted/too-long']);
    for (const [name, value] of Object.entries(SITE_HEADERS)) expect(res.headers[name], name).toBe(value);
    expect(res.headers['cache-control']).toBe('no-store');
    const json = await send(base, '/api/newsletter', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(40_000) }) });
    expect([json.status, JSON.parse(json.body).error.code, json.headers['x-content-type-options']]).toEqual([413, 'payload_too_large', 'nosniff']);
    expect(ingest.seen.length).toBe(before);
    // A body within the limit still reaches the service.
    await send(base, '/api/contact', formPost(`lang=fr&message=${'x'.repeat(30_000)}`));
    expect(ingest.seen.slice(before).map((r) => r.body.length)).toEqual([30_016]);
  });

  it('regression: the access log leaves out the tokens of the mails\' links, in the request and in the Referer', async () => {
    const secret = (n: number) => `SECRET${n}-a1b2c3`;
    await send(base, `/de/newsletter/confirm?token=${secret(1)}`);
    await send(base, `/newsletter/unsubscribe?lang=en&token=${secret(2)}`, { ...formPost('lang=en'), headers: { ...formPost('').headers, referer: `${base}/newsletter/unsubscribe?token=${secret(3)}` } });
    await send(base, `/api/newsletter/unsubscribe?token=${secret(4)}`, formPost('List-Unsubscribe=One-Click'));
    await send(base, `/api/captcha?lang=de&x=${secret(5)}`);
    await send(base, '/de/newsletter/confirm?utm_source=mail');
    // nginx writes each line when its request ends.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = readFileSync(accessLogOf(workDir), 'utf8');
    expect(log).not.toMatch(/SECRET/);
    for (const line of ['"GET /de/newsletter/confirm HTTP/1.1" 200', '"POST /newsletter/unsubscribe HTTP/1.1" 410', '"https://127.0.0.1:', '"POST /api/newsletter/unsubscribe HTTP/1.1"', '"GET /api/captcha HTTP/1.1"', '"GET /de/newsletter/confirm?utm_source=mail HTTP/1.1"']) {
      expect(log).toContain(line);
    }
  });
});

describe.runIf(haveNginx)('nginx with the built site while the service is stopped', () => {
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let siteHeaders: Record<string, string> = {};
  const de = loadAllMessages(DEFAULT_PATHS.contentDir, ['de']).get('de') as unknown as { servicePages: Record<string, Record<string, string>> };

  beforeAll(async () => {
    const { outDir } = await builtSite();
    siteHeaders = headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/de/form/not-stored');
    // Nothing listens on the upstream's port: the service is stopped.
    nginx = await startNginx(outDir, await freePort(), mkdtempSync(join(tmpdir(), 'nginx-built-down-')));
  });

  afterAll(async () => {
    await nginx?.stop();
  });

  /** Posts a plain German form from its page and follows the redirect as a browser would. */
  async function postFromGermanPage(target: string, body: string) {
    const answer = await send(nginx.baseURL, target, { ...formPost(body), headers: { ...formPost('').headers, origin: nginx.baseURL, referer: `${nginx.baseURL}/de/contact` } });
    const page = await send(nginx.baseURL, answer.headers.location ?? '/');
    return { answer, page };
  }

  it('regression: a no-JS contact lands on the German "not stored" page, every answer with the site\'s security headers', async () => {
    const { answer, page } = await postFromGermanPage('/api/contact', 'firstName=Lena&lang=de');
    expect([answer.status, answer.headers.location]).toEqual([303, '/de/form/not-stored']);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html lang="de"');
    expect(page.body).toContain(de.servicePages.notStored!.title);
    for (const res of [answer, page]) {
      for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'permissions-policy']) expect(res.headers[name], name).toBe(siteHeaders[name]);
    }
  });

  it('regression: a no-JS form over the body limit lands on the German "not accepted: too long" page', async () => {
    const { answer, page } = await postFromGermanPage('/api/newsletter', `lang=de&name=${'x'.repeat(LIMIT_PLUS)}`);
    expect([answer.status, answer.headers.location]).toEqual([303, '/de/form/not-accepted/too-long']);
    expect(page.status).toBe(200);
    expect(page.body).toContain(de.servicePages.notAccepted!.title);
    expect(page.body).toContain(de.servicePages.notAccepted!.tooLong);
    expect(answer.headers['content-security-policy']).toBe(siteHeaders['content-security-policy']);
  });
});

// A form body past the service's 32 KB.
const LIMIT_PLUS = 40_000;
