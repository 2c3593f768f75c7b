/**
 * The one rule for "this file is unchanged", used by everything that keeps a value made from a
 * file's bytes (the build record's hashes, the assets' cache keys, the module graph that the
 * build and `sitegen dev` follow): a file found with the size and modification time it had when
 * its bytes were read is trusted without reading it again, unless it was racy then; any other
 * file is read, and what was made of its bytes (its hash) decides. Git trusts its index the same
 * way.
 *
 * Racy: a file modified within `RACY_MS` of the moment its bytes were read (or of the moment
 * its record was written) could be changed again within the same tick of the file system's
 * clock and keep its size, so its size and time vouch for nothing: it is read and hashed again
 * next time, until its time is older than that window (git's "racily clean" entries, whose time
 * is not older than the index file's).
 *
 *   let seen = fingerprint('/site/content/locales/de.json', undefined, contentHash); // read
 *   seen = fingerprint('/site/content/locales/de.json', seen, contentHash);          // same size and time, settled: not read
 *   seen.value // 'b1946ac9…'
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** The window of the racy rule: how long after its last change a file's size and time do not vouch for its bytes (2 s: FAT's and some network file systems' clock tick). */
export const RACY_MS = 2_000;

/** What was made of a file's bytes, with the size and time it had when they were read. */
export interface Fingerprint<T> {
  readonly size: number;
  readonly mtimeMs: number;
  /** Modified within `RACY_MS` of being read: its size and time do not vouch for it. */
  readonly racy: boolean;
  readonly value: T;
}

/** Whether a file modified at `mtimeMs` is racy for a record taken at `atMs`: modified within `RACY_MS` before it (or after). */
export function isRacy(mtimeMs: number, atMs: number): boolean {
  return mtimeMs > atMs - RACY_MS;
}

/** Whether a file of `stat`'s size and time is the one `known` describes, without reading it. */
function isUnchanged(stat: { size: number; mtimeMs: number }, known: Fingerprint<unknown> | undefined): boolean {
  return known !== undefined && !known.racy && known.size === stat.size && known.mtimeMs === stat.mtimeMs;
}

/** The SHA-256 of bytes, in hex: what the caches key a file by. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A buffer reused for every file read: a buffer of its own for each would leave the whole content (15 MB on the scaling site) as garbage outside the V8 heap. */
let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * The fingerprint of the file at `path`: `known` when the file is unchanged by the rule above,
 * otherwise its bytes read and given to `make` (a view of a reused buffer: `make` must not keep
 * it); undefined when there is no file.
 */
export function fingerprint<T>(path: string, known: Fingerprint<T> | undefined, make: (bytes: Buffer) => T): Fingerprint<T> | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (isUnchanged(stat, known)) return known;
  const readAt = Date.now();
  const fd = openSync(path, 'r');
  try {
    // The size and time of what is read, in case the file changed since the stat above.
    const opened = fstatSync(fd);
    if (opened.size > scratch.length) scratch = Buffer.allocUnsafe(opened.size);
    let length = 0;
    for (let read = -1; read !== 0 && length < opened.size; length += read) read = readSync(fd, scratch, length, opened.size - length, length);
    return { size: opened.size, mtimeMs: opened.mtimeMs, racy: isRacy(opened.mtimeMs, readAt), value: make(scratch.subarray(0, length)) };
  } finally {
    closeSync(fd);
  }
}
