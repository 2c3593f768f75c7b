/**
 * The output folder and its spare, as the build cache sees them.
 *
 * A build never writes into the folder being served: it writes into another folder and swaps it
 * in with renames (`publishOutput`). With `--no-cache` that folder is new and empty, the
 * previous output is deleted after the swap and a spare of links to the new one made
 * (sink/fresh-folder.ts). Otherwise the previous output is kept as the
 * *spare*, `<parent>/.sitegen-cache/<out>/spare`, and becomes the next build's folder to write
 * into: only the files whose content differs from what the spare holds are written (a page kept
 * from the served output becomes a hard link to its file: see sink/output-plan.ts), the files the new
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
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { z } from 'zod';
import { listFiles } from '../../files/folder-files.ts';
import { writeRecordFile } from '../../files/record-file.ts';
import { HASHED_ASSETS_PREFIX } from '../../host/security-headers.ts';
import { type FileRecord, type FolderRecord, foldersOf, foldersToWrite, outRecord, spareRecord } from './folder-records.ts';
import { READ_ONCE, rowsByKey, stringColumn } from './record-columns.ts';

/** A page's record (its fields, each checked in one pass: record-columns.ts). */
const pageRecords = rowsByKey({
  /** What the page read besides what every page reads (plan/build-plan.ts `PageInputs`: its card's URL, the hashes of its Markdown and of its strings' values), space-separated. */
  inputs: 'string',
  /** Which of `stringSets` the page read. */
  strings: 'index',
  /** The hash of its HTML, and of what the output checks read in it (tags, scripts, styles). */
  html: 'string',
  skeleton: 'string',
  bytes: 'number',
  /** The hash of what a reader sees in it, and the time that last changed (page-changes.ts): the sitemap's `<lastmod>`. */
  content: 'string',
  changed: 'string',
});

const manifestSchema = z.object({
  version: z.literal(6),
  /** What every page read, by part (page-inputs.ts `sharedInputs`). */
  shared: z.record(z.string(), z.string()),
  out: outRecord.nullable(),
  spare: spareRecord.nullable(),
  pages: pageRecords,
  /** The lists of string keys pages read; many pages read the same list (header, footer). */
  stringSets: z.array(stringColumn),
  /** Every string key pages read, and what each said in each language: 8 hex digits a key, in the order of `stringKeys` (the plan names the strings that changed). */
  stringKeys: stringColumn,
  stringValues: z.record(z.string(), z.string()),
  /** What each language's values were made from (the hashes of its file and the English one): a language whose sources are the same keeps its values. */
  stringSources: z.record(z.string(), z.string()),
  /** The hash of everything the output checks and the host configurations read; they pass again when it is the same. */
  checksKey: z.string(),
  /** The host configuration files of that build: published (by output path) and for the deployment folder (by name). */
  host: z.object({ published: z.record(z.string(), z.string()), deploy: z.record(z.string(), z.string()) }),
}).transform(({ out, spare, ...manifest }) => ({ ...manifest, ...foldersOf(out, spare) }));

/** What the cache holds about the previous build. */
export type Manifest = z.infer<typeof manifestSchema>;
/** One page's record in the manifest. */
export type PageRecord = Manifest['pages'][string];

/** The cache folder of an output folder: `<parent>/.sitegen-cache/<name>` (beside it, so renames between them stay on one file system). */
export function cacheDirOf(outDir: string): string {
  return join(dirname(outDir), '.sitegen-cache', basename(outDir));
}

/** The cached folder kept to be written into by the next build. */
export const spareDirOf = (outDir: string) => join(cacheDirOf(outDir), 'spare');
const manifestFile = (outDir: string) => join(cacheDirOf(outDir), 'manifest.json');

/** The file a compressed copy was made from (`de/about.html` for `de/about.html.gz` or `.br`); undefined for any other file. */
function copiedFrom(file: string): string | undefined {
  return file.endsWith('.gz') || file.endsWith('.br') ? file.slice(0, -3) : undefined;
}

/** Whether a file of the output is named by its content: everything under `/assets/` is (hosts cache it as immutable). */
const namedByContent = (file: string) => `/${file}`.startsWith(HASHED_ASSETS_PREFIX);

