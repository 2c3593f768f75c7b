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

/** `compute` of a file's bytes (a view it must not keep), memoized by path under the fingerprint rule; undefined for a file that does not exist. */
export function fileMemo<T>(compute: (bytes: Buffer) => T): (path: string) => T | undefined {
  const memo = new Map<string, Fingerprint<T>>();
  return (path) => {
    const seen = fingerprint(path, memo.get(path), compute);
    if (seen) memo.set(path, seen);
    else memo.delete(path);
    return seen?.value;
  };
}
