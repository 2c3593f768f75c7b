/**
 * A value computed from a file's bytes, kept in this process for as long as the file is unchanged
 * by the fingerprint rule (fingerprint.ts: the same size and time, and not racy when read): one
 * build asks for the modules the templates import four times (the build's key, the render code's
 * hash, the islands' and the stylesheet's inputs), and `sitegen dev` builds the islands again
 * after each edit.
 *
 * @example
 * const lines = fileMemo((bytes) => bytes.toString('utf8').split('\n').length);
 * lines('/site/templates/Home.tsx') // 120 (read once while the file is unchanged)
 */
import { type Fingerprint, fingerprint } from './fingerprint.ts';

/** A file's value under the fingerprint rule (`fileMemo`), with what the memo holds, to record, and a way to start it from a record. */
export interface FileMemo<T> {
  (path: string): T | undefined;
  /** Each file looked at in this process: its value with the size and time it was computed at (or started with). */
  readonly entries: ReadonlyMap<string, Fingerprint<T>>;
  /** Starts the memo with a value a record kept for `path`: used while the file has that size and time (never when racy). */
  seed(path: string, known: Fingerprint<T>): void;
}

/** `compute` of a file's bytes (a view it must not keep), memoized by path under the fingerprint rule; undefined for a file that does not exist. */
export function fileMemo<T>(compute: (bytes: Buffer) => T): FileMemo<T> {
  const memo = new Map<string, Fingerprint<T>>();
  // Kept apart until asked for: `entries` holds only the files looked at in this process, so a
  // record made from it drops the files no longer used.
  const seeds = new Map<string, Fingerprint<T>>();
  const of = (path: string) => {
    const seen = fingerprint(path, memo.get(path) ?? seeds.get(path), compute);
    if (seen) memo.set(path, seen);
    else memo.delete(path);
    return seen?.value;
  };
  return Object.assign(of, {
    entries: memo,
    seed(path: string, known: Fingerprint<T>) {
      seeds.set(path, known);
    },
  });
}
