/**
 * The job queue both background workers run on (the mail outbox's and the webhooks'): it owns the
 * pass loop (`pass-loop.ts`), the claims' leases (`lease.ts`), the fenced finish, the retry
 * schedule (`retry-schedule.ts`), the wake-up and the stop. A worker brings its table's operations
 * (`QueueTable`), how it claims (one row or a batch) and what it does with what it claimed:
 *
 *   const queue = jobQueue({ table, names, clock, log, pollMs, leaseMs, policy, lanes: 8,
 *     tally: () => ({ sent: 0 }),
 *     claim: async (now, dueBy) => { const job = await table.claimNext(now, dueBy); return job && [job]; },
 *     handle: async (jobs, pass) => { … send, record through `queue.fenced`; pass.tally.sent += 1; return false; } });
 *   queue.start(); queue.wake(); await queue.stop();
 *
 * A pass first returns the rows whose lease ran out (their process died mid-job) to pending (every
 * pass, or at most every `releaseEveryMs`), then runs `lanes` lanes at once: each claims the rows due
 * when the pass began, leased from now (a pass may outlast a lease), handles them, and claims again
 * until `claim` says nothing is due (null) or the queue stops. Rows rescheduled during the pass are
 * due later, so the pass ends; a `handle` that made waiting rows due (an outage ended) reopens the
 * lanes that had ended. With `pacing`, a lane asks it after each round whether to pause. A `handle`
 * may return while its outcome is still being recorded (`{ recording }`): the lane claims its next
 * rows meanwhile (so a store can commit the record with that claim) and handles them only once the
 * record is done, so a lane never has more than one round's outcome unrecorded.
 *
 * Between passes the queue waits until the next row is due, at most `pollMs`, and a moment
 * (`MIN_IDLE_MS`) at least after a pass that claimed nothing; `wake()` cuts that wait short. A
 * failed pass is logged and followed by a growing wait (`passBackoff`). `stop()` ends the loop
 * after the pass in progress and aborts the work still running `abandonAfterMs` later (`inFlight`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { messageOf } from './error-reason.ts';
import { type HeldLease, type JobClaim, keepLease } from './lease.ts';
import { MIN_IDLE_MS, passLoop } from './pass-loop.ts';
import { DEFAULT_PASS_BACKOFF, nextRetry, type PassBackoff, type RetryDecision, type RetryPolicy } from './retry-schedule.ts';

/** The operations every queue's table has (each claim's row moves `pending` → `sending` → done, fenced by its attempt number). */
interface QueueTable {
  /** Extends the lease of a claim still held to start at `now`; false when the claim was lost. */
  renewLease(claim: JobClaim, now: number): Promise<boolean>;
  /** Returns rows whose lease started before `claimedBefore` and never finished to `pending`; returns how many. */
  releaseStale(claimedBefore: number): Promise<number>;
  /** When the next pending row falls due, or null if none is pending. */
  nextDueAt(): Promise<number | null>;
}

/** A pause a lane may take after each round (the webhooks and the mails give way to form submissions: `give-way.ts`). */
interface Pacing<Start> {
  /** Called before a round's claim. */
  begin(): Start;
  /** Resolves when the lane may claim again. */
  after(began: Start): Promise<void>;
  /** Ends a pause in progress (the queue is stopping). */
  release(): void;
}

/** What the queue says in its logs: `{ queue: 'outbox', rows: 'outbox rows' }`. */
interface QueueNames {
  /** The queue's name, leading its log lines ('outbox pass failed'). */
  queue: string;
  /** What its rows are called ('webhook deliveries left sending by a stopped process are due again'). */
  rows: string;
}

