import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { ERROR_CODES } from '../../ingest/contract/error-codes.ts';
import { formFallbackPath, isFormPost } from '../host/api-forwarding.ts';

/** Headers that describe one connection, not the request, and so are not passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'upgrade', 'host']);

/**
 * The proxy's own answer when the service cannot be reached, as nginx gives it: a plain HTML form
 * post (JavaScript off) is sent to the "not stored" page of its form's language (303), a JSON
 * client gets the service's error shape (`status`); both with `headers`, the site's security headers.
 */
function unavailable(req: IncomingMessage, res: ServerResponse, status: 502 | 504, headers: Readonly<Record<string, string>>): void {
  const own = { ...headers, 'cache-control': 'no-store' };
  if (isFormPost(req.headers['content-type'])) {
    res.writeHead(303, { ...own, location: formFallbackPath('serviceDown', req.headers.referer) }).end();
    return;
  }
  res.writeHead(status, { ...own, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { code: 'unavailable', message: ERROR_CODES.unavailable.message } }));
}

/**
 * The headers sent on to the ingest service: the visitor's, less the connection's own, with the
 * service's host and the visitor's address as the only `X-Forwarded-For` entry.
 */
function upstreamHeaders(headers: IncomingHttpHeaders, origin: URL, visitor: string): IncomingHttpHeaders {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  return { ...kept, host: origin.host, 'x-forwarded-for': visitor };
}

/** How the proxy answers in the service's place, and which of the service's redirects it shortens. */
export interface ProxyAnswers {
  /** The headers of the proxy's own answers (the site's security headers). */
  headers?: Readonly<Record<string, string>>;
  /**
   * The origins the site is reached at from this machine (`npm start`: localhost and 127.0.0.1): a
   * redirect of the service to one of them is sent on as a root-relative path, so the visitor stays
   * on the spelling they used (the pages' CSP lets a form redirect only to their own origin).
   */
  localOrigins?: readonly string[];
}

/**
 * A `Location` to one of `origins`, made root-relative; any other unchanged.
 *
 * @example sameSiteLocation('http://localhost:4321/de/form/not-stored', ['http://localhost:4321']) // '/de/form/not-stored'
 */
function sameSiteLocation(location: string, origins: readonly string[]): string {
  if (!URL.canParse(location)) return location;
  const url = new URL(location);
  // '//host/…' would name another host: such a path keeps its origin.
  return origins.includes(url.origin) && !url.pathname.startsWith('//') ? url.pathname + url.search + url.hash : location;
}

/**
 * Forwards a request to the ingest service at `origin` (such as `http://127.0.0.1:8787`) and
 * streams its answer back. Only the configured origin is ever reached: the request contributes
 * its path and query, never a host, port or credentials. An unreachable service answers 502, one
 * silent for `timeoutMs` answers 504 (a plain form post: 303 to the "not stored" page), with
 * `answers.headers`.
 */
export function forwardToApi(req: IncomingMessage, res: ServerResponse, origin: URL, pathAndQuery: string, timeoutMs: number, answers: ProxyAnswers = {}): void {
  const upstream = request(
    {
      protocol: origin.protocol,
      hostname: origin.hostname,
      port: origin.port,
      path: pathAndQuery,
      method: req.method,
      headers: upstreamHeaders(req.headers, origin, req.socket.remoteAddress ?? ''),
      timeout: timeoutMs,
    },
    (answer) => {
      const { location } = answer.headers;
      const headers = location === undefined || answers.localOrigins === undefined ? answer.headers : { ...answer.headers, location: sameSiteLocation(location, answers.localOrigins) };
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    },
  );
  let timedOut = false;
  upstream.on('timeout', () => {
    timedOut = true;
    upstream.destroy();
  });
  upstream.on('error', () => {
    if (!res.headersSent) unavailable(req, res, timedOut ? 504 : 502, answers.headers ?? {});
    else res.destroy();
  });
  // A visitor who leaves (or is disconnected by a timeout) takes the upstream request along.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
