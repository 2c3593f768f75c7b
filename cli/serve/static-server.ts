import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { headersForPath, parseHeadersFile, type HeaderRule } from '../host/static-host-files.ts';
import { resolveUrl } from '../site/resolve-url.ts';
import { cacheControlFor } from '../host/security-headers.ts';

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

/**
 * The rules of the build's `_headers` file (security headers, CSP hashes), re-read when the
 * folder is rebuilt, so this server answers with exactly the headers a static host would.
 */
function headerRules(root: string): () => readonly HeaderRule[] {
  let cached: { mtimeMs: number; rules: HeaderRule[] } = { mtimeMs: -1, rules: [] };
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(join(root, '_headers')).mtimeMs;
    } catch {
      return [];
    }
    if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, rules: parseHeadersFile(readFileSync(join(root, '_headers'), 'utf8')) };
    return cached.rules;
  };
}

/** The precompressed copy the build wrote beside `file` that the client accepts (brotli first), if any. */
function precompressed(root: string, file: string, acceptEncoding: string): { file: string; encoding: string } | null {
  for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (new RegExp(`\\b${encoding}\\b`).test(acceptEncoding) && isFile(root, file + suffix)) return { file: file + suffix, encoding };
  }
  return null;
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
 * case redirects, language 404 pages, the security headers of the build's `_headers` file,
 * long caching for hashed assets, the precompressed `.br`/`.gz` copies, and `/api` forwarded to
 * the ingest service when `apiTarget` is set.
 */
export function createStaticServer({ root, apiTarget }: StaticServerOptions): Server {
  const rules = headerRules(root);
  return createServer((req, res) => {
    const { pathname, search } = new URL(req.url ?? '/', 'http://localhost');
    if (apiTarget && (pathname === '/api' || pathname.startsWith('/api/'))) return proxy(req, res, apiTarget);
    const common = { ...headersForPath(rules(), pathname), 'cache-control': cacheControlFor(pathname) };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...common, allow: 'GET, HEAD' }).end();
      return;
    }
    const resolution = resolveUrl(pathname, (file) => isFile(root, file));
    if (resolution.type === 'redirect') {
      res.writeHead(308, { ...common, location: resolution.location + search }).end();
      return;
    }
    if (!isFile(root, resolution.file)) {
      res.writeHead(404, { ...common, 'content-type': 'text/plain; charset=utf-8' }).end('404 Not Found');
      return;
    }
    const encoded = precompressed(root, resolution.file, String(req.headers['accept-encoding'] ?? ''));
    const headers: Record<string, string> = {
      ...common,
      'content-type': CONTENT_TYPES[extname(resolution.file)] ?? 'application/octet-stream',
      vary: 'Accept-Encoding',
      ...(encoded ? { 'content-encoding': encoded.encoding } : {}),
    };
    res.writeHead(resolution.status, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(join(root, encoded?.file ?? resolution.file)).pipe(res);
  });
}
