/**
 * Slow and idle clients against the real listening service, over raw sockets: a client that
 * trickles its headers or its body, or sits idle on a keep-alive connection, is answered
 * `408 request_timeout` (or simply closed when idle) instead of holding its connection forever.
 * The timeouts are configured short here so that the tests are quick.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../ingest/contract/error-codes.ts';
import { type RunningService, startService } from '../../../ingest/server.ts';
import { configFor, countRows, signup, tempDir } from '../fixtures.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const SHORT = { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600', IDLE_TIMEOUT_MS: '400', SHUTDOWN_DRAIN_MS: '0', RATE_LIMIT_MAX: '1000' };

async function service(env: Record<string, string> = SHORT): Promise<{ service: RunningService; port: number }> {
  const temp = tempDir();
  const running = await startService(configFor(temp.dir, { ...env, LOG_LEVEL: 'silent' }));
  cleanups.push(temp.remove, () => running.close());
  return { service: running, port: Number(new URL(running.url).port) };
}

/** What a raw client saw: everything the server sent until it closed the connection. */
interface Seen {
  received: string;
  closedByServer: boolean;
}

/**
 * Opens a socket, writes `head`, then one character of `trickle` every `everyMs`, and resolves when
 * the server closes the connection; fails if it is still open after `limitMs` (the bug: forever).
 */
function slowClient(port: number, head: string, trickle: string, everyMs: number, limitMs = 10_000): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let next = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    socket.write(head);
    const timer = setInterval(() => {
      if (next < trickle.length && socket.writable) socket.write(trickle[next++]!);
    }, everyMs);
    const limit = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection is still open after ${limitMs} ms; received ${JSON.stringify(received)}`));
    }, limitMs);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(limit);
      resolve({ received, closedByServer: true });
    });
  });
}

function statusOf(seen: Seen): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(seen.received)?.[1]);
}

function bodyOf(seen: Seen): unknown {
  return JSON.parse(seen.received.slice(seen.received.indexOf('\r\n\r\n') + 4));
}

const body = JSON.stringify(signup());
const postHead = (length: number) =>
  `POST /api/newsletter HTTP/1.1\r\nHost: ingest\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('slow clients', () => {
  it('answers 408 request_timeout to 20 clients trickling a body one byte at a time, and stores nothing', async () => {
    const { service: running, port } = await service();
    const seen = await Promise.all(Array.from({ length: 20 }, () => slowClient(port, postHead(body.length), body, 100)));
    for (const one of seen) {
      expect(statusOf(one)).toBe(408);
      expect(bodyOf(one)).toEqual({ error: { code: 'request_timeout', message: ERROR_CODES.request_timeout.message } });
    }
    expect(await countRows(running.backend, 'newsletter')).toBe(0);
  });

  it('answers 408 request_timeout to clients trickling their headers, or sending nothing at all', async () => {
    const { port } = await service();
    const headers = 'GET /healthz HTTP/1.1\r\nHost: ingest\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n';
    const seen = await Promise.all([
      ...Array.from({ length: 10 }, () => slowClient(port, '', headers, 50)),
      ...Array.from({ length: 10 }, () => slowClient(port, '', '', 50)),
    ]);
    for (const one of seen) {
      expect(statusOf(one)).toBe(408);
      expect((bodyOf(one) as { error: { code: string } }).error.code).toBe('request_timeout');
    }
  });

  it('closes a keep-alive connection left idle after its answer', async () => {
    const { port } = await service();
    const seen = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: ingest\r\n\r\n', '', 50);
    expect(statusOf(seen)).toBe(200);
    expect(seen.received).toContain('{"status":"ok"}');
  });

  it('still serves a client that sends its request in time, over several keep-alive requests', async () => {
    const { service: running, port } = await service();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signup({ email: `in-time-${i}@example.com` })),
      });
      expect(res.status).toBe(201);
    }
    expect(await countRows(running.backend, 'newsletter')).toBe(3);
  });
});
