/**
 * What the migrations choose by dialect, where a type or statement truly differs between SQLite and
 * PostgreSQL: how an id is generated (`idColumn`) and whether the database is PostgreSQL (a 64-bit
 * integer, UNLOGGED tables).
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/**
 * The id column's definition for the database `db` is: an identity column on PostgreSQL; on SQLite
 * the rowid alias, with `neverReused` AUTOINCREMENT, so an id is never handed out again after a
 * delete (contacts and outbox ids name emails); it costs a write to sqlite_sequence per insert,
 * which the high-volume newsletter table skips (its rowid alias may reuse the id of a deleted row).
 */
export function idColumn(db: Kysely<unknown>, neverReused: boolean) {
  const postgres = isPostgres(db);
  return (column: ColumnDefinitionBuilder) =>
    postgres
      ? column.primaryKey().generatedByDefaultAsIdentity()
      : neverReused
        ? column.primaryKey().autoIncrement()
        : column.primaryKey();
}

/** True when `db` talks to PostgreSQL. */
export const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
