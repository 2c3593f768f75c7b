/**
 * One delivery attempt: the event's body POSTed to its endpoint, signed as the Standard Webhooks
 * specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
 * of id.timestamp.body>`, one signature per secret during a rotation) by the `standardwebhooks`
 * package, the specification's reference implementation, rather than an HMAC scheme of our own.
 *
 * The request never follows a redirect, never takes longer than `timeoutMs` from connecting to
 * the last byte of the answer, and connects only to the address it checked: the host name is
 * resolved by `guardedLookup`, which refuses private and loopback addresses unless the operator
 * allowed them, so a DNS answer cannot point a delivery into the internal network.
 *
 * The result is plain data for the worker: delivered (2xx), or failed with the status (or none)
 * and whether trying again can help (5xx, 408, 429, a timeout, a connection error) or not (any
 * other answer: 4xx, 3xx). The error text is ours, never the receiver's: the status and its
 * standard reason (`HTTP 503 Service Unavailable`), or the network error, made printable
 * (`printable-text.ts`). A receiver's answer body may echo the visitor's data and may carry
 * terminal escape sequences, so it is read only to reuse the connection, and neither logged,
 * stored nor printed; nor is a redirect's target.
 */
import { type Agent, STATUS_CODES, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isPrivateAddress } from '../config/private-address.ts';
import type { WebhookEndpoint } from '../config/webhook-endpoints.ts';
import { guardedLookup } from './address-guard.ts';
import { printable } from './printable-text.ts';

/** What one attempt did. */
export type DeliveryResult = { ok: true; status: number } | { ok: false; status: number | null; retry: boolean; error: string };

/** How an attempt is made. */
export interface DeliveryOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** The attempt's time: the `webhook-timestamp` (receivers refuse one far from their clock). */
  now: number;
  signal?: AbortSignal;
  /** The connection pool to reuse (keep-alive); none: a connection of its own. */
  agent?: Agent;
}

/** One signer per secret, made once (decoding the secret is half of a signature's cost: 20 µs against 8 µs). */
const SIGNERS = new Map<string, Webhook>();

/** The headers of a signed delivery of `body` as event `eventId` at `now`, with one signature per secret. */
function signedHeaders(secrets: readonly string[], eventId: string, body: string, now: number): Record<string, string> {
  const at = new Date(Math.floor(now / 1000) * 1000);
  const signers = secrets.map((secret) => {
    let signer = SIGNERS.get(secret);
    if (signer === undefined) SIGNERS.set(secret, (signer = new Webhook(secret)));
    return signer;
  });
  return {
    'content-type': 'application/json',
    'user-agent': 'ingest-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': signers.map((signer) => signer.sign(eventId, at, body)).join(' '),
  };
}

/** Whether a failed answer is worth another try: the receiver's trouble (5xx), or it asked us to wait (408, 429). */
function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** POSTs `body` to `endpoint`, signed as event `eventId`; never throws. */
export function deliver(endpoint: WebhookEndpoint, eventId: string, body: string, options: DeliveryOptions): Promise<DeliveryResult> {
  const url = new URL(endpoint.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { ...signedHeaders(endpoint.secrets, eventId, body, options.now), 'content-length': String(Buffer.byteLength(body)) };
  // An address literal is connected to without a lookup: checked here, as the lookup checks a name.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!options.allowPrivate && isIP(literal) !== 0 && isPrivateAddress(literal)) {
    return Promise.resolve({ ok: false, status: null, retry: false, error: `${literal} is a private or loopback address (WEBHOOK_ALLOW_PRIVATE is not set)` });
  }
  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    const finish = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const req = send(url, { method: 'POST', headers, lookup: guardedLookup(options.allowPrivate), agent: options.agent ?? false }, (res) => {
      const status = res.statusCode ?? 0;
      // Read to the end (so the connection can be reused) and dropped.
      res.resume();
      res.on('error', (error) => finish({ ok: false, status, retry: true, error: printable(`answer cut off: ${error.message}`) }));
      res.on('end', () => {
        if (status >= 200 && status < 300) return finish({ ok: true, status });
        const redirect = status >= 300 && status < 400 ? ' (redirect not followed)' : '';
        finish({ ok: false, status, retry: isTransientStatus(status), error: `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}${redirect}` });
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no complete answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const onAbort = () => req.destroy(new Error('abandoned: the service is stopping'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    req.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === 'ERR_WEBHOOK_PRIVATE_ADDRESS';
      finish({ ok: false, status: null, retry: !refused, error: printable(error.message) });
    });
    req.end(body);
  });
}
