import type { IngestConfig } from '../../config.ts';
import { OperatorError } from '../../operator-errors.ts';
import { migrateToLatest } from '../migrations.ts';
import { openSqlite, type SqliteDatabase } from './connection.ts';
import { ownerOnlyFiles, ownerOnlyFolder, ownerOnlyFolderAndFiles } from './owner-only.ts';

/**
 * Opens and migrates the database; a failed migration is an `OperatorError`. First it makes the
 * data at rest owner-only: `$DATA_DIR` and its `mail/` 0700, the captcha secret and mail files
 * 0600 (an older install created them 0755/0644), and the database files (`openSqlite`).
 */
export async function openMigrated(config: IngestConfig & { database: { kind: 'sqlite' } }): Promise<SqliteDatabase> {
  let db: SqliteDatabase;
  try {
    ownerOnlyFolder(config.dataDir);
    if (config.mail.kind === 'file') ownerOnlyFolderAndFiles(config.mail.dir);
    ownerOnlyFiles([config.captchaSecretFile]);
    db = openSqlite(config.database.path);
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
