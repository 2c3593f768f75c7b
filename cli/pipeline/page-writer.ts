import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { join } from 'node:path';
import { brotliParams, type CompressionLevels, FAST_LEVELS, isCompressible } from '../assets/precompress.ts';
// @ts-expect-error -- plain JavaScript (the thread's own module), typed by its JSDoc.
import { writeBatch, writeNew } from './page-writer-thread.js';

/** How many threads a page writer uses: one per core but the one that renders, up to 4. */
const WRITER_THREADS = Math.min(4, Math.max(1, availableParallelism() - 1));

/**
 * How many files a build writes on its own thread before it starts the writer threads: a rebuild
 * after one string changed writes a page, the sitemap and robots.txt, and a thread's start and end
 * (about 45 ms on the 2-core machine) cost more than writing and compressing those here.
 */
export const INLINE_FILES = 8;

/**
 * From this size, a file written here has its compressed copies made on libuv's threads while this
 * thread goes on (the build awaits them before it publishes): the scaling site's sitemap, 1 MB,
 * changes with every page's date and took its rebuild 25–30 ms to compress.
 */
const BACKGROUND_BYTES = 256 * 1024;

/** A file to write: its path under the output folder and its text, or its bytes (UTF-8), which are moved to the writing thread (unusable here after). */
type PageFile = { file: string } & ({ text: string } | { bytes: Uint8Array });

/** Writes the pages of a build in other threads, with their precompressed copies: see `startPageWriter`. */
export interface PageWriter {
  /**
   * Hands over files to write under the output folder (`file` relative to it), with their text;
   * returns each one's size in bytes. Another thread writes them, and `FILE.gz` and `FILE.br`
   * beside each file worth compressing (`precompress`).
   */
  write(files: readonly PageFile[]): number[];
  /** Resolves when everything handed over is written; rejects with a thread's error. */
  finish(): Promise<void>;
  /** Stops the threads at once, for a build that failed: files may be missing. */
  stop(): Promise<void>;
}

/**
 * Starts the threads that write a build's pages into `dir` (once more than `inlineFiles` files
 * have been handed over; the first ones are written here), so that writing and compressing them
 * happens on the other cores while this thread renders the next ones and verifies the whole. The
 * files and copies are the bytes `writeOutFile` and `precompress` would write.
 *
 * @example
 * const writer = startPageWriter(stagingDir);
 * writer.write([{ file: 'de/about.html', text: html }]); // [41873]
 * await writer.finish();
 */
export function startPageWriter(dir: string, levels: CompressionLevels = FAST_LEVELS, inlineFiles = INLINE_FILES): PageWriter {
  const workerData = { pageWriter: true, dir, gzip: { level: levels.gzip }, brotli: brotliParams(levels) };
  // The threads start once more than `inlineFiles` files have been handed over: a build that
  // writes fewer writes them here, and one that writes nothing starts none.
  let workers: Worker[] = [];
  let exited: Promise<void>[] = [];
  let inline = 0;
  let inlineError: unknown = null;
  /** The compressed copies being made in the background (`BACKGROUND_BYTES`). */
  const background: Promise<void>[] = [];
  const folders = new Set<string>();
  const start = () => {
    workers = Array.from({ length: WRITER_THREADS }, () => new Worker(new URL('./page-writer-thread.js', import.meta.url), { workerData }));
    exited = workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once('error', reject);
          worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a page writer thread stopped with exit code ${code}`))));
        }),
    );
    // Awaited in finish(); a thread that fails before then must not be an unhandled rejection.
    for (const exit of exited) exit.catch(() => {});
  };
  let next = 0;
  return {
    write(files) {
      // Encoded here (unless it came encoded) and moved, not copied, to the thread that writes it.
      const pages = files.map((page) => {
        const bytes = 'bytes' in page ? page.bytes : new TextEncoder().encode(page.text);
        return { file: page.file, bytes, compress: isCompressible(page.file, bytes.length) };
      });
      const sizes = pages.map((page) => page.bytes.length);
      if (workers.length === 0 && inline + pages.length <= inlineFiles) {
        inline += pages.length;
        // Reported when the build finishes, as a thread's error is.
        if (inlineError === null) {
          try {
            const large = pages.filter((page) => page.compress && page.bytes.length >= BACKGROUND_BYTES);
            writeBatch(workerData, pages.map((page) => (large.includes(page) ? { ...page, compress: false } : page)), folders);
            for (const page of large) background.push(compressBeside(join(dir, page.file), page.bytes, workerData).catch((error: unknown) => void (inlineError ??= error)));
          } catch (error) {
            inlineError = error;
          }
        }
        return sizes;
      }
      if (workers.length === 0 && pages.length > 0) start();
      const batches = workers.map((): typeof pages => []);
      for (const page of pages) {
        batches[next]!.push(page);
        next = (next + 1) % workers.length;
      }
      batches.forEach((batch, i) => {
        if (batch.length > 0) workers[i]!.postMessage(batch, batch.map((f) => f.bytes.buffer as ArrayBuffer));
      });
      return sizes;
    },
    async finish() {
      for (const worker of workers) worker.postMessage(null);
      await Promise.all([...exited, ...background]);
      if (inlineError !== null) throw inlineError;
    },
    async stop() {
      await Promise.all([...workers.map((worker) => worker.terminate()), ...background]);
    },
  };
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Writes `FILE.gz` and `FILE.br` beside the file at `path` (`bytes`), compressed on libuv's threads with the writer's settings: the bytes `writeBatch` writes. */
async function compressBeside(path: string, bytes: Uint8Array, options: { gzip: ZlibOptions; brotli: NonNullable<BrotliOptions['params']> }): Promise<void> {
  const [gz, br] = await Promise.all([gzipAsync(bytes, options.gzip), brotliAsync(bytes, { params: { ...options.brotli, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })]);
  writeNew(`${path}.gz`, gz);
  writeNew(`${path}.br`, br);
}
