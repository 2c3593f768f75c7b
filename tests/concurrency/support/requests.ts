/**
 * The bursts the scenarios send: N copies of one request, spread over the stack's replicas in
 * turn (request i to replica i mod R, as a round-robin load balancer does), released at once.
 */
import { type Answer, burst, type BurstRequest } from './burst.ts';
import { SITE_URL, type Stack } from './stack.ts';

/** How many identical requests each scenario releases at once. */
export const N = 10;

/** `n` copies of a POST of `body` to `path` (with its query), alternating between the replicas, released at once. */
export function sendAtOnce(stack: Stack, path: string, body: Pick<BurstRequest, 'contentType' | 'body'>, n = N): Promise<Answer[]> {
  // A plain form comes from a page of the site; a browser says so in `Origin` (the service checks it).
  const headers = body.contentType === 'application/x-www-form-urlencoded' ? { origin: SITE_URL } : undefined;
  return burst(Array.from({ length: n }, (_, i) => ({ url: `${stack.urls[i % stack.urls.length]}${path}`, ...body, ...(headers ? { headers } : {}) })));
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
