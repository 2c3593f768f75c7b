/**
 * The output folder and its spare, as the build cache sees them.
 *
 * A build never writes into the folder being served: it writes into another folder and swaps it
 * in with renames (`publishOutput`). Without a cache that folder is new and empty, and the
 * previous output is deleted after the swap. With the cache, the previous output is kept as the
 * *spare*, `<parent>/.sitegen-cache/<out>/spare`, and becomes the next build's folder to write
 * into: only the files whose content differs from what the spare holds are written (a page kept
 * from the served output becomes a hard link to its file: see output-plan.ts), the files the new
 * build does not have are deleted, and the swap makes it the output while the old output becomes
 * the spare. So a build rewrites only what changed since the spare was the output, deletes
 * nothing it would write again, and the two folders share their unchanged files on disk.
 *
 * A build that would publish exactly the files the output already holds (same names, same
 * content hashes) publishes nothing: no swap, and the output's files keep their inodes and
 * times. `manifest.json` beside the spare records each folder's files (content hash, size and
 * modification time, checked before they are trusted: a file changed by hand is not) and each
 * page's inputs (see page-inputs.ts).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { listFiles } from '../output-dir.ts';

/** A file as recorded: content hash, size in bytes, modification time in ms. */
const fileRecord = z.tuple([z.string(), z.number(), z.number()]);
/** A folder as recorded: its inode (a folder renamed or replaced behind the cache's back is another) and its files. */
const folderRecord = z.object({ ino: z.number(), files: z.record(z.string(), fileRecord) });

const pageRecord = z.object({
  /** The hash of everything the page read (page-inputs.ts), the strings' values included. */
  key: z.string(),
  /** Which of `stringSets` the page read. */
  strings: z.number().int().nonnegative(),
  /** The hash of its HTML, and of what the output checks read in it (tags, scripts, styles). */
  html: z.string(),
  skeleton: z.string(),
  bytes: z.number(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  out: folderRecord.nullable(),
  spare: folderRecord.nullable(),
  pages: z.record(z.string(), pageRecord),
  /** The lists of string keys pages read; many pages read the same list (header, footer). */
  stringSets: z.array(z.array(z.string())),
  /** The hash of everything the output checks and the host configurations read; they pass again when it is the same. */
  checksKey: z.string(),
  /** The host configuration files of that build, by output path. */
  host: z.record(z.string(), z.string()),
});

/** What the cache holds about the previous build. */
export type Manifest = z.infer<typeof manifestSchema>;
/** One page's record in the manifest. */
export type PageRecord = z.infer<typeof pageRecord>;
/** A folder as the manifest records it: its inode and its files (path → [hash, size, mtime]). */
export type FolderRecord = z.infer<typeof folderRecord>;
/** The recorded files of a folder that are still as recorded: path → [hash, size, mtime]. */
export type FolderFiles = Map<string, [string, number, number]>;

/** The cache folder of an output folder: `<parent>/.sitegen-cache/<name>` (beside it, so renames between them stay on one file system). */
export function cacheDirOf(outDir: string): string {
  return join(dirname(outDir), '.sitegen-cache', basename(outDir));
}

/** The cached folder kept to be written into by the next build. */
export const spareDirOf = (outDir: string) => join(cacheDirOf(outDir), 'spare');
const manifestFile = (outDir: string) => join(cacheDirOf(outDir), 'manifest.json');

/** The files of `dir` that are exactly as `record` says (same folder, same size and time); empty when none can be trusted. */
function trustedFiles(dir: string, record: FolderRecord | null): FolderFiles {
  const files: FolderFiles = new Map();
  if (!record || statSync(dir, { throwIfNoEntry: false })?.ino !== record.ino) return files;
  for (const [file, [hash, size, mtimeMs]] of Object.entries(record.files)) {
    const stat = statSync(join(dir, file), { throwIfNoEntry: false });
    if (stat && stat.size === size && stat.mtimeMs === mtimeMs) files.set(file, [hash, size, mtimeMs]);
  }
  return files;
}

/**
 * The files of the spare the manifest records, each trusted (size and time checked) only when
 * asked for: a build that changes little asks for few of them.
 */
export class SpareFiles {
  readonly #checked = new Map<string, string | undefined>();
  readonly #sameFolder: boolean;

  constructor(
    readonly dir: string,
    readonly record: FolderRecord | null,
  ) {
    this.#sameFolder = record !== null && statSync(dir, { throwIfNoEntry: false })?.ino === record.ino;
  }

  /** The content hash of `file` in the spare, when it is as recorded. */
  hash(file: string): string | undefined {
    if (!this.#sameFolder) return undefined;
    if (!this.#checked.has(file)) {
      const recorded = this.record!.files[file];
      const stat = recorded && statSync(join(this.dir, file), { throwIfNoEntry: false });
      this.#checked.set(file, stat && stat.size === recorded[1] && stat.mtimeMs === recorded[2] ? recorded[0] : undefined);
    }
    return this.#checked.get(file);
  }

  /** Every trusted file: path → content hash. */
  all(): Map<string, string> {
    const files = new Map<string, string>();
    for (const file of Object.keys(this.record?.files ?? {})) {
      const hash = this.hash(file);
      if (hash !== undefined) files.set(file, hash);
    }
    return files;
  }
}

/** The previous build as far as it can be trusted: its manifest, the output's unchanged files and the spare's. */
export interface PreviousBuild {
  manifest: Manifest | null;
  outFiles: FolderFiles;
  spareFiles: SpareFiles;
}

/** Reads the cache of `outDir`; an unreadable or outdated manifest counts as none (everything is built). */
export function readPreviousBuild(outDir: string): PreviousBuild {
  let manifest: Manifest | null = null;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile(outDir), 'utf8')));
    if (parsed.success) manifest = parsed.data;
  } catch {
    // No manifest yet, or a half-written one: build everything.
  }
  return { manifest, outFiles: trustedFiles(outDir, manifest?.out ?? null), spareFiles: new SpareFiles(spareDirOf(outDir), manifest?.spare ?? null) };
}

