/** The operator commands' database (`OpsDatabase`) on a SQLite file. */
import type { SqliteDatabase } from './connection.ts';
import type { OpsDatabase, OpsQueries } from '../ops-database.ts';

/**
 * Wraps an open SQLite database for the operator commands. A transaction is `BEGIN IMMEDIATE`
 * (the write lock at once, so a running service's commits wait instead of failing the command
 * halfway); the command is the connection's only user, so awaiting inside it mixes in nothing.
 */
export function sqliteOps(db: SqliteDatabase): OpsDatabase {
  let queue: Promise<unknown> = Promise.resolve();
  const queries: OpsQueries = {
    all: async (query) => db.sql.all(query),
    run: async (query) => db.sql.run(query),
  };
  return {
    ...queries,
    kysely: db.kysely,
    locksRows: false,
    // One transaction at a time on this connection: a second caller waits for the first to end.
    transaction(work) {
      const run = queue.then(async () => {
        db.raw.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(queries);
          db.raw.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.raw.inTransaction) db.raw.exec('ROLLBACK');
          throw error;
        }
      });
      queue = run.catch(() => {});
      return run;
    },
    async columns(table) {
      return (db.raw.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name);
    },
    // Every connection runs with secure_delete (freed pages are zeroed); TRUNCATE writes them into
    // the database file and empties the WAL, which held older versions of those pages.
    async scrubDeleted() {
      const [result] = db.raw.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      return result?.busy === 0
        ? null
        : 'the service was reading, so the WAL still holds old copies until its next checkpoint; run erase again';
    },
    async close() {
      db.close();
    },
  };
}
