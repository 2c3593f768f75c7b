/**
 * A transaction on one pooled connection without the query builder in between, for the path that
 * runs most (a batch of signups, `pg-signup-batch.ts`): its statements are fixed texts, run as
 * named prepared statements, so each connection has PostgreSQL parse and plan them once and then
 * sends only their parameters (issue 45: Kysely's builders and executor were a sixth of the
 * service's CPU under load).
 *
 *   await inTransaction(pool, (client) => run(client, INSERT_ROWS, [names, emails]))
 *
 * BEGIN, the work, COMMIT; on any error ROLLBACK, and the error is thrown on. A connection whose
 * ROLLBACK fails too (its server went away) is closed rather than handed back to the pool.
 */
import type { Compilable } from 'kysely';
import type pg from 'pg';
import type { OpsQueries } from '../ops-database.ts';

/** A statement with a name of its own: prepared on a connection at its first run there. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/** Runs `statement` with `values` on `client`; returns its rows. */
export async function run<Row extends pg.QueryResultRow>(client: pg.ClientBase, statement: NamedStatement, values: unknown[]): Promise<Row[]> {
  return (await client.query<Row>({ name: statement.name, text: statement.text, values })).rows;
}

/** Runs `work` in a transaction on a connection of `pool`; see the module comment. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((failure: unknown) => {
      broken = failure instanceof Error ? failure : new Error(String(failure));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** `OpsQueries` on a connection in a transaction: the builder's queries compiled, then run on `client`. */
export function opsQueriesOnClient(client: pg.ClientBase): OpsQueries {
  const execute = (query: Compilable<unknown>) => {
    const compiled = query.compile();
    return client.query(compiled.sql, [...compiled.parameters]);
  };
  return {
    all: async (query) => (await execute(query)).rows,
    run: async (query) => (await execute(query)).rowCount ?? 0,
  };
}
