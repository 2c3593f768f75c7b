/**
 * When a failed email is tried again: exponential backoff from 10 s doubling up to 1 h, with
 * jitter so a queue that failed together does not retry in lockstep, and a give-up 48 h after
 * the message was queued. A message the SMTP server rejects outright (a 5xx answer about its
 * recipient or its content) is not tried again at all; a 5xx about the session or the sender
 * (AUTH, STARTTLS, MAIL FROM) is an outage of every row, and backs off. A pass over the outbox that
 * fails (the database cannot be written) is followed by its own, shorter backoff. Pure: the worker
 * passes the attempt count, the times, a random number and the error.
 */

/** The schedule's parameters; tests shrink them. */
export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  giveUpAfterMs: number;
  /** Each delay is scaled by a factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

/** The production schedule. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  giveUpAfterMs: 48 * 60 * 60_000,
  jitter: 0.2,
};

/** What to do after failed attempt number `attempts` (1 for the first): retry at a time, or give up. */
export type RetryDecision = { action: 'retry'; at: number } | { action: 'give_up' };

/** The delay before try `n + 1` after `n` failures in a row: `firstDelayMs` doubling, capped at `maxDelayMs`. */
function doubling(backoff: { firstDelayMs: number; maxDelayMs: number }, failures: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(backoff.firstDelayMs * 2 ** exponent, backoff.maxDelayMs);
}

/**
 * Decides the next step after a failed send.
 *
 * @example nextRetry(DEFAULT_RETRY_POLICY, { attempts: 1, queuedAt: t, now: t, random: 0.5 }) // → { action: 'retry', at: t + 10_000 }
 * @example nextRetry(DEFAULT_RETRY_POLICY, { attempts: 9, queuedAt: t, now: t + 5 * 3600_000, random: 0.5 }) // delay capped at 1 h
 */
export function nextRetry(
  policy: RetryPolicy,
  failure: { attempts: number; queuedAt: number; now: number; random: number },
): RetryDecision {
  const deadline = failure.queuedAt + policy.giveUpAfterMs;
  if (failure.now >= deadline) return { action: 'give_up' };
  const delay = doubling(policy, failure.attempts) * (1 - policy.jitter + 2 * policy.jitter * failure.random);
  // One last try at the deadline rather than giving up early.
  return { action: 'retry', at: Math.min(Math.round(failure.now + delay), deadline) };
}

/** How long the worker waits after failed passes over the outbox (a full disk, a read-only database). */
export interface PassBackoff {
  firstDelayMs: number;
  maxDelayMs: number;
}

/** The production pass backoff: 1 s doubling to 30 s, so a broken database costs a log line every 30 s, not a hot loop. */
export const DEFAULT_PASS_BACKOFF: PassBackoff = { firstDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * The wait after `failures` failed passes in a row.
 *
 * @example passRetryDelay(DEFAULT_PASS_BACKOFF, 1) // → 1_000
 * @example passRetryDelay(DEFAULT_PASS_BACKOFF, 9) // → 30_000
 */
export function passRetryDelay(backoff: PassBackoff, failures: number): number {
  return doubling(backoff, failures);
}

// The commands whose answer is about this one message: its recipient (RCPT TO) or its content
// (DATA). Every other answer (the greeting, EHLO, STARTTLS, AUTH, MAIL FROM) is about the relay,
// our credentials or our sender, which every queued mail shares: a 5xx there backs off like an
// outage. MAIL FROM is how Gmail and Workspace say "550 5.4.5 daily sending limit exceeded" and
// how a relay says "530 authentication required" or "553 sender not owned by the user".
const MESSAGE_COMMANDS = new Set(['RCPT TO', 'DATA']);

// Enhanced status codes (RFC 3463) that speak of the receiving mail system, not of the message,
// whatever the command: 5.3.1 system full, 5.3.2 not accepting messages, 5.3.5 system incorrectly
// configured, 5.4.5 mail system congestion (Gmail's sending quota, answered at DATA too).
const SYSTEM_STATUSES = new Set(['3.1', '3.2', '3.5', '4.5']);

/**
 * Tells whether a send failed for good: the SMTP server answered the message's recipient (RCPT TO)
 * or content (DATA) with a 5xx code (nodemailer sets `responseCode`, `command` and `response`),
 * unless its enhanced status code speaks of the mail system (a quota, a full disk). 4xx answers,
 * any answer to the session or the sender (AUTH, STARTTLS, MAIL FROM), timeouts and connection
 * errors are worth retrying.
 *
 * @example isPermanentRejection({ responseCode: 550, command: 'RCPT TO' }) // → true
 * @example isPermanentRejection({ responseCode: 550, command: 'MAIL FROM', response: '550 5.4.5 Daily user sending limit exceeded' }) // → false (every row)
 * @example isPermanentRejection({ responseCode: 550, command: 'DATA', response: '550 5.4.5 Daily user sending quota exceeded' }) // → false
 * @example isPermanentRejection({ responseCode: 451, command: 'DATA' }) // → false
 * @example isPermanentRejection({ responseCode: 535, command: 'AUTH PLAIN' }) // → false (credentials: every row)
 */
export function isPermanentRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { responseCode, command, response } = error as { responseCode?: unknown; command?: unknown; response?: unknown };
  if (typeof responseCode !== 'number' || responseCode < 500 || responseCode >= 600) return false;
  if (typeof command !== 'string' || !MESSAGE_COMMANDS.has(command)) return false;
  const status = typeof response === 'string' ? /^5\d\d[ -]5\.(\d{1,3}\.\d{1,3})\b/.exec(response)?.[1] : undefined;
  return status === undefined || !SYSTEM_STATUSES.has(status);
}
