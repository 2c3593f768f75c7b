/**
 * `ingest serve`: wires the real parts together (database, migrations, captcha secret, mailer,
 * outbox worker, webhook worker, app), listens, and shuts down gracefully.
 *
 * Shutdown order matters: first drain — `/readyz` answers 503 so load balancers move away, and
 * every answer (to requests in flight and to new ones on open connections) says
 * `Connection: close`, for up to `SHUTDOWN_DRAIN_MS` or until no connection is left — then stop
 * listening and finish the requests still in flight (their batches commit), then let the outbox
 * worker record the send in progress, then commit anything still queued and close the database.
 * Closing a keep-alive connection while it is idle would race the client's next request on it;
 * after the drain only connections that stayed silent throughout are closed that way.
 */
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './http/app.ts';
import { loadCaptchaSecret } from './http/forms/captcha-secret.ts';
import { type Clock, systemClock } from './clock.ts';
import type { IngestConfig } from './config.ts';
import { type LogStream, loggerOptions } from './http/logger.ts';
import { readDkimKey } from './mail/dkim-key.ts';
import { createMailer, type Mailer, SENDS_PER_CONNECTION } from './mail/mailer.ts';
import { type OutboxWorker, outboxWorker } from './mail/outbox-worker.ts';
import type { RetryPolicy } from './jobs/retry-schedule.ts';
import type { StoreBackend } from './store/backend.ts';
import { type BackendOptions, openBackend } from './store/open-backend.ts';
import { OperatorError } from './operator-errors.ts';
import { consentSetup } from './consent-setup.ts';
import { applyRetention } from './ops/retention.ts';
import { serviceMetrics } from './http/metrics.ts';
import { loadSiteContent } from './site-content.ts';
import { routingOf } from './store/webhooks/webhook-row.ts';
import { webhookStore } from './store/webhooks/webhook-store.ts';
import { webhookMetrics } from './webhooks/webhook-metrics.ts';
import { type WebhookWorker, type WebhookWorkerDeps, webhookWorker } from './webhooks/webhook-worker.ts';

/** Knobs tests and the bench turn; production passes none. */
export interface ServiceOverrides {
  clock?: Clock;
  logStream?: LogStream;
  mailer?: Mailer;
  retryPolicy?: RetryPolicy;
  pollMs?: number;
  /** How long an outbox claim lasts unless renewed (see `outbox-worker.ts`). */
  leaseMs?: number;
  backend?: BackendOptions;
  /** The webhook worker's schedule (see `webhooks/webhook-worker.ts`). */
  webhooks?: Partial<Pick<WebhookWorkerDeps, 'policy' | 'pollMs' | 'leaseMs' | 'random'>>;
}

/** A started service. */
export interface RunningService {
  app: FastifyInstance;
  /** The storage (SQLite or PostgreSQL, as `DATABASE_URL` says). */
  backend: StoreBackend;
  worker: OutboxWorker;
  /** Delivers the webhook events (idle when no endpoint is configured). */
  webhooks: WebhookWorker;
  /** The address it listens on, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Graceful shutdown (drain, then close); safe to call twice. */
  close(): Promise<void>;
}

