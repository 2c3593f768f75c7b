/**
 * What the outbox does with a mail that did not go out: a send cut off by a shutdown is due
 * again at once; one whose recipient or content the SMTP server rejected (5xx to RCPT TO or DATA)
 * is failed for good; any other failure (4xx, a 5xx to AUTH, STARTTLS or MAIL FROM such as a
 * sending quota, timeout, no connection) is retried on the schedule of `retry-policy.ts`, and
 * failed once 48 h have passed since the row was queued. Every outcome is recorded through the claim (fenced) and
 * logged with the kind of mail. An SMTP server's reply often quotes the recipient
 * (`550 5.1.1 <ana@example.com>: Recipient address rejected`): the reason kept in the log and in
 * `outbox.last_error` has every address replaced by `<address>`, so neither holds a visitor's
 * address (the row already points to its contact or subscription).
 */
import type { FastifyBaseLogger } from 'fastify';
import { MAIL_NAMES } from './outbox-composers.ts';
import { messageOf } from '../jobs/error-reason.ts';
import type { RetryDecision } from '../jobs/retry-schedule.ts';
import { isPermanentRejection } from './retry-policy.ts';
import type { OutboxJob, OutboxStore } from '../store/outbox/outbox-store.ts';

/** What became of a failed send; `transient` failures suggest an outage (the next success ends it). */
interface FailedSendOutcome {
  outcome: 'retried' | 'failed' | 'abandoned';
  transient: boolean;
}

/** What recording a failure needs. */
interface FailedSendDeps {
  outbox: Pick<OutboxStore, 'reschedule' | 'markFailed'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** When the job is tried again (the queue's schedule, `jobs/job-queue.ts`), or whether it is given up. */
  retryAt: (job: OutboxJob, now: number) => RetryDecision;
  /** Logs a finish that changed nothing (the claim was lost to a newer one). */
  fenced: (recorded: boolean, job: OutboxJob, outcome: string) => void;
}

// What an operator does about a failure whose own text does not say it.
const REFUSED_STARTTLS = 'the SMTP relay offers no STARTTLS (or refused it) and TLS is required: fix the relay, use smtps://, or add ?starttls=optional to SMTP_URL to send in clear text';

/**
 * The reason recorded for a failed send: `messageOf(error)`, led by what to do when the relay
 * refused the STARTTLS that `SMTP_URL` requires (nodemailer's `ETLS` at `STARTTLS`).
 */
function failureReason(error: unknown): string {
  const { code, command } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; command?: unknown };
  return code === 'ETLS' && command === 'STARTTLS' ? `${REFUSED_STARTTLS} (${messageOf(error)})` : messageOf(error);
}

/** Records the failed send of `job` at `now` (`abandoned`: cut off by a shutdown) and says what became of it. */
export async function recordFailedSend(deps: FailedSendDeps, job: OutboxJob, error: unknown, abandoned: boolean, now: number): Promise<FailedSendOutcome> {
  const reason = failureReason(error);
  const log = { outboxId: job.id, kind: job.kind, attempts: job.attempts, reason };
  const mail = MAIL_NAMES[job.kind];
  if (abandoned) {
    // The server may have the message already; the stable Message-ID lets it drop the copy.
    deps.fenced(await deps.outbox.reschedule(job, now, `abandoned at shutdown: ${reason}`), job, 'abandoned');
    deps.log.warn(log, `${mail} abandoned at shutdown, due again at the next start`);
    return { outcome: 'abandoned', transient: false };
  }
  if (isPermanentRejection(error)) {
    deps.fenced(await deps.outbox.markFailed(job, reason), job, 'rejected');
    const { responseCode } = error as { responseCode: number };
    deps.log.error({ ...log, responseCode }, `${mail} rejected by the SMTP server, not retried; see the outbox row`);
    return { outcome: 'failed', transient: false };
  }
  const decision = deps.retryAt(job, now);
  if (decision.action === 'retry') {
    deps.fenced(await deps.outbox.reschedule(job, decision.at, reason), job, 'retry');
    deps.log.warn({ ...log, retryInMs: decision.at - now }, `${mail} failed, will retry`);
    return { outcome: 'retried', transient: true };
  }
  deps.fenced(await deps.outbox.markFailed(job, reason), job, 'given up');
  deps.log.error(log, `${mail} given up after 48 h; see the outbox row`);
  return { outcome: 'failed', transient: true };
}
