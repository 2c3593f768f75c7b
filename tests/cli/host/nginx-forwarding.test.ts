import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX_CONFIG_FILE, nginxConfig } from '../../../cli/host/nginx.ts';
import { LANGUAGES } from '../../../cli/site/languages.ts';
import { fileForPath, notFoundPath } from '../../../cli/site/routes.ts';
import { freePort } from '../../helpers/ports.ts';
import { nginxAvailable, startNginx } from '../../e2e/support/nginx-server.ts';
import { formPost, send, standInIngest, type StandInIngest } from '../serve/stand-in-ingest.ts';
import { fixturePage, METRICS_PATHS, NOT_TOKEN_FORM_POSTS, TOKEN_FORM_CASES, tokenFormSite } from '../serve/token-form-sites.ts';

// Debian's nginx with the generated server block ("set for your host" lines filled in as an
// operator would, tests/e2e/support/nginx-server.ts) in front of a stand-in ingest service.
// Without nginx installed, a developer's run leaves these out after one line; CI fails.

const CONFIRMED = 'https://www.maskwise.io/de/newsletter/confirmed';
const haveNginx = nginxAvailable() || Boolean(process.env.CI);
if (!haveNginx) process.stderr.write('nginx tests: nginx is not installed (Debian: apt-get install -y nginx); left out.\n');

/** The fixture site of the token form pages with a server block written by `nginxConfig`, the pages in its routes. */
function siteWithServerBlock(): string {
  const root = tokenFormSite();
  const pages = TOKEN_FORM_CASES.map(({ path }) => ({ path, file: fileForPath(path) }));
  const notFoundPages = LANGUAGES.map((lang) => ({ prefix: lang === 'en' ? '/' : `/${lang}`, file: fileForPath(notFoundPath(lang)) }));
  mkdirSync(join(root, '_deploy'));
  writeFileSync(join(root, NGINX_CONFIG_FILE), nginxConfig({ serverName: 'www.maskwise.io', pages, notFoundPages, headers: { 'x-content-type-options': 'nosniff' } }));
  return root;
}

describe.runIf(haveNginx)('nginx with the generated server block', () => {
  let ingest: StandInIngest;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let base = '';

  beforeAll(async () => {
    ingest = await standInIngest('ingest', (req) =>
      req.url.startsWith('/api/newsletter/unsubscribe')
        ? { status: 410, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":{"code":"gone"}}' }
        : { status: 303, headers: { location: CONFIRMED, 'x-from': 'ingest' } },
    );
    nginx = await startNginx(siteWithServerBlock(), ingest.port, mkdtempSync(join(tmpdir(), 'nginx-forwarding-')));
    base = nginx.baseURL;
  });

  afterAll(async () => {
    await nginx?.stop();
    await ingest?.close();
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

  it('answers 502 when the service is not running', async () => {
    const down = await startNginx(siteWithServerBlock(), await freePort(), mkdtempSync(join(tmpdir(), 'nginx-forwarding-down-')));
    try {
      expect((await send(down.baseURL, '/de/newsletter/confirm?token=abc', formPost('lang=de'))).status).toBe(502);
      expect((await send(down.baseURL, '/de/newsletter/confirm?token=abc')).status).toBe(200);
    } finally {
      await down.stop();
    }
  });
});