/** Starts the service and resolves once it listens. */
export async function startService(config: IngestConfig, overrides: ServiceOverrides = {}): Promise<RunningService> {
  const clock = overrides.clock ?? systemClock;
  const content = loadSiteContent(config.contentDir);
  // A DKIM key that cannot be used stops start-up before the database is touched.
  const dkim = overrides.mailer === undefined && config.dkim !== null ? readDkimKey(config.dkim) : null;
  const backend = await openBackend(config, overrides.backend);
  const store = backend.submissions;
  const mailer = overrides.mailer ?? createMailer(config.mail, dkim);
  let worker: OutboxWorker | undefined;
  let draining = false;
  const secret = await captchaSecretFor(config, backend);
  const consent = consentSetup({
    content,
    secret,
    consentDb: backend.consentDb,
    optIn: config.newsletterOptIn,
    linkDays: config.confirmLinkDays,
    privacyVersion: config.privacyVersion,
    siteUrl: config.siteUrl,
    apiUrl: config.publicApiUrl,
    from: config.mailFrom,
    webhooks: routingOf(config.webhooks.endpoints),
  });
  await consent.lifecycle.recordWordings(consent.wordings, clock.now());
  const metrics = serviceMetrics(backend.outbox, () => clock.now());
  const webhookRows = webhookStore(backend.consentDb);
  const recordDelivery = webhookMetrics(metrics.registry, webhookRows, () => clock.now());
  let webhooks: WebhookWorker | undefined;
  // A queued mail wakes the mail worker. A stored contact may also have queued an event (its
  // contact.received waits on the row), so it wakes the webhook worker too; a signup's mail queues
  // none, and waking the webhook worker for each cost a pass of four statements every 20 ms under
  // load (issue 45). Both count as submissions, which both workers give way to (the mail worker only
  // while the event loop is at its limit: `MAIL_GIVE_WAY`).
  let changes = 0;
  const mailQueued = () => {
    changes += 1;
    worker?.notify();
  };
  const contactStored = () => {
    mailQueued();
    webhooks?.notify();
  };
  const app = await buildApp({
    metrics,
    store,
    consent: { ...consent, onMailQueued: mailQueued },
    captchaSecret: secret,
    captchaMinFillMs: config.captchaMinFillMs,
    clock,
    onContactStored: contactStored,
    allowedOrigins: config.allowedOrigins,
    rateLimit: config.rateLimit,
    rateLimitStore: backend.rateLimitStore,
    trustProxy: config.trustProxy,
    hstsMaxAge: config.hstsMaxAge,
    timeouts: config.timeouts,
    isReady: () => !draining && backend.isReady(),
    isDraining: () => draining,
    logger: loggerOptions(config.logLevel, overrides.logStream),
  });
  // Storage failures (checkpoint, write, file moved, PostgreSQL down) go to the service log, and are counted.
  backend.logTo({
    error: (details, message) => {
      metrics.recordDatabaseError();
      app.log.error(details, message);
    },
    info: (details, message) => app.log.info(details, message),
  });
  worker = outboxWorker({
    outbox: backend.outbox,
    mailer,
    envelope: {
      from: config.mailFrom,
      to: config.salesEmail,
      timeZone: config.salesTimeZone,
      lang: config.salesLang,
      content,
      siteUrl: consent.urls.siteUrl,
    },
    confirmationMail: consent.confirmationMail,
    contactConfirmationMail: consent.contactConfirmationMail,
    alreadySubscribedMail: consent.alreadySubscribedMail,
    onOutcome: metrics.recordSend,
    clock,
    log: app.log,
    ...(overrides.retryPolicy === undefined ? {} : { policy: overrides.retryPolicy }),
    ...(overrides.pollMs === undefined ? {} : { pollMs: overrides.pollMs }),
    leaseMs: overrides.leaseMs ?? config.outboxLeaseMs,
    concurrency: config.mail.kind === 'smtp' ? config.mail.maxConnections * SENDS_PER_CONNECTION : 1,
    submissions: () => changes,
  });
  webhooks = webhookWorker({
    store: webhookRows,
    endpoints: config.webhooks.endpoints,
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: config.webhooks.allowPrivate,
    clock,
    log: app.log,
    onOutcome: recordDelivery,
    submissions: () => changes,
    // Deliveries are claimed like mails: one lease length for both (OUTBOX_LEASE_MS).
    leaseMs: overrides.leaseMs ?? config.outboxLeaseMs,
    ...overrides.webhooks,
  });
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await backend.close();
    throw new OperatorError('listen_failed', `${config.host}:${config.port}: ${(error as Error).message}`);
  }
  worker.start();
  webhooks.start();
  const retention = dailyRetention(() =>
    applyRetention(backend.consentDb, { now: clock.now(), linkDays: config.confirmLinkDays, mailDir: config.mail.kind === 'file' ? config.mail.dir : null }).then(
      (report) => app.log.info({ retention: report }, 'retention applied'),
      (error: unknown) => app.log.error({ err: error }, 'retention purge failed; it runs again tomorrow (or run ingest purge)'),
    ),
  );
  app.log.info({ database: config.database.kind === 'sqlite' ? config.database.path : 'postgres', mail: config.mail.kind }, 'ingest listening');

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      draining = true;
      app.log.info({ drainMs: config.shutdownDrainMs }, 'draining: not ready, answering with Connection: close');
      await drained(app.server, config.shutdownDrainMs);
      await app.close();
      await retention.stop();
      await Promise.all([worker.stop(), webhooks.stop()]);
      await backend.close();
      mailer.close();
    })();
    return closed;
  };
  return { app, backend, worker, webhooks: webhooks, url, close };
}

/** The retention purge at start-up and then every day; `stop` waits for a run in progress. */
function dailyRetention(run: () => Promise<void>): { stop(): Promise<void> } {
  let running: Promise<void> = run();
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = run().finally(() => schedule(24 * 60 * 60 * 1000));
    }, ms);
    timer.unref();
  };
  schedule(24 * 60 * 60 * 1000);
  return {
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}

// CAPTCHA_SECRET when set (then every replica must be given the same); otherwise the key kept
// in the database for all replicas (PostgreSQL) or in $DATA_DIR (SQLite, one process).
async function captchaSecretFor(config: IngestConfig, backend: StoreBackend): Promise<string> {
  if (config.captchaSecret !== null || backend.kind === 'sqlite') return loadCaptchaSecret(config.captchaSecret, config.captchaSecretFile);
  return backend.sharedCaptchaSecret();
}

// Resolves once no connection is open (every client has had its `Connection: close` answer, or
// none was connected) or after `limitMs`, whichever comes first.
async function drained(server: Server, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  const open = () => new Promise<number>((resolve) => server.getConnections((error, n) => resolve(error ? 0 : n)));
  while (Date.now() < deadline && (await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Runs the service until SIGTERM or SIGINT, then drains and shuts down within the drain period
 * plus `graceMs` (exit 0), or gives up (exit 1).
 */
export async function serve(config: IngestConfig, graceMs = 15_000): Promise<void> {
  const service = await startService(config);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      service.app.log.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    service.app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      service.app.log.error({ graceMs, drainMs: config.shutdownDrainMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, config.shutdownDrainMs + graceMs);
    timer.unref();
    service.close().then(
      () => {
        service.app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        service.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop).on('SIGINT', stop);
  // Started by `npm start` or `sitegen dev` (an IPC channel to that program): when the program is
  // gone without asking (SIGKILL, a closed terminal), the channel closes, and the service stops too.
  if (process.connected) process.once('disconnect', () => stopping || stop('SIGTERM'));
}
