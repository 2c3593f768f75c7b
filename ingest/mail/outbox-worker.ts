/**
 * The outbox worker: runs inside the service, sends each due outbox row — the sales mail about a
 * contact, or a mail to a visitor (`outbox-composers.ts` makes each kind) — several at a time
 * (`concurrency`, so the mailer's reused SMTP connection always has the next mail waiting while
 * the database claims and records others), and records each outcome.
 *
 * A send whose recipient or content the SMTP server refuses (5xx to RCPT TO or DATA) is marked
 * failed at once (logged at error level; `ingest outbox retry` queues it again). Any other failed
 * send (4xx, a 5xx to AUTH, STARTTLS or MAIL FROM, timeout, no connection) is retried on the
 * schedule of `retry-policy.ts` and given up 48 h after it was queued; once a send succeeds again, every row
 * still waiting out its backoff is due at once, so the queue drains right after an outage. A
 * pass that fails (the database cannot be written) is followed by a growing wait, not another
 * pass at once. The worker wakes when a contact is stored (`notify`), when the next retry falls
 * due, and every `pollMs` in any case (rows another process queued). `stop()` waits for the sends
 * in flight for a few seconds at most, then abandons them and returns their rows to `pending`.
 *
 * Several workers (one per replica) may share the outbox: each claim is a lease of `leaseMs`,
 * renewed every third of it while the send runs, so a live worker keeps its row and a dead one's
 * row is claimed again once the lease has run out. Every outcome is recorded through the claim
 * (its attempt number): a worker that lost its lease records nothing and logs it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SalesEnvelope } from './messages/contact-email.ts';
import type { Mailer } from './mailer.ts';
import { composeMail, MAIL_NAMES, mailComposers, type VisitorMailComposers } from './outbox-composers.ts';
import { keepLease } from './outbox-lease.ts';
import { messageOf, recordFailedSend } from './failed-send.ts';
import type { OutboxKind } from '../store/tables.ts';
import type { OutboxJob, OutboxStore } from '../store/outbox/outbox-store.ts';
import { MIN_IDLE_MS, passLoop } from './pass-loop.ts';
import { DEFAULT_PASS_BACKOFF, DEFAULT_RETRY_POLICY, type PassBackoff, passRetryDelay, type RetryPolicy } from './retry-policy.ts';

/** What became of one send: delivered, to be retried, failed for good, or cut off by a shutdown. */
export type SendOutcome = 'sent' | 'retried' | 'failed' | 'abandoned';

/** Everything the worker touches, passed in so tests can use a manual clock and short delays. */
export interface OutboxWorkerDeps extends VisitorMailComposers {
  outbox: OutboxStore;
  mailer: Mailer;
  /** Who sends the sales mail to whom. */
  envelope: SalesEnvelope;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  policy?: RetryPolicy;
  random?: () => number;
  /** The longest idle wait between looks at the table. */
  pollMs?: number;
  /** How long a claim lasts unless renewed (renewed every third of it while sending; default 60 s). */
  leaseMs?: number;
  /** Told each send's outcome, by the kind of mail (for the service's metrics). */
  onOutcome?: (kind: OutboxKind, outcome: SendOutcome) => void;
  /** The wait after a pass that failed (default 1 s doubling to 30 s). */
  passBackoff?: PassBackoff;
  /** How many rows are claimed and sent at once (default 1: one after another). */
  concurrency?: number;
}

/** What one pass over the due rows did. */
interface PassResult {
  sent: number;
  retried: number;
  /** Rejected by the server (5xx about the recipient or content) or given up after 48 h. */
  failed: number;
  /** Cut off by `stop()` and due again at once. */
  abandoned: number;
}

/** How `stop()` treats a send still in flight. */
interface StopOptions {
  /** After this long the send is abandoned and its row returned to `pending` (default 5 s). */
  abandonAfterMs?: number;
}

/**
 * How long `stop()` waits for a send in flight by default: well inside the service's 15 s
 * shutdown grace, and far longer than a healthy SMTP server takes to answer.
 */
