/**
 * Brotli through the generated nginx config: the build writes a `.br` beside every text file, and
 * Debian's nginx serves it to a client that accepts only `br` once the Brotli static module is
 * loaded and the config's one Brotli line is uncommented (docs/operators.md). Without them, the
 * same client gets the page uncompressed, which is why the line is there.
 */
import { get } from 'node:https';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useBuiltSite } from '../../helpers/built-site.ts';
import { freePort } from '../../helpers/ports.ts';
import { brotliModuleAvailable, nginxAvailable, startNginx } from '../../e2e/support/nginx-server.ts';

// CI installs the module (.ci/run); a developer's machine without it leaves these out after one line.
const haveBrotli = (nginxAvailable() && brotliModuleAvailable()) || Boolean(process.env.CI);
if (!haveBrotli) process.stderr.write('nginx Brotli tests: nginx or its Brotli module is not installed (Debian: apt-get install -y nginx libnginx-mod-http-brotli-static); left out.\n');

/** GET `path` with `accept` as Accept-Encoding (over nginx's HTTPS, its test certificate accepted): the status, the encoding and the raw body. */
function fetchRaw(base: string, path: string, accept: string): Promise<{ status: number; encoding: string | undefined; vary: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${base}${path}`, { headers: { 'accept-encoding': accept }, rejectUnauthorized: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, encoding: response.headers['content-encoding'], vary: response.headers.vary, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

describe.runIf(haveBrotli)('nginx and the .br files', () => {
  const built = useBuiltSite();
  const PAGES = [
    { path: '/', file: 'index.html' },
    { path: '/de/about', file: 'de/about.html' },
  ];

  it('serves the .br file to a client that accepts only br once the module and the switch are on', async () => {
    const nginx = await startNginx(built.outDir, await freePort(), mkdtempSync(join(tmpdir(), 'nginx-brotli-')), undefined, { brotli: true });
    try {
      for (const { path, file } of PAGES) {
        const html = readFileSync(join(built.outDir, file));
        const br = await fetchRaw(nginx.baseURL, path, 'br');
        expect(br, path).toMatchObject({ status: 200, encoding: 'br' });
        expect(br.vary, path).toContain('Accept-Encoding');
        expect(brotliDecompressSync(br.body).equals(html), path).toBe(true);
        expect(br.body.length, path).toBeLessThan(html.length / 3);
        // A client that accepts both gets Brotli (smaller); one that accepts only gzip still gets gzip.
        expect((await fetchRaw(nginx.baseURL, path, 'gzip, deflate, br')).encoding, path).toBe('br');
        const gzip = await fetchRaw(nginx.baseURL, path, 'gzip');
        expect(gzip.encoding, path).toBe('gzip');
        expect(gunzipSync(gzip.body).equals(html), path).toBe(true);
      }
    } finally {
      await nginx.stop();
    }
  });

  it('sends the page uncompressed to a br-only client when the switch is off', async () => {
    const nginx = await startNginx(built.outDir, await freePort(), mkdtempSync(join(tmpdir(), 'nginx-brotli-')));
    try {
      const br = await fetchRaw(nginx.baseURL, '/', 'br');
      expect(br.encoding).toBeUndefined();
      expect(br.body.equals(readFileSync(join(built.outDir, 'index.html')))).toBe(true);
    } finally {
      await nginx.stop();
    }
  });
});
