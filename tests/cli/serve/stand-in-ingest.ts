import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request as it reached the stand-in service. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the stand-in answers a request with. */
export interface StandInAnswer {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: string;
}

/** A running stand-in for the ingest service. */
export interface StandInIngest {
  port: number;
  origin: string;
  /** Every request that reached it, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A real local HTTP server standing in for the ingest service: records method, path and query,
 * headers and body of every request, and answers with `answer(request)` (by default 200 `name`).
 */
export async function standInIngest(name = 'ingest', answer?: (seen: SeenRequest) => StandInAnswer): Promise<StandInIngest> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const reply = answer?.(request) ?? { status: 200, body: name };
      res.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An answer as the visitor's client received it. */
export interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one request with exactly this target (fetch would normalise it), method, headers and body
 * to `base` (`http://127.0.0.1:PORT`, or nginx's `https://…`), following no redirect.
 */
export function send(base: string, target: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Received> {
  const { hostname, port, protocol } = new URL(base);
  // nginx in the tests serves HTTPS with a self-signed certificate for 127.0.0.1.
  const opts = { host: hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers };
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    };
    const req = protocol === 'https:' ? httpsRequest({ ...opts, rejectUnauthorized: false, agent: false }, onResponse) : request(opts, onResponse);
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A urlencoded form post, as a browser sends a `<form method="post">` without JavaScript. */
export function formPost(body: string): { method: string; headers: Record<string, string>; body: string } {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
}
