/**
 * How webhook deliveries give way to form submissions. Both run on the service's one event loop;
 * a burst of leads is what sales wants the service to take at full speed, and the deliveries it
 * queues can wait a little. So after each batch the worker's queue asks `giveWay` (its pacing,
 * `jobs/job-queue.ts`): when no submission arrived while the batch ran it goes on at once; when
 * one did, it pauses for `factor` times the batch's duration (between 50 ms and 2 s), so that
 * under load the deliveries take at most 1 / (factor + 1) of the loop's time (5 % by default) and
 * never stop. Once the burst is over they run at full speed again.
 *
 *   const gate = giveWay(() => submissionsSoFar);
 *   const began = gate.begin(); await sendBatch(); await gate.after(began);
 */
import { wakeableSleep } from '../jobs/pass-loop.ts';

/** What the gate measures a batch by: when it began, and how many submissions had arrived by then. */
interface BatchStart {
  atMs: number;
  submissions: number;
}

/** The worker's side of the gate. */
export interface GiveWay {
  begin(): BatchStart;
  /** Resolves when the next batch may start: at once, or after the pause the submissions since `began` call for. */
  after(began: BatchStart): Promise<void>;
  /** Ends a pause in progress (the worker is stopping). */
  release(): void;
}

/** The shortest and the longest pause after a batch that ran while submissions arrived. */
export const PAUSE_BOUNDS_MS = { min: 50, max: 2_000 } as const;

/**
 * `submissions()`: how many submissions the service has taken so far (it only grows).
 * `factor`: a pause under load lasts this many times the batch (19: deliveries take at most 5 %).
 */
export function giveWay(submissions: () => number, factor = 19, now: () => number = () => performance.now()): GiveWay {
  let wake: (() => void) | undefined;
  return {
    begin: () => ({ atMs: now(), submissions: submissions() }),
    after(began) {
      if (submissions() === began.submissions) return Promise.resolve();
      const ms = Math.min(PAUSE_BOUNDS_MS.max, Math.max(PAUSE_BOUNDS_MS.min, factor * (now() - began.atMs)));
      const pause = wakeableSleep(ms);
      wake = pause.wake;
      return pause.done.then(() => {
        wake = undefined;
      });
    },
    release: () => wake?.(),
  };
}
