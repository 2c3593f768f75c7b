/**
 * The files under a folder, as the stages and the build cache name them (relative to the folder,
 * with forward slashes): listing them, and writing one with the folders it needs.
 *
 *   writeOutFile('/site/dist', 'de/about.html', html) // 18_204 (bytes)
 *   listFiles('/site/dist')                           // Set { 'index.html', 'de/about.html', … }
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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
  const files = new Set<string>();
  // Folder by folder, each path put together from its folder's and its own name: Node's recursive
  // listing (a `Dirent` naming its folder for each entry, and a `join` each before that) took
  // about twice as long for the scaling site's 5,300 output files.
  const list = (folder: string, prefix: string) => {
    const entries = readdirSync(folder, { withFileTypes: true });
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.isFile()) files.add(prefix + entry.name);
      else if (entry.isDirectory()) list(join(folder, entry.name), `${prefix}${entry.name}/`);
    }
  };
  list(resolve(dir), '');
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
