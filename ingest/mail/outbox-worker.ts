/**
 * The outbox worker: runs inside the service, sends each due outbox row to sales, one at a
 * time, and records the outcome.
 *
 * A failed send is retried on the schedule of `retry-policy.ts` and given up (logged at error
 * level) 48 h after it was queued. The worker wakes when a contact is stored (`notify`), when
 * the next retry falls due, and every `pollMs` in any case (rows another process queued).
 * `stop()` lets the send in progress finish and record its outcome before resolving.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { type ContactEmail, contactEmail } from './contact-email.ts';
import type { Mailer } from './mailer.ts';
import type { OutboxJob, OutboxStore } from '../store/outbox-store.ts';
import { DEFAULT_RETRY_POLICY, nextRetry, type RetryPolicy } from './retry-policy.ts';

/** Everything the worker touches, passed in so tests can use a manual clock and short delays. */
export interface OutboxWorkerDeps {
  outbox: OutboxStore;
  mailer: Mailer;
  envelope: { from: string; to: string };
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  policy?: RetryPolicy;
  random?: () => number;
  /** The longest idle wait between looks at the table. */
  pollMs?: number;
  /** How long a claimed row may stay `sending` before another run may claim it again. */
  leaseMs?: number;
}

/** What one pass over the due rows did. */
interface PassResult {
  sent: number;
  retried: number;
  failed: number;
}

/** A running (or startable) worker. */
export interface OutboxWorker {
  start(): void;
  /** Wakes the worker now (a contact was just stored). */
  notify(): void;
  /** Sends every row due now, once each; the loop calls it, tests may too. */
  runPass(): Promise<PassResult>;
  /** Stops the loop after the send in progress, if any, is recorded. */
  stop(): Promise<void>;
}

/** Creates the worker; it does nothing until `start()` or `runPass()`. */
export function outboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY;
  const random = deps.random ?? Math.random;
  const pollMs = deps.pollMs ?? 1000;
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  let running = false;
  let loop: Promise<void> | undefined;
  let pass: Promise<PassResult> | undefined;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const render = (job: OutboxJob): ContactEmail => contactEmail(job.contact, { ...deps.envelope, outboxId: job.id });

  async function sendOne(job: OutboxJob, result: PassResult): Promise<void> {
    try {
      await deps.mailer.send(render(job));
      deps.outbox.markSent(job.id, deps.clock.now());
      result.sent += 1;
      deps.log.info({ outboxId: job.id, attempts: job.attempts }, 'sales email sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const now = deps.clock.now();
      const decision = nextRetry(policy, { attempts: job.attempts, queuedAt: job.queuedAt, now, random: random() });
      if (decision.action === 'retry') {
        deps.outbox.reschedule(job.id, decision.at, reason);
        result.retried += 1;
        deps.log.warn({ outboxId: job.id, attempts: job.attempts, retryInMs: decision.at - now, reason }, 'sales email failed, will retry');
      } else {
        deps.outbox.markFailed(job.id, reason);
        result.failed += 1;
        deps.log.error({ outboxId: job.id, attempts: job.attempts, reason }, 'sales email given up after 48 h; see the outbox row');
      }
    }
  }

  async function passOnce(): Promise<PassResult> {
    const result: PassResult = { sent: 0, retried: 0, failed: 0 };
    const now = deps.clock.now();
    const released = deps.outbox.releaseStale(now - leaseMs);
    if (released > 0) deps.log.warn({ released }, 'outbox rows left sending by a stopped process are due again');
    // Rows rescheduled during this pass are due later than `now`, so the pass ends.
    for (let job = deps.outbox.claimNext(now); job !== null; job = deps.outbox.claimNext(now)) {
      await sendOne(job, result);
      if (!running && loop !== undefined) break;
    }
    return result;
  }

  function runPass(): Promise<PassResult> {
    // One pass at a time: a second caller waits for the pass in progress, then runs its own.
    const previous = pass ?? Promise.resolve(undefined);
    const next = previous.then(passOnce, passOnce);
    pass = next;
    return next;
  }

  function idleWait(): Promise<void> {
    const nextDue = deps.outbox.nextDueAt();
    const until = nextDue === null ? pollMs : Math.max(0, Math.min(pollMs, nextDue - deps.clock.now()));
    return new Promise((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, until);
    });
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        await runPass();
      } catch (error) {
        // A database hiccup must not end the loop; the next pass tries again.
        deps.log.error({ err: error }, 'outbox pass failed');
      }
      if (running) await idleWait();
      clearTimeout(timer);
      wake = undefined;
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    notify() {
      wake?.();
    },
    runPass,
    async stop() {
      running = false;
      wake?.();
      await loop;
      await pass;
    },
  };
}
