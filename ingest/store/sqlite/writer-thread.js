// The SQLite writer (see writer.ts). Plain JavaScript on purpose: the bench starts it as a worker
// thread too, which must start in a few milliseconds in any context without a TypeScript loader.
//
// `openWriter` owns one write connection (WAL, synchronous = FULL, busy timeout, the connection
// pragmas of connection.ts) and runs each batch it receives as one BEGIN IMMEDIATE … COMMIT, each
// job in its own savepoint. A job is a list of steps [statementIndex, parameters, stopIfNoRow]; a
// step marked stopIfNoRow that returns no row ends its job early (a duplicate signup, a reused
// captcha) without an error. Each job's outcome is null (all steps ran), the index of the step
// that stopped it, or an error.
//
// Its `maintain` checkpoints the WAL itself (PASSIVE) and reports the result: SQLite's own
// auto-checkpoint runs inside a commit and swallows its errors, so a main file that can no longer
// be written would let the WAL grow without limit and nobody would know. After a failed batch it
// probes with a write that changes nothing, so the main thread learns when writes work again even
// if no request comes to try (a load balancer stops sending them).
//
// writer.ts calls `openWriter` on the main thread. The bench also runs it in a worker thread
// (tests/bench/ingest/writer-worker.js), to compare the two.
import Database from 'better-sqlite3';

function describe(error) {
  return { message: error instanceof Error ? error.message : String(error), code: error?.code };
}

/**
 * Opens the write connection and prepares the statements.
 *
 * @param {{ path: string, busyTimeoutMs: number, pragmas: string[], statements: string[] }} config
 * @returns {{ error: { message: string, code?: string } } | { error: null, runBatch(jobs: unknown[][]): unknown[], maintain(): object, close(): void }}
 */
export function openWriter(config) {
  let db;
  let statements;
  try {
    db = new Database(config.path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${config.busyTimeoutMs}`);
    for (const pragma of config.pragmas) db.pragma(pragma);
    statements = config.statements.map((sql) => db.prepare(sql));
  } catch (error) {
    db?.close();
    return { error: describe(error) };
  }

  // Returns the index of the step that found no row, or null when every step ran.
  function runJob(steps) {
    for (let index = 0; index < steps.length; index++) {
      const [statementIndex, parameters, stopIfNoRow] = steps[index];
      const statement = statements[statementIndex];
      if (!statement.reader) statement.run(parameters);
      else if (statement.get(parameters) === undefined && stopIfNoRow) return index;
    }
    return null;
  }

  // Nested transaction(): better-sqlite3 runs the inner one as a savepoint. A one-statement job
  // needs none: SQLite undoes a failed statement by itself and the transaction carries on.
  const runJobInSavepoint = db.transaction(runJob);
  const batch = db.transaction((jobs) =>
    jobs.map((steps) => {
      try {
        return steps.length === 1 ? runJob(steps) : runJobInSavepoint(steps);
      } catch (error) {
        return describe(error);
      }
    }),
  );

  // Rewrites the header's user_version with its own value: a real, synced commit that changes nothing.
  const probeWrite = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true });
    db.pragma(`user_version = ${Number(version)}`);
  });

  let lastBatchFailed = false;

  return {
    error: null,
    // Throws when the transaction itself failed.
    runBatch(jobs) {
      try {
        const outcomes = batch.immediate(jobs);
        lastBatchFailed = outcomes.some((outcome) => outcome !== null && typeof outcome === 'object');
        return outcomes;
      } catch (error) {
        lastBatchFailed = true;
        throw Object.assign(new Error(describe(error).message), describe(error));
      }
    },
    maintain() {
      const health = { checkpoint: null };
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch (error) {
        health.checkpoint = describe(error);
      }
      if (lastBatchFailed) {
        try {
          probeWrite.immediate();
          lastBatchFailed = false;
          health.probe = null;
        } catch (error) {
          health.probe = describe(error);
        }
      }
      return health;
    },
    close: () => db.close(),
  };
}
