// The SQLite writer in a worker thread, for the bench only (`worker-writer.ts` starts it): runs the
// service's `openWriter` on the file in `workerData`; batches arrive as JSON strings and their
// outcomes go back, and `maintain` runs every `maintenanceMs`.
import { parentPort, workerData } from 'node:worker_threads';
import { openWriter } from '../../../ingest/store/sqlite/writer-thread.js';

/** @type {{ path: string, busyTimeoutMs: number, pragmas: string[], maintenanceMs: number, statements: string[] }} */
const config = workerData;
const writer = openWriter(config);
if (writer.error) parentPort.postMessage({ ready: false, error: writer.error });
else parentPort.postMessage({ ready: true });

const maintenance =
  writer.error === null && config.maintenanceMs > 0 ? setInterval(() => parentPort.postMessage({ health: writer.maintain() }), config.maintenanceMs) : undefined;
maintenance?.unref();

parentPort.on('message', (message) => {
  if (message.close) {
    clearInterval(maintenance);
    if (writer.error === null) writer.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, outcomes: writer.runBatch(JSON.parse(message.jobs)) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: error.message, code: error.code } });
  }
});
