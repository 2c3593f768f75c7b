/**
 * The SQLite writer: the write connection for form submissions, fed by group commit.
 *
 * It runs on the main thread. better-sqlite3 is synchronous, so a durable commit stops the event
 * loop for its fsync (0.3 ms on a quiet disk, several ms on a busy one), once per batch: the
 * requests that arrive meanwhile wait in their sockets and form the next batch. It used to run
 * in a worker thread of its own, so that only that thread waited; `npm run bench:ingest --
 * --writer` and the service under load measured the thread at about 9 MB more memory (a second
 * V8 isolate), a quarter more CPU per signup (each batch and its outcomes cross between the
 * threads, and the main connection's writes, the outbox's, wait for the thread's lock) and lower
 * signup throughput; contact posts on an overloaded machine went the other way (the figures are
 * in docs/developers.md, Benchmarks). The bench keeps the worker thread for that comparison
 * (`tests/bench/ingest/worker-writer.ts`); the service has no such option.
 *
 * The writer is a dumb executor of prepared statements (`writer-thread.js`, plain JavaScript so
 * that the bench also runs it as a worker without a TypeScript loader): the SQL is built with
 * kysely here, once, and the decisions about outcomes stay in `sqlite-submission-store.ts`.
 */
import { CONNECTION_PRAGMAS } from './connection.ts';

/** One step of a job: run statement `statement` with `parameters`; with `stopIfNoRow`, an empty result ends the job. */
export type WriteStep = [statement: number, parameters: unknown[], stopIfNoRow: boolean];

/** An error as the writer reports it: SQLite's message and code. */
export interface ErrorDetail {
  message: string;
  code?: string;
}

/** How a job ended: null when every step ran, the index of the step that found no row, or the error that undid it. */
type WriteOutcome = null | number | ErrorDetail;

/**
 * What the writer's periodic maintenance found: whether its WAL checkpoint failed, and, when a
 * batch had failed since the last report, whether a probe write succeeded (absent: no probe ran).
 */
export interface WriterHealth {
  checkpoint: ErrorDetail | null;
  probe?: ErrorDetail | null;
}

/** Options of `startSqliteWriter`; production uses the defaults. */
interface WriterOptions {
  busyTimeoutMs?: number;
  /** How often the writer checkpoints the WAL and reports `WriterHealth` (default 1000 ms; 0: never). */
  maintenanceMs?: number;
  /** Receives each maintenance report. */
  onHealth?: (health: WriterHealth) => void;
}

/** The writer as the group commit sees it. */
export interface SqliteWriter {
  /** Resolves when the writer has opened the database and prepared the statements. */
  ready: Promise<void>;
  /** Runs `jobs` in one transaction, one savepoint each; rejects only if the transaction itself failed. */
  execute(jobs: WriteStep[][]): Promise<WriteOutcome[]>;
  /** False once the writer has failed or been closed. */
  readonly alive: boolean;
  /** Waits for the batch in flight and closes the connection. */
  close(): Promise<void>;
}

/** An error from the writer, keeping SQLite's code (`SQLITE_BUSY`, …) for the HTTP error mapping. */
export class WriterError extends Error {
  readonly code: string | undefined;

  constructor(detail: ErrorDetail) {
    super(detail.message);
    this.name = 'WriterError';
    this.code = detail.code;
  }
}

/** What `writer-thread.js` receives: the file, the statements and the connection's settings. */
export interface WriterConfig {
  path: string;
  statements: string[];
  busyTimeoutMs: number;
  pragmas: readonly string[];
  maintenanceMs: number;
}

/** `writer-thread.js`'s `openWriter`, as `startSqliteWriter` calls it. */
type OpenWriter = (config: WriterConfig) =>
  | { error: ErrorDetail }
  | { error: null; runBatch(jobs: WriteStep[][]): WriteOutcome[]; maintain(): WriterHealth; close(): void };

const WRITER_MODULE = new URL('./writer-thread.js', import.meta.url);

/** What the writer of the file at `path` opens with: its `statements` (SQL texts, addressed by index) and the connection's settings. */
export function writerConfig(path: string, statements: string[], options: WriterOptions = {}): WriterConfig {
  return { path, statements, busyTimeoutMs: options.busyTimeoutMs ?? 5000, pragmas: CONNECTION_PRAGMAS, maintenanceMs: options.maintenanceMs ?? 1000 };
}

/** Starts a writer on the SQLite file at `path`, on this thread, preparing `statements` (SQL texts, addressed by index). */
export function startSqliteWriter(path: string, statements: string[], options: WriterOptions = {}): SqliteWriter {
  return mainThreadWriter(writerConfig(path, statements, options), options);
}

/** The writer on this thread: each batch commits synchronously, in the turn after `execute` was called. */
function mainThreadWriter(config: WriterConfig, options: WriterOptions): SqliteWriter {
  let writer: Extract<ReturnType<OpenWriter>, { error: null }> | undefined;
  let alive = true;
  let maintenance: NodeJS.Timeout | undefined;
  const ready = import(WRITER_MODULE.href).then(({ openWriter }: { openWriter: OpenWriter }) => {
    const opened = openWriter(config);
    if (opened.error !== null) {
      alive = false;
      throw new WriterError(opened.error);
    }
    writer = opened;
    if (config.maintenanceMs > 0) {
      maintenance = setInterval(() => options.onHealth?.(opened.maintain()), config.maintenanceMs);
      maintenance.unref();
    }
  });
  ready.catch(() => {});
  return {
    ready,
    get alive() {
      return alive;
    },
    async execute(jobs) {
      await ready.catch(() => {});
      if (!alive || writer === undefined) throw new WriterError({ message: 'the SQLite writer is closed', code: 'SQLITE_CANTOPEN' });
      try {
        return writer.runBatch(jobs);
      } catch (error) {
        throw new WriterError(error as ErrorDetail);
      }
    },
    async close() {
      if (!alive) return;
      alive = false;
      clearInterval(maintenance);
      writer?.close();
    },
  };
}
