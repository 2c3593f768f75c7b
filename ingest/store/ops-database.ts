/**
 * What the operator commands (`ingest export`, `erase`, `purge`) need from a database, on either
 * backend: kysely-built queries run one at a time or inside one write transaction, the columns of
 * a table, and a way to make deleted rows leave no copy behind. `sqlite/sqlite-ops-database.ts`
 * and `postgres/pg-ops-database.ts` implement it; the commands in `ops/` are written once.
 */
import type { Compilable, Kysely } from 'kysely';
import type { Tables } from './tables.ts';

/** Runs built queries: `all` returns rows, `run` returns how many rows a statement changed. */
export interface OpsQueries {
  all<R>(query: Compilable<R>): Promise<R[]>;
  run(query: Compilable<unknown>): Promise<number>;
}

/** A database opened for an operator command. */
export interface OpsDatabase extends OpsQueries {
  /** Builds queries (run them through `all`/`run`, or the transaction's `tx`). */
  readonly kysely: Kysely<Tables>;
  /**
   * True where a query can lock the rows it reads until the transaction ends (`FOR UPDATE`, and
   * `SKIP LOCKED` to pass over rows another replica holds): PostgreSQL. SQLite's write
   * transaction already excludes every other writer, so there is nothing to lock.
   */
  readonly locksRows: boolean;
  /** Runs `work` in one write transaction; its queries must go through the `tx` it receives. */
  transaction<T>(work: (tx: OpsQueries) => Promise<T>): Promise<T>;
  /** The table's column names, in schema order. */
  columns(table: 'newsletter' | 'contacts'): Promise<string[]>;
  /**
   * After a deletion: makes the database drop the old copies of the deleted rows it still keeps
   * (SQLite: its WAL); returns null when done, or a line for the operator saying what is left.
   */
  scrubDeleted(): Promise<string | null>;
  close(): Promise<void>;
}
