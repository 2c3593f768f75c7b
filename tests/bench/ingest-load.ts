/**
 * The load `npm run bench:ingest` puts on a scenario's servers: autocannon posting newsletter
 * signups, each with an address of its own, spread over the scenario's replicas. A measurement
 * loads them for `--duration` seconds; a smoke run sends a fixed number of requests instead.
 */
import { createRequire } from 'node:module';
import { SMOKE } from './smoke.ts';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
/** What autocannon reports of a run (the part the bench reads). */
export interface AutocannonResult {
  /** Seconds the run took. */
  duration: number;
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** A smoke run sends this many requests per round (a fifth of it to warm up) instead of loading the server for `--duration`. */
export const SMOKE_REQUESTS = 50;

/**
 * Posts signups to `ports` from `connections` connections and returns autocannon's figures;
 * connection i goes to ports[i % ports.length], so two replicas get 25 connections each.
 */
export async function load(ports: number[], seconds: number, connections: number, run: string): Promise<AutocannonResult> {
  const requests = run === 'warmup' ? SMOKE_REQUESTS / 5 : SMOKE_REQUESTS;
  let sequence = 0;
  const result = await autocannon({
    url: ports.map((port) => `http://127.0.0.1:${port}/api/newsletter`),
    connections,
    ...(SMOKE ? { amount: requests } : { duration: seconds }),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          body: JSON.stringify({
            name: 'Bench Mark',
            email: `bench-${run}-${sequence++}@example.com`,
            privacyConsent: true,
            marketingConsent: false,
            lang: 'en',
          }),
        }),
      },
    ],
  });
  // autocannon averages whole seconds; a smoke round is shorter than one.
  if (SMOKE) result.requests.average = result.requests.total / result.duration;
  return result;
}
