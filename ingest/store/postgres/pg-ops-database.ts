/** The operator commands' database (`OpsDatabase`) on PostgreSQL. */
import type { Kysely } from 'kysely';
import type { OpsDatabase, OpsQueries } from '../ops-database.ts';
import type { Tables } from '../tables.ts';
import { type PostgresDatabase, raw } from './pg-connection.ts';

/** `OpsQueries` on a kysely instance or transaction. */
function opsQueriesOn(kysely: Kysely<Tables>): OpsQueries {
  return {
    all: async (query) => (await kysely.executeQuery(query.compile())).rows,
    run: async (query) => Number((await kysely.executeQuery(query.compile())).numAffectedRows ?? 0n),
  };
}

// Errors after which PostgreSQL's documentation says to run the transaction again: a deadlock
// (40P01, one of two transactions that lock the same rows in opposite orders is chosen to fail)
// and a serialization failure (40001). The transaction was rolled back, so running it again is
// safe; the work function starts from scratch.
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/** Runs `transaction`, again (up to three times in all, after a short random pause) when PostgreSQL rolled it back for a conflict. */
async function retryingConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
    }
  }
}

/**
 * Wraps an open pool for the operator commands. A transaction runs on one pooled connection at
 * the default isolation (READ COMMITTED): each DELETE sees every row committed before it, and a
 * contact a replica commits meanwhile is either deleted or was not yet there, never half. One
 * that PostgreSQL rolls back for a deadlock runs again (`retryingConflicts`).
 */
export function postgresOps(db: PostgresDatabase): OpsDatabase {
  return { ...postgresOpsOn(db.kysely), close: () => db.close() };
}

/** The same on a pool the caller owns (the service's): `close` leaves the pool open. */
export function postgresOpsOn(kysely: Kysely<Tables>): OpsDatabase {
  const db = { kysely };
  return {
    ...opsQueriesOn(db.kysely),
    kysely: db.kysely,
    locksRows: true,
    transaction: (work) => retryingConflicts(() => db.kysely.transaction().execute((trx) => work(opsQueriesOn(trx)))),
    async columns(table) {
      const { rows } = await db.kysely.executeQuery<{ column_name: string }>(
        raw('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position', [table]),
      );
      return rows.map((row) => row.column_name);
    },
    // VACUUM removes the dead row versions from the tables' pages, so no query or page read
    // finds them; WAL segments and base backups keep them until they are recycled or expire.
    async scrubDeleted() {
      await db.kysely.executeQuery(raw('VACUUM newsletter, contacts, outbox'));
      return null;
    },
    close: async () => {},
  };
}
