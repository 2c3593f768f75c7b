/**
 * The SQLite writer in a worker thread of its own, for the bench only (`npm run bench:ingest --
 * --writer` compares it with the service's writer on the main thread; the figures that chose the
 * main thread are in docs/developers.md, Benchmarks). The thread (`writer-worker.js`) runs the
 * service's own `openWriter` (`ingest/store/sqlite/writer-thread.js`); the batches and their
 * outcomes cross as messages.
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { type ErrorDetail, type SqliteWriter, writerConfig, WriterError, type WriterHealth } from '../../../ingest/store/sqlite/writer.ts';

/** What a job's outcome is (see `writer.ts`). */
type WriteOutcome = Awaited<ReturnType<SqliteWriter['execute']>>[number];

interface Pending {
  resolve: (outcomes: WriteOutcome[]) => void;
  reject: (error: Error) => void;
}

const WORKER_MODULE = new URL('./writer-worker.js', import.meta.url);

/** Starts the writer of the file at `path` in a worker thread of its own (with `resourceLimits`, a smaller heap). */
export function workerWriter(path: string, statements: string[], options: { resourceLimits?: ResourceLimits; onHealth?: (health: WriterHealth) => void } = {}): SqliteWriter {
  const config = writerConfig(path, statements);
  const worker = new Worker(WORKER_MODULE, {
    // Plain JavaScript: no loader flags (a `--import tsx` inherited from the parent would route
    // the thread's module loading and messages through the loader's hooks for nothing).
    execArgv: [],
    workerData: config,
    ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
  });
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let alive = true;
  let onClosed: (() => void) | undefined;

  const fail = (error: Error) => {
    alive = false;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: Record<string, unknown>) => {
      if ('ready' in message) {
        if (message.ready) resolve();
        else {
          const error = new WriterError(message.error as ErrorDetail);
          fail(error);
          reject(error);
        }
      } else if ('closed' in message) {
        onClosed?.();
      } else if ('health' in message) {
        options.onHealth?.(message.health as WriterHealth);
      } else {
        const entry = pending.get(message.id as number);
        pending.delete(message.id as number);
        if (message.error) entry?.reject(new WriterError(message.error as ErrorDetail));
        else entry?.resolve(message.outcomes as WriteOutcome[]);
      }
    });
    worker.on('error', (error) => {
      fail(error);
      reject(error);
    });
    worker.on('exit', () => fail(new WriterError({ message: 'the SQLite writer thread has stopped', code: 'SQLITE_CANTOPEN' })));
  });
  // Start-up failures are reported through `ready` and every pending `execute`.
  ready.catch(() => {});

  return {
    ready,
    get alive() {
      return alive;
    },
    execute(jobs) {
      if (!alive) return Promise.reject(new WriterError({ message: 'the SQLite writer is closed', code: 'SQLITE_CANTOPEN' }));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // One JSON string per batch: cloning a string is a copy, while the structured clone of
        // nested arrays walks every value and measured ~6 % of the main thread under load.
        worker.postMessage({ id, jobs: JSON.stringify(jobs) });
      });
    },
    async close() {
      if (!alive) return;
      // Messages are handled in order, so the close runs after every batch already sent.
      const closed = new Promise<void>((resolve) => (onClosed = resolve));
      worker.postMessage({ close: true });
      await closed;
      alive = false;
      await worker.terminate();
    },
  };
}
