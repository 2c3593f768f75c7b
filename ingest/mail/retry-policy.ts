/**
 * When a failed email is tried again: on the job queue's schedule (`jobs/retry-schedule.ts`) from
 * 10 s doubling up to 1 h, given up 48 h after the message was queued. A message the SMTP server
 * rejects outright (a 5xx answer about its recipient or its content) is not tried again at all; a
 * 5xx about the session or the sender (AUTH, STARTTLS, MAIL FROM) is an outage of every row, and
 * backs off. Pure: the worker passes the error.
 */
import type { RetryPolicy } from '../jobs/retry-schedule.ts';

/** The mails' schedule: 10 s doubling to 1 h, given up 48 h after the message was queued. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  giveUpAfterMs: 48 * 60 * 60_000,
  jitter: 0.2,
};

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
