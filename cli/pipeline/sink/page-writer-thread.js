// A page writer thread (see startPageWriter in page-writer.ts). Plain JavaScript on purpose: a
// worker thread starts without the TypeScript loader, in a few milliseconds. `writeBatch` is also
// what page-writer.ts runs itself for the few files of a small rebuild, where starting a thread
// would cost more than it saves.
//
// workerData: { pageWriter: true, dir, gzip: zlib options, brotli: brotli params without the size hint }. Each
// message is a batch of files, [{ file, bytes, compress }]: it writes each under dir and, when
// `compress`, FILE.gz and FILE.br beside it. The message null ends the thread. An error ends it
// too, and the main thread reports it.
//
// Each file is written as a new file, never into an existing one: the folder may be the build
// cache's spare, whose unchanged files are hard links to the files of the site being served.
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Writes `bytes` as a new file at `path`, deleting any file there first (which may be a link to a served file).
 *
 * @param {string} path
 * @param {Uint8Array} bytes
 */
export function writeNew(path, bytes) {
  try {
    unlinkSync(path);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  writeFileSync(path, bytes);
}

/**
 * Writes a batch of files under `options.dir`, each compressed beside it when `compress` says so;
 * `folders` remembers the folders already made.
 *
 * @param {{ dir: string, gzip: import('node:zlib').ZlibOptions, brotli: Record<number, number> }} options
 * @param {{ file: string, bytes: Uint8Array, compress: boolean }[]} batch
 * @param {Set<string>} folders
 */
export function writeBatch({ dir, gzip, brotli }, batch, folders) {
  for (const { file, bytes, compress } of batch) {
    const path = join(dir, file);
    const folder = dirname(path);
    if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
    folders.add(folder);
    writeNew(path, bytes);
    if (!compress) continue;
    writeNew(`${path}.gz`, gzipSync(bytes, gzip));
    writeNew(`${path}.br`, brotliCompressSync(bytes, { params: { ...brotli, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  }
}

if (!isMainThread && workerData?.pageWriter) {
  const folders = new Set();
  parentPort.on('message', (/** @type {{ file: string, bytes: Uint8Array, compress: boolean }[] | null} */ batch) => {
    if (batch === null) {
      parentPort.close();
      return;
    }
    writeBatch(workerData, batch, folders);
  });
}
