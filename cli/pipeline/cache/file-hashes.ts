/**
 * The hashes of the files a build reads, kept from one build to the next with the size and time
 * each file had when it was hashed: a file unchanged by the fingerprint rule
 * (cli/files/fingerprint.ts: the same size and time, and not racy) is not read again, any other
 * is read and hashed. What decides is still the content's hash; the size and time only spare
 * reading 15 MB of unchanged content on every build.
 *
 * A file racy when read, or modified within `RACY_MS` of the moment the record is written, is
 * kept without its time (-1), so the next build reads it again (git's racily clean entries).
 *
 *   const hashes = new FileHashes(previous);   // previous: what the last build kept, or none
 *   hashes.of('/site/content/locales/de.json') // 'b1946ac9…' (read only when changed)
 *   hashes.kept()                               // to record for the next build
 */
import { z } from 'zod';
import { contentHash, type Fingerprint, fingerprint, isRacy } from '../../files/fingerprint.ts';
import { numberColumn, stringColumn } from './record-columns.ts';

/** The kept hashes, in columns (one entry per file at the same index): compact to store and quick to check. */
export const keptHashes = z
  .object({ paths: stringColumn, sizes: numberColumn, mtimes: numberColumn, hashes: stringColumn })
  .refine((kept) => [kept.sizes, kept.mtimes, kept.hashes].every((column) => column.length === kept.paths.length), 'columns of different lengths');
export type KeptHashes = z.infer<typeof keptHashes>;

/** The time kept for a racy file: no file has it, so the next build reads the file again. */
const RACY_TIME = -1;

/** A file's hash as the record keeps it: the first 32 hex digits of its SHA-256. */
const shortHash = (bytes: Buffer) => contentHash(bytes).slice(0, 32);

export class FileHashes {
  readonly #previous = new Map<string, Fingerprint<string>>();
  readonly #now = new Map<string, Fingerprint<string>>();

  constructor(previous?: KeptHashes) {
    previous?.paths.forEach((path, i) => {
      const mtimeMs = previous.mtimes[i]!;
      this.#previous.set(path, { size: previous.sizes[i]!, mtimeMs, racy: mtimeMs === RACY_TIME, value: previous.hashes[i]! });
    });
  }

  /**
   * The hash of the bytes of the file at `path` (through a link), read only when the fingerprint
   * rule says it changed; asked again in the same build, the hash it gave first (the one the
   * build's key holds), without looking at the file again.
   */
  of(path: string): string {
    const known = this.#now.get(path);
    if (known) return known.value;
    const seen = fingerprint(path, this.#previous.get(path), shortHash);
    if (!seen) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT', path });
    this.#now.set(path, seen);
    return seen.value;
  }

  /** The hashes of the files asked for, to keep for the next build; a racy file's without its time. */
  kept(): KeptHashes {
    const writtenAt = Date.now();
    const kept: KeptHashes = { paths: [], sizes: [], mtimes: [], hashes: [] };
    // forEach, not a destructuring for…of: 1,600 files, in a process that never warms up.
    this.#now.forEach((seen, path) => {
      kept.paths.push(path);
      kept.sizes.push(seen.size);
      kept.mtimes.push(seen.racy || isRacy(seen.mtimeMs, writtenAt) ? RACY_TIME : seen.mtimeMs);
      kept.hashes.push(seen.value);
    });
    return kept;
  }
}
