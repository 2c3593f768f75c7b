/**
 * The connection pool to PostgreSQL, and how its failures are told apart.
 *
 * Every connection gets `synchronous_commit = on` when it opens (whatever the server's or the
 * role's default), so a commit returns only once its WAL record is flushed to disk: a 201 sent
 * after it means the row survives a crash. Commits that wait at the same time share one flush
 * (PostgreSQL's own group commit); the submission store also puts concurrent newsletter signups
 * into one statement (`pg-signup-batch.ts`), so there are fewer commits to flush.
 *
 * A failure of the database itself (refused or lost connection, a restart or failover, too many
 * clients, a read-only standby) is `unavailable`: the HTTP error handler answers it 503 with
 * Retry-After, and the pool opens fresh connections once the server is back. The pool's `error`
 * events (an idle connection dropped by a restart) are logged, never thrown: unhandled, they
 * would end the process.
 */
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { StorageLog } from '../storage-log.ts';
import type { Tables } from '../tables.ts';

/** An open pool with its query builder. */
export interface PostgresDatabase {
  pool: pg.Pool;
  kysely: Kysely<Tables>;
  /** Sends later log lines (pool errors) to `log`. */
  logTo(log: StorageLog): void;
  close(): Promise<void>;
}

/** What `openPostgres` takes: the URL, the pool size and where pool errors are logged at first. */
export interface PostgresOptions {
  url: string;
  poolMax: number;
  log: StorageLog;
}

/** Opens a pool to `url` (no connection is made until the first query). */
export function openPostgres(options: PostgresOptions): PostgresDatabase {
  let log = options.log;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    // A request waits at most this long for a connection before it is answered 503.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A query on a connection whose peer vanished (no RST, e.g. a failover) fails instead of hanging.
    query_timeout: 15_000,
    statement_timeout: 10_000,
    keepAlive: true,
    application_name: 'ingest',
    // The pool hands a new connection out only once this has run; if it fails, the connection is
    // closed and the query that asked for it fails with the error (a 503, see isUnavailable).
    onConnect: async (client) => {
      // A checked-out client that loses its server emits 'error' besides failing its query; the pool
      // listens only on idle ones, and an 'error' event nobody listens to would end the process.
      client.on('error', onError);
      await client.query('SET synchronous_commit TO on');
    },
  });
  function onError(error: Error) {
    log.error({ storage: 'postgres', problem: error.message }, 'PostgreSQL connection lost');
  }
  pool.on('error', onError);
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    kysely,
    logTo: (next) => (log = next),
    close: () => kysely.destroy(),
  };
}

// SQLSTATE classes that are about the request (bad data, a constraint, a bug in a statement),
// not about the database being reachable: 22 data exception, 23 integrity, 42 syntax or access.
const REQUEST_ERROR_CLASSES = new Set(['22', '23', '42']);

/**
 * True when `error` says the database cannot serve now (connection refused or lost, shutdown,
 * too many clients, read-only standby, timeout) rather than that the statement was wrong.
 *
 * @example isUnavailable({ code: 'ECONNREFUSED' }) // → true
 * isUnavailable({ code: '23505' }) // → false (unique violation)
 */
export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return !REQUEST_ERROR_CLASSES.has(code.slice(0, 2));
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, …
  // pg's own: "Connection terminated unexpectedly", "timeout exceeded when trying to connect", "Query read timeout"…
  return error instanceof Error && /connect|terminat|timeout|not queryable|ended/i.test(error.message);
}

/** The error a store throws when the database is unavailable: status 503, so the API answers `unavailable` with Retry-After. */
export class DatabaseUnavailableError extends Error {
  readonly statusCode = 503;
  readonly code = 'DATABASE_UNAVAILABLE';

  constructor(cause: unknown) {
    super(`PostgreSQL unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** A compiled raw statement, for the few PostgreSQL-only statements (locks, `current_schema()`). */
export const raw = (text: string, parameters: unknown[] = []) => CompiledQuery.raw(text, parameters);