/** What a queue runs on and how; tests pass short delays and their own clock. */
export interface JobQueueOptions<Job extends JobClaim, Tally, Start = unknown> {
  table: QueueTable;
  names: QueueNames;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The longest idle wait between looks at the table. */
  pollMs: number;
  /** How long a claim lasts unless renewed (renewed every third of it while its job runs). */
  leaseMs: number;
  /** The retry schedule of a failed job (`retryAt`). */
  policy: RetryPolicy;
  random?: () => number;
  /** The wait after a pass that failed (default 1 s doubling to 30 s). */
  passBackoff?: PassBackoff;
  /** How often stale claims are looked for: 0 (the default), every pass; otherwise at most this often. */
  releaseEveryMs?: number;
  /** How many lanes claim and handle at once (default 1). */
  lanes?: number;
  /** Claims the next jobs due at `dueBy`, leased from `now`; null when nothing is left to do for this lane. */
  claim(now: number, dueBy: number): Promise<readonly Job[] | null>;
  /**
   * Runs claimed `jobs` and records their outcomes; true when it made waiting rows due (the ended
   * lanes open again). Or it returns once the outcomes are being recorded (`recording`, resolving
   * to that same boolean): the lane then claims its next jobs while they are, and handles those
   * only once they are recorded.
   */
  handle(jobs: readonly Job[], pass: { startedAt: number; tally: Tally }): Promise<Handled>;
  /** A fresh count of what one pass did (the worker's `runPass()` result). */
  tally(): Tally;
  pacing?: Pacing<Start>;
}

/** What a handle did: true when it made waiting rows due; or its outcomes still being recorded. */
export type Handled = boolean | { recording: Promise<boolean> };

/** What one pass did: how many jobs it claimed, and the worker's own count. */
interface QueuePass<Tally> {
  claimed: number;
  tally: Tally;
}

/** Work that `stop()` may abort: pass `signal` to it, call `release()` once it is over. */
interface InFlight {
  signal: AbortSignal;
  release(): void;
}

/** A queue: its loop, and what a worker's `handle` uses (leases, retries, fenced finishes, abortable work). */
export interface JobQueue<Job extends JobClaim, Tally> {
  start(): void;
  /** Cuts an idle wait short (a change queued something). */
  wake(): void;
  /** Runs one pass now (after the one in progress). */
  runPass(): Promise<QueuePass<Tally>>;
  /** Ends the loop after the pass in progress; work still running after `abandonAfterMs` (default 5 s) is aborted. */
  stop(options?: { abandonAfterMs?: number }): Promise<void>;
  /** True from `stop()` on. */
  readonly stopping: boolean;
  /** Renews `claim`'s lease while its job runs. */
  hold(claim: Job): HeldLease;
  /** When a failed `job` is tried again, or whether it is given up. */
  retryAt(job: Job & { queuedAt: number }, now: number): RetryDecision;
  /** Logs a finish that changed nothing (`recorded` false): the claim was lost, and the outcome is not recorded. */
  fenced(recorded: boolean, about: Record<string, unknown>, lost?: string): void;
  /** Starts work that `stop()` aborts once it has waited `abandonAfterMs` for it. */
  inFlight(): InFlight;
}

/** How long `stop()` waits for the work in flight by default: well inside the service's 15 s shutdown grace. */
const DEFAULT_ABANDON_AFTER_MS = 5_000;

