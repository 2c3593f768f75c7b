/**
 * How a worker's rounds give way to form submissions. Both run on the service's one event loop; a
 * burst of leads or signups is what the service must take at full speed, and the deliveries and
 * mails it queues can wait a little. So after each round the worker's queue asks `giveWay` (its
 * pacing, `job-queue.ts`): when no submission arrived while the round ran it goes on at once; when
 * one did, it pauses for `factor` times the round's duration (between 50 ms and 2 s), so that under
 * load the rounds take at most 1 / (factor + 1) of their lane's time and never stop. Once the burst
 * is over they run at full speed again.
 *
 *   const gate = giveWay(() => submissionsSoFar, { factor: 19 });
 *   const began = gate.begin(); await sendBatch(); await gate.after(began);
 *
 * With `busyAbove`, a round pauses only when, besides, the event loop was busy for more than that
 * share of the round (`performance.eventLoopUtilization`): the outbox's mails give way only while
 * the service is at its limit, so at any lower rate of signups, each of which queues a mail, the
 * mails keep up with them (issue 45). Without it (the webhooks), any submission is enough.
 */
import { performance } from 'node:perf_hooks';
import { wakeableSleep } from './pass-loop.ts';

/** A reading of the event loop's use, and its busy share since an earlier reading. */
interface LoopMeter<Reading = unknown> {
  read(): Reading;
  busySince(earlier: Reading): number;
}

/** The service's own event loop, as Node measures it. */
const EVENT_LOOP: LoopMeter<ReturnType<typeof performance.eventLoopUtilization>> = {
  read: () => performance.eventLoopUtilization(),
  busySince: (earlier) => performance.eventLoopUtilization(earlier).utilization,
};

/** What the gate measures a round by: when it began, how many submissions had arrived by then, and the loop's reading. */
interface RoundStart {
  atMs: number;
  submissions: number;
  loop: unknown;
}

/** The worker's side of the gate. */
export interface GiveWay {
  begin(): RoundStart;
  /** Resolves when the next round may start: at once, or after the pause the submissions since `began` call for. */
  after(began: RoundStart): Promise<void>;
  /** Ends every pause in progress (the worker is stopping). */
  release(): void;
}

/** How a gate gives way. */
export interface GiveWayOptions {
  /** A pause under load lasts this many times the round (19: the rounds take at most 5 % of the time). */
  factor: number;
  /** Pause only when the event loop was busy for more than this share of the round (0 to 1); unset: whenever a submission arrived. */
  busyAbove?: number;
  /** The clock the rounds are timed by, in ms (tests pass their own). */
  now?: () => number;
  /** The event loop's meter (tests pass their own). */
  loop?: LoopMeter;
}

/** The shortest and the longest pause after a round that ran while submissions arrived. */
export const PAUSE_BOUNDS_MS = { min: 50, max: 2_000 } as const;

/** `submissions()`: how many submissions the service has taken so far (it only grows). */
export function giveWay(submissions: () => number, options: GiveWayOptions): GiveWay {
  const { factor, busyAbove } = options;
  const now = options.now ?? (() => performance.now());
  const loop = options.loop ?? EVENT_LOOP;
  // Several lanes may pause at once (the outbox's); a stop wakes them all.
  const pausing = new Set<() => void>();
  return {
    begin: () => ({ atMs: now(), submissions: submissions(), loop: busyAbove === undefined ? undefined : loop.read() }),
    after(began) {
      if (submissions() === began.submissions) return Promise.resolve();
      if (busyAbove !== undefined && loop.busySince(began.loop) <= busyAbove) return Promise.resolve();
      const ms = Math.min(PAUSE_BOUNDS_MS.max, Math.max(PAUSE_BOUNDS_MS.min, factor * (now() - began.atMs)));
      const pause = wakeableSleep(ms);
      pausing.add(pause.wake);
      return pause.done.then(() => {
        pausing.delete(pause.wake);
      });
    },
    release: () => {
      for (const wake of pausing) wake();
    },
  };
}
