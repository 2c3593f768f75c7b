import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../../cli/serve/static-server.ts';
import { builtSite } from '../../helpers/built-site.ts';

let server: Server;
let port = 0;
/** A stand-in for the ingest service that reads each body to its end; counts the requests it lost mid-body. */
const ingest = {
  abandoned: 0,
  server: createServer((req, res) => {
    req.on('aborted', () => ingest.abandoned++);
    req.resume();
    req.on('end', () => res.end('{}'));
  }),
};

beforeAll(async () => {
  const { outDir } = await builtSite();
  await new Promise<void>((resolve) => ingest.server.listen(0, '127.0.0.1', resolve));
  // Short timeouts so that a test sees them pass; the defaults are seconds (DEFAULT_TIMEOUTS).
  server = createStaticServer({
    root: outDir,
    apiTarget: `http://127.0.0.1:${(ingest.server.address() as AddressInfo).port}`,
    timeouts: { headersMs: 600, requestMs: 1200, keepAliveMs: 500, idleMs: 5000, upstreamMs: 1000 },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const running of [server, ingest.server]) await new Promise((resolve) => running.close(resolve));
});

/**
 * Opens a raw connection, writes `head`, then `trickle` one byte every `everyMs` for as long as
 * the server keeps the connection open, and resolves with what the server sent and when it closed.
 */
function rawExchange(head: string, trickle = '', everyMs = 200): Promise<{ answer: string; openMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!);
    }, everyMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, openMs: Date.now() - started });
    });
    socket.write(head);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe('request limits of the local server', () => {
  it('regression: a path of 20,000 slashes answers 414 without a quadratic regular expression', async () => {
    const { answer } = await rawExchange(`GET /a${'/'.repeat(20_000)}x HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(statusOf(answer)).toBe(414);
  });

  it('answers a 1 MB path 414, and an 8,000-byte path of slashes with the 404 page', async () => {
    expect(statusOf((await rawExchange(`GET /${'a'.repeat(1_000_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`)).answer)).toBe(414);
    const { answer } = await rawExchange(`GET /a${'/'.repeat(7_990)}x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(404);
    expect(answer).toContain('<html lang="en"');
  });

  it('regression: //evil.example and //about/ are not the home page: 404, and 308 to the clean page', async () => {
    const evil = await rawExchange('GET //evil.example HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(statusOf(evil.answer)).toBe(404);
    const about = await rawExchange('GET //about/?x=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(statusOf(about.answer)).toBe(308);
    expect(about.answer).toMatch(/\r\nlocation: \/about\?x=1\r\n/i);
  });

  it('regression: a client trickling its headers one byte at a time is answered 408 and disconnected after the header timeout', async () => {
    const { answer, openMs } = await rawExchange('GET / HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(200), 200);
    expect(statusOf(answer)).toBe(408);
    expect(openMs).toBeLessThan(10_000);
  });

  it('regression: a client trickling a body to /api one byte every 200 ms is disconnected after the request timeout', async () => {
    const { answer, openMs } = await rawExchange('POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n', 'x'.repeat(1000), 200);
    expect(statusOf(answer)).toBe(408);
    expect(openMs).toBeLessThan(10_000);
    // …and the request it had opened to the ingest service is dropped with it.
    await expect.poll(() => ingest.abandoned).toBe(1);
  });

  it('regression: a client trickling a body to a page is answered 405 and disconnected', async () => {
    const { answer, openMs } = await rawExchange('POST /de/contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n', 'x'.repeat(1000), 200);
    expect(statusOf(answer)).toBe(405);
    expect(openMs).toBeLessThan(10_000);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { answer, openMs } = await rawExchange('GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(statusOf(answer)).toBe(200);
    expect(openMs).toBeLessThan(10_000);
  });
});
