/**
 * The load `npm run bench:ingest` puts on a scenario's servers: autocannon posting newsletter
 * signups, each with an address of its own, spread over the scenario's replicas. A measurement
 * loads them for `--duration` seconds; a smoke run sends a fixed number of requests instead.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createChallenge } from '../../ingest/http/forms/captcha.ts';
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

/** The captcha key the bench gives the contact scenarios' service, so it can answer their captchas itself. */
export const BENCH_CAPTCHA_SECRET = randomBytes(32).toString('hex');

/** A contact message from a unique address, with a captcha answered right (made with the service's key). */
function contactBody(email: string): string {
  const challenge = createChallenge(BENCH_CAPTCHA_SECRET, Date.now(), 0);
  return JSON.stringify({
    firstName: 'Bench',
    lastName: 'Mark',
    email,
    phone: null,
    companyName: 'Bench Datos',
    country: 'es',
    message: 'A contact message from the benchmark.',
    lang: 'en',
    captcha: { token: challenge.token, answer: challenge.a + challenge.b },
  });
}

/**
 * Posts signups (or contact messages, `form: 'contact'`) to `ports` from `connections` connections
 * and returns autocannon's figures; connection i goes to ports[i % ports.length], so two replicas
 * get 25 connections each.
 */
export async function load(ports: number[], seconds: number, connections: number, run: string, form: 'newsletter' | 'contact' = 'newsletter'): Promise<AutocannonResult> {
  const requests = run.startsWith('warmup') ? SMOKE_REQUESTS / 5 : SMOKE_REQUESTS;
  let sequence = 0;
  const result = await autocannon({
    url: ports.map((port) => `http://127.0.0.1:${port}/api/${form}`),
    connections,
    ...(SMOKE ? { amount: requests } : { duration: seconds }),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          body: form === 'contact' ? contactBody(`bench-${run}-${sequence++}@example.com`) : JSON.stringify({
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
