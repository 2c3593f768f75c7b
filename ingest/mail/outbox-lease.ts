/**
 * Holding an outbox claim while its mail is sent: the claim is a lease (`OUTBOX_LEASE_MS`),
 * renewed every third of it, so a live worker keeps its row however slow the SMTP server is,
 * and a dead worker's row is claimed again once the lease has run out.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { OutboxClaim, OutboxStore } from '../store/outbox/outbox-store.ts';
import { messageOf } from './failed-send.ts';

/** A lease being renewed; `stop()` ends the renewals and waits for the one in flight. */
interface HeldLease {
  stop(): Promise<void>;
}

/** Renews `claim` every third of `leaseMs` until stopped; a lost lease or a failed renewal is logged (and retried at the next tick). */
export function keepLease(
  claim: OutboxClaim,
  deps: { outbox: Pick<OutboxStore, 'renewLease'>; clock: Clock; log: Pick<FastifyBaseLogger, 'warn'>; leaseMs: number },
): HeldLease {
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = deps.outbox.renewLease(claim, deps.clock.now()).then(
      (held) => {
        if (!held) deps.log.warn({ outboxId: claim.id, attempts: claim.attempts }, 'outbox lease lost during a send');
      },
      (error: unknown) => deps.log.warn({ outboxId: claim.id, reason: messageOf(error) }, 'outbox lease renewal failed'),
    );
  }, Math.max(10, Math.floor(deps.leaseMs / 3)));
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