/**
 * Whether a folder's `file` is trusted as recorded when it is there, without a look at its size
 * and time (see `RecordedFolder`): a file named by its content, or a compressed copy of a file the
 * folder holds (`holds`), which is itself looked at. The build record's view of the output
 * (build-record.ts) follows the same rule.
 */
export function trustedWhenPresent(file: string, holds: (file: string) => boolean): boolean {
  if (namedByContent(file)) return true;
  const source = copiedFrom(file);
  return source !== undefined && holds(source);
}

/**
 * A folder's files as the manifest recorded them, each trusted only when asked for: a build that
 * changes little asks for few of them, and never for the served output's files when the spare
 * holds the same.
 *
 * A file is trusted when it has its recorded size and time. Two kinds are trusted when they are
 * there, without a look at each: a compressed copy (`.gz`, `.br`) of a recorded file, when the
 * file it was made from is trusted (the page writer writes a page before its copies, each as a
 * new file, so a build that failed halfway leaves the page untrusted and its copies are written
 * again with it); and a file named by its content (under `/assets/`: the social cards, the
 * stylesheet, the islands), which a build never writes again under its name once it is recorded.
 * A copy or an asset changed by hand in place is not seen (a page is); `--no-cache` writes
 * everything anew. This spares a rebuild of the scaling site 4,000 of its 5,400 `stat`s.
 */
export class RecordedFolder {
  /** Each file asked for: its record when the folder holds it as recorded, else null. */
  readonly #checked = new Map<string, FileRecord | null>();
  readonly #sameFolder: boolean;
  readonly #prefix: string;
  #listed: ReadonlySet<string> | undefined;

  constructor(
    readonly dir: string,
    readonly record: FolderRecord | null,
  ) {
    this.#sameFolder = record !== null && statSync(dir, { throwIfNoEntry: false })?.ino === record.ino;
    this.#prefix = join(dir, sep);
  }

  /** The record of `file` ([hash, size, time]) when the folder holds it as recorded. */
  trusted(file: string): FileRecord | undefined {
    if (!this.#sameFolder) return undefined;
    // Asked for every file of the output (5,300 on the scaling site): one lookup, and the path put
    // together without `join`, which normalised each.
    let checked = this.#checked.get(file);
    if (checked === undefined) {
      const recorded = this.record!.files.get(file);
      checked = recorded && this.#holds(file, recorded) ? recorded : null;
      this.#checked.set(file, checked);
    }
    return checked ?? undefined;
  }

  /** Whether the folder still holds `file` as `recorded` (see the class's comment for the kinds trusted when there). */
  #holds(file: string, recorded: FileRecord): boolean {
    if (trustedWhenPresent(file, (source) => this.record!.files.has(source))) {
      // A compressed copy goes with the file it was made from: untrusted with it.
      const source = namedByContent(file) ? undefined : copiedFrom(file);
      return this.listed().has(file) && (source === undefined || this.trusted(source) !== undefined);
    }
    const stat = statSync(this.#prefix + file, { throwIfNoEntry: false });
    return stat !== undefined && stat.size === recorded[1] && stat.mtimeMs === recorded[2];
  }

  /**
   * The files in the folder, listed once, when first asked: whether a compressed copy is there,
   * and which files a build writing into the folder deletes at the end (it adds only files it
   * knows of meanwhile).
   */
  listed(): ReadonlySet<string> {
    this.#listed ??= existsSync(this.dir) ? listFiles(this.dir) : new Set();
    return this.#listed;
  }

  /** The recorded files, when the folder is the one recorded (none for another folder put in its place). */
  get files(): ReadonlyMap<string, FileRecord> {
    return this.#sameFolder ? this.record!.files : new Map();
  }

  /** The content hash of `file` in the folder, when it is as recorded. */
  hash(file: string): string | undefined {
    return this.trusted(file)?.[0];
  }

  /**
   * Whether the folder holds exactly `desired` (path → content hash): every file as recorded with
   * that hash, and no other file. The files `first` names (those a build wrote, where a change
   * is) are compared first.
   */
  holds(desired: ReadonlyMap<string, string>, first: ReadonlySet<string> = new Set()): boolean {
    const files = this.files;
    if (!this.#sameFolder || files.size !== desired.size) return false;
    for (const file of first) if (files.get(file)?.[0] !== desired.get(file)) return false;
    // The recorded hashes first: a build that changed a file is told without looking at the folder.
    let same = true;
    desired.forEach((hash, file) => {
      same &&= files.get(file)?.[0] === hash;
    });
    desired.forEach((hash, file) => {
      same &&= this.hash(file) === hash;
    });
    return same && listFiles(this.dir).size === desired.size;
  }
}

/** The previous build as far as it can be trusted: its manifest, and the output's and the spare's recorded files. */
export interface PreviousBuild {
  manifest: Manifest | null;
  outFiles: RecordedFolder;
  spareFiles: RecordedFolder;
}

/** Reads the cache of `outDir`; an unreadable or outdated manifest counts as none (everything is built). */
export function readPreviousBuild(outDir: string): PreviousBuild {
  let manifest: Manifest | null = null;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile(outDir), 'utf8')), READ_ONCE);
    if (parsed.success) manifest = parsed.data;
  } catch {
    // No manifest yet, or a half-written one: build everything.
  }
  return { manifest, outFiles: new RecordedFolder(outDir, manifest?.out ?? null), spareFiles: new RecordedFolder(spareDirOf(outDir), manifest?.spare ?? null) };
}


