/**
 * Bounds on how long a client may hold a connection without finishing its request: the headers
 * must arrive within `headersMs`, the whole request (body included) within `requestMs`, and a
 * connection with no traffic — between keep-alive requests, too — is closed after `idleMs`.
 * A client too slow for the first two is answered `408 request_timeout` in the usual error shape.
 *
 * Node enforces the header and request limits on a sweep every `connectionsCheckingInterval`
 * (30 s by default, which would let a 10 s limit stretch to 40 s), so the sweep is tied to the
 * header limit here.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.ts';

/** The three limits, in milliseconds. */
export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  idleMs: number;
}



/** Fastify server options: the timeouts, Node's own `http` options, and the client-error answer. */
interface TimeoutOptions extends Pick<FastifyServerOptions, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout' | 'clientErrorHandler'> {
  http: ServerOptions;
}

/** The Fastify server options enforcing `timeouts`, with the client-error answer below. */
export function timeoutOptions(timeouts: ServerTimeouts): TimeoutOptions {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.idleMs,
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(timeouts.headersMs / 4))),
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * Answers an error Node raises before a request reaches Fastify (too slow, unparsable) with the
 * catalogue's body, then closes the connection: `request_timeout` for a timeout, `bad_request`
 * for anything else.
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'bad_request';
  this.log.info({ errorCode: code, nodeCode: error.code }, 'slow or malformed request answered before routing; connection closed');
  const { status, message } = ERROR_CODES[code];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
