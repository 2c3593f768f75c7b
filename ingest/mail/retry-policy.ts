/**
 * When a failed email is tried again: exponential backoff from 10 s doubling up to 1 h, with
 * jitter so a queue that failed together does not retry in lockstep, and a give-up 48 h after
 * the message was queued. Pure: the worker passes the attempt count, the times and a random
 * number.
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
  const exponent = Math.min(Math.max(failure.attempts - 1, 0), 30);
  const base = Math.min(policy.firstDelayMs * 2 ** exponent, policy.maxDelayMs);
  const delay = base * (1 - policy.jitter + 2 * policy.jitter * failure.random);
  // One last try at the deadline rather than giving up early.
  return { action: 'retry', at: Math.min(Math.round(failure.now + delay), deadline) };
}
