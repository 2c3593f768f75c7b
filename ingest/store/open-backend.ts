/**
 * Opens the database `DATABASE_URL` names, migrated: `postgres://…` selects PostgreSQL (any number
 * of replicas), a SQLite path or nothing the embedded default. The service opens a `StoreBackend`,
 * the operator commands an `OpsDatabase`.
 */
import type { IngestConfig } from '../config.ts';
import type { StoreBackend } from './backend.ts';
import type { OpsDatabase } from './ops-database.ts';
import { openPostgres } from './postgres/pg-connection.ts';
import { openPostgresBackend, type PostgresBackendOptions } from './postgres/pg-backend.ts';
import { migratePostgres } from './postgres/pg-migrate.ts';
import { postgresOps } from './postgres/pg-ops-database.ts';
import { stderrStorageLog } from './storage-log.ts';
import { openMigrated } from './sqlite/open-migrated.ts';
import { openSqliteBackend, type SqliteBackendOptions } from './sqlite/sqlite-backend.ts';
import { sqliteOps } from './sqlite/sqlite-ops-database.ts';

/** Knobs for either backend; production passes none. */
export type BackendOptions = SqliteBackendOptions & PostgresBackendOptions;

/** Opens and migrates the service's storage. */
export function openBackend(config: IngestConfig, options: BackendOptions = {}): Promise<StoreBackend> {
  const { database } = config;
  return database.kind === 'postgres'
    ? openPostgresBackend({ ...config, database }, options)
    : openSqliteBackend({ ...config, database }, options);
}

/** Opens and migrates the database for `ingest migrate | export | erase | purge`. */
export async function openOpsDatabase(config: IngestConfig): Promise<OpsDatabase> {
  const { database } = config;
  if (database.kind === 'sqlite') return sqliteOps(await openMigrated({ ...config, database }));
  await migratePostgres(database.url);
  return postgresOps(openPostgres({ url: database.url, poolMax: 2, log: stderrStorageLog }));
}