/** Makes a queue; nothing runs until `start()` or `runPass()`. */
export function jobQueue<Job extends JobClaim, Tally, Start = unknown>(options: JobQueueOptions<Job, Tally, Start>): JobQueue<Job, Tally> {
  const { table, names, clock, log, leaseMs } = options;
  const random = options.random ?? Math.random;
  const releaseEveryMs = options.releaseEveryMs ?? 0;
  const lanes = Math.max(1, options.lanes ?? 1);
  const running = new Set<AbortController>();
  let lastRelease = Number.NEGATIVE_INFINITY;

  async function releaseStale(startedAt: number): Promise<void> {
    if (releaseEveryMs > 0 && startedAt - lastRelease < releaseEveryMs) return;
    lastRelease = startedAt;
    const released = await table.releaseStale(startedAt - leaseMs);
    if (released > 0) log.warn({ released }, `${names.rows} left sending by a stopped process are due again`);
  }

  async function passOnce(): Promise<QueuePass<Tally>> {
    const startedAt = clock.now();
    const pass = { startedAt, tally: options.tally() };
    let claimed = 0;
    await releaseStale(startedAt);
    const started: Array<Promise<void>> = [];
    let open = 0;
    const lane = async (): Promise<void> => {
      // The last round's outcome while it is being recorded: the lane claims its next jobs meanwhile
      // (a store may commit the record in that claim's transaction), and handles them only once it is.
      let recording: Promise<boolean> | undefined;
      const recorded = async () => {
        const last = recording;
        recording = undefined;
        return last === undefined ? false : await last;
      };
      try {
        while (!loop.stopping) {
          const began = options.pacing?.begin();
          // Due when the pass began; leased from now (a pass may outlast a lease).
          const [claim, record] = await Promise.allSettled([options.claim(clock.now(), startedAt), recorded()]);
          if (record.status === 'rejected') throw record.reason;
          if (claim.status === 'rejected') throw claim.reason;
          // A record that made waiting rows due came after the claim looked: look again.
          if (record.value) widen();
          const jobs = claim.value;
          if (jobs === null) {
            if (record.value) continue;
            return;
          }
          claimed += jobs.length;
          const handled = jobs.length > 0 ? await options.handle(jobs, pass) : false;
          if (typeof handled === 'object') recording = handled.recording;
          if (options.pacing !== undefined) await options.pacing.after(began as Start);
          if (handled === true) widen();
        }
      } finally {
        try {
          await recorded();
        } finally {
          open -= 1;
        }
      }
    };
    let failure: { error: unknown } | undefined;
    // Caught as each lane starts: a lane failing while the pass awaits another would otherwise end the process (unhandled rejection).
    // Counted before it starts and never started once stopping: a lane started then ends before its
    // first await, and counting it afterwards kept `open` below `lanes` forever (a loop that
    // blocked the process until it ran out of memory, when `stop()` came during `releaseStale`).
    const widen = () => {
      while (open < lanes && !loop.stopping) {
        open += 1;
        started.push(lane().catch((error: unknown) => void (failure ??= { error })));
      }
    };
    widen();
    // Every lane ends before the pass does (one pass at a time), the failed ones too.
    for (let i = 0; i < started.length; i++) await started[i];
    if (failure !== undefined) throw failure.error;
    return { claimed, tally: pass.tally };
  }

  // A pass that claimed nothing waits a moment at least: a due row it cannot claim (another
  // replica holds it locked) would otherwise be looked at again every millisecond.
  async function idleMs(pass: QueuePass<Tally>): Promise<number> {
    const nextDue = await table.nextDueAt();
    if (nextDue === null) return options.pollMs;
    return Math.max(pass.claimed === 0 ? MIN_IDLE_MS : 0, Math.min(options.pollMs, nextDue - clock.now()));
  }

  const loop = passLoop({
    pass: passOnce,
    idleMs,
    backoff: options.passBackoff ?? DEFAULT_PASS_BACKOFF,
    onFailure: (error, failures, retryInMs) => {
      const detail = failures === 1 ? { err: error } : { reason: messageOf(error), failures };
      log.error({ ...detail, retryInMs }, `${names.queue} pass failed`);
    },
    onRecovery: (failures) => log.info({ failures }, `${names.queue} passes work again`),
  });

  return {
    start: () => loop.start(),
    wake: () => loop.wake(),
    runPass: () => loop.runPass(),
    async stop(stopOptions = {}) {
      const abandonAfterMs = stopOptions.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
      const reason = new Error(`no answer within ${abandonAfterMs} ms of shutdown`);
      const timer = setTimeout(() => running.forEach((work) => work.abort(reason)), abandonAfterMs);
      try {
        const stopped = loop.stop();
        options.pacing?.release();
        await stopped;
      } finally {
        clearTimeout(timer);
      }
    },
    get stopping() {
      return loop.stopping;
    },
    hold: (claim) => keepLease(claim, { renewLease: (held, now) => table.renewLease(held, now), clock, log, leaseMs, queue: names.queue }),
    retryAt: (job, now) => nextRetry(options.policy, { attempts: job.attempts, queuedAt: job.queuedAt, now, random: random() }),
    fenced(recorded, about, lost = 'to a newer one (its lease ran out)') {
      if (!recorded) log.warn({ ...about, queue: names.queue }, `${names.queue} outcome not recorded: the claim was lost ${lost}`);
    },
    inFlight() {
      const controller = new AbortController();
      running.add(controller);
      return { signal: controller.signal, release: () => running.delete(controller) };
    },
  };
}
