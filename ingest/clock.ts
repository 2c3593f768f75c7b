/**
 * Time as a dependency: the service reads "now" only through a `Clock`, so tests can move time
 * (captcha expiry, outbox backoff, the 48-hour give-up) without waiting.
 */

/** A source of the current time in milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand: `const clock = manualClock(Date.parse('2025-01-12')); clock.advance(60_000)`. */
export function manualClock(start: number): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

let lastMs = Number.NaN;
let lastIso = '';

/**
 * Formats a clock reading as the ISO 8601 UTC text stored in every `*_at` column. Requests
 * arriving in the same millisecond share one string (`toISOString` showed up in the ingest
 * bench's profile).
 */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
