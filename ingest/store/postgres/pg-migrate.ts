/**
 * Migrations on PostgreSQL, run by every replica at start-up (and by `ingest migrate`) under one
 * session-level advisory lock: when N replicas start at once, one migrates while the others wait
 * for the lock, then find nothing left to do. The lock is held on one dedicated connection for
 * the whole run (kysely's Migrator takes its own lock too, but only after creating its tables,
 * which two replicas would otherwise race to do).
 */
import { Kysely, type MigrationResultSet, PostgresDialect } from 'kysely';
import pg from 'pg';
import { OperatorError } from '../../operator-errors.ts';
import { migrateToLatest } from '../migrations.ts';
import { raw } from './pg-connection.ts';

// Any constant both the service and `ingest migrate` use; distinct from kysely's own lock id.
const MIGRATION_LOCK = '7036715112045271103';

/** Applies pending migrations to the database at `url` under the advisory lock; a failure is an `OperatorError`. */
export async function migratePostgres(url: string): Promise<MigrationResultSet> {
  // One connection: the lock, the migrations and the unlock all run in the same session.
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  // Reported by the query that fails next; unhandled, an 'error' event would end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    try {
      await kysely.executeQuery(raw(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`));
    } catch (error) {
      throw new OperatorError('database_unavailable', `PostgreSQL at ${redacted(url)}: ${(error as Error).message}`);
    }
    const { rows } = await kysely.executeQuery<{ schema: string }>(raw('SELECT current_schema() AS schema'));
    const result = await migrateToLatest(kysely, rows[0]!.schema);
    if (result.error !== undefined) {
      const failed = result.results?.find((entry) => entry.status === 'Error')?.migrationName ?? '(migration set)';
      const message = result.error instanceof Error ? result.error.message : String(result.error);
      throw new OperatorError('migration_failed', `migration ${failed}: ${message}`);
    }
    await kysely.executeQuery(raw(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`));
    return result;
  } finally {
    await kysely.destroy();
  }
}

/*
 * The URL without its password, for messages.
 *
 * @example redacted('postgres://app:s3cret@db:5432/forms') // → 'postgres://app:***@db:5432/forms'
 */
function redacted(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}
