import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { headersForPath, parseHeadersFile, type HeaderRule } from '../host/static-host-files.ts';
import { resolveUrl } from '../site/resolve-url.ts';
import { cacheControlFor, REVALIDATE_CACHE } from '../host/security-headers.ts';
import { tokenFormEndpoint } from '../host/api-forwarding.ts';
import { forwardToApi } from './api-proxy.ts';
import { contentTypeOf } from './content-types.ts';
import { ingestTarget, requestTarget } from './request-target.ts';
import { applyServerLimits, DEFAULT_TIMEOUTS, type ServerTimeouts } from './server-limits.ts';

/** What `createStaticServer` serves, where `/api` goes, and its time limits. */
export interface StaticServerOptions {
  /** The built site folder. */
  root: string;
  /** Where `/api/*` requests and the token form pages' POSTs are forwarded (the ingest service), e.g. `http://127.0.0.1:8787`. */
  apiTarget?: string;
  /** Client and upstream timeouts; `DEFAULT_TIMEOUTS` where not given. */
  timeouts?: Partial<ServerTimeouts>;
  /** The origins this server is reached at from this machine, whose redirects from the service are sent on as paths (`ProxyAnswers`). */
  localOrigins?: readonly string[];
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

/**
 * A small static server for the built site, as production hosts serve it: clean URLs,
 * case redirects, language 404 pages, the security headers of the build's `_headers` file,
 * long caching for hashed assets, the precompressed `.br`/`.gz` copies, and, when `apiTarget` is
 * set, `/api` (but `/api/metrics`) and the POSTs of the token form pages (`TOKEN_FORM_PAGES`)
 * forwarded to the ingest service (`ingestTarget`) — only to that origin, with a path and the
 * request's query. Requests get bounded time (`timeouts`), targets a bounded length (414 past it).
 */
export function createStaticServer({ root, apiTarget, timeouts, localOrigins }: StaticServerOptions): Server {
  const rules = headerRules(root);
  const apiOrigin = apiTarget === undefined ? null : new URL(apiTarget);
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts };
  // Node checks the header and request timeouts at this interval (30 s unless told).
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, limits.headersMs / 2, limits.requestMs / 2) }, (req, res) => {
    const target = requestTarget(req.url ?? '/');
    if (target.type === 'refused') {
      res.writeHead(target.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${target.status}\n`);
      return;
    }
    const { path, query } = target;
    if (apiOrigin) {
      const forwarded = ingestTarget(req.method, path, query);
      if (forwarded) return forwardToApi(req, res, apiOrigin, forwarded, limits.upstreamMs, { headers: headersForPath(rules(), path), ...(localOrigins ? { localOrigins } : {}) });
    }
    // Only a file found is cached as its path says (a year for a hashed asset); anything else at the
    // same path (a 404 under /assets/, a redirect, a refusal) is revalidated, as nginx sends it.
    // HSTS is for HTTPS answers (a browser ignores it over plain HTTP); this server speaks HTTP only.
    const { 'strict-transport-security': _hsts, ...fromRules } = headersForPath(rules(), path);
    const common = { ...fromRules, 'cache-control': REVALIDATE_CACHE };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const allow = apiOrigin && tokenFormEndpoint(path) ? 'GET, HEAD, POST' : 'GET, HEAD';
      res.writeHead(405, { ...common, allow, connection: 'close' }).end();
      return;
    }
    const resolution = resolveUrl(path, (file) => isFile(root, file));
    if (resolution.type === 'redirect') {
      res.writeHead(308, { ...common, location: resolution.location + query }).end();
      return;
    }
    if (!isFile(root, resolution.file)) {
      res.writeHead(404, { ...common, 'content-type': 'text/plain; charset=utf-8' }).end('404 Not Found');
      return;
    }
    const encoded = precompressed(root, resolution.file, String(req.headers['accept-encoding'] ?? ''));
    const headers: Record<string, string> = {
      ...common,
      ...(resolution.status === 200 ? { 'cache-control': cacheControlFor(path) } : {}),
      'content-type': contentTypeOf(resolution.file),
      vary: 'Accept-Encoding',
      ...(encoded ? { 'content-encoding': encoded.encoding } : {}),
    };
    res.writeHead(resolution.status, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(join(root, encoded?.file ?? resolution.file)).pipe(res);
  });
  return applyServerLimits(server, limits);
}
