/**
 * The webhook worker: runs in every replica beside the mail worker, queues the events of leads that
 * wait on their contact rows (`store/webhooks/waiting-contacts.ts`), claims each due delivery
 * (`store/webhooks/webhook-store.ts`) on the job queue the outbox runs on too (`jobs/job-queue.ts`:
 * its loop, leases, fenced finishes, retry schedule and stop), POSTs it signed (`deliver.ts`), and
 * records the outcome:
 *
 * | answer | what happens |
 * |---|---|
 * | 2xx | delivered; the body is dropped |
 * | 5xx, 408, 429, timeout, no connection | tried again: 10 s doubling to 6 h, with jitter, for `webhookRetryDays` (3 days) after it was queued; then failed |
 * | any other 4xx, a redirect, a private address refused | failed at once (a dead letter: `ingest webhooks failed`, `retry`) |
 *
 * The events about one person reach each endpoint in order: the store hands out a delivery only when
 * no older one to its endpoint about its person is pending or being sent (`webhook-store.ts`).
 *
 * Deliveries go in batches of up to 32: claimed in one statement, sent over each endpoint's
 * keep-alive connections (`concurrency` each), and recorded in one transaction, so a busy queue
 * costs two commits per batch, not per event (a slow receiver holds its batch up to the timeout).
 * The worker wakes when a change queues an event (`notify`), when the next retry falls due, and every
 * `pollMs` (rows other replicas queued). While form submissions arrive it gives way to them
 * (`jobs/give-way.ts`): after a batch that ran while one came in it pauses, so that a burst of leads is
 * taken at full speed and its events follow at once after it. `stop()` abandons requests still running after a few
 * seconds; their rows are due again at once.
 */
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { DATA_FACTS } from '../contract/data-facts.ts';
import type { WebhookEndpoint } from '../config/webhook-endpoints.ts';
import { jobQueue } from '../jobs/job-queue.ts';
import type { RetryPolicy } from '../jobs/retry-schedule.ts';
import { routingOf } from '../store/webhooks/webhook-row.ts';
import type { WebhookJob, WebhookOutcome, WebhookStore } from '../store/webhooks/webhook-store.ts';
import { deliver, type DeliveryResult } from './deliver.ts';
import { type GiveWay, giveWay } from '../jobs/give-way.ts';

/** What became of one delivery. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed' | 'abandoned';

/** The production schedule: 10 s doubling to 6 h, given up `webhookRetryDays` after the event was queued. */
const WEBHOOK_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 10_000,
  maxDelayMs: 6 * 60 * 60_000,
  giveUpAfterMs: DATA_FACTS.webhookRetryDays * 24 * 60 * 60_000,
  jitter: 0.2,
};

/** How long after a queued event the worker looks, so that events queued together go out together. */
const NOTIFY_DELAY_MS = 20;

/** Deliveries claimed, sent and recorded together at most (over `concurrency` connections per endpoint). */
const BATCH_SIZE = 32;

/** What the worker works with; tests pass short delays and their own clock. */
export interface WebhookWorkerDeps {
  store: WebhookStore;
  endpoints: readonly WebhookEndpoint[];
  timeoutMs: number;
  allowPrivate: boolean;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  policy?: RetryPolicy;
  random?: () => number;
  /** The longest idle wait between looks at the table (default 1 s; 60 s with no endpoint, for rows left by one removed). */
  pollMs?: number;
  /** How long a claim lasts unless renewed (default 60 s, renewed every third of it). */
  leaseMs?: number;
  /** Connections per endpoint, so requests at once (default 8); a batch of up to 32 shares them. */
  concurrency?: number;
  /** How many submissions the service has taken so far: while it grows, batches give way to them (`give-way.ts`). Without it they never do. */
  submissions?: () => number;
  /** Told each delivery's outcome (the service's metrics). */
  onOutcome?: (eventType: string, outcome: DeliveryOutcome) => void;
}

/** A running worker. */
export interface WebhookWorker {
  start(): void;
  /** A change queued an event: look now rather than at the next poll. */
  notify(): void;
  /** One pass over the due rows (tests); resolves with how many deliveries it claimed. */
  runPass(): Promise<number>;
  /** Delivers one claimed row now and records the outcome (`ingest erase` sends its notices this way). */
  deliver(job: WebhookJob): Promise<DeliveryOutcome>;
  stop(options?: { abandonAfterMs?: number }): Promise<void>;
}

