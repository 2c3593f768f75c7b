/**
 * The PostgreSQL backend, for any number of replicas on one database: migrations under the
 * advisory lock, then one pool per replica serving the submission store, the outbox, the shared
 * rate-limit counters and the shared captcha key. A timer probes the database every second (so
 * `/readyz` recovers by itself after an outage) and, every minute, deletes expired captcha
 * nonces and rate-limit counters.
 */
import type { IngestConfig } from '../../config.ts';
import { isoAt } from '../../clock.ts';
import type { PostgresBackend } from '../backend.ts';
import type { GroupCommitOptions } from '../group-commit.ts';
import { type StorageLog, stderrStorageLog } from '../storage-log.ts';
import { openPostgres, raw } from './pg-connection.ts';
import { PostgresHealth } from './pg-health.ts';
import { migratePostgres } from './pg-migrate.ts';
import { postgresOpsOn } from './pg-ops-database.ts';
import { postgresOutbox } from './pg-outbox-store.ts';
import { DELETE_EXPIRED_COUNTERS, postgresRateLimitStore } from './pg-rate-limit-store.ts';
import { sharedSecret } from './pg-shared-secret.ts';
import { postgresSubmissionStore } from './pg-submission-store.ts';
import { routingOf } from '../webhooks/webhook-row.ts';

/** Knobs the tests turn; production passes none. */
export interface PostgresBackendOptions {
  /** How often readiness is probed (ms, default 1000). */
  probeMs?: number;
  /** Where database problems are logged until `logTo` (default: standard error). */
  log?: StorageLog;
  /** How newsletter signups are batched into shared commits (default `DEFAULT_GROUP_COMMIT`). */
  groupCommit?: GroupCommitOptions;
  /** How often expired captcha nonces and ended rate-limit counters are deleted (ms, default 60 s). */
  expirySweepMs?: number;
}

/** The default period of the clean-up of expired nonces and counters: "within a minute" (privacy policy). */
const CLEANUP_EVERY_MS = 60_000;

/** Migrates the database at `config.database.url` (under the advisory lock) and opens the backend on it. */
export async function openPostgresBackend(
  config: IngestConfig & { database: { kind: 'postgres' } },
  options: PostgresBackendOptions = {},
): Promise<PostgresBackend> {
  await migratePostgres(config.database.url);
  const log = options.log ?? stderrStorageLog;
  const db = openPostgres({ url: config.database.url, poolMax: config.database.poolMax, log });
  const { kysely } = db;
  const health = new PostgresHealth(log);
  await health.probe(kysely);

  const submissions = postgresSubmissionStore(db, health, options.groupCommit, routingOf(config.webhooks.endpoints));

  let lastCleanup = 0;
  const maintain = async () => {
    await health.probe(kysely);
    if (Date.now() - lastCleanup < (options.expirySweepMs ?? CLEANUP_EVERY_MS) || !health.ready()) return;
    lastCleanup = Date.now();
    await health
      .guard(async () => {
        await kysely.deleteFrom('captcha_nonces').where('expires_at', '<', isoAt(Date.now())).execute();
        await kysely.executeQuery(raw(DELETE_EXPIRED_COUNTERS));
      })
      .catch(() => {}); // recorded by guard; the next round tries again
  };
  let probing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    probing = probing.then(maintain);
  }, options.probeMs ?? 1000);
  timer.unref();

  return {
    kind: 'postgres',
    kysely,
    submissions,
    groupCommitStats: submissions.groupCommit.stats,
    consentDb: postgresOpsOn(kysely),
    outbox: postgresOutbox(kysely, health),
    rateLimitStore: postgresRateLimitStore(db.pool, health),
    sharedCaptchaSecret: () => health.guard(() => sharedSecret(kysely, 'captcha_secret', Date.now())),
    isReady: () => health.ready(),
    logTo(next) {
      health.logTo(next);
      db.logTo(next);
    },
    async close() {
      clearInterval(timer);
      await submissions.close();
      await probing;
      await db.close();
    },
  };
}
