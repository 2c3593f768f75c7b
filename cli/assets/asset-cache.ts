import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { CACHE_DIR, PROJECT_ROOT } from '../paths.ts';
import { fileMemo } from '../files/file-memo.ts';
import { relativeTo } from '../files/folder-files.ts';
import { contentHash } from '../files/fingerprint.ts';

/** How many entries of a kind are kept, the new one included, and how young an older one must be to stay too. */
const KEPT_ENTRIES = 3;
const KEPT_RECENT_MS = 10 * 60_000;

/** Every file at or under `path` (absolute), through links to files and folders; none when it does not exist. */
export function filesUnder(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  return stat.isDirectory() ? filesIn(normalize(path)) : [path];
}

/** The files under the folder `dir`: the folder's entries say which are folders, so only a link is looked at: a build lists the whole content folder. */
function filesIn(dir: string): string[] {
  // Each path put together from its folder's (normalised already) and its name, not by `join`.
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = prefix + entry.name;
    if (entry.isDirectory()) return filesIn(path);
    return entry.isSymbolicLink() ? filesUnder(path) : [path];
  });
}

/** The hash of a file's bytes, read again only when it changed by the fingerprint rule (one build asks for most modules several times). */
const fileHash = fileMemo(contentHash, { name: 'hashes', isValue: (value): value is string => typeof value === 'string' });

/**
 * A hash of the contents of files and folders (absolute, or relative to the project root): the key under
 * which an output built from exactly these inputs is cached.
 */
export function inputsHash(paths: readonly string[]): string {
  const hash = createHash('sha256');
  const fromProject = relativeTo(PROJECT_ROOT);
  for (const file of paths.flatMap((p) => filesUnder(isAbsolute(p) ? p : join(PROJECT_ROOT, p))).sort()) {
    hash.update(fromProject(file)).update('\0').update(fileHash(file) ?? '').update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Returns the cached folder for `key`, producing it with `produce(dir)` when it is missing.
 * The folder appears atomically (written beside, then renamed), so an interrupted build never
 * leaves a half-written entry; the newest few entries of each kind are kept (and any made or used
 * in the last ten minutes), the others deleted.
 */
export async function cachedFolder(kind: string, key: string, produce: (dir: string) => Promise<void>): Promise<{ dir: string; hit: boolean }> {
  const dir = join(CACHE_DIR, `${kind}-${key}`);
  if (existsSync(join(dir, '.complete'))) {
    try {
      // Marked as used now, so that another build does not delete it while this one copies from it.
      utimesSync(dir, new Date(), new Date());
      return { dir, hit: true };
    } catch {
      // Deleted by another build a moment ago: made again below.
    }
  }
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await produce(staging);
  writeFileSync(join(staging, '.complete'), '');
  // Another build may have finished the same entry meanwhile: keep theirs, never replace a folder in use.
  if (existsSync(join(dir, '.complete'))) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, dir);
  // The older entries go, but not the few newest nor one made or used in the last minutes: another build
  // running at the same time (other languages, other content) may be copying from it now.
  const others = readdirSync(CACHE_DIR)
    .filter((n) => n.startsWith(`${kind}-`) && !n.endsWith('.tmp') && n !== `${kind}-${key}`)
    .map((name) => ({ name, mtimeMs: statSync(join(CACHE_DIR, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { name, mtimeMs } of others.slice(KEPT_ENTRIES - 1)) {
    if (Date.now() - mtimeMs > KEPT_RECENT_MS) rmSync(join(CACHE_DIR, name), { recursive: true, force: true });
  }
  return { dir, hit: false };
}

/** The cache folder of one kind of file kept by its own key (`cards`: one PNG per page card), made when missing. */
export function cacheFolderOf(kind: string): string {
  const dir = join(CACHE_DIR, kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Copies a cached folder's files (not its marker) into the output folder. */
export function copyCached(dir: string, outDir: string): void {
  cpSync(dir, outDir, { recursive: true, filter: (src) => !src.endsWith('.complete') && !src.endsWith('manifest.json') });
}
