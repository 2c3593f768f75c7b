/**
 * The output's and the spare's files as the build manifest records them (output-store.ts): in
 * columns, one entry per file at the same index (the manifest of the scaling site reads in about
 * two thirds of the time of an array per file), the spare as how it differs from the output.
 *
 *   const { out, spare } = foldersOf(manifest.out, manifest.spare); // read
 *   JSON.stringify(foldersToWrite(out, spare));                      // written
 */
import { z } from 'zod';
import { numberColumn, stringColumn } from './record-columns.ts';

/** A file as recorded: content hash, size in bytes, modification time in ms. */
export type FileRecord = readonly [hash: string, size: number, mtimeMs: number];

/** A folder as the manifest records it: its inode and its files (path → [hash, size, mtime]). */
export interface FolderRecord {
  ino: number;
  files: ReadonlyMap<string, FileRecord>;
}

/** A folder's files in columns. */
const fileColumns = { paths: stringColumn, hashes: stringColumn, sizes: numberColumn, mtimes: numberColumn };
type FileColumns = { paths: string[]; hashes: string[]; sizes: number[]; mtimes: number[] };
const sameLengths = (folder: FileColumns) => [folder.hashes, folder.sizes, folder.mtimes].every((column) => column.length === folder.paths.length);

/** The output as recorded: its inode (a folder renamed or replaced behind the cache's back is another) and its files. */
export const outRecord = z.object({ ino: z.number(), ...fileColumns }).refine(sameLengths, 'columns of different lengths');

/**
 * The spare as recorded: its inode, and how its files differ from the output's: the output's
 * files it lacks (`gone`) and its own files whose record is not the output's. The two folders
 * share most files (hard links, with one size and time), so this is a few entries where the
 * output's are thousands (5,300 on the scaling site).
 */
export const spareRecord = z.object({ ino: z.number(), gone: stringColumn, ...fileColumns }).refine(sameLengths, 'columns of different lengths');

/** `columns` as a folder's files, path → record, added to `files`. */
function addColumns(files: Map<string, FileRecord>, { paths, hashes, sizes, mtimes }: FileColumns): Map<string, FileRecord> {
  for (let i = 0; i < paths.length; i++) files.set(paths[i]!, [hashes[i]!, sizes[i]!, mtimes[i]!]);
  return files;
}

// The loops over a folder's files below call `forEach`: in a process that runs once, a `for … of`
// destructuring each entry took about ten times as long (the iterator protocol, run per entry).

/** The columns of `files`. */
function columnsOf(files: ReadonlyMap<string, FileRecord>): FileColumns {
  const columns: FileColumns = { paths: [], hashes: [], sizes: [], mtimes: [] };
  files.forEach((record, path) => {
    columns.paths.push(path);
    columns.hashes.push(record[0]);
    columns.sizes.push(record[1]);
    columns.mtimes.push(record[2]);
  });
  return columns;
}

/**
 * The spare's files as the manifest records them, over the output's (`base`): those less `gone`,
 * with `own` over them. A view, not a copy: a one-string rebuild asks it for the few files it
 * checks, and copying the output's 5,300 records into a map of the spare's took longer than that.
 */
class SpareFiles implements ReadonlyMap<string, FileRecord> {
  #all: Map<string, FileRecord> | undefined;

  constructor(
    readonly base: ReadonlyMap<string, FileRecord>,
    readonly own: ReadonlyMap<string, FileRecord>,
    readonly gone: ReadonlySet<string>,
  ) {}

  get(path: string): FileRecord | undefined {
    return this.own.get(path) ?? (this.gone.has(path) ? undefined : this.base.get(path));
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  forEach(each: (record: FileRecord, path: string, map: ReadonlyMap<string, FileRecord>) => void): void {
    this.base.forEach((record, path) => {
      const own = this.own.get(path);
      if (own !== undefined || !this.gone.has(path)) each(own ?? record, path, this);
    });
    this.own.forEach((record, path) => {
      if (!this.base.has(path)) each(record, path, this);
    });
  }

  /** Every file, in a map made when first asked for (a build that publishes nothing copies the spare's record). */
  #map(): Map<string, FileRecord> {
    if (!this.#all) {
      const all = new Map<string, FileRecord>();
      this.forEach((record, path) => all.set(path, record));
      this.#all = all;
    }
    return this.#all;
  }

  get size(): number {
    return this.#map().size;
  }

  entries() {
    return this.#map().entries();
  }

  keys() {
    return this.#map().keys();
  }

  values() {
    return this.#map().values();
  }

  [Symbol.iterator]() {
    return this.#map()[Symbol.iterator]();
  }
}

/** The spare's record as `spareRecord` reads it: what differs from the output's record `out`. */
function spareColumns(spare: FolderRecord, out: FolderRecord | null): z.input<typeof spareRecord> {
  const outFiles = out?.files ?? new Map<string, FileRecord>();
  const gone: string[] = [];
  const own = new Map<string, FileRecord>();
  // One pass over the output's files; the spare's are gone through only when it has others.
  outFiles.forEach((other, path) => {
    const record = spare.files.get(path);
    if (record === undefined) gone.push(path);
    else if (record !== other && (other[0] !== record[0] || other[1] !== record[1] || other[2] !== record[2])) own.set(path, record);
  });
  if (spare.files.size !== outFiles.size - gone.length) {
    spare.files.forEach((record, path) => {
      if (!outFiles.has(path)) own.set(path, record);
    });
  }
  return { ino: spare.ino, gone, ...columnsOf(own) };
}

/** The output's and the spare's records from the columns the manifest holds (either may be none). */
export function foldersOf(out: z.output<typeof outRecord> | null, spare: z.output<typeof spareRecord> | null): { out: FolderRecord | null; spare: FolderRecord | null } {
  const outFolder = out && { ino: out.ino, files: addColumns(new Map(), out) };
  const spareFolder = spare && { ino: spare.ino, files: new SpareFiles(outFolder?.files ?? new Map(), addColumns(new Map(), spare), new Set(spare.gone)) };
  return { out: outFolder, spare: spareFolder };
}

/** The columns the manifest holds for the output's and the spare's records. */
export function foldersToWrite(out: FolderRecord | null, spare: FolderRecord | null): { out: z.input<typeof outRecord> | null; spare: z.input<typeof spareRecord> | null } {
  return { out: out && { ino: out.ino, ...columnsOf(out.files) }, spare: spare && spareColumns(spare, out) };
}
