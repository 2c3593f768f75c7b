import { getJson } from './api.ts';

/**
 * A challenge from `GET /api/captcha`: two digits to add, the signed token that binds their sum,
 * how long after it was issued the service accepts an answer, and when this page received it
 * (`performance.now()`), to hold back a post that would come too soon.
 */
export interface Challenge {
  a: number;
  b: number;
  token: string;
  minFillMs: number;
  receivedAt: number;
}

function isChallenge(value: unknown): value is { a: number; b: number; token: string; minFillMs?: unknown } {
  const c = value as Partial<Challenge> | null;
  return typeof c?.a === 'number' && typeof c.b === 'number' && typeof c.token === 'string';
}

/** Fetches a fresh challenge, or null when the service could not be reached. */
async function fetchChallenge(endpoint: string): Promise<Challenge | null> {
  const answer = await getJson(endpoint);
  if (answer.kind !== 'ok' || !isChallenge(answer.body)) return null;
  const { a, b, token, minFillMs } = answer.body;
  return { a, b, token, minFillMs: typeof minFillMs === 'number' ? minFillMs : 0, receivedAt: performance.now() };
}

/**
 * How long to wait before each new try when a challenge could not be fetched: a brief hiccup of the
 * network or the service is retried before the visitor is told (about 5 s in all).
 */
const CHALLENGE_RETRY_DELAYS_MS: readonly number[] = [500, 1500, 3000];

/**
 * Fetches a challenge, trying again after each of `delays` while none comes; null when every try failed.
 *
 * @example await fetchChallengeRetrying('/api/captcha') // { a: 3, b: 4, … } after up to four tries
 */
export async function fetchChallengeRetrying(endpoint: string, delays: readonly number[] = CHALLENGE_RETRY_DELAYS_MS): Promise<Challenge | null> {
  for (let attempt = 0; ; attempt++) {
    const challenge = await fetchChallenge(endpoint);
    const delay = delays[attempt];
    if (challenge !== null || delay === undefined) return challenge;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Resolves once `challenge` is old enough for the service to accept an answer: a visitor who
 * answers quickly (a new question after a refusal, say) waits a moment instead of being refused.
 * The service counts from when it issued the challenge, which is before this page received it.
 */
export function challengeReady(challenge: Challenge): Promise<void> {
  const wait = challenge.receivedAt + challenge.minFillMs - performance.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}