const DEFAULT_ABANDON_AFTER_MS = 5_000;

/**
 * How long a claim lasts without renewal: a row whose worker died is sent again after this
 * long. Renewed every 20 s while a send runs, so it only needs to outlast a stalled renewal.
 */
const DEFAULT_LEASE_MS = 60_000;

/** The wait between tries to record a sent mail while the database is away: 250 ms doubling to 2 s. */
const RECORD_BACKOFF: PassBackoff = { firstDelayMs: 250, maxDelayMs: 2_000 };

/** A running (or startable) worker. */
export interface OutboxWorker {
  start(): void;
  /** Wakes the worker now (a contact was just stored). */
  notify(): void;
  /** Sends every row due now, once each; the loop calls it, tests may too. */
  runPass(): Promise<PassResult>;
  /**
   * Stops the loop once the sends in flight, if any, are recorded; a send that takes longer than
   * `abandonAfterMs` is abandoned and its row returned to `pending`, due at once, so the next run
   * sends it again (with the same Message-ID, so the receiver can drop a duplicate).
   */
  stop(options?: StopOptions): Promise<void>;
}

/** Settles like `work`, or rejects as soon as `signal` aborts, for a mailer that ignores the signal. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Creates the worker; it does nothing until `start()` or `runPass()`. */
export function outboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY;
  const passBackoff = deps.passBackoff ?? DEFAULT_PASS_BACKOFF;
  const random = deps.random ?? Math.random;
  const pollMs = deps.pollMs ?? 1000;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  const inFlight = new Set<AbortController>();
  // Set by a failed send: the next successful one ends an outage, and brings the waiting rows forward.
  let outageSuspected = false;

  const composers = mailComposers(deps.envelope, deps);

  // Logs a finish that changed nothing: the lease ran out and another worker holds the row now.
  function fenced(recorded: boolean, job: OutboxJob, outcome: string): void {
    if (!recorded) deps.log.warn({ outboxId: job.id, attempts: job.attempts, outcome }, 'outbox claim lost to a newer one, outcome not recorded');
  }

  const failureDeps = { outbox: deps.outbox, log: deps.log, policy, random, fenced };

  /**
   * Records a delivered mail, trying again while the database cannot be written (PostgreSQL
   * restarting, a failover): the mail is out, and a row left `sending` would be sent again once
   * its lease ran out. Gives up only when stopping, or once the lease has run out (another worker
   * may then hold the row, and the fence decides).
   */
  async function recordSent(job: OutboxJob): Promise<boolean> {
    const deadline = deps.clock.now() + leaseMs;
    for (let failures = 1; ; failures++) {
      try {
        return await deps.outbox.markSent(job, deps.clock.now());
      } catch (error) {
        if (loop.stopping || deps.clock.now() >= deadline) throw error;
        const waitMs = Math.min(passRetryDelay(RECORD_BACKOFF, failures), Math.max(0, deadline - deps.clock.now()));
        deps.log.warn({ outboxId: job.id, kind: job.kind, reason: messageOf(error), retryInMs: waitMs }, `${MAIL_NAMES[job.kind]} sent, but not recorded yet; trying again`);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /** Sends `job` and records the outcome; true when its success brought waiting rows forward. */
  async function sendOne(job: OutboxJob, passStart: number, result: PassResult): Promise<boolean> {
    const controller = new AbortController();
    inFlight.add(controller);
    const lease = keepLease(job, { outbox: deps.outbox, clock: deps.clock, log: deps.log, leaseMs });
    try {
      await untilAborted(deps.mailer.send(composeMail(composers, job), controller.signal), controller.signal);
    } catch (error) {
      await lease.stop();
      const failed = await recordFailedSend(failureDeps, job, error, controller.signal.aborted, deps.clock.now());
      if (failed.transient) outageSuspected = true;
      result[failed.outcome] += 1;
      deps.onOutcome?.(job.kind, failed.outcome);
      return false;
    } finally {
      inFlight.delete(controller);
    }
    await lease.stop();
    fenced(await recordSent(job), job, 'sent');
    result.sent += 1;
    deps.onOutcome?.(job.kind, 'sent');
    deps.log.info({ outboxId: job.id, kind: job.kind, attempts: job.attempts }, `${MAIL_NAMES[job.kind]} sent`);
    if (outageSuspected || job.attempts > 1) {
      outageSuspected = false;
      const due = await deps.outbox.bringForward(passStart);
      if (due > 0) deps.log.info({ due }, 'SMTP delivers again; every waiting mail is due now');
      return due > 0;
    }
    return false;
  }

  async function passOnce(): Promise<PassResult> {
    const result: PassResult = { sent: 0, retried: 0, failed: 0, abandoned: 0 };
    const now = deps.clock.now();
    const released = await deps.outbox.releaseStale(now - leaseMs);
    if (released > 0) deps.log.warn({ released }, 'outbox rows left sending by a stopped process are due again');
    // Each lane claims and sends one row after another and ends when none is due; rows rescheduled
    // during this pass are due later than `now`, so the pass ends; `stop()` ends it sooner. Rows
    // brought forward by the end of an outage open the lanes that had ended again.
    const lanes: Array<Promise<void>> = [];
    let open = 0;
    const lane = async (): Promise<void> => {
      try {
        while (!loop.stopping) {
          // Due when the pass began; leased from now (a pass may outlast a lease).
          const job = await deps.outbox.claimNext(deps.clock.now(), now);
          if (job === null) return;
          if (await sendOne(job, now, result)) widen();
        }
      } finally {
        open -= 1;
      }
    };
    let failure: { error: unknown } | undefined;
    // Caught as each lane starts: a lane failing while the pass awaits another would otherwise end the process (unhandled rejection).
    // Counted before it starts and never started once stopping: a lane started then ends before its
    // first await, and counting it afterwards kept `open` below `concurrency` forever (a loop that
    // blocked the process until it ran out of memory, when `stop()` came during `releaseStale`).
    const widen = () => {
      while (open < concurrency && !loop.stopping) {
        open += 1;
        lanes.push(lane().catch((error: unknown) => void (failure ??= { error })));
      }
    };
    widen();
    // Every lane ends before the pass does (one pass at a time), the failed ones too.
    for (let i = 0; i < lanes.length; i++) await lanes[i];
    if (failure !== undefined) throw failure.error;
    return result;
  }

  // A pass that claimed nothing waits a moment at least, as the webhook worker does: a due row it
  // cannot claim (another replica holds it locked) would otherwise be looked at again every millisecond.
  async function idleMs(result: PassResult): Promise<number> {
    const nextDue = await deps.outbox.nextDueAt();
    const claimed = result.sent + result.retried + result.failed + result.abandoned;
    return nextDue === null ? pollMs : Math.max(claimed === 0 ? MIN_IDLE_MS : 0, Math.min(pollMs, nextDue - deps.clock.now()));
  }

  // One pass at a time, a growing wait after a failed one; a stored contact cuts an idle wait short.
  const loop = passLoop({
    pass: passOnce,
    idleMs,
    backoff: passBackoff,
    onFailure: (error, failures, retryInMs) => {
      const detail = failures === 1 ? { err: error } : { reason: messageOf(error), failures };
      deps.log.error({ ...detail, retryInMs }, 'outbox pass failed');
    },
    onRecovery: (failures) => deps.log.info({ failures }, 'outbox passes work again'),
  });

  return {
    start: () => loop.start(),
    notify: () => loop.wake(),
    runPass: () => loop.runPass(),
    async stop(options = {}) {
      const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
      const reason = new Error(`no answer within ${abandonAfterMs} ms of shutdown`);
      const timer = setTimeout(() => inFlight.forEach((send) => send.abort(reason)), abandonAfterMs);
      try {
        await loop.stop();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
