/**
 * A value computed from a file's bytes, kept in this process for as long as the file keeps its
 * size and time: one build asks for the modules the templates import four times (the build's
 * key, the render code's hash, the islands' and the stylesheet's inputs), and `sitegen dev`
 * builds the islands again after each edit.
 *
 * A file whose time is within `RACY_MS` of now could be changed again within the same tick of the
 * file system's clock and keep its size: its value is not kept (git calls such entries racy).
 *
 * @example
 * const lines = fileMemo((bytes) => bytes.toString('utf8').split('\n').length);
 * lines('/site/templates/Home.tsx') // 120 (read once while the file is unchanged)
 */
import { readFileSync, statSync } from 'node:fs';

/** How long after its last change a file is read again each time it is asked for. */
export const RACY_MS = 2_000;

/** `compute` of a file's bytes, memoized by path, size and time; undefined for a file that does not exist. */
export function fileMemo<T>(compute: (bytes: Buffer) => T): (path: string) => T | undefined {
  const memo = new Map<string, { size: number; mtimeMs: number; value: T }>();
  return (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return undefined;
    const known = memo.get(path);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.value;
    // Kept with the size and time seen before reading: a change meanwhile makes the next call read again.
    const value = compute(readFileSync(path));
    if (stat.mtimeMs < Date.now() - RACY_MS) memo.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, value });
    else memo.delete(path);
    return value;
  };
}
