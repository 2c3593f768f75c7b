import type { IngestConfig } from '../../config.ts';
import { OperatorError } from '../../operator-errors.ts';
import { migrateToLatest } from '../migrations.ts';
import { openSqlite, type SqliteDatabase, type Synchronous } from './connection.ts';

/** Opens and migrates the database; a failed migration is an `OperatorError`. */
export async function openMigrated(config: IngestConfig, synchronous?: Synchronous): Promise<SqliteDatabase> {
  let db: SqliteDatabase;
  try {
    db = openSqlite(config.database.path, synchronous === undefined ? {} : { synchronous });
  } catch (error) {
    throw new OperatorError('database_unavailable', `${config.database.path}: ${(error as Error).message}`);
  }
  const { error, results } = await migrateToLatest(db.kysely);
  if (error !== undefined) {
    db.close();
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? '(migration set)';
    throw new OperatorError('migration_failed', `migration ${failed}: ${(error as Error).message ?? String(error)}`);
  }
  return db;
}
