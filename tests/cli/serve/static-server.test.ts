import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersForPath, parseHeadersFile } from '../../../cli/host/static-host-files.ts';
import { createStaticServer } from '../../../cli/serve/static-server.ts';
import { builtSite, readBuilt } from '../../helpers/built-site.ts';

let server: Server;
let base = '';
let outDir = '';
let csp = '';

beforeAll(async () => {
  ({ outDir } = await builtSite());
  csp = headersForPath(parseHeadersFile(readBuilt(outDir, '_headers')), '/')['content-security-policy']!;
  server = createStaticServer({ root: outDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string, encoding = 'identity') => fetch(base + path, { redirect: 'manual', headers: { 'accept-encoding': encoding } });

describe('the local static server', () => {
  it('answers a page with the security headers of the build\'s _headers file, revalidated', async () => {
    const res = await get('/de/about');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(csp);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(readBuilt(outDir, 'de/about.html'));
  });

  it('serves /.well-known/security.txt as text/plain; charset=utf-8, and no other dotfile', async () => {
    const res = await get('/.well-known/security.txt');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(readBuilt(outDir, '.well-known/security.txt'));
    expect((await get('/.sitegen-output')).status).toBe(404);
  });

  it('sends the brotli copy to a browser that accepts it, gzip to one that accepts only gzip', async () => {
    const br = await get('/de/about', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toBe(readBuilt(outDir, 'de/about.html'));
    const gzip = await get('/de/about', 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(readBuilt(outDir, 'de/about.html'));
  });

  it('caches content-hashed assets for a year', async () => {
    const { result } = await builtSite();
    const res = await get(result.assets.css);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('regression: a missing file under /assets/ is a 404 that is never cached immutable (nginx sends no-cache)', async () => {
    const { result } = await builtSite();
    for (const path of [result.assets.css.replace(/\.css$/, '.0.css'), '/assets/islands/gone.0123abcd.js', '/assets/']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    const refused = await fetch(base + result.assets.css, { method: 'POST' });
    expect([refused.status, refused.headers.get('cache-control')]).toEqual([405, 'no-cache']);
  });

  it('redirects another letter case with 308 and the same headers', async () => {
    const res = await get('/DE/Impressum?x=1');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/de/impressum?x=1');
    expect(res.headers.get('content-security-policy')).toBe(csp);
  });

  it('answers unknown German URLs with the German 404 page and status 404, with the headers', async () => {
    const res = await get('/de/gibt-es-nicht');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBe(csp);
    expect(await res.text()).toBe(readBuilt(outDir, 'de/404.html'));
  });

  it('does not publish the host configuration files', async () => {
    for (const path of ['/_headers', '/_redirects', '/_deploy/nginx.conf', '/.sitegen-output']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe(readBuilt(outDir, '404.html'));
    }
  });
});