/** Deletes what the cache knows of the last build (`--no-cache`, which starts from empty records and records itself anew). */
export function forgetPreviousBuild(outDir: string): void {
  rmSync(manifestFile(outDir), { force: true });
}

/** The folder a cached build writes into: the spare, or a new empty one when there is none. */
export function cachedStaging(outDir: string): string {
  const spare = spareDirOf(outDir);
  mkdirSync(spare, { recursive: true });
  return spare;
}

/**
 * The record of `files` (path → content hash) in `dir`: each file has the size and time `known`
 * gives for it (a file kept from the folder that is now `dir`, or a hard link to a checked file of
 * another: a rename or a link keeps them), any other is looked at now.
 */
export function recordFolder(dir: string, files: ReadonlyMap<string, string>, known: (file: string) => FileRecord | undefined): FolderRecord {
  const recorded = new Map<string, FileRecord>();
  files.forEach((hash, file) => {
    const kept = known(file);
    if (kept?.[0] === hash) recorded.set(file, kept);
    else {
      const stat = statSync(join(dir, file));
      recorded.set(file, [hash, stat.size, stat.mtimeMs]);
    }
  });
  return { ino: statSync(dir).ino, files: recorded };
}

/**
 * The record of `folder` after `written` files of it were written (path → content hash): the
 * others as recorded (each is checked when a later build asks for it). `dir` is where the folder
 * is now; null when there is no such folder.
 */
export function keepRecord(dir: string, folder: RecordedFolder, written: ReadonlyMap<string, string> = new Map()): FolderRecord | null {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) return null;
  // The output kept as the spare keeps its record as it is: not copied.
  if (written.size === 0) return { ino: stat.ino, files: folder.files };
  const files = new Map(folder.files);
  for (const [file, hash] of written) {
    const now = statSync(join(dir, file));
    files.set(file, [hash, now.size, now.mtimeMs]);
  }
  return { ino: stat.ino, files };
}

/** Writes the manifest (never half-written: cli/files/record-file.ts). */
export function writeManifest(outDir: string, { out, spare, ...manifest }: Omit<Manifest, 'version'>): void {
  writeRecordFile(manifestFile(outDir), JSON.stringify({ version: 6, ...manifest, ...foldersToWrite(out, spare) }));
}

/**
 * Puts the finished spare in place of `outDir` (two renames, as `publishOutput` does) and keeps
 * the previous output as the next spare instead of deleting it.
 */
export function swapWithSpare(outDir: string): void {
  const spare = spareDirOf(outDir);
  const previous = `${spare}.previous-${process.pid}`;
  // Looked for first: a recursive rmSync loads its implementation even when there is nothing to delete.
  if (existsSync(previous)) rmSync(previous, { recursive: true, force: true });
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(spare, outDir);
  if (existsSync(previous)) renameSync(previous, spare);
}