/** What a build with the cache turned off knows of the previous one: nothing. */
export const noPreviousBuild = (outDir: string): PreviousBuild => ({ manifest: null, outFiles: new Map(), spareFiles: new SpareFiles(spareDirOf(outDir), null) });

/** Deletes what the cache knows (`--no-cache`): the next cached build starts from nothing. */
export function forgetPreviousBuild(outDir: string): void {
  rmSync(manifestFile(outDir), { force: true });
}

/** The folder a cached build writes into: the spare, or a new empty one when there is none. */
export function cachedStaging(outDir: string): string {
  const spare = spareDirOf(outDir);
  mkdirSync(spare, { recursive: true });
  return spare;
}

/** Records `files` of `dir` (path → content hash) with their current size and time. */
export function recordFolder(dir: string, files: ReadonlyMap<string, string>): FolderRecord {
  const record: FolderRecord = { ino: statSync(dir).ino, files: {} };
  for (const [file, hash] of files) {
    const stat = statSync(join(dir, file));
    record.files[file] = [hash, stat.size, stat.mtimeMs];
  }
  return record;
}

/**
 * The record of a folder whose files were recorded before (`files`), after it was renamed
 * (`dir` is where it is now); null when there is no such folder.
 */
export function keepRecord(dir: string, files: FolderFiles | Record<string, [string, number, number]>): FolderRecord | null {
  const stat = statSync(dir, { throwIfNoEntry: false });
  return stat ? { ino: stat.ino, files: files instanceof Map ? Object.fromEntries(files) : files } : null;
}

/** Writes the manifest (into a temporary file renamed over the old one, so it is never half-written). */
export function writeManifest(outDir: string, manifest: Manifest): void {
  const file = manifestFile(outDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(manifest));
  renameSync(`${file}.${process.pid}`, file);
}

/**
 * Whether `outDir` already holds exactly `desired` (path → content hash): every file recorded
 * with that hash and unchanged since, and no other file.
 */
export function outputHolds(outDir: string, outFiles: FolderFiles, desired: ReadonlyMap<string, string>): boolean {
  if (outFiles.size !== desired.size) return false;
  for (const [file, hash] of desired) if (outFiles.get(file)?.[0] !== hash) return false;
  return existsSync(outDir) && listFiles(outDir).size === desired.size;
}

/**
 * Puts the finished spare in place of `outDir` (two renames, as `publishOutput` does) and keeps
 * the previous output as the next spare instead of deleting it.
 */
export function swapWithSpare(outDir: string): void {
  const spare = spareDirOf(outDir);
  const previous = `${spare}.previous-${process.pid}`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(spare, outDir);
  if (existsSync(previous)) renameSync(previous, spare);
}
