/** The SQLite backend: one migrated file, its writer for submissions, its outbox, and the rate-limit counters' file beside it. */
import { dirname, join } from 'node:path';
import type { IngestConfig } from '../../config.ts';
import type { SqliteBackend } from '../backend.ts';
import type { GroupCommitOptions } from '../group-commit.ts';
import { openMigrated } from './open-migrated.ts';
import { sqliteOps } from './sqlite-ops-database.ts';
import { sqliteOutbox } from './sqlite-outbox-store.ts';
import { sqliteRateLimitCounters } from './sqlite-rate-limit-store.ts';
import { openSubmissionStore } from './sqlite-submission-store.ts';
import { routingOf } from '../webhooks/webhook-row.ts';

/** The file beside the database that holds the daily rate-limit counters (see `sqlite-rate-limit-store.ts`). */
export const RATE_LIMIT_FILE = 'rate-limits.sqlite';

/** Knobs the tests and the bench turn; production passes none. */
export interface SqliteBackendOptions {
  groupCommit?: GroupCommitOptions;
  /** How often expired captcha nonces are swept when no request deletes them (ms, default 60 s). */
  expirySweepMs?: number;
}

/** Opens and migrates `config.database`'s file and starts its writer. */
export async function openSqliteBackend(
  config: IngestConfig & { database: { kind: 'sqlite' } },
  options: SqliteBackendOptions = {},
): Promise<SqliteBackend> {
  const db = await openMigrated(config);
  const store = await openSubmissionStore(db, {
    ...(options.groupCommit === undefined ? {} : { groupCommit: options.groupCommit }),
    ...(options.expirySweepMs === undefined ? {} : { nonceSweepMs: options.expirySweepMs }),
    webhooks: routingOf(config.webhooks.endpoints),
  });
  // On the main connection, beside the outbox's statements. Not a connection of its own: its
  // transaction would hold the write lock across awaits, and a statement of the outbox worker run
  // in between would wait for that lock synchronously, blocking the event loop the transaction
  // needs to finish (for the whole busy timeout). On one connection the worker's statement simply
  // joins the open transaction; transactions themselves run one at a time (`sqliteOps`).
  const consentDb = sqliteOps(db);
  const counters = sqliteRateLimitCounters(join(dirname(config.database.path), RATE_LIMIT_FILE));
  return {
    kind: 'sqlite',
    db,
    submissions: store,
    outbox: sqliteOutbox(db),
    consentDb,
    rateLimitStore: counters.Store,
    groupCommitStats: store.groupCommit.stats,
    isReady: () => store.isReady(),
    logTo: (log) => store.logTo(log),
    async close() {
      await store.close();
      counters.close();
      db.close();
    },
  };
}
