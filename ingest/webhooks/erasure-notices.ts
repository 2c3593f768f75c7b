/**
 * Sending an erasure's `person.erased` notices from `ingest erase`, after its transaction: each is
 * claimed and sent at once, through the same store and worker as the service's (so a running
 * service never sends it a second time), and the operator reads which endpoints confirmed (2xx)
 * before the command ends. A notice to an endpoint that a delivery about the person was being sent
 * to when the erasure ran is sent only once that request must have ended (`dueAt`, at most the
 * delivery timeout and a second later): the command waits for it, so the receiver never gets the
 * older event after the notice. A notice not confirmed stays queued and the service keeps trying it.
 */
import type { IngestConfig } from '../config.ts';
import { DATA_FACTS } from '../contract/data-facts.ts';
import type { OpsDatabase } from '../store/ops-database.ts';
import { webhookStore } from '../store/webhooks/webhook-store.ts';
import { printable } from './printable-text.ts';
import { webhookWorker } from './webhook-worker.ts';

/** How each erasure notice went: `confirmed` (the endpoint answered 2xx) or still queued, with why. */
export interface NoticeReport {
  endpoint: string;
  confirmed: boolean;
  detail: string;
}

/** Sends the erasure's notices now, through the store on `db`; returns one line of report per notice. */
export async function sendErasureNotices(db: OpsDatabase, config: IngestConfig, notices: ReadonlyArray<{ endpoint: string; eventId: string; dueAt?: number }>): Promise<NoticeReport[]> {
  const store = webhookStore(db);
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const worker = webhookWorker({
    store,
    endpoints: config.webhooks.endpoints,
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: config.webhooks.allowPrivate,
    clock: { now: () => Date.now() },
    log: quiet,
  });
  const reports: NoticeReport[] = [];
  for (const notice of notices) {
    const waitMs = (notice.dueAt ?? 0) - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const waited = waitMs > 0 ? `, after waiting ${(waitMs / 1000).toFixed(1)} s for a delivery about the person that was in flight` : '';
    const job = await store.claimEvent(notice.eventId, notice.endpoint, Date.now());
    if (job !== null) await worker.deliver(job);
    const [row] = (await store.list({ eventIds: [notice.eventId] })).filter((candidate) => candidate.endpoint === notice.endpoint);
    const confirmed = row?.status === 'delivered';
    const detail = confirmed
      ? `confirmed (HTTP ${row!.lastStatus})${waited}`
      : row === undefined || row.status === 'sending'
        ? 'being sent by the service'
        : row.status === 'failed'
          ? `refused: ${printable(row.lastError ?? '')}; see \`ingest webhooks failed\``
          : `not confirmed yet: ${printable(row.lastError ?? '')}; the service tries again for ${DATA_FACTS.webhookRetryDays} days`;
    reports.push({ endpoint: notice.endpoint, confirmed, detail });
  }
  return reports;
}
