import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_TARGET_LENGTH } from './request-target.ts';

/** How long the local servers wait on a client or on the ingest service, in milliseconds. */
export interface ServerTimeouts {
  /** From the connection (or the previous request) until the request's headers are complete (node:http `headersTimeout`). */
  headersMs: number;
  /** Until the whole request, body included, has arrived (node:http `requestTimeout`). */
  requestMs: number;
  /** How long an idle keep-alive connection stays open between requests (node:http `keepAliveTimeout`). */
  keepAliveMs: number;
  /** Any connection on which nothing moves either way for this long is closed (node:http `timeout`). */
  idleMs: number;
  /** The proxy's request to the ingest service: this long without a byte from it answers 504. */
  upstreamMs: number;
}

/** The defaults of `npm start` and `sitegen preview` (docs/security.md, "The local server"). */
export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  idleMs: 30_000,
  upstreamMs: 30_000,
};

/**
 * The answer to a request the HTTP parser gave up on, by its error code: 414 for a request line
 * longer than the servers accept (even past node's 16 KB header limit), 431 for other oversized
 * headers, 408 for a request not complete in time, 400 otherwise; `null` when the client is gone.
 *
 * @example clientErrorStatus('HPE_HEADER_OVERFLOW', Buffer.from(`GET /${'/'.repeat(20_000)}`)) // 414
 */
function clientErrorStatus(code: string | undefined, rawPacket: Buffer | undefined): 400 | 408 | 414 | 431 | null {
  if (code === 'ECONNRESET') return null;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') {
    // The parser overflowed inside the request line when the packet starts with one whose
    // target runs past the limit (a line that long arrives in the first packet).
    const head = rawPacket?.subarray(0, MAX_TARGET_LENGTH + 32).toString('latin1') ?? '';
    const line = /^[A-Z]+ (\S*)/.exec(head);
    return line && line[1]!.length > MAX_TARGET_LENGTH ? 414 : 431;
  }
  return 400;
}

const REASONS = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' } as const;

/**
 * Applies the timeouts to a node:http server and answers requests the parser refused with a
 * plain status line, as node does, but 414 for an overlong request line.
 */
export function applyServerLimits(server: Server, timeouts: ServerTimeouts): Server {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.setTimeout(timeouts.idleMs, (socket) => socket.destroy());
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex & { _httpMessage?: { headersSent: boolean } }) => {
    const status = clientErrorStatus(error.code, error.rawPacket);
    // Once an answer has begun, no status line can be sent any more: only closing is left.
    if (status === null || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    // The client may still be sending: give the answer a moment to leave before the connection goes.
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  return server;
}
