import { type Kysely, type Migration, sql } from 'kysely';
import { isPostgres } from '../dialect-columns.ts';

/**
 * What replicas share besides the forms: rate-limit counters and settings such as the captcha
 * key (created by the first replica to start). Both backends get both tables, so the schemas stay
 * the same; only PostgreSQL uses them (a SQLite service is one process: its per-minute
 * counters live in memory, its daily ones in rate-limits.sqlite beside the database, its key in
 * $DATA_DIR). On PostgreSQL the counters are UNLOGGED: an increment writes
 * no WAL and waits for no disk flush, and a crash only empties the table, which resets the windows.
 */
export const replicaSharedState: Migration = {
  async up(db: Kysely<unknown>) {
    let counters = db.schema.createTable('rate_limit_counters');
    if (isPostgres(db)) counters = counters.modifyFront(sql`unlogged`);
    await counters
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      // Milliseconds since the epoch (bigint on PostgreSQL, where integer stops at 2^31).
      .addColumn('reset_at', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_counters_reset_at').on('rate_limit_counters').column('reset_at').execute();
    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
