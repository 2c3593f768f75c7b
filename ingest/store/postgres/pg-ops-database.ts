/** The operator commands' database (`OpsDatabase`) on PostgreSQL. */
import type { Kysely } from 'kysely';
import type { OpsDatabase, OpsQueries } from '../ops-database.ts';
import type { Tables } from '../tables.ts';
import { type PostgresDatabase, raw } from './pg-connection.ts';

function queriesOn(kysely: Kysely<Tables>): OpsQueries {
  return {
    all: async (query) => (await kysely.executeQuery(query.compile())).rows,
    run: async (query) => Number((await kysely.executeQuery(query.compile())).numAffectedRows ?? 0n),
  };
}

/**
 * Wraps an open pool for the operator commands. A transaction runs on one pooled connection at
 * the default isolation (READ COMMITTED): each DELETE sees every row committed before it, and a
 * contact a replica commits meanwhile is either deleted or was not yet there, never half.
 */
export function postgresOps(db: PostgresDatabase): OpsDatabase {
  return { ...postgresOpsOn(db.kysely), close: () => db.close() };
}

/** The same on a pool the caller owns (the service's): `close` leaves the pool open. */
export function postgresOpsOn(kysely: Kysely<Tables>): OpsDatabase {
  const db = { kysely };
  return {
    ...queriesOn(db.kysely),
    kysely: db.kysely,
    transaction: (work) => db.kysely.transaction().execute((trx) => work(queriesOn(trx))),
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
