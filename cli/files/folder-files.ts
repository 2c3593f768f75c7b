/**
 * The files under a folder, as the stages and the build cache name them (relative to the folder,
 * with forward slashes): listing them, and writing one with the folders it needs.
 *
 *   writeOutFile('/site/dist', 'de/about.html', html) // 18_204 (bytes)
 *   listFiles('/site/dist')                           // Set { 'index.html', 'de/about.html', … }
 */
import { type Dirent, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Writes one file under the output folder (`file` relative to it); returns its size in bytes. */
export function writeOutFile(outDir: string, file: string, content: string): number {
  const target = join(outDir, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  return Buffer.byteLength(content);
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
export function listFiles(dir: string): Set<string> {
  const root = resolve(dir);
  const files = new Set<string>();
  // Each path put together from its folder's and its own name (a `join` each was a third of
  // listing the scaling site's 5,300 output files).
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[]) {
    if (!entry.isFile()) continue;
    const folder = entry.parentPath.length > root.length ? entry.parentPath.slice(root.length + 1) : '';
    const path = folder === '' ? entry.name : `${folder}${sep}${entry.name}`;
    files.add(sep === '/' ? path : path.split(sep).join('/'));
  }
  return files;
}

/**
 * `path.relative(dir, path)` for many paths: a path under `dir` as written is cut, not resolved
 * (a build's key names each of its 1,600 input files relative to its folder).
 */
export function relativeTo(dir: string): (path: string) => string {
  const prefix = join(dir, sep);
  return (path) => (path.startsWith(prefix) ? path.slice(prefix.length) : relative(dir, path));
}
