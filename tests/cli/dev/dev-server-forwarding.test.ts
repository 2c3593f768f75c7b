import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevServer } from '../../../cli/dev/dev-server.ts';
import { PageStore } from '../../../cli/dev/page-store.ts';
import { ReloadChannel } from '../../../cli/dev/reload-channel.ts';
import { fileForPath } from '../../../cli/site/routes.ts';
import { formPost, send, standInIngest, type StandInIngest } from '../serve/stand-in-ingest.ts';
import { fixturePage, METRICS_PATHS, NOT_TOKEN_FORM_POSTS, TOKEN_FORM_CASES } from '../serve/token-form-sites.ts';

// sitegen dev forwards what npm start forwards: the token form pages' POSTs, and never the metrics.

let ingest: StandInIngest;
let channel: ReloadChannel;
let server: Server;
let base = '';

/** Starts a dev server whose page store holds the token form pages, with /api going to `apiTarget`. */
async function devServer(apiTarget: string): Promise<{ server: Server; base: string }> {
  const pages = new PageStore();
  pages.update(new Map(TOKEN_FORM_CASES.map(({ lang, path }) => [fileForPath(path), fixturePage(lang, path)])));
  channel = new ReloadChannel((file) => pages.get(file)?.version);
  const started = createDevServer({ pages, assetDir: mkdtempSync(join(tmpdir(), 'dev-assets-')), channel, apiTarget, listenHost: '127.0.0.1', logError: () => {} });
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  return { server: started, base: `http://127.0.0.1:${(started.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  ingest = await standInIngest('ingest', () => ({ status: 303, headers: { location: 'http://localhost:4321/de/newsletter/confirmed' } }));
  ({ server, base } = await devServer(ingest.origin));
});

afterAll(async () => {
  channel.close();
  await new Promise((resolve) => server.close(resolve));
  await ingest.close();
});

describe('sitegen dev and the token form pages', () => {
  it('forwards each page\'s POST, query and body to the endpoint of the same name and passes the 303 back', async () => {
    for (const { path, endpoint } of TOKEN_FORM_CASES) {
      const before = ingest.seen.length;
      const res = await send(base, `${path}?token=abc`, formPost('lang=de'));
      expect(res.status, path).toBe(303);
      expect(res.headers.location, path).toBe('http://localhost:4321/de/newsletter/confirmed');
      expect(ingest.seen.slice(before).map((r) => [r.method, r.url, r.body, r.headers['content-type']]), path).toEqual([
        ['POST', `${endpoint}?token=abc`, 'lang=de', 'application/x-www-form-urlencoded'],
      ]);
    }
  });

  it('serves the page to GET; other methods get 405; other paths and the metrics are not forwarded', async () => {
    const before = ingest.seen.length;
    const page = await send(base, '/de/newsletter/confirm?token=abc');
    expect(page.status).toBe(200);
    expect(page.body).toContain('page /de/newsletter/confirm');
    expect(page.body).toContain('/__sitegen/dev-client.js');
    const put = await send(base, '/de/newsletter/confirm?token=abc', { ...formPost('lang=de'), method: 'PUT' });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
    for (const target of NOT_TOKEN_FORM_POSTS) expect((await send(base, target, formPost('lang=de'))).status, target).toBe(405);
    for (const target of METRICS_PATHS) expect((await send(base, target)).status, target).toBe(404);
    expect(ingest.seen.length).toBe(before);
  });

  it('sends the form to the "not stored" page of its page\'s language when the service is not running', async () => {
    const down = await devServer('http://127.0.0.1:1');
    const page = `${down.base}/de/newsletter/unsubscribe?token=abc`;
    const res = await send(down.base, '/de/newsletter/unsubscribe?token=abc', { ...formPost('lang=de'), headers: { ...formPost('').headers, referer: page } });
    await new Promise((resolve) => down.server.close(resolve));
    expect([res.status, res.headers.location]).toEqual([303, '/de/form/not-stored']);
  });
});
