import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

/** Headers that describe one connection, not the request, and so are not passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'upgrade', 'host']);

/** The JSON error body of the ingest service's contract, for answers the proxy gives in its place. */
function unavailable(res: ServerResponse, status: 502 | 504): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The form service is not reachable. Please try again later.' } }));
}

/**
 * The headers sent on to the ingest service: the visitor's, less the connection's own, with the
 * service's host and the visitor's address as the only `X-Forwarded-For` entry.
 */
function upstreamHeaders(headers: IncomingHttpHeaders, origin: URL, visitor: string): IncomingHttpHeaders {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  return { ...kept, host: origin.host, 'x-forwarded-for': visitor };
}

/**
 * Forwards a request to the ingest service at `origin` (such as `http://127.0.0.1:8787`) and
 * streams its answer back. Only the configured origin is ever reached: the request contributes
 * its path and query, never a host, port or credentials. An unreachable service answers 502, one
 * silent for `timeoutMs` answers 504.
 */
export function forwardToApi(req: IncomingMessage, res: ServerResponse, origin: URL, pathAndQuery: string, timeoutMs: number): void {
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
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  let timedOut = false;
  upstream.on('timeout', () => {
    timedOut = true;
    upstream.destroy();
  });
  upstream.on('error', () => {
    if (!res.headersSent) unavailable(res, timedOut ? 504 : 502);
    else res.destroy();
  });
  // A visitor who leaves (or is disconnected by a timeout) takes the upstream request along.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
