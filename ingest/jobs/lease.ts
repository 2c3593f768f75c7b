/**
 * Holding a claim while its job runs: the claim is a lease (`leaseMs`), renewed every third of it,
 * so a live worker keeps its row however slow the SMTP server or the webhook receiver is, and a
 * dead worker's row is claimed again once the lease has run out.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { messageOf } from './error-reason.ts';

/** Which claim of a row a worker holds: the row id and the attempt number its claim set (every finish is fenced by it). */
export interface JobClaim {
  id: number;
  attempts: number;
}

/** A lease being renewed; `stop()` ends the renewals and waits for the one in flight. */
export interface HeldLease {
  stop(): Promise<void>;
}

/** What renewing a lease needs: the table's renewal, a clock, where to log, the lease's length and the queue's name for the log. */
interface LeaseDeps {
  /** Extends a claim still held to start at `now`; false when the claim was lost. */
  renewLease: (claim: JobClaim, now: number) => Promise<boolean>;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn'>;
  leaseMs: number;
  queue: string;
}

/** Renews `claim` every third of `leaseMs` until stopped; a lost lease or a failed renewal is logged (and retried at the next tick). */
export function keepLease(claim: JobClaim, deps: LeaseDeps): HeldLease {
  let renewing: Promise<unknown> = Promise.resolve();
  const about = { queue: deps.queue, rowId: claim.id, attempts: claim.attempts };
  const timer = setInterval(() => {
    renewing = deps.renewLease(claim, deps.clock.now()).then(
      (held) => {
        if (!held) deps.log.warn(about, `${deps.queue} lease lost while its job ran`);
      },
      (error: unknown) => deps.log.warn({ ...about, reason: messageOf(error) }, `${deps.queue} lease renewal failed`),
    );
  }, Math.max(10, Math.floor(deps.leaseMs / 3)));
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
