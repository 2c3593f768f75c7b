// The SQLite writer thread (see sqlite-writer.ts). Plain JavaScript on purpose: it must start in
// a few milliseconds in any context (tsx CLI, vitest, a container) without a TypeScript loader.
//
// It owns one write connection (WAL, synchronous as given, busy timeout, foreign keys) and runs
// each batch it receives as one BEGIN IMMEDIATE … COMMIT, each job in its own savepoint. A job is
// a list of steps [statementIndex, parameters, stopIfNoRow]; a step marked stopIfNoRow that
// returns no row ends its job early (a duplicate signup, a reused captcha) without an error.
// Each job's outcome is null (all steps ran), the index of the step that stopped it, or an error.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ path: string, synchronous: string, busyTimeoutMs: number, statements: string[] }} */
const config = workerData;

let db;
let statements;
try {
  db = new Database(config.path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${config.synchronous}`);
  db.pragma(`busy_timeout = ${config.busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  statements = config.statements.map((sql) => db.prepare(sql));
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: describe(error) });
}

function describe(error) {
  return { message: error instanceof Error ? error.message : String(error), code: error?.code };
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
const runJobInSavepoint = db ? db.transaction(runJob) : undefined;
const runBatch = db
  ? db.transaction((jobs) =>
      jobs.map((steps) => {
        try {
          return steps.length === 1 ? runJob(steps) : runJobInSavepoint(steps);
        } catch (error) {
          return describe(error);
        }
      }),
    )
  : undefined;

parentPort.on('message', (message) => {
  if (message.close) {
    db?.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, outcomes: runBatch.immediate(JSON.parse(message.jobs)) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: describe(error) });
  }
});
