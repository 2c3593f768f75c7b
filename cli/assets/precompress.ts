import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync, type BrotliOptions } from 'node:zlib';

/** File types worth compressing: text. (PNG, and favicon.ico which holds PNGs, are compressed already.) */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.webmanifest', '.svg', '.xml', '.txt']);
/** Below this size a compressed copy saves less than a network packet. */
const MIN_BYTES = 1024;

/** How hard to compress: the build's own pages at speed, cached assets (built once) at maximum. */
export interface CompressionLevels {
  gzip: number;
  brotli: number;
}

/** Levels for files written on every build: about 2 ms for a page of 45 KB on one core. */
export const FAST_LEVELS: CompressionLevels = { gzip: 9, brotli: 5 };
/** Levels for content-hashed files that are compressed once and then cached. */
export const MAX_LEVELS: CompressionLevels = { gzip: 9, brotli: 11 };

/** Brotli's parameters for `levels`; each file adds its length as `BROTLI_PARAM_SIZE_HINT`. */
export const brotliParams = (levels: CompressionLevels): NonNullable<BrotliOptions['params']> => ({
  [constants.BROTLI_PARAM_QUALITY]: levels.brotli,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
});

/** Whether `file` (relative to the output folder) gets precompressed copies. */
export function isCompressible(file: string, bytes: number): boolean {
  if (bytes < MIN_BYTES || file.startsWith('_')) return false;
  // Asked for every page's files in every build (4,000 on the scaling site): the name cut, not split.
  const name = file.slice(file.lastIndexOf('/') + 1);
  return COMPRESSIBLE.has(extname(name)) && !name.startsWith('.');
}

/**
 * Writes `FILE.gz` and `FILE.br` beside each compressible file of `files` (paths relative to
 * `dir`) that has none yet, so hosts serve them without compressing on each request (nginx
 * `gzip_static`). Returns the files it compressed.
 */
export function precompress(dir: string, files: Iterable<string>, levels: CompressionLevels = FAST_LEVELS): string[] {
  const done: string[] = [];
  const all = new Set(files);
  for (const file of all) {
    if (all.has(`${file}.gz`) && all.has(`${file}.br`)) continue;
    const path = join(dir, file);
    if (!isCompressible(file, statSync(path).size)) continue;
    const data = readFileSync(path);
    writeFileSync(`${path}.gz`, gzipSync(data, { level: levels.gzip }));
    writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { ...brotliParams(levels), [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    done.push(file);
  }
  return done;
}
