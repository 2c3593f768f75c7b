/**
 * A real HTTP webhook receiver on 127.0.0.1, as a CRM's inbound hook would be: it verifies every
 * delivery with the `standardwebhooks` package (the specification's implementation, not the
 * service's code) against its own secret, and answers as the test says (`answer`: a status, or
 * `'hang'` to never answer). Every request is recorded, verified or not.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
interface ReceivedHook {
  id: string;
  timestamp: string;
  /** The parsed body if the signature verified; null when it did not. */
  event: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  body: string;
  headers: IncomingHttpHeaders;
  /** What the receiver answered. */
  answered: number | 'hang';
  /** How many other requests were open (received, not yet answered) when this one arrived. */
  othersOpen: number;
  /** When its first byte arrived, and when its answer was sent or its connection cut (ms; undefined while open). */
  arrivedAt: number;
  closedAt: number | undefined;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks`. */
  url: string;
  /** The `whsec_…` secret it verifies with. */
  secret: string;
  received: ReceivedHook[];
  /** The verified events, in arrival order. */
  events(): NonNullable<ReceivedHook['event']>[];
  /** How the next requests are answered: a status for all, one per request (then 204), or as a function of the verified event (null: unverified) says. */
  answer: number | 'hang' | Array<number | 'hang'> | ((event: ReceivedHook['event']) => number | 'hang');
  /** How long each answer waits after the body arrived (a slow receiver; default 0). */
  delayMs: number;
  /** The body of an answer that is not 2xx (default `answer STATUS`): what a receiver's error page says. */
  errorBody: string | null;
  /** The most requests of one `webhook-id` that were ever open at the same moment (two senders of one delivery at once would make it 2). */
  maxOpenPerId(): number;
  /** Stops listening and cuts open connections (deliveries get "connection refused"). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * What a receiver that applies events as they arrive (as listmonk's guidance and a naive CRM do)
 * ends with for each address: the type of the last event about it that it accepted (2xx).
 */
export function lastAppliedByAddress(receiver: WebhookReceiver): Map<string, string> {
  const last = new Map<string, string>();
  for (const hook of receiver.received) {
    if (hook.event === null || typeof hook.answered !== 'number' || hook.answered >= 300) continue;
    const email = hook.event.data.emailNormalized ?? hook.event.data.email;
    if (typeof email === 'string') last.set(email.toLowerCase(), hook.event.type);
  }
  return last;
}

/** The sequences of the accepted events about `address`, in the order they arrived. */
export function acceptedSequences(receiver: WebhookReceiver, address: string): number[] {
  return receiver.received
    .filter((hook) => hook.event !== null && typeof hook.answered === 'number' && hook.answered < 300)
    .filter((hook) => String(hook.event!.data.emailNormalized ?? hook.event!.data.email).toLowerCase() === address.toLowerCase())
    .map((hook) => Number(hook.event!.data.sequence));
}

/** Starts a receiver that verifies with `secret` (default: a fresh one). */
export async function webhookReceiver(secret = newWebhookSecret()): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const sockets = new Set<Socket>();
  const open = new Map<string, number>();
  let maxOpen = 0;
  let openNow = 0;
  let server: Server;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    secret,
    received: [],
    events: () => receiver.received.flatMap((hook) => (hook.event === null ? [] : [hook.event])),
    answer: 204,
    delayMs: 0,
    errorBody: null,
    maxOpenPerId: () => maxOpen,
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    up: () => listen(),
    close: () => receiver.down(),
  };
  const nextAnswer = (event: ReceivedHook['event']): number | 'hang' => {
    if (typeof receiver.answer === 'function') return receiver.answer(event);
    if (!Array.isArray(receiver.answer)) return receiver.answer;
    return receiver.answer.shift() ?? 204;
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        // Open from the first byte until the answer is sent or the sender's connection is gone.
        const id = String(req.headers['webhook-id']);
        const othersOpen = openNow;
        const arrivedAt = Date.now();
        let hook: ReceivedHook | undefined;
        openNow += 1;
        open.set(id, (open.get(id) ?? 0) + 1);
        maxOpen = Math.max(maxOpen, open.get(id)!);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          openNow -= 1;
          if (hook !== undefined) hook.closedAt = Date.now();
          open.set(id, open.get(id)! - 1);
        };
        res.on('close', close);
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let event: ReceivedHook['event'] = null;
          try {
            event = verifier.verify(body, req.headers as Record<string, string>) as ReceivedHook['event'];
          } catch {
            event = null;
          }
          const answered = nextAnswer(event);
          hook = { id, timestamp: String(req.headers['webhook-timestamp']), event, body, headers: req.headers, answered, othersOpen, arrivedAt, closedAt: undefined };
          receiver.received.push(hook);
          if (answered === 'hang') return;
          const reply = () => {
            if (!res.destroyed) res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? '' : (receiver.errorBody ?? `answer ${answered}`));
          };
          if (receiver.delayMs > 0) setTimeout(reply, receiver.delayMs);
          else reply();
        });
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        receiver.url = `http://127.0.0.1:${port}/hooks`;
        resolve();
      });
    });
  await listen();
  return receiver;
}
