/** What the folder sinks' tests share: an output folder in a temporary folder, records to publish with, and what a user sees in a folder. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { BuildRecords } from '../../cli/pipeline/sink/folder-sink.ts';

/** A new output folder's path (not made), in a temporary folder of its own, as `--out` names one. */
export const newOutDir = (name: string) => join(mkdtempSync(join(tmpdir(), `sink-${name}-`)), 'dist');

/** Records with no pages: what the manifest keeps beside the files does not matter to a sink. */
export const NO_RECORDS: BuildRecords = { shared: {}, pages: {}, stringSets: [], stringKeys: [], stringValues: {}, stringSources: {}, checksKey: '', host: { published: {}, deploy: {} } };

/** A page worth compressing (more than 1 KB of HTML, the least `precompress` compresses). */
export const page = (text: string) => `<!DOCTYPE html><html lang="en"><main>${`${text} `.repeat(200)}</main></html>`;

/** Every file under `dir`, relative to it, sorted. */
export const filesIn = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((file) => statSync(join(dir, file)).isFile()).sort();

/** The text of a file and of its two compressed copies, decompressed (the copies must say what the file says). */
export function withCopies(dir: string, file: string): [string, string, string] {
  const path = join(dir, file);
  return [readFileSync(path, 'utf8'), gunzipSync(readFileSync(`${path}.gz`)).toString('utf8'), brotliDecompressSync(readFileSync(`${path}.br`)).toString('utf8')];
}

/** The inode of a file: two paths with the same one are hard links to one file. */
export const inode = (path: string) => statSync(path).ino;

/** The folders a build leaves beside `outDir` besides the output, its cache and its deployment folder (a failed or finished build leaves none). */
export const leftBeside = (outDir: string) => readdirSync(join(outDir, '..')).filter((name) => !['dist', '.sitegen-cache'].includes(name) && existsSync(join(outDir, '..', name)));
