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
 * other answer: 4xx, 3xx).
 */
import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { WebhookEndpoint } from '../config/webhook-endpoints.ts';
import { guardedLookup } from './address-guard.ts';

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

/** The longest answer body read (the rest is discarded): enough for an error message in the log. */
const ANSWER_BYTES = 2048;

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
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        if (length < ANSWER_BYTES) chunks.push(chunk);
        length += chunk.length;
      });
      res.on('error', (error) => finish({ ok: false, status, retry: true, error: `answer cut off: ${error.message}` }));
      res.on('end', () => {
        if (status >= 200 && status < 300) return finish({ ok: true, status });
        const answer = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
        const redirect = status >= 300 && status < 400 ? ` (redirect to ${res.headers.location ?? '?'} not followed)` : '';
        finish({ ok: false, status, retry: isTransientStatus(status), error: `HTTP ${status}${redirect}${answer === '' ? '' : `: ${answer}`}` });
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
      finish({ ok: false, status: null, retry: !refused, error: error.message });
    });
    req.end(body);
  });
}
