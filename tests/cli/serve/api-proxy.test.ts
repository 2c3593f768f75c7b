import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../../cli/serve/static-server.ts';
import { headersForPath, parseHeadersFile } from '../../../cli/host/static-host-files.ts';
import { builtSite, readBuilt } from '../../helpers/built-site.ts';
import { formPost, send as sendTo, standInIngest, type StandInIngest } from './stand-in-ingest.ts';

/** Sends a request line with exactly this target (fetch would normalise it) and the given headers. */
const send = (port: number, target: string, headers: Record<string, string> = {}) => sendTo(`http://127.0.0.1:${port}`, target, { headers });

let site: Server;
let sitePort = 0;
let ingest: StandInIngest;
let elsewhere: StandInIngest;

beforeAll(async () => {
  const { outDir } = await builtSite();
  ingest = await standInIngest('ingest');
  elsewhere = await standInIngest('elsewhere');
  site = createStaticServer({ root: outDir, apiTarget: `http://127.0.0.1:${ingest.port}` });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await Promise.all([ingest.close(), elsewhere.close()]);
});

describe('the /api proxy of the local server', () => {
  it('forwards /api requests to the ingest service with their path and query, and the visitor as X-Forwarded-For', async () => {
    const res = await send(sitePort, '/api/captcha?lang=de', { cookie: 'a=1', 'x-forwarded-for': '6.6.6.6' });
    expect(res).toMatchObject({ status: 200, body: 'ingest' });
    const last = ingest.seen.at(-1)!;
    expect(last.url).toBe('/api/captcha?lang=de');
    expect(last.headers.host).toBe(`127.0.0.1:${ingest.port}`);
    expect(last.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('regression: a request target naming another host (//host, /\\host, user:pw@host) never leaves the site, and adds no Authorization', async () => {
    const other = `127.0.0.1:${elsewhere.port}`;
    for (const target of [`//${other}/api/x`, `/\\${other}/api/x`, `//user:pw@${other}/api/x`, `/\\\\${other}/api/x`]) {
      const res = await send(sitePort, target, { cookie: 'session=secret' });
      expect(res.status, target).toBe(404);
      expect(res.body, target).toContain('<html lang="en"');
    }
    expect(elsewhere.seen).toEqual([]);
    expect(ingest.seen.some((r) => r.headers.authorization !== undefined)).toBe(false);
  });

  it('regression: an absolute-form request line reaches the configured ingest service only, with its path', async () => {
    const before = ingest.seen.length;
    const res = await send(sitePort, `http://user:pw@127.0.0.1:${elsewhere.port}/api/x?y=1`);
    expect(res).toMatchObject({ status: 200, body: 'ingest' });
    expect(elsewhere.seen).toEqual([]);
    expect(ingest.seen.slice(before).map((r) => [r.url, r.headers.authorization])).toEqual([['/api/x?y=1', undefined]]);
  });

  it('answers a JSON client 502 in the service\'s error shape when the service is not running, with the site\'s security headers', async () => {
    await withServiceDown(async (port, csp) => {
      const res = await sendTo(`http://127.0.0.1:${port}`, '/api/newsletter', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'unavailable' } });
      expect([res.headers['content-security-policy'], res.headers['x-content-type-options'], res.headers['cache-control']]).toEqual([csp, 'nosniff', 'no-store']);
    });
  });

  it('regression: sends a plain form post to the "not stored" page of its form\'s language when the service is not running, instead of a JSON 502', async () => {
    await withServiceDown(async (port, csp) => {
      const base = `http://127.0.0.1:${port}`;
      const cases: Array<[string, string | undefined, string]> = [
        ['/api/contact', `${base}/it/contact`, '/it/form/not-stored'],
        ['/api/newsletter', `${base}/`, '/form/not-stored'],
        ['/api/newsletter', undefined, '/form/not-stored'],
        ['/de/newsletter/unsubscribe?token=abc', `${base}/de/newsletter/unsubscribe?token=abc`, '/de/form/not-stored'],
      ];
      for (const [target, referer, location] of cases) {
        const res = await sendTo(base, target, { ...formPost('lang=it'), headers: { ...formPost('').headers, ...(referer ? { referer } : {}) } });
        expect([res.status, res.headers.location, res.body], target).toEqual([303, location, '']);
        expect([res.headers['content-security-policy'], res.headers['cache-control']], target).toEqual([csp, 'no-store']);
      }
    });
  });
});

/** Runs `check` against the local server of the built site whose service is not running, with the site's CSP. */
async function withServiceDown(check: (port: number, csp: string | undefined) => Promise<void>): Promise<void> {
  const { outDir } = await builtSite();
  const csp = headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/')['content-security-policy'];
  const down = createStaticServer({ root: outDir, apiTarget: 'http://127.0.0.1:1' });
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  try {
    await check((down.address() as AddressInfo).port, csp);
  } finally {
    await new Promise((resolve) => down.close(resolve));
  }
}

describe('the service\'s redirects through npm start\'s proxy', () => {
  it('sends a redirect to one of the site\'s local origins on as a path, so the visitor stays on their spelling; any other unchanged', async () => {
    const { outDir } = await builtSite();
    const locations = ['http://localhost:4321/de/newsletter/check-inbox?x=1', 'http://127.0.0.1:4321/form/not-stored', 'https://www.example.com/de', 'http://localhost:4321//evil.example/x', 'http://localhost:9999/de'];
    const redirecting = await standInIngest('redirects', (seen) => ({ status: 303, headers: { location: locations[Number(seen.url.split('=')[1])]! } }));
    const local = createStaticServer({ root: outDir, apiTarget: redirecting.origin, localOrigins: ['http://localhost:4321', 'http://127.0.0.1:4321'] });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const port = (local.address() as AddressInfo).port;
      const answered = [];
      for (const i of locations.keys()) answered.push((await send(port, `/api/newsletter?i=${i}`)).headers.location);
      expect(answered).toEqual(['/de/newsletter/check-inbox?x=1', '/form/not-stored', 'https://www.example.com/de', 'http://localhost:4321//evil.example/x', 'http://localhost:9999/de']);
    } finally {
      await new Promise((resolve) => local.close(resolve));
      await redirecting.close();
    }
  });
});
