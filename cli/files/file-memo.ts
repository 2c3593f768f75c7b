/**
 * A value computed from a file's bytes, kept for as long as the file is unchanged by the
 * fingerprint rule (fingerprint.ts: the same size and time, and not racy when read): one build
 * asks for the modules the templates import four times (the build's key, the render code's hash,
 * the islands' and the stylesheet's inputs), and `sitegen dev` builds the islands again after
 * each edit.
 *
 * A memo given a name is also kept between processes, in the sources' cache folder: a build
 * starts from the values the last one computed and reads only the files changed since (each
 * `sitegen build` read and parsed its 250 modules again to follow their imports, 10–15 ms of a
 * one-string rebuild). A process that builds once (`sitegen build`) says so with `lookOnce()`: a
 * file looked at once is then not looked at again, since the build reads the sources it started
 * from; `sitegen dev`, whose sources change between builds, looks at a file each time it asks.
 *
 * @example
 * const lines = fileMemo((bytes) => bytes.toString('utf8').split('\n').length);
 * lines('/site/templates/Home.tsx') // 120 (read once while the file is unchanged)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR } from '../paths.ts';
import { type Fingerprint, fingerprint } from './fingerprint.ts';
import { writeRecordFile } from './record-file.ts';

/** Whether a file looked at once is trusted for the rest of the process (`lookOnce`). */
let once = false;

/** Makes every file memo of this process look at a file once: for a process that builds once and exits (`sitegen build`). */
export function lookOnce(): void {
  once = true;
}

/** How a memo is kept between processes: the name of its file, and the check of a value read back. */
export interface KeptMemo<T> {
  name: string;
  isValue(value: unknown): value is T;
}

/** A kept memo's file: `{ entries: [path, size, mtimeMs, value][] }`. */
const keptFile = (name: string) => join(CACHE_DIR, `memo-${name}.json`);

/** The entries a kept memo's file holds, each checked; none when it is missing or unreadable. */
function readKept<T>(kept: KeptMemo<T>): Map<string, Fingerprint<T>> {
  const memo = new Map<string, Fingerprint<T>>();
  try {
    const { entries } = JSON.parse(readFileSync(keptFile(kept.name), 'utf8')) as { entries?: unknown };
    if (!Array.isArray(entries)) return memo;
    for (const entry of entries as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 4) continue;
      const [path, size, mtimeMs, value] = entry as unknown[];
      if (typeof path === 'string' && typeof size === 'number' && typeof mtimeMs === 'number' && kept.isValue(value)) memo.set(path, { size, mtimeMs, racy: false, value });
    }
  } catch {
    // None yet, or half-written: every file is read.
  }
  return memo;
}

/** Writes the settled entries of the files `looked` at (a racy one is read again next time; a file no longer asked for drops out), into a file renamed into place. */
function writeKept<T>(name: string, memo: ReadonlyMap<string, Fingerprint<T> | null>, looked: ReadonlySet<string>): void {
  const entries = [...looked].flatMap((path) => {
    const seen = memo.get(path);
    return seen && !seen.racy ? [[path, seen.size, seen.mtimeMs, seen.value]] : [];
  });
  try {
    writeRecordFile(keptFile(name), JSON.stringify({ entries }));
  } catch {
    // A folder we may not write into: the next process reads the files again.
  }
}

/**
 * `compute` of a file's bytes (a view it must not keep), memoized by path under the fingerprint
 * rule; undefined for a file that does not exist. With `kept`, the memo starts from its file and
 * writes it back as the process exits when it computed anything.
 */
export function fileMemo<T>(compute: (bytes: Buffer) => T, kept?: KeptMemo<T>): (path: string) => T | undefined {
  let memo: Map<string, Fingerprint<T> | null> | undefined;
  /** The paths looked at by this process. */
  const looked = new Set<string>();
  let changed = false;
  return (path) => {
    if (memo === undefined) {
      memo = kept ? readKept(kept) : new Map();
      if (kept) process.once('exit', () => changed && writeKept(kept.name, memo!, looked));
    }
    const known = memo.get(path);
    if (once && looked.has(path)) return known?.value;
    looked.add(path);
    const seen = fingerprint(path, known ?? undefined, compute);
    if (seen !== known) changed = true;
    memo.set(path, seen ?? null);
    return seen?.value;
  };
}
