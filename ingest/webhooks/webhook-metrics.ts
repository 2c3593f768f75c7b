/**
 * The webhook metrics, on the service's registry (`GET /metrics`):
 *
 * | metric | what |
 * |---|---|
 * | `ingest_webhook_deliveries_total{event, outcome}` | attempts by event type and outcome (`delivered`, `retried`, `failed`, `abandoned`) |
 * | `ingest_webhook_rows{status}` | deliveries by status: `pending` is the backlog, `failed` the dead letters (`ingest webhooks failed`); `waiting`: leads whose event waits on the contact row to be queued (a moment, unless no worker runs) |
 * | `ingest_webhook_oldest_due_age_seconds` | how long the oldest due delivery has been waiting (0 when none) |
 */
import { Counter, type Registry } from 'prom-client';
import { queueGauges } from '../http/metrics.ts';
import type { WebhookStore } from '../store/webhooks/webhook-store.ts';
import type { DeliveryOutcome } from './webhook-worker.ts';

/** Registers the webhook metrics on `registry`; returns the worker's `onOutcome`. */
export function webhookMetrics(registry: Registry, store: Pick<WebhookStore, 'counts' | 'nextDueAt'>, now: () => number) {
  const deliveries = new Counter({
    name: 'ingest_webhook_deliveries_total',
    help: 'Webhook delivery attempts by event type and outcome.',
    labelNames: ['event', 'outcome'],
    registers: [registry],
  });
  queueGauges(registry, {
    rows: { name: 'ingest_webhook_rows', help: 'Webhook deliveries by status (pending is the backlog; failed are dead letters; waiting counts leads whose event is not queued yet).' },
    oldestDue: { name: 'ingest_webhook_oldest_due_age_seconds', help: 'How long the oldest due webhook delivery has been waiting, in seconds (0 when none is due).' },
    store,
    now,
  });
  return (event: string, outcome: DeliveryOutcome) => deliveries.inc({ event, outcome });
}
