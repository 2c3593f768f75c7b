/**
 * The contact form's captcha: two digits to add, and a token that proves the server asked.
 *
 * The token is `v1.<expiry>.<nonce>.<mac>` where mac = HMAC-SHA256(secret, `v1.<expiry>.<nonce>.<sum>`).
 * It binds the expected sum without revealing it, an expiry 10 minutes out and a random nonce.
 * Verifying recomputes the mac with the visitor's answer: a wrong answer and a tampered token
 * look the same (both fail). Single use is not decided here: the caller records the nonce with a
 * unique insert in the same transaction that stores the contact, so a replay fails across
 * restarts and replicas.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** How long a challenge can be answered. */
export const CAPTCHA_TTL_MS = 10 * 60 * 1000;

/** What `GET /api/captcha` answers: `{ a: 3, b: 4, token: 'v1.…' }`; the visitor answers `a + b`. */
export interface Challenge {
  a: number;
  b: number;
  token: string;
}

/** Where a challenge's randomness comes from (tests pass fixed values). */
export interface CaptchaRandom {
  digit(): number;
  nonce(): string;
}

/** Cryptographic randomness for production. */
const cryptoRandom: CaptchaRandom = {
  digit: () => randomInt(0, 10),
  nonce: () => randomBytes(16).toString('base64url'),
};

/** The outcome of checking an answer: the nonce to record as used, or why it failed. */
export type CaptchaCheck =
  | { ok: true; nonce: string; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'expired' | 'wrong' };

const mac = (secret: string, payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();

/** Makes a new challenge that expires `CAPTCHA_TTL_MS` after `now`. */
export function createChallenge(secret: string, now: number, random: CaptchaRandom = cryptoRandom): Challenge {
  const a = random.digit();
  const b = random.digit();
  const expiresAt = now + CAPTCHA_TTL_MS;
  const head = `v1.${expiresAt.toString(36)}.${random.nonce()}`;
  return { a, b, token: `${head}.${mac(secret, `${head}.${a + b}`).toString('base64url')}` };
}

/** Checks `answer` against `token` at time `now`, e.g. `verifyAnswer(secret, token, 7, Date.now())`. */
export function verifyAnswer(secret: string, token: string, answer: number, now: number): CaptchaCheck {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return { ok: false, reason: 'malformed' };
  const [version, expiry, nonce, signature] = parts as [string, string, string, string];
  const expiresAt = Number.parseInt(expiry, 36);
  if (!/^[0-9a-z]{1,12}$/.test(expiry) || !/^[\w-]{16,64}$/.test(nonce)) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, `${version}.${expiry}.${nonce}.${answer}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'wrong' };
  if (now > expiresAt) return { ok: false, reason: 'expired' };
  return { ok: true, nonce, expiresAt };
}
