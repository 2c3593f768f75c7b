import { getJson } from './api.ts';

/** A challenge from `GET /api/captcha`: two digits to add, and the signed token that binds their sum. */
export interface Challenge {
  a: number;
  b: number;
  token: string;
}

function isChallenge(value: unknown): value is Challenge {
  const c = value as Partial<Challenge> | null;
  return typeof c?.a === 'number' && typeof c.b === 'number' && typeof c.token === 'string';
}

/** Fetches a fresh challenge, or null when the service could not be reached. */
export async function fetchChallenge(endpoint: string): Promise<Challenge | null> {
  const answer = await getJson(endpoint);
  return answer.kind === 'ok' && isChallenge(answer.body) ? answer.body : null;
}