/** Makes the worker; nothing runs until `start()`. */
export function webhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const leaseMs = deps.leaseMs ?? 60_000;
  const concurrency = deps.concurrency ?? 8;
  let notifyTimer: NodeJS.Timeout | undefined;
  const byName = new Map(deps.endpoints.map((endpoint) => [endpoint.name, endpoint]));
  const routing = routingOf(deps.endpoints);
  // One keep-alive connection pool per endpoint: a busy receiver is not asked to accept a new connection per event.
  const agents = new Map<string, Agent>();
  const agentFor = (endpoint: WebhookEndpoint): Agent => {
    let agent = agents.get(endpoint.name);
    if (agent === undefined) {
      const options = { keepAlive: true, maxSockets: concurrency, timeout: deps.timeoutMs };
      agent = endpoint.url.startsWith('https:') ? new HttpsAgent(options) : new Agent(options);
      agents.set(endpoint.name, agent);
    }
    return agent;
  };

  // One lane: batches of up to `BATCH_SIZE` due rows, each claimed in one statement and recorded in one transaction.
  const queue = jobQueue<WebhookJob, undefined, ReturnType<GiveWay['begin']>>({
    table: deps.store,
    names: { queue: 'webhook', rows: 'webhook deliveries' },
    clock: deps.clock,
    log: deps.log,
    pollMs: deps.pollMs ?? (deps.endpoints.length > 0 ? 1_000 : 60_000),
    leaseMs,
    policy: deps.policy ?? WEBHOOK_RETRY_POLICY,
    ...(deps.random === undefined ? {} : { random: deps.random }),
    // A dead process's claims run out after a lease; looking for them every third of it is enough.
    releaseEveryMs: leaseMs / 3,
    tally: () => undefined,
    async claim(now, dueBy) {
      // Leads whose event waits on their contact row become delivery rows first, as a batch.
      const queued = await deps.store.queueWaiting(routing, BATCH_SIZE);
      const jobs = await deps.store.claimBatch(now, dueBy, BATCH_SIZE);
      return jobs.length === 0 && queued === 0 ? null : jobs;
    },
    handle: async (jobs) => {
      await deliverBatch(jobs);
      return false;
    },
    pacing: giveWay(deps.submissions ?? (() => 0), { factor: 19 }),
  });

  /** Sends `job` and decides what becomes of it (the caller records it); logs the outcome. */
  async function attempt(job: WebhookJob): Promise<{ outcome: DeliveryOutcome; record: WebhookOutcome }> {
    const endpoint = byName.get(job.endpoint);
    const work = queue.inFlight();
    const lease = queue.hold(job);
    let result: DeliveryResult;
    try {
      result =
        endpoint === undefined
          ? { ok: false, status: null, retry: false, error: `endpoint ${job.endpoint} is no longer configured` }
          : await deliver(endpoint, job.eventId, job.body, {
              timeoutMs: deps.timeoutMs,
              allowPrivate: deps.allowPrivate,
              now: deps.clock.now(),
              signal: work.signal,
              agent: agentFor(endpoint),
            });
    } finally {
      work.release();
      await lease.stop();
    }
    const now = deps.clock.now();
    const claim = { id: job.id, attempts: job.attempts, eventType: job.eventType, emailLower: job.emailLower };
    const about = { webhookId: job.eventId, endpoint: job.endpoint, event: job.eventType, attempts: job.attempts };
    if (result.ok) {
      deps.log.info({ ...about, status: result.status }, 'webhook delivered');
      return { outcome: 'delivered', record: { claim, kind: 'delivered', status: result.status } };
    }
    if (work.signal.aborted) {
      deps.log.warn({ ...about, reason: result.error }, 'webhook delivery abandoned at shutdown; due again');
      return { outcome: 'abandoned', record: { claim, kind: 'retry', at: now, status: result.status, error: result.error } };
    }
    const decision = result.retry ? queue.retryAt(job, now) : ({ action: 'give_up' } as const);
    if (decision.action === 'retry') {
      deps.log.warn({ ...about, status: result.status, reason: result.error, retryInMs: decision.at - now }, 'webhook delivery failed; will retry');
      return { outcome: 'retried', record: { claim, kind: 'retry', at: decision.at, status: result.status, error: result.error } };
    }
    deps.log.error({ ...about, status: result.status, reason: result.error }, result.retry ? 'webhook delivery given up after its retry budget' : 'webhook delivery refused; not retried');
    return { outcome: 'failed', record: { claim, kind: 'failed', status: result.status, error: result.error } };
  }

  /** Sends claimed `jobs` at once and records their outcomes in one transaction; returns each outcome. */
  async function deliverBatch(jobs: readonly WebhookJob[]): Promise<DeliveryOutcome[]> {
    const done = await Promise.all(jobs.map(attempt));
    const held = await deps.store.record(
      done.map(({ record }) => record),
      deps.clock.now(),
    );
    held.forEach((kept, i) => queue.fenced(kept, { webhookId: jobs[i]!.eventId, endpoint: jobs[i]!.endpoint }, '(its lease ran out, or an erasure cancelled the delivery)'));
    for (const [i, { outcome }] of done.entries()) deps.onOutcome?.(jobs[i]!.eventType, outcome);
    return done.map(({ outcome }) => outcome);
  }

  return {
    start: () => queue.start(),
    // Events queued within a moment of each other go out in one batch (two commits for all of
    // them), not one pass each: under load a pass per event would cost two commits per event.
    notify() {
      notifyTimer ??= setTimeout(() => {
        notifyTimer = undefined;
        queue.wake();
      }, NOTIFY_DELAY_MS);
    },
    runPass: async () => (await queue.runPass()).claimed,
    deliver: async (job) => (await deliverBatch([job]))[0]!,
    async stop(options = {}) {
      clearTimeout(notifyTimer);
      try {
        await queue.stop(options);
      } finally {
        for (const agent of agents.values()) agent.destroy();
        agents.clear();
      }
    },
  };
}
