/**
 * The layout limits agreed for the program's folders (docs/developers.md, "Layout limits"): a
 * folder holds at most 12 files, so its name still says what is in it, and a source file at most
 * 300 lines, past which a second concept is usually hiding in it. A limit no test holds drifts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';

const FOLDERS = ['cli', 'templates', 'ingest'];
const MAX_FILES_PER_FOLDER = 12;
const MAX_LINES_PER_FILE = 300;

/** Files allowed past the line limit, each with the reason (keep this list short). */
const LONGER_FILES: Readonly<Record<string, string>> = {};

/** Every folder under `dir` (itself included), with the files directly in it. */
function foldersUnder(dir: string): Array<{ folder: string; files: string[] }> {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(dir, entry.name));
  const below = entries.filter((entry) => entry.isDirectory()).flatMap((entry) => foldersUnder(join(dir, entry.name)));
  return [{ folder: dir, files }, ...below];
}

const folders = FOLDERS.flatMap((top) => foldersUnder(join(PROJECT_ROOT, top)));
const sources = folders.flatMap(({ files }) => files).filter((file) => /\.(ts|tsx|js)$/.test(file));
const name = (path: string) => relative(PROJECT_ROOT, path);

describe('layout limits', () => {
  it(`keeps every folder of ${FOLDERS.join(', ')} at ${MAX_FILES_PER_FOLDER} files or fewer`, () => {
    const crowded = folders.filter(({ files }) => files.length > MAX_FILES_PER_FOLDER).map(({ folder, files }) => `${name(folder)}: ${files.length} files`);
    expect(crowded, 'split a crowded folder by concern into sub-folders').toEqual([]);
  });

  it(`keeps every source file at ${MAX_LINES_PER_FILE} lines or fewer, but the named exceptions`, () => {
    const long = sources
      .filter((file) => LONGER_FILES[name(file)] === undefined)
      .map((file) => ({ file: name(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES_PER_FILE)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long, 'find the second concept in a long file and give it a file of its own').toEqual([]);
  });

  it('names only exceptions that exist and are longer than the limit', () => {
    for (const file of Object.keys(LONGER_FILES)) {
      const path = join(PROJECT_ROOT, file);
      expect(statSync(path, { throwIfNoEntry: false })?.isFile(), `${file} is listed but missing`).toBe(true);
      expect(readFileSync(path, 'utf8').split('\n').length - 1, `${file} fits the limit now: take it off the list`).toBeGreaterThan(MAX_LINES_PER_FILE);
    }
  });
});
