import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { tokenFormEndpoint } from '../host/api-forwarding.ts';
import { cacheControlFor } from '../host/security-headers.ts';
import { isAllowedHost } from '../serve/allowed-host.ts';
import { forwardToApi } from '../serve/api-proxy.ts';
import { contentTypeOf } from '../serve/content-types.ts';
import { ingestTarget, requestTarget } from '../serve/request-target.ts';
import { applyServerLimits, DEFAULT_TIMEOUTS } from '../serve/server-limits.ts';
import { resolveUrl } from '../site/resolve-url.ts';
import type { PageStore } from './page-store.ts';
import type { ReloadChannel } from './reload-channel.ts';

/** The URL prefix of what only the dev server answers: the event stream and the browser scripts. */
const DEV_PREFIX = '/__sitegen/';

/**
 * The browser modules of the dev server, served under their names from cli/dev/client/ (one
 * imports the other). A Map, looked up by a name from the URL: an object's lookup would find
 * `constructor` and the other names every object inherits.
 */
const CLIENT_FILES: ReadonlyMap<string, URL> = new Map([
  ['dev-client.js', new URL('./client/dev-client.js', import.meta.url)],
  ['error-overlay.js', new URL('./client/error-overlay.js', import.meta.url)],
]);

/** What `createDevServer` serves. */
export interface DevServerOptions {
  pages: PageStore;
  /** The folder of the stylesheet, island scripts and images. */
  assetDir: string;
  channel: ReloadChannel;
  /** Where `/api/*` goes: the ingest service, e.g. `http://127.0.0.1:8787`. */
  apiTarget: string;
  /** The address it listens on (`HOST`): besides localhost and IP addresses, the one name a request's Host may give (`isAllowedHost`). */
  listenHost: string;
  /** Where a fault while answering one request is reported; the server goes on answering the others. */
  logError: (line: string) => void;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A page as the dev server sends it: the page's HTML with the dev client script before
 * `</body>`, telling it which page and version it shows. Only the dev server adds it; built
 * pages never carry it.
 *
 * @example withDevClient('<body>…</body>', 'de.html', 'l8x.3') // '<body>…<script type="module" src="/__sitegen/dev-client.js?file=de.html&amp;version=l8x.3"></script></body>'
 */
export function withDevClient(html: string, file: string, version: string): string {
  const query = new URLSearchParams({ file, version }).toString().replace(/&/g, '&amp;');
  const script = `<script type="module" src="${DEV_PREFIX}dev-client.js?${query}"></script>`;
  const end = html.lastIndexOf('</body>');
  return end < 0 ? html + script : html.slice(0, end) + script + html.slice(end);
}

/** The page shown before any build succeeded: the overlay (from the event stream) says why. */
const NOT_BUILT = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>sitegen dev</title></head><body><p>The site has not built yet.</p></body></html>';

/**
 * The server of `sitegen dev`: pages from the page store with the dev client added, the assets
 * from their folder, `/api` and the token form pages' POSTs forwarded to the ingest service as
 * `npm start` does (`ingestTarget`), and the event stream and client
 * scripts under `/__sitegen/`. URLs resolve exactly as on the built site (`resolveUrl`: clean
 * URLs, 308 to the canonical spelling, each language's 404 page).
 */
export function createDevServer({ pages, assetDir, channel, apiTarget, listenHost, logError }: DevServerOptions): Server {
  const apiOrigin = new URL(apiTarget);
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    if (!isAllowedHost(req.headers.host, listenHost)) {
      const body = `sitegen dev answers requests for localhost, an IP address or HOST (${listenHost}) only; open it at one of those, not at the name this request gave.\n`;
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(body);
      return;
    }
    const target = requestTarget(req.url ?? '/');
    if (target.type === 'refused') {
      res.writeHead(target.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${target.status}\n`);
      return;
    }
    const { path, query } = target;
    const forwarded = ingestTarget(req.method, path, query);
    if (forwarded) return forwardToApi(req, res, apiOrigin, forwarded, DEFAULT_TIMEOUTS.upstreamMs);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: tokenFormEndpoint(path) ? 'GET, HEAD, POST' : 'GET, HEAD', connection: 'close' }).end();
      return;
    }
    if (path.startsWith(DEV_PREFIX)) {
      const name = path.slice(DEV_PREFIX.length);
      const params = new URLSearchParams(query);
      if (name === 'events') return channel.connect(res, params.get('file') ?? '', params.get('version') ?? '');
      const client = CLIENT_FILES.get(name);
      if (!client) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': contentTypeOf(name), 'cache-control': 'no-cache' }).end(readFileSync(client));
      return;
    }
    const resolution = resolveUrl(path, (file) => pages.has(file) || isFile(join(assetDir, file)));
    if (resolution.type === 'redirect') {
      res.writeHead(308, { location: resolution.location + query }).end();
      return;
    }
    const page = pages.get(resolution.file);
    if (page || resolution.file.endsWith('.html')) {
      const html = withDevClient(page?.html ?? NOT_BUILT, resolution.file, page?.version ?? '');
      res.writeHead(resolution.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    res.writeHead(resolution.status, { 'content-type': contentTypeOf(resolution.file), 'cache-control': cacheControlFor(path) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(join(assetDir, resolution.file)).pipe(res);
  };
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    // A fault while answering one request (a bug, a file gone mid-read) is that request's 500,
    // never the end of the dev server and of the ingest service it started.
    try {
      answer(req, res);
    } catch (error) {
      logError(`sitegen dev: ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end();
    }
  });
  return applyServerLimits(server, DEFAULT_TIMEOUTS);
}
