/**
 * Opens the database `DATABASE_URL` names, migrated: `postgres://…` selects PostgreSQL (any number
 * of replicas), a SQLite path or nothing the embedded default. The service opens a `StoreBackend`,
 * the operator commands an `OpsDatabase`.
 */
import type { IngestConfig } from '../config.ts';
import type { StoreBackend } from './backend.ts';
import type { OpsDatabase } from './ops-database.ts';
import type { PostgresBackendOptions } from './postgres/pg-backend.ts';
import type { SqliteBackendOptions } from './sqlite/sqlite-backend.ts';

// Each backend's modules are imported only when it is the one configured: a service on SQLite
// never loads the PostgreSQL driver, nor one on PostgreSQL better-sqlite3 and its writer.

/** Knobs for either backend; production passes none. */
export type BackendOptions = SqliteBackendOptions & PostgresBackendOptions;

/** Opens and migrates the service's storage. */
export async function openBackend(config: IngestConfig, options: BackendOptions = {}): Promise<StoreBackend> {
  const { database } = config;
  if (database.kind === 'postgres') {
    const { openPostgresBackend } = await import('./postgres/pg-backend.ts');
    return openPostgresBackend({ ...config, database }, options);
  }
  const { openSqliteBackend } = await import('./sqlite/sqlite-backend.ts');
  return openSqliteBackend({ ...config, database }, options);
}

/** Opens and migrates the database for `ingest migrate | export | erase | purge`. */
export async function openOpsDatabase(config: IngestConfig): Promise<OpsDatabase> {
  const { database } = config;
  if (database.kind === 'sqlite') {
    const [{ openMigrated }, { sqliteOps }] = await Promise.all([import('./sqlite/open-migrated.ts'), import('./sqlite/sqlite-ops-database.ts')]);
    return sqliteOps(await openMigrated({ ...config, database }));
  }
  const [{ migratePostgres }, { openPostgres }, { postgresOps }, { stderrStorageLog }] = await Promise.all([
    import('./postgres/pg-migrate.ts'),
    import('./postgres/pg-connection.ts'),
    import('./postgres/pg-ops-database.ts'),
    import('./storage-log.ts'),
  ]);
  await migratePostgres(database.url);
  return postgresOps(openPostgres({ url: database.url, poolMax: 2, log: stderrStorageLog }));
}
