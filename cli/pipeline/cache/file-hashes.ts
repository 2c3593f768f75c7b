/**
 * The hashes of the files a build reads, kept from one build to the next with the size and time
 * each file had when it was hashed, as git's index keeps them: a file found with the same size
 * and time is not read again, any other is read and hashed. What decides is still the content's
 * hash; the size and time only spare reading 15 MB of unchanged content on every build.
 *
 * A file whose time is within `RACY_MS` of the moment it was hashed could be changed again
 * within the same tick of the file system's clock and keep its size: it is kept without its
 * time, so the next build reads it again (git calls these entries racy).
 *
 *   const hashes = new FileHashes(previous);   // previous: what the last build kept, or none
 *   hashes.of('/site/content/locales/de.json') // 'b1946ac9…' (read only when changed)
 *   hashes.kept()                               // to record for the next build
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { z } from 'zod';
import { RACY_MS } from '../../assets/file-memo.ts';

/** The kept hashes, in columns (one entry per file at the same index): compact to store and quick to check. */
export const keptHashes = z
  .object({ paths: z.array(z.string()), sizes: z.array(z.number()), mtimes: z.array(z.number()), hashes: z.array(z.string()) })
  .refine((kept) => [kept.sizes, kept.mtimes, kept.hashes].every((column) => column.length === kept.paths.length), 'columns of different lengths');
export type KeptHashes = z.infer<typeof keptHashes>;

/** A buffer reused for every file read: a buffer of its own for each would leave the whole content (15 MB on the scaling site) as garbage outside the V8 heap. */
let scratch = Buffer.allocUnsafe(1 << 20);

/** The hash of the bytes of the open file `fd` of `size` bytes. */
function hashOpenFile(fd: number, size: number): string {
  if (size > scratch.length) scratch = Buffer.allocUnsafe(size);
  let length = 0;
  for (let read = -1; read !== 0 && length < size; length += read) read = readSync(fd, scratch, length, size - length, length);
  return createHash('sha256').update(scratch.subarray(0, length)).digest('hex').slice(0, 32);
}

export class FileHashes {
  readonly #previous = new Map<string, { size: number; mtimeMs: number; hash: string }>();
  readonly #now = new Map<string, { size: number; mtimeMs: number; hash: string }>();
  readonly #startedAt = Date.now();

  constructor(previous?: KeptHashes) {
    previous?.paths.forEach((path, i) => this.#previous.set(path, { size: previous.sizes[i]!, mtimeMs: previous.mtimes[i]!, hash: previous.hashes[i]! }));
  }

  /**
   * The hash of the bytes of the file at `path` (through a link), read only when its size or time
   * changed; asked again in the same build, the hash it gave first (the one the build's key holds),
   * without looking at the file again.
   */
  of(path: string): string {
    const known = this.#now.get(path);
    if (known) return known.hash;
    const stat = statSync(path);
    const previous = this.#previous.get(path);
    if (previous && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs) {
      this.#now.set(path, previous);
      return previous.hash;
    }
    const fd = openSync(path, 'r');
    try {
      // The size and time of what is read, in case the file changed since the stat above.
      const opened = fstatSync(fd);
      const entry = { size: opened.size, mtimeMs: opened.mtimeMs, hash: hashOpenFile(fd, opened.size) };
      this.#now.set(path, entry);
      return entry.hash;
    } finally {
      closeSync(fd);
    }
  }

  /** The hashes of the files asked for, to keep for the next build; a racy file's without its time. */
  kept(): KeptHashes {
    const kept: KeptHashes = { paths: [], sizes: [], mtimes: [], hashes: [] };
    for (const [path, { size, mtimeMs, hash }] of this.#now) {
      kept.paths.push(path);
      kept.sizes.push(size);
      kept.mtimes.push(mtimeMs > this.#startedAt - RACY_MS ? -1 : mtimeMs);
      kept.hashes.push(hash);
    }
    return kept;
  }
}
