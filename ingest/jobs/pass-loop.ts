/**
 * The loop of the job queue (`job-queue.ts`) that both background workers run: a pass over the
 * due rows, then an idle wait until the next one is due (at most a poll period), again and again
 * until stopped. One pass runs at a time: `runPass()` called while one runs waits for it, then runs
 * its own. A pass that fails (the database cannot be written) is logged and followed by a growing
 * wait (`PassBackoff`), never by another pass at once; `wake()` cuts an idle wait short (a change
 * queued something), never the wait after a failed pass.
 *
 *   const loop = passLoop({ pass: () => sendDue(), idleMs: () => untilNextDue(), backoff, onFailure });
 *   loop.start(); loop.wake(); await loop.stop();
 */
import { type PassBackoff, passRetryDelay } from './retry-schedule.ts';

/** The shortest wait after a pass that claimed nothing, for both workers: a due row another replica holds locked is never looked at in a hot loop. */
export const MIN_IDLE_MS = 25;

/** What a loop runs and how it waits. */
interface PassLoopOptions<T> {
  /** One pass over the due rows. */
  pass: () => Promise<T>;
  /** How long to wait after a good pass that returned `result`. */
  idleMs: (result: T) => Promise<number>;
  /** The waits after failed passes in a row. */
  backoff: PassBackoff;
  /** Told each failed pass: the error, how many failed in a row, and the wait before the next. */
  onFailure: (error: unknown, failures: number, retryInMs: number) => void;
  /** Told when a pass works again after `failures` failed ones. */
  onRecovery?: (failures: number) => void;
}

/** A running (or stopped) loop. */
export interface PassLoop<T> {
  start(): void;
  /** Cuts an idle wait short; the wait after a failed pass stays. */
  wake(): void;
  /** Runs one pass now (after the one in progress) and resolves with its result. */
  runPass(): Promise<T>;
  /** Ends the loop after the pass in progress; resolves once it has ended. */
  stop(): Promise<void>;
  /** True from `stop()` on: passes end early (between rows). */
  readonly stopping: boolean;
}

/** Makes the loop; nothing runs until `start()` or `runPass()`. */
export function passLoop<T>(options: PassLoopOptions<T>): PassLoop<T> {
  let running = false;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let pass: Promise<T> | undefined;
  let wake: (() => void) | undefined;
  let wakeable = false;

  function runPass(): Promise<T> {
    const previous: Promise<unknown> = pass ?? Promise.resolve();
    const next = previous.then(options.pass, options.pass);
    pass = next;
    return next;
  }

  const sleep = (ms: number, interruptible: boolean) => {
    const nap = wakeableSleep(ms);
    wake = nap.wake;
    wakeable = interruptible;
    return nap.done.then(() => {
      wake = undefined;
    });
  };

  async function run(): Promise<void> {
    let failures = 0;
    while (running) {
      let waitMs: number;
      try {
        waitMs = await options.idleMs(await runPass());
        if (failures > 0) options.onRecovery?.(failures);
        failures = 0;
      } catch (error) {
        failures += 1;
        waitMs = passRetryDelay(options.backoff, failures);
        options.onFailure(error, failures, waitMs);
      }
      if (running) await sleep(waitMs, failures === 0);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = run();
    },
    wake() {
      if (wakeable) wake?.();
    },
    runPass,
    async stop() {
      running = false;
      stopping = true;
      wake?.();
      await loop;
      // The loop has logged a failed pass already; stopping is not the place to throw it again.
      await pass?.catch(() => undefined);
    },
    get stopping() {
      return stopping;
    },
  };
}

/** A wait of `ms` that `wake()` ends early; `done` resolves either way. */
export function wakeableSleep(ms: number): { done: Promise<void>; wake(): void } {
  let wake = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}
