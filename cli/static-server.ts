import { createReadStream, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { resolveUrl } from './resolve-url.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticServerOptions {
  /** The built site folder. */
  root: string;
  /** Where `/api/*` requests are forwarded (the ingest service), e.g. `http://127.0.0.1:8787`. */
  apiTarget?: string;
}

function isFile(root: string, file: string): boolean {
  try {
    return statSync(join(root, file)).isFile();
  } catch {
    return false;
  }
}

function proxy(req: IncomingMessage, res: ServerResponse, target: string): void {
  const url = new URL(req.url ?? '/', target);
  const upstream = httpRequest(
    url,
    { method: req.method, headers: { ...req.headers, host: url.host, 'x-forwarded-for': req.socket.remoteAddress ?? '' } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The form service is not reachable. Please try again later.' } }));
    } else res.destroy();
  });
  req.pipe(upstream);
}

/**
 * A small static server for the built site, as production hosts serve it: clean URLs,
 * case redirects, language 404 pages, long caching for hashed assets, and `/api` forwarded to
 * the ingest service when `apiTarget` is set.
 */
export function createStaticServer({ root, apiTarget }: StaticServerOptions): Server {
  return createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (apiTarget && (pathname === '/api' || pathname.startsWith('/api/'))) return proxy(req, res, apiTarget);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const resolution = resolveUrl(pathname, (file) => isFile(root, file));
    if (resolution.type === 'redirect') {
      const { search } = new URL(req.url ?? '/', 'http://localhost');
      res.writeHead(308, { location: resolution.location + search }).end();
      return;
    }
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPES[extname(resolution.file)] ?? 'application/octet-stream',
      'cache-control': resolution.file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    };
    if (!isFile(root, resolution.file)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 Not Found');
      return;
    }
    res.writeHead(resolution.status, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(join(root, resolution.file)).pipe(res);
  });
}
