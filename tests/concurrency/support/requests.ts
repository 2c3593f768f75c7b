/**
 * The bursts the scenarios send: N copies of one request (or requests that race each other over
 * one row or one mailbox), spread over the stack's replicas in turn (request i to replica i mod
 * R, as a round-robin load balancer does), released at once.
 */
import { type Answer, burst, type BurstRequest } from './burst.ts';
import { SITE_URL, type Stack } from './stack.ts';

/** How many identical requests each scenario releases at once. */
export const N = 10;

/** What one request of a burst posts, and where (a path with its query). */
type Post = Pick<BurstRequest, 'contentType' | 'body'> & { path: string };

/** `n` copies of a POST of `body` to `path` (with its query), alternating between the replicas, released at once. */
export function sendAtOnce(stack: Stack, path: string, body: Pick<BurstRequest, 'contentType' | 'body'>, n = N): Promise<Answer[]> {
  return sendEachAtOnce(stack, Array.from({ length: n }, () => ({ path, ...body })));
}

/** Each of `posts`, alternating between the replicas, released at once. */
export function sendEachAtOnce(stack: Stack, posts: readonly Post[]): Promise<Answer[]> {
  return burst(
    posts.map(({ path, ...body }, i) => ({
      url: `${stack.urls[i % stack.urls.length]}${path}`,
      ...body,
      // A plain form comes from a page of the site; a browser says so in `Origin` (the service checks it).
      ...(body.contentType === 'application/x-www-form-urlencoded' ? { headers: { origin: SITE_URL } } : {}),
    })),
  );
}

/** One request, as a visitor sends it once (to set a scenario up). */
export async function sendOnce(stack: Stack, path: string, body: Pick<BurstRequest, 'contentType' | 'body'>): Promise<Answer> {
  const [answer] = await sendAtOnce(stack, path, body, 1);
  return answer!;
}

/** A label for the stack in a scenario's title: `PostgreSQL (2 replicas)` or `SQLite (1 process)`. */
export function stackLabel(stack: Stack): string {
  return stack.backend === 'postgres' ? `PostgreSQL (${stack.urls.length} replicas)` : 'SQLite (1 process)';
}

/**
 * `n` spellings of one Gmail mailbox, each a different address: a dot moved, a sub-address tag,
 * googlemail.com for gmail.com. `mailboxVariants('bomb', 3)` → `b.omb+0@gmail.com`,
 * `bo.mb+1@googlemail.com`, `bom.b+2@gmail.com`.
 */
export function mailboxVariants(name: string, n = N): string[] {
  return Array.from({ length: n }, (_, i) => {
    const cut = 1 + (i % (name.length - 1));
    return `${name.slice(0, cut)}.${name.slice(cut)}+${i}@${i % 2 === 0 ? 'gmail.com' : 'googlemail.com'}`;
  });
}
