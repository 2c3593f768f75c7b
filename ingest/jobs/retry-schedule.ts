/**
 * When a failed job is tried again, for every queue: exponential backoff from `firstDelayMs`
 * doubling up to `maxDelayMs`, with jitter so a queue that failed together does not retry in
 * lockstep, and a give-up `giveUpAfterMs` after the job was queued. A pass over a queue that fails
 * (the database cannot be written) is followed by its own, shorter backoff. Pure: the queue passes
 * the attempt count, the times and a random number; each queue brings its own schedule (the
 * mails' in `mail/retry-policy.ts`, the webhooks' in `webhooks/webhook-worker.ts`).
 */

/** A schedule's parameters; tests shrink them. */
export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  giveUpAfterMs: number;
  /** Each delay is scaled by a factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

/** What to do after failed attempt number `attempts` (1 for the first): retry at a time, or give up. */
export type RetryDecision = { action: 'retry'; at: number } | { action: 'give_up' };

/** The delay before try `n + 1` after `n` failures in a row: `firstDelayMs` doubling, capped at `maxDelayMs`. */
function doubling(backoff: { firstDelayMs: number; maxDelayMs: number }, failures: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(backoff.firstDelayMs * 2 ** exponent, backoff.maxDelayMs);
}

/**
 * Decides the next step after a failed attempt.
 *
 * @example nextRetry({ firstDelayMs: 10_000, maxDelayMs: 3600_000, giveUpAfterMs: 48 * 3600_000, jitter: 0.2 }, { attempts: 1, queuedAt: t, now: t, random: 0.5 }) // → { action: 'retry', at: t + 10_000 }
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

/** How long a queue waits after failed passes (a full disk, a read-only database). */
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
