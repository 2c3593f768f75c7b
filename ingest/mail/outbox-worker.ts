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
 * While submissions keep the service at its limit, the sends give way to them (`MAIL_GIVE_WAY`).
 *
 * Several workers (one per replica) may share the outbox: each claim is a lease of `leaseMs`,
 * renewed every third of it while the send runs, so a live worker keeps its row and a dead one's
 * row is claimed again once the lease has run out. Every outcome is recorded through the claim
 * (its attempt number): a worker that lost its lease records nothing and logs it. The loop, the
 * lanes, the leases, the retry schedule and the stop are the job queue's (`jobs/job-queue.ts`);
 * this file says what is done with a claimed mail.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { SalesEnvelope } from './messages/contact-email.ts';
import type { Mailer } from './mailer.ts';
import { composeMail, MAIL_NAMES, mailComposers, type VisitorMailComposers } from './outbox-composers.ts';
import { recordFailedSend } from './failed-send.ts';
import { DEFAULT_RETRY_POLICY } from './retry-policy.ts';
import { messageOf } from '../jobs/error-reason.ts';
import { giveWay } from '../jobs/give-way.ts';
import { type Handled, jobQueue } from '../jobs/job-queue.ts';
import { type PassBackoff, passRetryDelay, type RetryPolicy } from '../jobs/retry-schedule.ts';
import type { OutboxKind } from '../store/tables.ts';
import type { OutboxJob, OutboxStore } from '../store/outbox/outbox-store.ts';

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
  /**
   * How many submissions the service has taken so far: while it grows and the event loop is at its
   * limit, the lanes give way to them (`MAIL_GIVE_WAY`). Without it they never do.
   */
  submissions?: () => number;
}

/**
 * How the mails give way to submissions (`jobs/give-way.ts`): only while submissions arrived and
 * the event loop was busy for more than 75 % of a round, then for 9 times the round, so that a
 * burst of signups that fills the service leaves the mails a tenth of each lane's time and takes
 * the rest. With more room, as at any rate of signups the service can mail as fast as they come,
 * the mails run at full speed. Each mail costs the service about ten times what storing its signup
 * does (issue 45: 2.3-2.7 ms of CPU against 0.2-0.3 ms), so during such a burst they could not
 * keep up anyway: they go out after it. The loop of a service that waits on its database between
 * requests is rarely busier than 80-90 % even when full (`npm run bench:ingest`), hence 75 %.
 */
export const MAIL_GIVE_WAY = { factor: 9, busyAbove: 0.75 } as const;

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
  /** After this long the send is abandoned and its row returned to `pending` (default 5 s: well inside the service's 15 s shutdown grace, far longer than a healthy SMTP server takes to answer). */
  abandonAfterMs?: number;
}

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
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  // Set by a failed send: the next successful one ends an outage, and brings the waiting rows forward.
  let outageSuspected = false;

  const composers = mailComposers(deps.envelope, deps);

  // Each lane claims and sends one row after another; a lane ends when none is due.
  const queue = jobQueue<OutboxJob, PassResult>({
    table: deps.outbox,
    names: { queue: 'outbox', rows: 'outbox rows' },
    clock: deps.clock,
    log: deps.log,
    pollMs: deps.pollMs ?? 1000,
    leaseMs,
    policy: deps.policy ?? DEFAULT_RETRY_POLICY,
    ...(deps.random === undefined ? {} : { random: deps.random }),
    ...(deps.passBackoff === undefined ? {} : { passBackoff: deps.passBackoff }),
    lanes: deps.concurrency ?? 1,
    ...(deps.submissions === undefined ? {} : { pacing: giveWay(deps.submissions, MAIL_GIVE_WAY) }),
    tally: () => ({ sent: 0, retried: 0, failed: 0, abandoned: 0 }),
    claim: async (now, dueBy) => {
      const job = await deps.outbox.claimNext(now, dueBy);
      return job === null ? null : [job];
    },
    handle: async ([job], pass) => sendOne(job!, pass.startedAt, pass.tally),
  });

  // Logs a finish that changed nothing: the lease ran out and another worker holds the row now.
  const fenced = (recorded: boolean, job: OutboxJob, outcome: string) => queue.fenced(recorded, { outboxId: job.id, attempts: job.attempts, outcome });

  const failureDeps = { outbox: deps.outbox, log: deps.log, retryAt: queue.retryAt, fenced };

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
        if (queue.stopping || deps.clock.now() >= deadline) throw error;
        const waitMs = Math.min(passRetryDelay(RECORD_BACKOFF, failures), Math.max(0, deadline - deps.clock.now()));
        deps.log.warn({ outboxId: job.id, kind: job.kind, reason: messageOf(error), retryInMs: waitMs }, `${MAIL_NAMES[job.kind]} sent, but not recorded yet; trying again`);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /**
   * Sends `job` and records the outcome; true when its success brought waiting rows forward. A sent
   * mail's record is handed back to the lane (`recording`), which claims its next mail meanwhile: on
   * PostgreSQL that claim's commit carries the mark, one WAL flush for both.
   */
  async function sendOne(job: OutboxJob, passStart: number, result: PassResult): Promise<Handled> {
    const work = queue.inFlight();
    const lease = queue.hold(job);
    try {
      await untilAborted(deps.mailer.send(composeMail(composers, job), work.signal), work.signal);
    } catch (error) {
      await lease.stop();
      const failed = await recordFailedSend(failureDeps, job, error, work.signal.aborted, deps.clock.now());
      if (failed.transient) outageSuspected = true;
      result[failed.outcome] += 1;
      deps.onOutcome?.(job.kind, failed.outcome);
      return false;
    } finally {
      work.release();
    }
    await lease.stop();
    return { recording: finishSent(job, passStart, result) };
  }

  /** Records a delivered `job` (its mark submitted at once); true when the end of an outage brought waiting rows forward. */
  async function finishSent(job: OutboxJob, passStart: number, result: PassResult): Promise<boolean> {
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

  return {
    start: () => queue.start(),
    notify: () => queue.wake(),
    runPass: async () => (await queue.runPass()).tally,
    stop: (options = {}) => queue.stop(options),
  };
}
