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
export async function fetchChallenge(endpoint: string): Promise<Challenge | null> {
  const answer = await getJson(endpoint);
  if (answer.kind !== 'ok' || !isChallenge(answer.body)) return null;
  const { a, b, token, minFillMs } = answer.body;
  return { a, b, token, minFillMs: typeof minFillMs === 'number' ? minFillMs : 0, receivedAt: performance.now() };
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
