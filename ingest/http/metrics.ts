/**
 * `GET /metrics`: the service's metrics in Prometheus text format (prom-client), on the service's
 * own port. It is not under `/api/`, so the shipped nginx config never forwards it (and refuses
 * any `/api/metrics…` outright): scrape each replica directly.
 *
 * | metric | what |
 * |---|---|
 * | `ingest_submissions_total{form, status}` | form posts by form (`newsletter`, `contact`) and answer status (201, 303, 400, 403, 422, 429, …) |
 * | `ingest_http_request_duration_seconds{route, method, status}` | request latency (histogram) |
 * | `ingest_outbox_rows{status}` | outbox rows by status: the backlog is `pending`, `failed` rows need a look |
 * | `ingest_outbox_oldest_due_age_seconds` | how long the oldest due row has been waiting (0 when none) |
 * | `ingest_outbox_failed_rows{kind}` | failed outbox rows by kind of mail: `sales` above 0 is a lead nobody was told about (`ingest outbox failed`) |
 * | `ingest_mail_sends_total{kind, outcome}` | sends by kind of mail (`sales`, `newsletter_confirm`, `newsletter_already_subscribed`, `contact_confirm`) and outcome (`sent`, `retried`, `failed`, `abandoned`) |
 * | `ingest_form_ceiling_used_ratio{form}` | how much of the form's hourly ceiling (all clients, all replicas) the current hour has used, as this replica last counted it: 1 means the form answers "try later" (0 once the hour is over) |
 * | `ingest_form_ceiling_refusals_total{form}` | posts this replica refused because the form's hourly ceiling was reached |
 * | `ingest_database_errors_total` | storage errors the database layer reported (write failures, PostgreSQL unreachable, …) |
 * | `ingest_process_*`, `ingest_nodejs_*` | prom-client's process and runtime metrics |
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CeilingCount, CeilingForm } from './forms/form-ceiling.ts';
import type { SendOutcome } from '../mail/outbox-worker.ts';
import type { OutboxStore } from '../store/outbox/outbox-store.ts';
import type { OutboxKind } from '../store/tables.ts';

const FORM_ROUTES: Readonly<Record<string, string>> = { '/api/newsletter': 'newsletter', '/api/contact': 'contact' };

/** The service's metrics; one registry per service (tests run several). */
export function serviceMetrics(outbox: Pick<OutboxStore, 'counts' | 'nextDueAt' | 'failedByKind'>, now: () => number) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ingest_' });
  const submissions = new Counter({ name: 'ingest_submissions_total', help: 'Form posts by form and answer status.', labelNames: ['form', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'ingest_http_request_duration_seconds',
    help: 'Request latency by route, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const sends = new Counter({ name: 'ingest_mail_sends_total', help: 'Mail sends by kind of mail and outcome.', labelNames: ['kind', 'outcome'], registers: [registry] });
  const ceilingRefusals = new Counter({
    name: 'ingest_form_ceiling_refusals_total',
    help: "Posts refused because the form's hourly ceiling (all clients together) was reached.",
    labelNames: ['form'],
    registers: [registry],
  });
  // Each form's last count and when its hour ends; the gauge reads 0 once that hour is over.
  const ceilingUse = new Map<CeilingForm, { used: number; until: number }>();
  new Gauge({
    name: 'ingest_form_ceiling_used_ratio',
    help: "Share of the form's hourly ceiling (all clients, all replicas) used in the current hour, as last counted here; 1: the form answers try later.",
    labelNames: ['form'],
    registers: [registry],
    collect() {
      for (const form of ['newsletter', 'contact'] as const) {
        const last = ceilingUse.get(form);
        this.set({ form }, last !== undefined && now() < last.until ? last.used : 0);
      }
    },
  });
  const databaseErrors = new Counter({ name: 'ingest_database_errors_total', help: 'Storage errors reported by the database layer.', registers: [registry] });
  queueGauges(registry, {
    rows: { name: 'ingest_outbox_rows', help: 'Outbox rows by status (pending is the backlog; failed rows need a look).' },
    oldestDue: { name: 'ingest_outbox_oldest_due_age_seconds', help: 'How long the oldest due outbox row has been waiting, in seconds (0 when none is due).' },
    store: outbox,
    now,
  });
  new Gauge({
    name: 'ingest_outbox_failed_rows',
    help: 'Failed outbox rows by kind of mail (a failed sales mail is a lead nobody was told about; ingest outbox failed lists them).',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      for (const [kind, n] of Object.entries(await outbox.failedByKind())) this.set({ kind }, n);
    },
  });

  return {
    registry,
    /** Counts a send's outcome (the outbox worker's `onOutcome`). */
    recordSend: (kind: OutboxKind, outcome: SendOutcome) => sends.inc({ kind, outcome }),
    /** Records a post's count against its form's hourly ceiling (`form-ceiling.ts`'s `onCount`). */
    recordCeilingCount: ({ form, used, ttlMs, refused }: CeilingCount) => {
      ceilingUse.set(form, { used, until: now() + ttlMs });
      if (refused) ceilingRefusals.inc({ form });
    },
    /** Counts a storage error (wraps the storage log's `error`). */
    recordDatabaseError: () => databaseErrors.inc(),
    /** Registers the timing hook and `GET /metrics` on `app`. */
    register(app: FastifyInstance): void {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const status = String(reply.statusCode);
        latency.observe({ route, method: request.method, status }, reply.elapsedTime / 1000);
        const form = FORM_ROUTES[route];
        if (form !== undefined && request.method === 'POST') submissions.inc({ form, status });
      });
      app.get('/metrics', { config: { rateLimit: false } }, async (_request, reply) => {
        const text = await registry.metrics();
        return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
      });
    },
  };
}

/** The metrics a service keeps. */
export type ServiceMetrics = ReturnType<typeof serviceMetrics>;

/**
 * The two gauges of a queue the service drains (the mail outbox, the webhook deliveries), read at
 * each scrape: its rows by status, and how long its oldest due row has been waiting (0 when none is due).
 */
export function queueGauges(
  registry: Registry,
  queue: {
    rows: { name: string; help: string };
    oldestDue: { name: string; help: string };
    store: { counts(): Promise<Record<string, number>>; nextDueAt(): Promise<number | null> };
    now: () => number;
  },
): void {
  new Gauge({
    ...queue.rows,
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      for (const [status, n] of Object.entries(await queue.store.counts())) this.set({ status }, n);
    },
  });
  new Gauge({
    ...queue.oldestDue,
    registers: [registry],
    async collect() {
      const due = await queue.store.nextDueAt();
      this.set(due === null ? 0 : Math.max(0, (queue.now() - due) / 1000));
    },
  });
}
