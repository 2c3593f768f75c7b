/**
 * Opens the SQLite database and runs kysely-built queries on it synchronously.
 *
 * better-sqlite3 is synchronous, so every write transaction here is one synchronous function:
 * nothing can interleave with it, and no transaction is ever held open across an `await`
 * (which, on one shared connection, would mix unrelated requests into one transaction).
 * Kysely builds and compiles the SQL (and runs the Migrator); `SqlRunner` executes it.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Compilable, type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import type { Tables } from '../tables.ts';
import { OWNER_ONLY_FOLDER, ownerOnlyFiles } from './owner-only.ts';

/** Options for `openSqlite`; production always uses the defaults. */
export interface SqliteOptions {
  /** How long a write waits for another process's lock (an `ingest purge` run, say) before failing. */
  busyTimeoutMs?: number;
}

/** A synchronous executor for compiled kysely queries, with prepared statements cached by SQL text. */
export interface SqlRunner {
  /** Runs a query and returns its rows (for SELECT and `RETURNING`). */
  all<R>(query: Compilable<R> | CompiledQuery<R>): R[];
  /** Runs a statement and returns how many rows it changed. */
  run(query: Compilable<unknown> | CompiledQuery<unknown>): number;
  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction, or in a savepoint when already inside one. */
  transaction<T>(fn: () => T): T;
}

/** An open database: the raw handle, the query builder and the runner. */
export interface SqliteDatabase {
  path: string;
  raw: Database.Database;
  kysely: Kysely<Tables>;
  sql: SqlRunner;
  close(): void;
}

/** The database file and the two files SQLite keeps beside it in WAL mode: `['x.sqlite', 'x.sqlite-wal', 'x.sqlite-shm']`. */
export function databaseFiles(path: string): [string, string, string] {
  return [path, `${path}-wal`, `${path}-shm`];
}

/**
 * The pragmas every connection to the database gets (this module's, and the writer's,
 * which receives them from `writer.ts`):
 * - `secure_delete`: deleted rows are overwritten with zeros, so `ingest erase` leaves no copy of
 *   a person's data in freed pages;
 * - `mmap_size = 0`: pages are read with read(), never through a memory map, so an I/O error
 *   is an error code to report instead of a SIGBUS that kills the process without a log line.
 */
export const CONNECTION_PRAGMAS = ['secure_delete = ON', 'mmap_size = 0', 'foreign_keys = ON'] as const;

/**
 * Opens (creating if needed) the SQLite file at `path` with WAL, FULL sync, a busy timeout and
 * `CONNECTION_PRAGMAS`. A folder it creates is 0700, and the file is 0600 before WAL mode creates
 * `-wal` and `-shm` (SQLite gives them the database file's mode).
 */
export function openSqlite(path: string, options: SqliteOptions = {}): SqliteDatabase {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_FOLDER });
  const raw = new Database(path);
  ownerOnlyFiles(databaseFiles(path));
  raw.pragma('journal_mode = WAL');
  // FULL syncs the WAL on every commit, so a 201 (sent after the commit) means the row is on disk;
  // NORMAL would sync only at checkpoints, and a power cut could take rows already answered 201.
  // Group commit (`group-commit.ts`) pays that fsync once per batch.
  raw.pragma('synchronous = FULL');
  raw.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  for (const pragma of CONNECTION_PRAGMAS) raw.pragma(pragma);
  const kysely = new Kysely<Tables>({ dialect: new SqliteDialect({ database: raw }) });
  return {
    path,
    raw,
    kysely,
    sql: sqlRunner(raw),
    close: () => {
      if (raw.open) raw.close();
    },
  };
}

function sqlRunner(raw: Database.Database): SqlRunner {
  const statements = new Map<string, Database.Statement>();
  const prepare = (query: Compilable<unknown> | CompiledQuery<unknown>) => {
    const compiled = 'compile' in query ? query.compile() : query;
    let statement = statements.get(compiled.sql);
    if (statement === undefined) {
      statement = raw.prepare(compiled.sql);
      statements.set(compiled.sql, statement);
    }
    return { statement, parameters: compiled.parameters };
  };
  return {
    all<R>(query: Compilable<R> | CompiledQuery<R>): R[] {
      const { statement, parameters } = prepare(query);
      return statement.all(...parameters) as R[];
    },
    run(query) {
      const { statement, parameters } = prepare(query);
      return statement.run(...parameters).changes;
    },
    transaction<T>(fn: () => T): T {
      const wrapped = raw.transaction(fn);
      return raw.inTransaction ? wrapped() : wrapped.immediate();
    },
  };
}
