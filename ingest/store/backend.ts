/**
 * The storage a running service works on, whichever database holds it: the submissions the
 * HTTP routes store, the outbox the mail worker drains, and what replicas must share besides
 * (rate-limit counters, the captcha key). `open-backend.ts` picks the implementation from
 * `DATABASE_URL`: SQLite (one process, the default) or PostgreSQL (any number of replicas).
 */
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { OpsDatabase } from './ops-database.ts';
import type { OutboxStore } from './outbox/outbox-store.ts';
import type { GroupCommit } from './group-commit.ts';
import type { SqliteDatabase } from './sqlite/connection.ts';
import type { StorageLog } from './storage-log.ts';
import type { SubmissionStore } from './submission-store.ts';
import type { Tables } from './tables.ts';

/** What both backends offer the service. */
interface BackendBase {
  submissions: SubmissionStore;
  outbox: OutboxStore;
  /** Where the consent lifecycle and the retention purge run their transactions. */
  consentDb: OpsDatabase;
  /**
   * The @fastify/rate-limit store: on PostgreSQL a table every replica shares; on SQLite the
   * per-minute counters in memory and the daily ones in `rate-limits.sqlite`, never evicted.
   */
  rateLimitStore: FastifyRateLimitStoreCtor;
  /** How many batches the group commit has committed (on PostgreSQL: of newsletter signups), and how many jobs they held (the bench reports them). */
  groupCommitStats: GroupCommit<unknown, unknown>['stats'];
  /** True when the database answers, takes writes and its schema is current (`/readyz`). */
  isReady(): boolean;
  /** Sends later storage log lines to `log` (the app's logger, once it exists). */
  logTo(log: StorageLog): void;
  /** Commits what is queued and closes every connection. */
  close(): Promise<void>;
}

/** The embedded default: one SQLite file, one process. */
export interface SqliteBackend extends BackendBase {
  kind: 'sqlite';
  db: SqliteDatabase;
}

/** PostgreSQL, shared by every replica. */
export interface PostgresBackend extends BackendBase {
  kind: 'postgres';
  kysely: Kysely<Tables>;
  /** The captcha key every replica uses: created in the database by the first replica to start. */
  sharedCaptchaSecret(): Promise<string>;
}

/** The storage of a running service. */
export type StoreBackend = SqliteBackend | PostgresBackend;
