import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../../cli/serve/static-server.ts';
import { formPost, send, standInIngest, type StandInIngest } from './stand-in-ingest.ts';
import { fixturePage, METRICS_PATHS, NOT_TOKEN_FORM_POSTS, TOKEN_FORM_CASES, tokenFormSite } from './token-form-sites.ts';

// npm start / sitegen preview: the newsletter's confirm and unsubscribe pages post their form to
// themselves; the local server forwards exactly those POSTs to the service's endpoint.

const CONFIRMED = 'https://www.maskwise.io/de/newsletter/confirmed';

let root = '';
let ingest: StandInIngest;
let site: Server;
let base = '';

/** Starts a static server on `root` with `/api` going to `apiTarget`; returns its base URL and a stop function. */
async function serve(apiTarget: string): Promise<{ server: Server; base: string }> {
  const server = createStaticServer({ root, apiTarget });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  root = tokenFormSite();
  ingest = await standInIngest('ingest', (req) =>
    req.url.startsWith('/api/newsletter/unsubscribe')
      ? { status: 410, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":{"code":"gone"}}' }
      : { status: 303, headers: { location: CONFIRMED, 'x-from': 'ingest' } },
  );
  ({ server: site, base } = await serve(ingest.origin));
});

afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await ingest.close();
});

describe('the POST of a token form page (npm start, sitegen preview)', () => {
  it.each(TOKEN_FORM_CASES.map((c) => [c.path, c.endpoint]))('POST %s?token=… reaches the service as POST %s?token=…, body and type unchanged', async (path, endpoint) => {
    const before = ingest.seen.length;
    const res = await send(base, `${path}?token=abc-123_x`, { ...formPost('lang=de&token=') });
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
  });

  it('keeps the proxy\'s hardening: the service\'s own host, the visitor as the only X-Forwarded-For, an absolute-form target reduced to its path', async () => {
    const before = ingest.seen.length;
    await send(base, '/de/newsletter/confirm?token=t1', { ...formPost('lang=de'), headers: { ...formPost('').headers, 'x-forwarded-for': '6.6.6.6', host: 'evil.example' } });
    await send(base, 'http://user:pw@evil.example/newsletter/unsubscribe?token=t2', formPost('lang=en'));
    const seen = ingest.seen.slice(before);
    expect(seen.map((r) => [r.url, r.headers.host, r.headers['x-forwarded-for'], r.headers.authorization])).toEqual([
      ['/api/newsletter/confirm?token=t1', `127.0.0.1:${ingest.port}`, '127.0.0.1', undefined],
      ['/api/newsletter/unsubscribe?token=t2', `127.0.0.1:${ingest.port}`, '127.0.0.1', undefined],
    ]);
  });

  it('GET and HEAD still answer the static page, and nothing reaches the service', async () => {
    const before = ingest.seen.length;
    for (const { lang, path } of TOKEN_FORM_CASES) {
      const res = await send(base, `${path}?token=abc`);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toBe(fixturePage(lang, path));
      expect((await send(base, `${path}?token=abc`, { method: 'HEAD' })).status, path).toBe(200);
    }
    expect(ingest.seen.length).toBe(before);
  });

  it('other methods on those pages answer 405 naming GET, HEAD and POST; nothing reaches the service', async () => {
    const before = ingest.seen.length;
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await send(base, '/de/newsletter/confirm?token=abc', { ...formPost('lang=de'), method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD, POST');
    }
    expect(ingest.seen.length).toBe(before);
  });

  it('POSTs to any other path than exactly a token form page are not forwarded (405 as before)', async () => {
    const before = ingest.seen.length;
    for (const target of [...NOT_TOKEN_FORM_POSTS, '//newsletter/confirm', '/de//newsletter/confirm', '/newsletter/%63onfirm']) {
      const res = await send(base, target, formPost('lang=de'));
      expect(res.status, target).toBe(405);
      expect(res.headers.allow, target).toBe('GET, HEAD');
    }
    expect(ingest.seen.length).toBe(before);
  });

  it('without an ingest service configured (sitegen preview of a folder alone) the POST is a 405', async () => {
    const server = createStaticServer({ root });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/newsletter/confirm?token=abc', formPost('lang=en'));
    await new Promise((resolve) => server.close(resolve));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('sends the form to the "not stored" page of its page\'s language when the service is not running', async () => {
    const down = await serve('http://127.0.0.1:1');
    const page = `${down.base}/de/newsletter/confirm?token=abc`;
    const res = await send(down.base, '/de/newsletter/confirm?token=abc', { ...formPost('lang=de'), headers: { ...formPost('').headers, referer: page } });
    await new Promise((resolve) => down.server.close(resolve));
    expect([res.status, res.headers.location]).toEqual([303, '/de/form/not-stored']);
  });
});

describe('the service\'s metrics (npm start, sitegen preview)', () => {
  it('are never forwarded, in any spelling: the site\'s 404 page', async () => {
    const before = ingest.seen.length;
    for (const target of METRICS_PATHS) {
      const res = await send(base, target);
      expect(res.status, target).toBe(404);
      expect(res.body, target).toBe(fixturePage('en', '/404'));
      expect((await send(base, target, formPost(''))).status, target).toBe(405);
    }
    expect(ingest.seen.length).toBe(before);
    // Other /api paths still are.
    await send(base, '/api/captcha?lang=de');
    expect(ingest.seen.slice(before).map((r) => r.url)).toEqual(['/api/captcha?lang=de']);
  });
});
