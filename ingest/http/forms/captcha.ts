/**
 * The contact form's captcha: two digits to add, and a token that proves the server asked, and when.
 *
 * The token is `v2.<issuedAt>.<nonce>.<seal>.<sig>`:
 * - seal = HMAC-SHA256(secret, `sum|v2.<issuedAt>.<nonce>.<sum>`), first 16 bytes: binds the
 *   expected sum without revealing it;
 * - sig = HMAC-SHA256(secret, `v2.<issuedAt>.<nonce>.<seal>`): proves the server issued the token,
 *   whatever the answer.
 * Because a genuine token can be told from a forged one without the answer, every attempt with a
 * genuine token spends its nonce, right or wrong (the caller records it), so a bot gets one try per
 * challenge; forged tokens spend nothing, so they cannot fill the nonce table. The signed issue
 * time refuses an answer that arrives sooner than a person could fill the form (`minFillMs`),
 * and a token expires `CAPTCHA_TTL_MS` after it was issued.
 *
 * Single use is not decided here: the caller records the nonce with a unique insert (in the same
 * transaction that stores the contact, or alone when the attempt is refused), so a replay fails
 * across restarts and replicas.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { DATA_FACTS } from '../../contract/data-facts.ts';

/** How long a challenge can be answered (the privacy policy's number of minutes). */
export const CAPTCHA_TTL_MS = DATA_FACTS.captchaMinutes * 60 * 1000;


/**
 * What `GET /api/captcha` answers: `{ a: 3, b: 4, token: 'v2.…', minFillMs: 3000 }`; the visitor
 * answers `a + b`, and the island does not post before `minFillMs` have passed since it got it.
 */
export interface Challenge {
  a: number;
  b: number;
  token: string;
  minFillMs: number;
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

/** A genuine token's nonce, as the store records it: spent once, kept until it expires. */
interface CaptchaNonce {
  value: string;
  expiresAt: number;
}

/**
 * The outcome of checking an answer. `too_fast` and `wrong` come from a genuine token and carry
 * its nonce, to be spent like a right answer's; `malformed`, `forged` and `expired` have nothing
 * worth spending.
 */
export type CaptchaCheck =
  | { ok: true; nonce: CaptchaNonce }
  | { ok: false; reason: 'too_fast' | 'wrong'; nonce: CaptchaNonce }
  | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

const mac = (secret: string, payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();
const seal = (secret: string, head: string, sum: number): Buffer => mac(secret, `sum|${head}.${sum}`).subarray(0, 16);
const sameBytes = (given: Buffer, expected: Buffer): boolean => given.length === expected.length && timingSafeEqual(given, expected);

/** Makes a new challenge issued at `now`, answerable from `now + minFillMs` until `now + CAPTCHA_TTL_MS`. */
export function createChallenge(secret: string, now: number, minFillMs: number, random: CaptchaRandom = cryptoRandom): Challenge {
  const a = random.digit();
  const b = random.digit();
  const head = `v2.${now.toString(36)}.${random.nonce()}`;
  const sealed = `${head}.${seal(secret, head, a + b).toString('base64url')}`;
  return { a, b, token: `${sealed}.${mac(secret, sealed).toString('base64url')}`, minFillMs };
}

/**
 * Checks `answer` against `token` at time `now`, refusing answers sent less than `minFillMs` after
 * the challenge was issued.
 *
 * @example verifyAnswer(secret, token, 7, Date.now(), 3000) // → { ok: false, reason: 'wrong', nonce: { value: 'Qk…', expiresAt: … } }
 */
export function verifyAnswer(secret: string, token: string, answer: number, now: number, minFillMs: number): CaptchaCheck {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== 'v2') return { ok: false, reason: 'malformed' };
  const [version, issued, value, sealText, sig] = parts as [string, string, string, string, string];
  if (!/^[0-9a-z]{1,12}$/.test(issued) || !/^[\w-]{16,64}$/.test(value)) return { ok: false, reason: 'malformed' };
  const head = `${version}.${issued}.${value}`;
  if (!sameBytes(Buffer.from(sig, 'base64url'), mac(secret, `${head}.${sealText}`))) return { ok: false, reason: 'forged' };
  const issuedAt = Number.parseInt(issued, 36);
  const nonce = { value, expiresAt: issuedAt + CAPTCHA_TTL_MS };
  if (now > nonce.expiresAt) return { ok: false, reason: 'expired' };
  // Checked before the answer, so a hurried bot does not learn whether its answer was right.
  if (now - issuedAt < minFillMs) return { ok: false, reason: 'too_fast', nonce };
  if (!sameBytes(Buffer.from(sealText, 'base64url'), seal(secret, head, answer))) return { ok: false, reason: 'wrong', nonce };
  return { ok: true, nonce };
}
