/**
 * The files under a folder, as the stages and the build cache name them (relative to the folder,
 * with forward slashes): listing them, and writing one with the folders it needs.
 *
 *   writeOutFile('/site/dist', 'de/about.html', html) // 18_204 (bytes)
 *   listFiles('/site/dist')                           // Set { 'index.html', 'de/about.html', … }
 */
import { type Dirent, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

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
