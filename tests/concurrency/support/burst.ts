/**
 * N requests released at the same instant, the way a race is provoked on purpose: each request
 * goes out on a connection of its own with its headers and all of its body but the last byte;
 * once every one of them is on the wire, the last bytes are sent together. The service can act on
 * none of them before it has the whole body, so all N reach their handlers within a millisecond
 * or so of each other, on whichever replicas they were sent to.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';

/** One request of a burst: a POST of `body` to `url` (a replica's URL with the path and query). */
export interface BurstRequest {
  url: string;
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  body: string;
  /** Extra headers, such as the `Origin` a browser sends with a form post. */
  headers?: Record<string, string>;
}

/** What a request was answered: the status, the `Location` of a redirect, and the body. */
export interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** A JSON body of `fields`. */
export const json = (fields: Record<string, unknown>): Pick<BurstRequest, 'contentType' | 'body'> => ({
  contentType: 'application/json',
  body: JSON.stringify(fields),
});

/** A plain HTML form's body of `fields` (`application/x-www-form-urlencoded`). */
export const form = (fields: Record<string, string>): Pick<BurstRequest, 'contentType' | 'body'> => ({
  contentType: 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});

/** Sends `requests` so that they arrive at once (see above) and resolves with their answers, in order. */
export async function burst(requests: readonly BurstRequest[], timeoutMs = 20_000): Promise<Answer[]> {
  const started = requests.map((spec) => {
    const bytes = Buffer.from(spec.body);
    if (bytes.length === 0) throw new Error('a burst request needs a body: its last byte is the trigger');
    const req = httpRequest(spec.url, {
      method: 'POST',
      agent: false,
      headers: { ...spec.headers, 'content-type': spec.contentType, 'content-length': String(bytes.length) },
      timeout: timeoutMs,
    });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${spec.url} within ${timeoutMs} ms`)));
      req.on('error', reject);
    });
    // Everything but the last byte; resolved once it has been handed to the socket.
    const primed = new Promise<void>((resolve, reject) => {
      req.write(bytes.subarray(0, -1), (error) => (error ? reject(error) : resolve()));
    });
    return { req, last: bytes.subarray(-1), answer, primed };
  });
  await Promise.all(started.map((one) => one.primed));
  for (const one of started) one.req.end(one.last);
  return Promise.all(started.map((one) => one.answer));
}
