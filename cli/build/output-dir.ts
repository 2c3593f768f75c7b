import { type Dirent, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { Problem } from '../site/errors.ts';

/** The file that marks a folder as sitegen output, so it may be emptied before a build. */
const OUTPUT_MARKER = '.sitegen-output';

/**
 * Empties the output folder (only one sitegen made: it carries the marker file) or creates it;
 * returns the problem when the folder is someone else's.
 */
export function prepareOutDir(outDir: string): Problem | null {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(join(outDir, OUTPUT_MARKER))) {
      return { code: 'output_dir_foreign', file: outDir, message: 'not empty and not made by sitegen; choose an empty folder or delete it first' };
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, OUTPUT_MARKER), 'This folder is written by `sitegen build` and emptied on every build.\n');
  return null;
}

/** Writes one file under the output folder (`file` relative to it); returns its size in bytes. */
export function writeOutFile(outDir: string, file: string, content: string): number {
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  return Buffer.byteLength(content);
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
export function listFiles(dir: string): Set<string> {
  return new Set(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split(sep).join('/')),
  );
}
